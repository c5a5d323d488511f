--- impact.recorder: named series sampled from a world while it runs, kept in memory and
--- written to CSV.
---
---   local rec = impact.recorder { w, every = 0.01,
---     columns = { t = "time", y = function(w) return ball.position[2] end } }
---   w:run { until_time = 2 }
---   rec:write_csv("bounce.csv")      rec:series("y")      rec:rows()
---
--- A column's source is a function(world) returning a number, one of the strings "time",
--- "steps", "energy.kinetic", "energy.rotational", "energy.potential", "energy.total", or
--- {body, property, index} such as {ball, "position", 2}. `columns` is either a map (columns
--- in name order) or an array of {name, source} pairs (columns in that order). A row is taken
--- at the start and then each time the simulated time passes a multiple of `every` (0: every
--- step).
local Recorder = {}
Recorder.__index = Recorder

local energy_fields = { kinetic = true, rotational = true, potential = true, total = true }

local function source_reader(name, src)
  if type(src) == "function" then return src end
  if src == "time" then return function(w) return w.time end end
  if src == "steps" then return function(w) return w.steps end end
  if type(src) == "string" then
    local field = src:match("^energy%.(%a+)$")
    if field and energy_fields[field] then
      return function(w) return w:energy()[field] end
    end
  end
  if type(src) == "table" and src[1] ~= nil and type(src[2]) == "string" then
    local body, prop, index = src[1], src[2], src[3]
    return function()
      local v = body[prop]
      if index then v = v[index] end
      return v
    end
  end
  error(string.format("impact.recorder: column %q: source must be a function(world), \"time\", "
    .. "\"steps\", \"energy.<kinetic|rotational|potential|total>\" or {body, property, index}, got %s",
    name, tostring(src)), 4)
end

local accepted = { [1] = true, every = true, columns = true }

local function new(opts)
  if type(opts) ~= "table" then
    error("impact.recorder: options must be a table, got " .. type(opts), 2)
  end
  for k in pairs(opts) do
    if not accepted[k] then
      error(string.format("impact.recorder: unknown option %q (accepted: [1] = world, every, columns)",
        tostring(k)), 2)
    end
  end
  local w = opts[1]
  if w == nil or type(w) ~= "userdata" then
    error("impact.recorder: the first element must be the world to record", 2)
  end
  local every = opts.every or 0
  -- written so that NaN fails the check
  -- luacheck: push ignore 581
  if type(every) ~= "number" or not (every >= 0) or every == math.huge then
    -- luacheck: pop
    error("impact.recorder: option 'every' must be a finite number >= 0, got " .. tostring(every), 2)
  end
  if type(opts.columns) ~= "table" then
    error("impact.recorder: option 'columns' must be a table of name = source", 2)
  end
  local names, readers = {}, {}
  if #opts.columns > 0 then
    for i, pair in ipairs(opts.columns) do
      if type(pair) ~= "table" or type(pair[1]) ~= "string" then
        error(string.format("impact.recorder: columns[%d] must be {name, source}", i), 2)
      end
      names[#names + 1] = pair[1]
    end
    for i, pair in ipairs(opts.columns) do readers[i] = source_reader(pair[1], pair[2]) end
  else
    for k in pairs(opts.columns) do
      if type(k) ~= "string" then
        error("impact.recorder: column names must be strings, got " .. tostring(k), 2)
      end
      names[#names + 1] = k
    end
    table.sort(names)
    for i, name in ipairs(names) do readers[i] = source_reader(name, opts.columns[name]) end
  end
  local self = setmetatable({ world = w, every = every, names = names, readers = readers,
    data = {}, t0 = w.time }, Recorder)
  for i = 1, #names do self.data[i] = {} end
  self:sample()
  self.next_sample = self.t0 + every
  self.handler = w:on("step", function(ww)
    if self.every == 0 or ww.time >= self.next_sample - 1e-9 * ww.dt then
      self:sample()
      if self.every > 0 then
        self.next_sample = self.t0 + (math.floor((ww.time - self.t0) / self.every + 1e-9) + 1) * self.every
      end
    end
  end)
  return self
end

--- Takes one row now.
function Recorder:sample()
  for i, read in ipairs(self.readers) do
    local v = read(self.world)
    if type(v) ~= "number" then
      error(string.format("impact.recorder: column %q gave %s, not a number", self.names[i],
        tostring(v)), 2)
    end
    local col = self.data[i]
    col[#col + 1] = v
  end
end

--- Stops recording (the rows taken so far stay).
function Recorder:stop()
  if self.handler then
    self.world:off("step", self.handler)
    self.handler = nil
  end
end

--- The values of one column, as an array.
function Recorder:series(name)
  for i, n in ipairs(self.names) do
    if n == name then return self.data[i] end
  end
  error(string.format("impact.recorder: no column %q (columns: %s)", tostring(name),
    table.concat(self.names, ", ")), 2)
end

--- The column names, in order.
function Recorder:columns() return { table.unpack(self.names) } end

--- The number of rows taken.
function Recorder:count() return #self.data[1] end

--- The rows, each an array in column order.
function Recorder:rows()
  local rows = {}
  for r = 1, self:count() do
    local row = {}
    for c = 1, #self.names do row[c] = self.data[c][r] end
    rows[r] = row
  end
  return rows
end

--- Writes the rows to a CSV file with a header line; numbers in full precision (%.17g).
function Recorder:write_csv(path)
  local f, err = io.open(path, "w")
  if not f then error("impact.recorder: cannot write " .. tostring(path) .. ": " .. err, 2) end
  f:write(table.concat(self.names, ","), "\n")
  local line = {}
  for r = 1, self:count() do
    for c = 1, #self.names do line[c] = string.format("%.17g", self.data[c][r]) end
    f:write(table.concat(line, ","), "\n")
  end
  f:close()
  return path
end

return setmetatable({ new = new }, { __call = function(_, opts) return new(opts) end })
