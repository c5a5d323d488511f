--- impact.batch_jobs: one sweep job's files and command, shared by impact.batch's launchers
--- (local, mpi, slurm). A job i of a sweep in dir leaves dir/job_<i>.params (its parameters as
--- written when it started), .log (stdout and stderr), .result (what impact.batch.result wrote)
--- and .rc (its exit code, written last). A job is done when its .rc says 0 and its .params
--- match the sweep's: a rerun of the sweep skips it (resume).
-- @module impact.batch_jobs
local jobs = {}

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

--- jobs.encode(v): v as text (numbers exact, keys sorted: equal tables give equal text).
function jobs.encode(v)
  local out = {}
  serialize(v, out, 0)
  return table.concat(out)
end

--- jobs.decode(s, what): the value in s, read as data, never run (a damaged or hostile file
--- cannot hang or run code in the driver).
function jobs.decode(s, what)
  return require("impact.dem_file").parse(s, (what:gsub("^=", "")),
    { bare = true, decimals = true, bare_nan = true, float_keys = true, max_depth = 40,
      what = "impact.batch: %s: line %%d, column %%d: %%s" })
end

function jobs.shell_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
local q = jobs.shell_quote

function jobs.read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

function jobs.write_file(path, text)
  local f, err = io.open(path, "wb")
  if not f then error("impact.batch: cannot write " .. tostring(err), 0) end
  f:write(text)
  f:close()
end

function jobs.base(sweep, i) return string.format("%s/job_%d", sweep.dir, i) end

--- jobs.done(sweep, i): whether job i already ran to success with these parameters.
function jobs.done(sweep, i)
  local base = jobs.base(sweep, i)
  local rc = jobs.read_file(base .. ".rc")
  if not rc or tonumber(rc:match("%-?%d+")) ~= 0 then return false end
  return jobs.read_file(base .. ".params") == jobs.encode(sweep.params[i])
end

--- jobs.prepare(sweep, i): clears job i's old exit code and result, records its parameters.
function jobs.prepare(sweep, i)
  local base = jobs.base(sweep, i)
  os.remove(base .. ".rc")
  os.remove(base .. ".result")
  jobs.write_file(base .. ".params", jobs.encode(sweep.params[i]))
end

--- jobs.command(sweep, i): the shell command that runs job i to its end and writes its .rc
--- (atomically, last).
function jobs.command(sweep, i)
  local base = jobs.base(sweep, i)
  local env = string.format("LUA_PATH_5_4=%s LUA_CPATH_5_4=%s", q(sweep.path), q(sweep.cpath))
  return string.format("%s IMPACT_BATCH_PARAMS=%s IMPACT_BATCH_RESULT=%s %s %s > %s 2>&1; "
    .. "echo $? > %s; mv %s %s", env, q(jobs.encode(sweep.params[i])), q(base .. ".result"),
    sweep.lua, q(sweep.script), q(base .. ".log"), q(base .. ".rc.tmp"), q(base .. ".rc.tmp"),
    q(base .. ".rc"))
end

--- jobs.record(sweep, i): job i's record from its files, or nil while it has no exit code:
--- { params, ok, exit_code, result, log, error }.
function jobs.record(sweep, i)
  local base = jobs.base(sweep, i)
  local rc = jobs.read_file(base .. ".rc")
  if not rc then return nil end
  local r = { params = sweep.params[i], log = base .. ".log", exit_code = tonumber(rc:match("%-?%d+")) }
  local res = jobs.read_file(base .. ".result")
  if res then
    local ok, v = pcall(jobs.decode, res, "=" .. base .. ".result")
    if ok then r.result = v else r.error = "unreadable result: " .. tostring(v) end
  end
  r.ok = r.exit_code == 0 and r.error == nil
  if not r.ok and not r.error then
    r.error = (jobs.read_file(r.log) or ""):sub(-2000)
    if r.error == "" then r.error = "exit code " .. tostring(r.exit_code) end
  end
  return r
end

--- jobs.records(sweep): every job's record in order; a job that has not ended yet is
--- { params, log, pending = true }.
function jobs.records(sweep)
  local out = {}
  for i = 1, #sweep.params do
    out[i] = jobs.record(sweep, i) or { params = sweep.params[i], log = jobs.base(sweep, i) .. ".log",
      pending = true }
  end
  return out
end

--- jobs.cwd(): the current directory (absolute).
function jobs.cwd()
  local p = io.popen("pwd")
  local s = p and p:read("l")
  if p then p:close() end
  return s or "."
end

function jobs.absolute(path)
  if path:sub(1, 1) == "/" then return path end
  return jobs.cwd() .. "/" .. path
end

return jobs
