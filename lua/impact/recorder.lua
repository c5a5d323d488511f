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
--- {body, property, index} such as {ball, "position", 2} (a method, such as {ball, "kinetic_energy"},
--- is called). `columns` is either a map (columns
--- in name order) or an array of {name, source} pairs (columns in that order). A row is taken
--- at the start and then each time the simulated time passes a multiple of `every` (0: every
--- step), or with every_steps = N each N steps.
---
---   rec:plot { x = "t", y = {"y"}, file = "y.svg" }   line plot of columns (impact.plot options)
---   impact.recorder.read_csv("ball.csv")            a CSV file back as a recorder (not recording)
---
--- Contact counts: the world reports no contacts yet (strategy "none"); a function column can
--- record them once it does.
-- @module impact.recorder
local periodic = require("impact.periodic")
local options = require("impact.options")
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
      if type(v) == "function" then v = v(body) end
      if index then v = v[index] end
      return v
    end
  end
  error(string.format("impact.recorder: column %q: source must be a function(world), \"time\", "
    .. "\"steps\", \"energy.<kinetic|rotational|potential|total>\" or {body, property, index}, got %s",
    name, tostring(src)), 4)
end

-- the kind of quantity a column holds, for the default plot's axes: "time", "steps" (a
-- counter, left out of the default plot), "energy (J)", a body property with its unit, or
-- "other" (functions: one axis for all of them)
local property_units = { position = "position (m)", velocity = "velocity (m/s)", angle = "angle (rad)",
  spin = "spin (rad/s)", angular_velocity = "angular velocity (rad/s)", orientation = "orientation",
  kinetic_energy = "energy (J)", translational_energy = "energy (J)", rotational_energy = "energy (J)",
  momentum = "momentum (kg m/s)", angular_momentum = "angular momentum (kg m^2/s)" }
local function kind_of(src)
  if src == "time" or src == "steps" then return src end
  if type(src) == "string" and src:match("^energy%.") then return "energy (J)" end
  if type(src) == "table" and type(src[2]) == "string" then return property_units[src[2]] or src[2] end
  return "other"
end

local accepted = { [1] = true, every = true, every_steps = true, columns = true }

local function new(opts)
  options.check_keys("impact.recorder", opts, accepted,
    { accepted_text = "[1] = world, every, every_steps, columns" })
  local w = opts[1]
  if w == nil or type(w) ~= "userdata" then
    error("impact.recorder: the first element must be the world to record", 2)
  end
  local every = periodic.check_every(opts.every or 0, "impact.recorder", 2)
  local every_steps = options.integer("impact.recorder", opts, "every_steps", nil, { min = 1 })
  if every_steps ~= nil and opts.every ~= nil then
    error("impact.recorder: give either 'every' (seconds) or 'every_steps', not both", 2)
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
  local self = setmetatable({ world = w, every = every, every_steps = every_steps, names = names,
    readers = readers, sources = {}, data = {}, t0 = w.time, steps0 = w.steps }, Recorder)
  self.kinds = {}
  for i, name in ipairs(names) do
    local src = #opts.columns > 0 and opts.columns[i][2] or opts.columns[name]
    self.sources[i] = type(src) == "string" and src or nil
    self.kinds[i] = kind_of(src)
  end
  for i = 1, #names do self.data[i] = {} end
  self:sample()
  self.handler = periodic.on_schedule(w, every, function() self:sample() end, every_steps)
  return self
end

