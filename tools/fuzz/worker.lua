--- tools/fuzz/worker.lua: runs fuzz cases in this process (the driver starts it under ASan and
--- UBSan with a watchdog). Before each call it writes "case call" to the progress file (flushed),
--- so when the process dies the driver knows which call killed it. The findings it can see
--- itself go to the results file, one record a line:
---   silent <case> <call> <entry> <why the value must be refused>
---   nan <case> <call> <entry> <which body state is not finite>
---   message <case> <call> <entry> <what is wrong with the error message>
---   hang <case> <call> <entry> <seconds>
---   done <case> <calls>              status <call> ok|err (replays)
--- Usage: lua5.4 worker.lua range SEED FIRST LAST NCALLS PROGRESS RESULTS
---        lua5.4 worker.lua replay CASEFILE PROGRESS RESULTS   (CASEFILE returns {calls = {...}})
---        lua5.4 worker.lua minimise JOBSFILE PROGRESS RESULTS
--- FUZZ_HANG: the hang limit in seconds (default 15: about 5 s of a normal build);
--- FUZZ_FAKE=1 runs against tools/fuzz/fake.lua.
local dir = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = dir .. "/?.lua;" .. package.path
local gen = require("gen")

local HANG = tonumber(os.getenv("FUZZ_HANG") or "") or 15
local fake = (os.getenv("FUZZ_FAKE") or "") ~= "" and require("fake") or nil
local impact = fake and fake.impact or require("impact")
local F = assert(load(gen.HELPERS .. "\nreturn F", "=helpers"))()

local world_mt
if not fake then
  local w = impact.world2d {}
  world_mt = getmetatable(w)
  w:close()
end

local mode = arg[1]
local progress_path, results_path
if mode == "range" then progress_path, results_path = arg[6], arg[7]
else progress_path, results_path = arg[3], arg[4] end
local progress = assert(io.open(progress_path, "w"))
local results = assert(io.open(results_path, "a"))

