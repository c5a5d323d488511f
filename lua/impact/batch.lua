--- impact.batch: parameter sweeps (Yade's yade-batch). Runs one script over a list of
--- parameter sets in parallel worker processes, collects each job's result and log, and
--- reports a failing job without stopping the others.
---
---   local jobs = impact.batch { script = "deposit.lua", params = { {E = 1e7}, {E = 1e8} },
---                               jobs = 2, dir = "sweep" }
---   for _, j in ipairs(jobs) do print(j.params.E, j.ok, j.result and j.result.mean_z) end
---
--- In the script:
---   local p = impact.batch.params()        -- this job's parameter table ({} when run alone)
---   impact.batch.result { mean_z = 0.064 }  -- what the driver receives as job.result
---
--- Parameters and results are tables of numbers, strings, booleans and nested tables. Each job
--- runs `lua5.4 script` with the same module paths as the driver; its stdout and stderr go to
--- dir/job_<i>.log. Returns one record per parameter set, in order:
--- { params, ok, exit_code, result, log (the file), error (the log's last lines on failure) }.
-- @module impact.batch
local options = require("impact.options")
local batch = {}

local function serialize(v, out, depth)
  local t = type(v)
  if t == "number" then
    if math.type(v) == "integer" then
      out[#out + 1] = string.format("%d", v)
    elseif v ~= v then
      out[#out + 1] = "0/0"
    elseif v == math.huge or v == -math.huge then
      out[#out + 1] = v > 0 and "math.huge" or "-math.huge"
    else
      out[#out + 1] = string.format("%.17g", v)
    end
  elseif t == "string" then
    out[#out + 1] = string.format("%q", v)
  elseif t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif t == "table" then
    if depth > 32 then error("impact.batch: tables nested too deep (a cycle?)", 0) end
    out[#out + 1] = "{"
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
      return type(a) < type(b)
    end)
    for _, k in ipairs(keys) do
      if type(k) ~= "string" and type(k) ~= "number" then
        error("impact.batch: table keys must be strings or numbers, got " .. type(k), 0)
      end
      out[#out + 1] = "["
      serialize(k, out, depth + 1)
      out[#out + 1] = "]="
      serialize(v[k], out, depth + 1)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  else
    error("impact.batch: cannot pass a " .. t .. " between processes", 0)
  end
end

local function encode(v)
  local out = {}
  serialize(v, out, 0)
  return table.concat(out)
end

-- read as data, never run (a damaged or hostile file cannot hang or run code in the driver)
local function decode(s, what)
  return require("impact.dem_file").parse(s, (what:gsub("^=", "")),
    { bare = true, decimals = true, bare_nan = true, float_keys = true, max_depth = 40,
      what = "impact.batch: %s: line %%d, column %%d: %%s" })
end

local function shell_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

--- impact.batch.params(): this job's parameters (an empty table outside a batch).
function batch.params()
  local s = os.getenv("IMPACT_BATCH_PARAMS")
  if not s then return {} end
  return decode(s, "=IMPACT_BATCH_PARAMS")
end

--- impact.batch.result(t): hands t to the driver (outside a batch: does nothing).
function batch.result(t)
  local path = os.getenv("IMPACT_BATCH_RESULT")
  if not path then return end
  local f = assert(io.open(path, "wb"))
  f:write(encode(t))
  f:close()
end

local run_keys = { script = true, params = true, jobs = true, dir = true, lua = true,
                   poll = true }

local function run(opts)
  local what = "impact.batch"
  options.check_keys(what, opts, run_keys, { level = 3 })
  if type(opts.script) ~= "string" or not io.open(opts.script, "r") then
    error(string.format("%s: option 'script' must name a readable file, got %s", what,
      tostring(opts.script)), 3)
  end
  if type(opts.params) ~= "table" or #opts.params == 0 then
    error(what .. ": option 'params' must be a non-empty list of parameter tables", 3)
  end
  local jobs = options.integer(what, opts, "jobs", 1, { min = 1, level = 3 })
  local poll = options.number(what, opts, "poll", 0.05,
    { min = 0, max = 60, text = "a number of seconds in [0, 60]", level = 3 })
  local dir = options.string(what, opts, "dir", nil, { level = 3 })
  if dir == nil then
    dir = os.tmpname()  -- a unique name; the file itself is not needed
    os.remove(dir)
    dir = dir .. "_batch"
  end
  os.execute("mkdir -p " .. shell_quote(dir))
  local lua = opts.lua or "lua5.4"
  local env = string.format("LUA_PATH_5_4=%s LUA_CPATH_5_4=%s", shell_quote(package.path),
    shell_quote(package.cpath))
  local records, running, next_job, finished = {}, 0, 1, 0
  local n = #opts.params
  local function start(i)
    local p = opts.params[i]
    local base = string.format("%s/job_%d", dir, i)
    os.remove(base .. ".rc")
    os.remove(base .. ".result")
    records[i] = { params = p, log = base .. ".log", running = true }
    local cmd = string.format("(%s IMPACT_BATCH_PARAMS=%s IMPACT_BATCH_RESULT=%s %s %s > %s 2>&1; "
      .. "echo $? > %s.tmp; mv %s.tmp %s) &", env, shell_quote(encode(p)),
      shell_quote(base .. ".result"), lua, shell_quote(opts.script), shell_quote(base .. ".log"),
      shell_quote(base .. ".rc"), shell_quote(base .. ".rc"), shell_quote(base .. ".rc"))
    os.execute(cmd)
    running = running + 1
  end
  local function collect(i)
    local base = string.format("%s/job_%d", dir, i)
    local rc = read_file(base .. ".rc")
    if not rc then return false end
    local r = records[i]
    r.running = nil
    r.exit_code = tonumber(rc:match("%d+"))
    local res = read_file(base .. ".result")
    if res then
      local ok, v = pcall(decode, res, "=" .. base .. ".result")
      if ok then r.result = v else r.error = "unreadable result: " .. tostring(v) end
    end
    r.ok = r.exit_code == 0 and r.error == nil
    if not r.ok and not r.error then
      local log = read_file(r.log) or ""
      r.error = log:sub(-2000)
    end
    running = running - 1
    finished = finished + 1
    return true
  end
  while finished < n do
    while running < jobs and next_job <= n do
      start(next_job)
      next_job = next_job + 1
    end
    local progressed = false
    for i = 1, next_job - 1 do
      if records[i].running and collect(i) then progressed = true end
    end
    if not progressed then os.execute(string.format("sleep %.3f", poll)) end
  end
  return records
end

return setmetatable(batch, { __call = function(_, opts) return run(opts) end })