--- Takes one row now.
function Recorder:sample()
  for i, read in ipairs(self.readers) do
    local v = read(self.world)
    if type(v) ~= "number" then
      error(string.format("impact.recorder: column %q gave %s, not a number", self.names[i],
        tostring(v)), options.user_level())
    end
    local col = self.data[i]
    col[#col + 1] = v
  end
end

--- Stops recording (the rows taken so far stay).
function Recorder:stop()
  periodic.stop(self)
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
function Recorder:count() return #(self.data[1] or {}) end

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

--- rec:plot{x = name, y = name | {names}, file =, ...}: a line plot of columns against column x
--- (default: the "time" column, else the first); y defaults to every other column. Other options
--- are impact.plot's (title, x_label, y_label, width, height, x_range, y_range, legend, ...);
--- x_label defaults to x's name. Returns the plot's display list.
function Recorder:plot(opts)
  opts = opts or {}
  if type(opts) ~= "table" then error("Recorder:plot: options must be a table, got " .. type(opts), 2) end
  local plot = require("impact.plot")
  local x = opts.x
  if x == nil then
    for i, src in pairs(self.sources or {}) do
      if src == "time" then x = self.names[i] end
    end
    x = x or self.names[1]
  end
  local ok, xs = pcall(self.series, self, x)
  if not ok then error("Recorder:plot: option 'x': no column " .. tostring(x), 2) end
  local ys = opts.y
  if type(ys) == "string" then ys = { ys } end
  local groups  -- the default: one axis per kind of quantity, the step counter left out
  if ys == nil then
    groups = {}
    local by_kind = {}
    for i, n in ipairs(self.names) do
      local kind = self.kinds and self.kinds[i] or "other"
      if n ~= x and kind ~= "steps" and kind ~= "time" then
        if not by_kind[kind] then
          by_kind[kind] = { kind = kind, names = {} }
          groups[#groups + 1] = by_kind[kind]
        end
        table.insert(by_kind[kind].names, n)
      end
    end
    if #groups == 0 then
      error("Recorder:plot: nothing to plot besides the x column " .. tostring(x), 2)
    end
  elseif type(ys) ~= "table" or #ys == 0 then
    error("Recorder:plot: option 'y' must be a column name or a non-empty array of them", 2)
  else
    groups = { { names = ys } }
  end
  local panels = {}
  for g, group in ipairs(groups) do
    local series = {}
    for i, name in ipairs(group.names) do
      local ok_y, values = pcall(self.series, self, name)
      if not ok_y then
        error(string.format("Recorder:plot: option 'y': no column %s (columns: %s)", tostring(name),
          table.concat(self.names, ", ")), 2)
      end
      series[i] = { x = xs, y = values, label = name }
    end
    local popts = { series = series, x_label = x, y_label = #groups > 1 and group.kind or nil }
    for k, v in pairs(opts) do
      if k ~= "x" and k ~= "y" and k ~= "file" and (g == 1 or k ~= "title") then popts[k] = v end
    end
    panels[g] = popts
  end
  if #panels == 1 then
    panels[1].file = opts.file
    return plot(panels[1])
  end
  return plot.stack { panels = panels, file = opts.file, width = opts.width, background = opts.background }
end

--- A CSV file (a header line of names, then rows of numbers) as a recorder that is not
--- recording: series, rows, count, columns, plot and write_csv work on it.
-- the spellings C's printf gives to non-finite numbers
local special = { nan = 0 / 0, ["-nan"] = 0 / 0, inf = math.huge, ["-inf"] = -math.huge }

local function read_csv(path)
  local f, err = io.open(path, "r")
  if not f then error("impact.recorder.read_csv: cannot read " .. tostring(err), 2) end
  local header = f:read("l")
  if not header or header == "" then
    f:close()
    error("impact.recorder.read_csv: " .. path .. " has no header line", 2)
  end
  local names = {}
  for name in (header .. ","):gmatch("([^,]*),") do names[#names + 1] = name:match("^%s*(.-)%s*$") end
  local data = {}
  for i = 1, #names do data[i] = {} end
  local line_no = 1
  for line in f:lines() do
    line_no = line_no + 1
    if line:match("%S") then
      local c = 0
      for field in (line .. ","):gmatch("([^,]*),") do
        c = c + 1
        local v = tonumber(field) or special[field:match("^%s*(.-)%s*$")]
        if c > #names or v == nil then
          f:close()
          error(string.format("impact.recorder.read_csv: %s:%d: field %d is %s (expected %d numbers)",
            path, line_no, c, c > #names and "one too many" or string.format("%q, not a number", field),
            #names), 2)
        end
        data[c][#data[c] + 1] = v
      end
      if c ~= #names then
        f:close()
        error(string.format("impact.recorder.read_csv: %s:%d: %d fields, expected %d", path, line_no, c,
          #names), 2)
      end
    end
  end
  f:close()
  local sources = {}
  for i, n in ipairs(names) do
    if n == "t" or n == "time" then sources[i] = "time" end
  end
  return setmetatable({ names = names, data = data, sources = sources }, Recorder)
end

return setmetatable({ new = new, read_csv = read_csv }, { __call = function(_, opts) return new(opts) end })