local function escape(s)
  return (tostring(s):gsub("[\\\n\t]", { ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t" }))
end

local function write_record(...)
  local fields = { ... }
  for i = 1, #fields do fields[i] = escape(fields[i]) end
  results:write(table.concat(fields, "\t"), "\n")
  results:flush()
end

-- where run_case's records go: the results file, or a table while minimising in this process
local record = write_record

local function mark(case, call)
  progress:seek("set")
  progress:write(string.format("%12d %6d\n", case, call))
  progress:flush()
end

local function finite(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge end

local function all_finite(v)
  if type(v) == "number" then return finite(v) end
  if type(v) == "table" then
    for _, x in ipairs(v) do
      if not finite(x) then return false end
    end
  end
  return true
end

local function show(v)
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for i, x in ipairs(v) do parts[i] = tostring(x) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local state_keys = { [2] = { "position", "velocity", "angle", "spin" },
                     [3] = { "position", "velocity", "orientation", "angular_velocity" } }

--- the first body of a live world in env whose state is not finite, described; nil when none
local function bad_state(env)
  if fake then return nil end
  for name, w in pairs(env) do
    if type(w) == "userdata" and getmetatable(w) == world_mt then
      local ok, bodies = pcall(w.bodies, w)
      local ok_dim, dim = pcall(function() return w.dim end)
      if ok and ok_dim and state_keys[dim] then
        for _, b in ipairs(bodies) do
          for _, key in ipairs(state_keys[dim]) do
            local ok2, v = pcall(function() return b[key] end)
            if ok2 and not all_finite(v) then
              local ok3, id = pcall(function() return b.id end)
              return string.format("%s: body %s: %s = %s", tostring(name), ok3 and tostring(id) or "?", key,
                show(v))
            end
          end
        end
      end
    end
  end
  return nil
end

--- what is wrong with an error value (nil: nothing)
local function message_problem(err)
  if type(err) ~= "string" then return "the error is a " .. type(err) .. ", not a string" end
  if err == "" then return "an empty message" end
  if err:find("lua_pushfstring", 1, true) or err:find("invalid conversion", 1, true) then
    return "a format lua_pushfstring cannot print: " .. err
  end
  if err:find("-nan", 1, true) then return "prints -nan: " .. err end
  if err:find("(null)", 1, true) then return "prints (null): " .. err end
  return nil
end

-- a call hangs when it runs HANG s of CPU time or HANG s of wall time (a loaded machine); an
-- entry that hung once in this worker (or in an earlier one of the lane: FUZZ_KNOWN_HANGS)
-- gets 0.5 s, so a hang that recurs costs little
local deadline, wall_deadline, hung = math.huge, math.huge, false
local known_hangs = {}
for entry in (os.getenv("FUZZ_KNOWN_HANGS") or ""):gmatch("[^\n]+") do known_hangs[entry] = true end
local profile = (os.getenv("FUZZ_PROFILE") or "") ~= "" and {} or nil  -- seconds per entry, to stderr
local function hook()
  if os.clock() > deadline or os.time() > wall_deadline then
    hung = true
    error("fuzz: call exceeded the hang limit", 0)
  end
end

-- The material registry is global to the process: a case's materials and contact pairs would
-- change the next cases (a hang found only after another case defined a rubber pair "did not
-- reproduce alone"). Each case starts from the registry as loaded (the built-in palette).
local registry
if not fake then
  for i = 1, math.huge do
    local name, value = debug.getupvalue(impact.material.define, i)
    if name == nil then break end
    if name == "registry" then registry = value break end
  end
  assert(registry, "fuzz worker: impact.material's registry not found")
end
local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = type(v) == "table" and copy(v) or v end
  return out
end
local builtin = registry and { materials = copy(registry.materials), pairs = copy(registry.pairs) }
local function reset_registry()
  if not registry then return end
  registry.materials, registry.pairs = copy(builtin.materials), copy(builtin.pairs)
  registry.version = registry.version + 1
end

--- runs the calls of one case in a fresh environment; status[i] = true when call i raised
local function run_case(case, calls, statuses)
  if fake then fake.reset() end
  reset_registry()
  local env = setmetatable({ impact = impact, F = F }, { __index = _G })
  local errored = {}
  for i, call in ipairs(calls) do
    mark(case, i)
    local chunk, cerr = load(call.src, "=call " .. i, "t", env)
    if not chunk then
      record("message", case, i, call.entry, "the generator made invalid Lua: " .. tostring(cerr))
      errored[i] = true
      if statuses then record("status", i, "err") end
    else
      hung = false
      local t0 = os.clock()
      local limit = known_hangs[call.entry] and math.min(HANG, 0.5) or HANG
      deadline = t0 + limit
      wall_deadline = os.time() + math.ceil(limit)
      debug.sethook(hook, "", 1000)
      local ok, err = pcall(chunk)
      debug.sethook()
      deadline, wall_deadline = math.huge, math.huge
      local took = os.clock() - t0
      if profile then profile[call.entry] = (profile[call.entry] or 0) + took end
      errored[i] = not ok
      if statuses then record("status", i, ok and "ok" or "err") end
      if hung or took > limit then
        known_hangs[call.entry] = true
        record("hang", case, i, call.entry, string.format(
          "the call ran %.1f s of CPU time (hang limit %g s)%s", took, limit,
          hung and " and was interrupted" or ""))
      elseif ok and call.bad and not fake then  -- (the fake target refuses nothing)
        record("silent", case, i, call.entry, call.bad)
      elseif not ok then
        local problem = message_problem(err)
        if problem then record("message", case, i, call.entry, problem) end
      end
      if ok and call.check and not hung then
        local what = bad_state(env)
        if what then record("nan", case, i, call.entry, what) end
      end
    end
  end
  -- teardown: collecting the case's objects runs their __gc (world close, evil tables)
  mark(case, #calls + 1)
  env = nil  -- luacheck: ignore 311
  collectgarbage()
  collectgarbage()
  return errored
end

if mode == "range" then
  local seed, first, last, ncalls = tonumber(arg[2]), tonumber(arg[3]), tonumber(arg[4]), tonumber(arg[5])
  for case = first, last do
    local calls, files = gen.case(seed, case, ncalls)
    for _, p in ipairs(files or {}) do os.remove(p) end
    run_case(case, calls)
    for _, p in ipairs(files or {}) do os.remove(p) end
    record("done", case, #calls)
  end
elseif mode == "replay" then
  local spec = dofile(arg[2])
  for _, p in ipairs(spec.files or {}) do os.remove(p) end
  run_case(spec.case or 0, spec.calls, true)
  for _, p in ipairs(spec.files or {}) do os.remove(p) end
elseif mode == "minimise" then
  -- worker.lua minimise JOBSFILE PROGRESS RESULTS: delta debugging in this process for findings
  -- that do not kill it (each try in a fresh environment). JOBSFILE returns a list of {case,
  -- calls, files, kind, sig, k}; for job n the results are "minimal n i,j,..." (the calls kept
  -- before call k), "src n i source" (a call whose option fields were reduced) and "status n i
  -- ok|err" (the calls' error status in the reproducer).
  local reduce = require("reduce")
  for n, job in ipairs(dofile(arg[2])) do
    local kind, sig, k, calls = job.kind, job.sig, job.k, job.calls
    local statuses
    local function test_list(list)
      for _, p in ipairs(job.files or {}) do os.remove(p) end
      local found = false
      record = function(...)
        local rec = { ... }
        if rec[1] == "status" then statuses[tonumber(rec[2])] = rec[3] end
        for i = 2, 3 do rec[i] = tostring(rec[i]) end
        if rec[1] == kind and tonumber(rec[3]) == #list and reduce.record_signature(rec) == sig then
          found = true
        end
      end
      statuses = {}
      run_case(job.case or 0, list, true)
      record = write_record
      return found
    end
    local function test(idx)
      local list = {}
      for _, i in ipairs(idx) do list[#list + 1] = calls[i] end
      list[#list + 1] = calls[k]
      return test_list(list)
    end
    local best = reduce.minimise(calls, k, test)
    if best then
      write_record("minimal", n, table.concat(best, ","))
      local list = {}
      for _, i in ipairs(best) do list[#list + 1] = calls[i] end
      list[#list + 1] = calls[k]
      local shrunk = reduce.shrink_fields(list, test_list, kind == "silent" and #list or nil)
      for i, call in ipairs(shrunk) do
        if call.src ~= list[i].src then write_record("src", n, i, call.src) end
      end
      if test_list(shrunk) then
        for i = 1, #shrunk do write_record("status", n, i, statuses[i] or "ok") end
      end
    end
    for _, p in ipairs(job.files or {}) do os.remove(p) end
  end
else
  io.stderr:write("usage: worker.lua range SEED FIRST LAST NCALLS PROGRESS RESULTS | "
    .. "replay CASEFILE PROGRESS "
    .. "RESULTS\n")
  os.exit(2)
end
progress:close()
results:close()
if profile then
  local names = {}
  for k in pairs(profile) do names[#names + 1] = k end
  table.sort(names, function(a, b) return profile[a] > profile[b] end)
  for i = 1, math.min(#names, 15) do io.stderr:write(string.format("%8.3f s  %s\n", profile[names[i]],
      names[i])) end
end
