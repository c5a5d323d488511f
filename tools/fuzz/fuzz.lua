--- tools/fuzz/fuzz.lua: `make fuzz`. A seeded fuzzer of impact's whole Lua API.
---
---   lua5.4 tools/fuzz/fuzz.lua            the driver (environment below)
---   lua5.4 tools/fuzz/fuzz.lua lane A B OUT   (internal) runs cases A..B in worker processes
---
--- The driver splits the cases (FUZZ_CALLS calls, FUZZ_CASE_CALLS per case) between FUZZ_JOBS
--- lanes; a lane runs tools/fuzz/worker.lua under the sanitizer preload (FUZZ_PRELOAD) and
--- tools/fuzz/watchdog.sh, and restarts it after the case that killed it. Each distinct finding
--- (deduplicated by signature: the sanitizer report's top frames, or the entry point and kind)
--- is minimised by delta debugging over its case's calls, each try in a fresh worker, and
--- printed as a runnable Lua reproducer (also written to FUZZ_OUT/finding_N.lua).
--- The last lines are "N silent acceptances" and "N calls, N crashes, N hangs"; the exit status
--- is 1 when anything but bad messages was found.
---
--- Environment: FUZZ_SEED (1), FUZZ_CALLS (100000), FUZZ_CASE_CALLS (40), FUZZ_JOBS (2),
--- FUZZ_HANG (15 s of CPU time per call under ASan+UBSan, which run impact 3 to 4 times slower:
--- about 5 s of a normal build; measured in the worker; a worker that makes no progress
--- for 2 FUZZ_HANG + 1 s of wall time, a hang in C, is killed by the watchdog), FUZZ_BUILD
--- (build-san), FUZZ_PRELOAD (LD_PRELOAD of the workers),
--- FUZZ_OUT (FUZZ_BUILD/fuzz), FUZZ_MIN_TIME (30 s: the time for minimising), FUZZ_FAKE
--- (the fuzzer's own spec: tools/fuzz/fake.lua stands in for impact).
local dir = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tools/fuzz"
if not package.path:find(dir .. "/?.lua", 1, true) then package.path = dir .. "/?.lua;" .. package.path end
local gen = require("gen")
local reduce = require("reduce")

local M = {}

local function getenv(name, default)
  local v = os.getenv(name)
  if v == nil or v == "" then return default end
  return v
end

--- The configuration from the environment (overrides: a table of the same fields).
function M.config(over)
  local cfg = {
    seed = math.tointeger(tonumber(getenv("FUZZ_SEED", "1"))) or 1,
    calls = math.tointeger(tonumber(getenv("FUZZ_CALLS", "100000"))) or 100000,
    case_calls = math.tointeger(tonumber(getenv("FUZZ_CASE_CALLS", "40"))) or 40,
    jobs = math.tointeger(tonumber(getenv("FUZZ_JOBS", "2"))) or 2,
    hang = tonumber(getenv("FUZZ_HANG", "15")) or 15,
    build = getenv("FUZZ_BUILD", "build-san"),
    preload = getenv("FUZZ_PRELOAD", ""),
    min_time = tonumber(getenv("FUZZ_MIN_TIME", "30")) or 30,
    fake = getenv("FUZZ_FAKE", nil),
    lua = getenv("LUA", "lua5.4"),
    dir = dir,
  }
  cfg.out = getenv("FUZZ_OUT", cfg.build .. "/fuzz")
  for k, v in pairs(over or {}) do cfg[k] = v end
  return cfg
end

local function sh(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return "" end
  local s = f:read("a")
  f:close()
  return s
end

local function unescape(s)
  return (s:gsub("\\(.)", { n = "\n", t = "\t", ["\\"] = "\\" }))
end

--- The records of a results file: { {kind, field, ...}, ... }
local function read_records(path)
  local out = {}
  for line in read_file(path):gmatch("[^\n]+") do
    local rec = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do rec[#rec + 1] = unescape(field) end
    out[#out + 1] = rec
  end
  return out
end

--- Runs one worker (args: the worker's arguments) with the watchdog; returns its exit status
--- (250: killed by the watchdog), the case and call in progress, and its stderr.
function M.run_worker(cfg, args, tag, hang, known_hangs)
  os.execute("mkdir -p " .. sh(cfg.out))
  local progress = cfg.out .. "/progress_" .. tag
  local errfile = cfg.out .. "/stderr_" .. tag
  os.remove(progress)
  local env = {
    "OMP_NUM_THREADS=1", "OMP_WAIT_POLICY=passive",
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:allocator_may_return_null=0:handle_abort=1",
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1",
    "LUA_PATH_5_4=" .. sh("./lua/?.lua;./lua/?/init.lua;;"),
    "LUA_CPATH_5_4=" .. sh("./" .. cfg.build .. "/?.so;;"),
    "FUZZ_HANG=" .. tostring(hang or cfg.hang),
  }
  if cfg.fake then env[#env + 1] = "FUZZ_FAKE=1" end
  if known_hangs and next(known_hangs) then
    local list = {}
    for e in pairs(known_hangs) do list[#list + 1] = e end
    table.sort(list)
    env[#env + 1] = "FUZZ_KNOWN_HANGS=" .. sh(table.concat(list, "\n"))
  end
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = sh(a == "PROGRESS" and progress or a) end
  -- the sanitizer runtime is preloaded in the worker only (not in bash and the watchdog's tools,
  -- nor inherited from a caller running under it)
  local cmd = string.format("env -u LD_PRELOAD %s bash %s %s %s env LD_PRELOAD=%s %s %s %s 2>%s",
    table.concat(env, " "), sh(cfg.dir .. "/watchdog.sh"), sh(math.ceil(2 * (hang or cfg.hang)) + 1),
    sh(progress),
    sh(cfg.preload), cfg.lua,
    sh(cfg.dir .. "/worker.lua"), table.concat(quoted, " "), sh(errfile))
  local _, how, code = os.execute(cmd .. " >/dev/null")
  local rc = how == "exit" and code or 128 + (code or 0)
  local case, call = read_file(progress):match("(%-?%d+)%s+(%d+)")
  return rc, tonumber(case), tonumber(call), read_file(errfile)
end

--- The signature and a one-line description of a dead worker, from its stderr.
function M.crash_signature(stderr, rc, entry)
  local kind = stderr:match("ERROR: AddressSanitizer: ([%w%-_]+)")
  if kind then
    local frames = {}
    for fn, file in stderr:gmatch("#%d+ 0x%x+ in ([%w_]+) ([^%s]+)") do
      if file:find("src/", 1, true) and #frames < 3 then frames[#frames + 1] = fn end
    end
    local summary = stderr:match("SUMMARY: AddressSanitizer: ([^\n]+)") or kind
    return "asan:" .. kind .. ":" .. table.concat(frames, "<"), "AddressSanitizer: " .. summary
  end
  local where, msg = stderr:match("([%w_/%.]+:%d+):%d+: runtime error: ([^\n]+)")
  if where then
    return "ubsan:" .. where .. ":" .. msg:gsub("%-?%d[%w%.%+%-]*", "N"):sub(1, 60),
        "UBSan: " .. where .. ": " .. msg
  end
  local last = ""
  for line in stderr:gmatch("[^\n]+") do last = line end
  if rc == 250 then return "hang:" .. entry, "no progress for the hang limit (killed by the watchdog)" end
  return string.format("exit%d:%s", rc, entry), string.format("exit status %d%s", rc,
    last ~= "" and (": " .. last) or "")
end

--- The entry of call `call` of case `case` ("teardown" after the last call).
local function entry_of(cfg, case, call)
  local calls = gen.case(cfg.seed, case, cfg.case_calls)
  if calls[call] then return calls[call].entry end
  return "teardown (garbage collection after the case)"
end

-- ---- lanes -------------------------------------------------------------------------------

local function append(out, ...)
  local fields = { ... }
  for i = 1, #fields do fields[i] = tostring(fields[i]):gsub("[\\\n\t]", { ["\\"] = "\\\\", ["\n"] = "\\n",
    ["\t"] = "\\t" }) end
  out:write(table.concat(fields, "\t"), "\n")
  out:flush()
end

--- Runs cases first..last, restarting the worker after each crash or hang; writes the records
--- (the workers' and "crash"/"hang" ones, "calls N") to the file out_path.
function M.lane(cfg, first, last, out_path, tag)
  local out = assert(io.open(out_path, "w"))
  local calls = 0
  local next_case = first
  local known_hangs = {}
  while next_case <= last do
    local results = cfg.out .. "/results_" .. tag
    os.remove(results)
    local rc, case, call, stderr = M.run_worker(cfg, { "range", cfg.seed, next_case, last, cfg.case_calls,
      "PROGRESS", results }, tag, nil, known_hangs)
    for _, rec in ipairs(read_records(results)) do
      if rec[1] == "done" then calls = calls + tonumber(rec[3])
      else append(out, table.unpack(rec)) end
      if rec[1] == "hang" then known_hangs[rec[4]] = true end
    end
    if rc == 0 then break end
    if case == nil then  -- the worker did not start: not a finding
      append(out, "error", stderr)
      break
    end
    call = call or 1
    local entry = entry_of(cfg, case, call)
    local sig, desc = M.crash_signature(stderr, rc, entry)
    append(out, rc == 250 and "hang" or "crash", case, call, entry, desc, sig)
    if rc == 250 then known_hangs[entry] = true end
    calls = calls + math.min(call, cfg.case_calls)
    next_case = case + 1
  end
  append(out, "calls", calls)
  out:close()
end

-- ---- minimising --------------------------------------------------------------------------

M.ddmin, M.slice, M.definitions = reduce.ddmin, reduce.slice, reduce.definitions
M.record_signature = reduce.record_signature

local function write_case(path, case, calls, files)
  local out = { "return {case = ", tostring(case), ", calls = {\n" }
  for _, c in ipairs(calls) do
    out[#out + 1] = string.format("{src = %q, entry = %q, bad = %s, check = %s},\n", c.src, c.entry,
      c.bad and string.format("%q", c.bad) or "nil", c.check and "true" or "nil")
  end
  out[#out + 1] = "}, files = {"
  for _, p in ipairs(files or {}) do out[#out + 1] = string.format("%q, ", p) end
  out[#out + 1] = "}}\n"
  local f = assert(io.open(path, "w"))
  f:write(table.concat(out))
  f:close()
end

--- Runs calls in a fresh worker; returns an outcome {rc, call, sig, records, errored}.
function M.replay(cfg, case, calls, files, tag, hang)
  local casefile = cfg.out .. "/case_" .. tag .. ".lua"
  local results = cfg.out .. "/replay_" .. tag
  os.execute("mkdir -p " .. sh(cfg.out))
  write_case(casefile, case, calls, files)
  os.remove(results)
  local rc, _, call, stderr = M.run_worker(cfg, { "replay", casefile, "PROGRESS", results }, tag, hang)
  local o = { rc = rc, call = call, records = read_records(results), errored = {} }
  for _, rec in ipairs(o.records) do
    if rec[1] == "status" then o.errored[tonumber(rec[2])] = rec[3] == "err" end
  end
  if rc ~= 0 then
    local entry = calls[call or 0] and calls[call].entry or "teardown (garbage collection after the case)"
    o.sig = M.crash_signature(stderr, rc, entry)
  end
  return o
end

--- whether outcome o reproduces finding f with its target at call `target`
local function reproduces(f, o, target)
  if f.kind == "crash" then return o.rc ~= 0 and o.rc ~= 250 and o.sig == f.sig and o.call == target end
  if f.kind == "hang" then
    if o.rc == 250 and o.call == target then return true end
  end
  for _, rec in ipairs(o.records) do
    if rec[1] == f.kind and tonumber(rec[3]) == target and M.record_signature(rec) == f.sig then
      return true
    end
  end
  return false
end

--- Minimises finding f ({kind, case, call, sig}); returns the calls of the reproducer and the
--- calls' error status in its last run, or nil when the finding does not reproduce. Findings
--- that do not kill the worker (silent acceptances, non-finite states, bad messages) are
--- minimised inside one worker (fast); crashes and hangs by replays in fresh workers.
function M.minimise(cfg, f, deadline, tag)
  local all, files = gen.case(cfg.seed, f.case, cfg.case_calls)
  local k = f.call
  local teardown = k > #all
  f.teardown = teardown
  local hang = math.min(cfg.hang, 1)
  local last_outcome
  local runs = 0
  local function test_idx(idx)
    if os.time() > deadline and runs > 0 then return false end
    local list = {}
    for _, i in ipairs(idx) do list[#list + 1] = all[i] end
    if not teardown then list[#list + 1] = all[k] end
    runs = runs + 1
    local o = M.replay(cfg, f.case, list, files, tag, hang)
    local ok = reproduces(f, o, teardown and #list + 1 or #list)
    if ok then last_outcome = o end
    return ok
  end
  local best
  if teardown then
    local prefix = {}
    for i = 1, #all do prefix[i] = i end
    if not test_idx(prefix) then return nil end
    best = M.ddmin(prefix, test_idx)
  else
    best = reduce.minimise(all, k, test_idx)
    if not best then return nil end
  end
  local list = {}
  for _, i in ipairs(best) do list[#list + 1] = all[i] end
  if not teardown then list[#list + 1] = all[k] end
  return M.finish(cfg, f, list, files, deadline, tag, false, last_outcome)
end

--- The last steps of minimising finding f to the calls `list`: when `shrink`, drops the option
--- fields it does not need (while there is time); then a last run gives each call's error status.
--- Returns the list and the statuses.
function M.finish(cfg, f, list, files, deadline, tag, shrink, outcome)
  local hang = math.min(cfg.hang, 1)
  local function target(l) return f.teardown and #l + 1 or #l end
  if shrink and os.time() < deadline then
    list = reduce.shrink_fields(list, function(l)
      if os.time() > deadline then return false end
      local o = M.replay(cfg, f.case, l, files, tag, hang)
      local ok = reproduces(f, o, target(l))
      if ok then outcome = o end
      return ok
    end, f.kind == "silent" and #list or nil)
  end
  local o = M.replay(cfg, f.case, list, files, tag, hang)
  if not reproduces(f, o, target(list)) then o = outcome end
  return list, o and o.errored or {}
end

local kinds_order = { crash = 1, hang = 2, silent = 3, nan = 4, message = 5 }
local kind_names = { crash = "crash", hang = "hang", silent = "silent acceptance",
  nan = "silent nonsense (non-finite state after a call that returned)", message = "bad error message" }

--- Minimises in one worker process the findings of `recs` (records of the findings file) that do
--- not kill it (silent acceptances, non-finite states, bad messages); returns {[n] = {list,
--- errored}} for those it minimised.
function M.minimise_in_worker(cfg, recs, tag)
  local jobs, index = {}, {}
  for n, rec in ipairs(recs) do
    if rec[2] == "silent" or rec[2] == "nan" or rec[2] == "message" then
      local all, files = gen.case(cfg.seed, tonumber(rec[4]), cfg.case_calls)
      local k = tonumber(rec[5])
      jobs[#jobs + 1] = { case = tonumber(rec[4]), calls = table.move(all, 1, k, 1, {}), files = files,
        kind = rec[2], sig = rec[3], k = k }
      index[#jobs] = n
    end
  end
  local out = {}
  if #jobs == 0 then return out end
  local parts = { "return {\n" }
  for _, job in ipairs(jobs) do
    parts[#parts + 1] = string.format("{case = %d, kind = %q, sig = %q, k = %d, files = {", job.case,
        job.kind,
      job.sig, job.k)
    for _, p in ipairs(job.files or {}) do parts[#parts + 1] = string.format("%q, ", p) end
    parts[#parts + 1] = "}, calls = {\n"
    for _, c in ipairs(job.calls) do
      parts[#parts + 1] = string.format("{src = %q, entry = %q, bad = %s, check = %s},\n", c.src, c.entry,
        c.bad and string.format("%q", c.bad) or "nil", c.check and "true" or "nil")
    end
    parts[#parts + 1] = "}},\n"
  end
  parts[#parts + 1] = "}\n"
  local jobfile = cfg.out .. "/jobs_" .. tag .. ".lua"
  local results = cfg.out .. "/batch_" .. tag
  local fh = assert(io.open(jobfile, "w"))
  fh:write(table.concat(parts))
  fh:close()
  os.remove(results)
  M.run_worker(cfg, { "minimise", jobfile, "PROGRESS", results }, tag, math.min(cfg.hang, 1))
  local lists = {}
  for _, rec in ipairs(read_records(results)) do
    local j = tonumber(rec[2])
    local job = jobs[j]
    if rec[1] == "minimal" and job then
      local list = {}
      for i in rec[3]:gmatch("%d+") do list[#list + 1] = job.calls[tonumber(i)] end
      list[#list + 1] = job.calls[job.k]
      lists[j] = { list = list, errored = {} }
    elseif rec[1] == "src" and lists[j] then
      local i = tonumber(rec[3])
      local copy = {}
      for key, v in pairs(lists[j].list[i]) do copy[key] = v end
      copy.src = rec[4]
      lists[j].list[i] = copy
    elseif rec[1] == "status" and lists[j] then
      lists[j].errored[tonumber(rec[3])] = rec[4] == "err"
      lists[j].checked = true
    end
  end
  for j, l in pairs(lists) do
    if l.checked then out[index[j]] = l end
  end
  return out
end

--- Minimises the findings of lane j listed in file ffile (lines: i kind sig case call entry
--- lane) and writes each reproducer to FUZZ_OUT/finding_i.lua, its first line saying how far
--- it was minimised.
function M.minimise_lane(cfg, ffile, j)
  local deadline = os.time() + cfg.min_time
  local mine = {}
  for _, rec in ipairs(read_records(ffile)) do
    if tonumber(rec[7]) == j then mine[#mine + 1] = rec end
  end
  -- the findings minimised inside one worker first (fast), then crashes (a process per try),
  -- hangs last (each try takes the hang limit)
  local cost = { silent = 1, nan = 1, message = 1, crash = 2, hang = 3 }
  table.sort(mine, function(a, b)
    if cost[a[2]] ~= cost[b[2]] then return cost[a[2]] < cost[b[2]] end
    return tonumber(a[1]) < tonumber(b[1])
  end)
  -- phase 0: the findings that do not kill a worker, all in one worker
  local batch = M.minimise_in_worker(cfg, mine, "min" .. j)
  -- phase 1: the calls of every other finding; phase 2: the option fields, while there is time
  local done = {}
  for n, rec in ipairs(mine) do
    local f = { kind = rec[2], sig = rec[3], case = tonumber(rec[4]), call = tonumber(rec[5]),
      entry = rec[6] }
    local list, errored, how
    if batch[n] then
      list, errored, how = batch[n].list, batch[n].errored, "minimised"
    elseif os.time() < deadline then
      list, errored = M.minimise(cfg, f, deadline, "min" .. j)
      how = list and (os.time() <= deadline and "minimised" or "partly minimised")
        or "not minimised: it did not reproduce alone"
    else
      how = "not minimised: out of time, FUZZ_MIN_TIME"
    end
    local reduced = list ~= nil
    if not list then
      list = {}
      local all = gen.case(cfg.seed, f.case, cfg.case_calls)
      for c = 1, math.min(f.call, #all) do list[c] = all[c] end
      errored = {}
      for c = 1, #list - 1 do errored[c] = true end
    end
    done[n] = { i = tonumber(rec[1]), f = f, list = list, errored = errored, how = how, reduced = reduced }
  end
  for _, d in ipairs(done) do
    local f = d.f
    if d.reduced and (f.kind == "crash" or f.kind == "hang") and os.time() < deadline then
      local _, files = gen.case(cfg.seed, f.case, cfg.case_calls)
      d.list, d.errored = M.finish(cfg, f, d.list, files, deadline, "min" .. j, true)
    end
    local src = gen.reproducer(d.list, d.errored, string.format("-- impact fuzz finding %d: %s at %s, "
      .. "FUZZ_SEED=%d case %d (%s, %d call%s)", d.i, kind_names[f.kind], f.entry, cfg.seed, f.case, d.how,
      #d.list, #d.list == 1 and "" or "s"))
    local fh = assert(io.open(string.format("%s/finding_%d.lua", cfg.out, d.i), "w"))
    fh:write(src)
    fh:close()
  end
end

-- ---- the driver --------------------------------------------------------------------------

--- Runs the fuzzer; prints the report through `print_fn` (default print); returns the counts.
function M.main(over, print_fn)
  local out = print_fn or print
  local cfg = M.config(over)
  os.execute("mkdir -p " .. sh(cfg.out))
  local ncases = math.max(1, math.ceil(cfg.calls / cfg.case_calls))
  local jobs = math.max(1, math.min(cfg.jobs, ncases))
  out(string.format("impact fuzz: FUZZ_SEED=%d, %d cases of %d calls, %d workers, %s%s", cfg.seed, ncases,
    cfg.case_calls, jobs, cfg.fake and "fake target" or cfg.build,
    cfg.preload ~= "" and " under ASan+UBSan" or ""))
  -- lanes in parallel: each a separate plain Lua process
  local pipes, lane_files = {}, {}
  local per = math.ceil(ncases / jobs)
  for j = 1, jobs do
    local a, b = (j - 1) * per, math.min(j * per, ncases) - 1
    if a <= b then
      local path = cfg.out .. "/lane_" .. j
      lane_files[#lane_files + 1] = path
      local envs = {}
      for key, v in pairs({ FUZZ_SEED = cfg.seed, FUZZ_CASE_CALLS = cfg.case_calls, FUZZ_HANG = cfg.hang,
        FUZZ_BUILD = cfg.build, FUZZ_PRELOAD = cfg.preload, FUZZ_OUT = cfg.out,
            FUZZ_FAKE = cfg.fake or "" }) do
        envs[#envs + 1] = key .. "=" .. sh(v)
      end
      table.sort(envs)
      pipes[#pipes + 1] = io.popen(string.format("env -u LD_PRELOAD %s %s %s lane %d %d %s %d",
        table.concat(envs, " "), cfg.lua, sh(cfg.dir .. "/fuzz.lua"), a, b, sh(path), j))
    end
  end
  for _, p in ipairs(pipes) do
    p:read("a")
    p:close()
  end
  -- findings by signature
  local calls, findings, by_sig = 0, {}, {}
  for _, path in ipairs(lane_files) do
    for _, rec in ipairs(read_records(path)) do
      local kind = rec[1]
      if kind == "calls" then calls = calls + tonumber(rec[2])
      elseif kind == "error" then
        out("the fuzz worker did not start:\n" .. rec[2])
        return { calls = calls, crash = 0, hang = 0, silent = 0, message = 0, error = true, findings = {} }
      elseif kinds_order[kind] then
        local sig = (kind == "crash" or kind == "hang") and rec[6] or M.record_signature(rec)
        if kind == "hang" and rec[6] == nil then sig = M.record_signature(rec) end
        local f = by_sig[sig]
        if not f then
          f = { kind = kind, sig = sig, case = tonumber(rec[2]), call = tonumber(rec[3]), entry = rec[4],
            detail = rec[5], count = 0 }
          by_sig[sig] = f
          findings[#findings + 1] = f
        end
        f.count = f.count + 1
      end
    end
  end
  table.sort(findings, function(a, b)
    if a.kind ~= b.kind then return kinds_order[a.kind] < kinds_order[b.kind] end
    if a.case ~= b.case then return a.case < b.case end
    return a.call < b.call
  end)
  -- minimise (FUZZ_JOBS processes, each within FUZZ_MIN_TIME seconds), then print each
  local n = { crash = 0, hang = 0, silent = 0, nan = 0, message = 0 }
  local ffile = cfg.out .. "/findings"
  local fh = assert(io.open(ffile, "w"))
  -- shared out in order of cost (the fast in-process kinds, crashes, hangs), round robin
  local mjobs = math.max(1, math.min(cfg.jobs, #findings))
  local order = {}
  for i = 1, #findings do order[i] = i end
  local cost = { silent = 1, nan = 1, message = 1, crash = 2, hang = 3 }
  table.sort(order, function(a, b)
    local ca, cb = cost[findings[a].kind], cost[findings[b].kind]
    if ca ~= cb then return ca < cb end
    return a < b
  end)
  for pos, i in ipairs(order) do
    local f = findings[i]
    append(fh, i, f.kind, f.sig, f.case, f.call, f.entry, (pos - 1) % mjobs + 1)
  end
  fh:close()
  local minimisers = {}
  for j = 1, mjobs do
    minimisers[j] = io.popen(string.format("env -u LD_PRELOAD FUZZ_SEED=%d FUZZ_CASE_CALLS=%d FUZZ_HANG=%s "
      .. "FUZZ_BUILD=%s "
      .. "FUZZ_PRELOAD=%s FUZZ_OUT=%s FUZZ_FAKE=%s FUZZ_MIN_TIME=%s %s %s minimise %s %d %d", cfg.seed,
      cfg.case_calls, sh(cfg.hang), sh(cfg.build), sh(cfg.preload), sh(cfg.out), sh(cfg.fake or ""),
      sh(cfg.min_time), cfg.lua, sh(cfg.dir .. "/fuzz.lua"), sh(ffile), j, mjobs))
  end
  for _, p in ipairs(minimisers) do
    p:read("a")
    p:close()
  end
  for i, f in ipairs(findings) do
    n[f.kind] = n[f.kind] + 1
    out("")
    out(string.format("finding %d: %s at %s (%d time%s; first: case %d, call %d)", i,
        kind_names[f.kind], f.entry,
      f.count, f.count == 1 and "" or "s", f.case, f.call))
    local detail = f.kind == "silent" and ("returned normally, but must refuse: " .. f.detail) or f.detail
    out("  " .. (detail or ""))
    local path = string.format("%s/finding_%d.lua", cfg.out, i)
    local src = read_file(path)
    local how = src:match("^[^\n]*"):match("%(([^()]*)%)$") or "not minimised"
    out(string.format("  reproducer (%s; %s):", how, path))
    for line in src:gmatch("[^\n]+") do
      if not line:find("^%-%- impact fuzz") then out("    " .. line) end
    end
  end
  out("")
  out(string.format("%d bad error messages (reported, not failures)", n.message))
  out(string.format("%d non-finite states after calls that returned", n.nan))
  out(string.format("%d silent acceptances", n.silent + n.nan))
  out(string.format("%d calls, %d crashes, %d hangs", calls, n.crash, n.hang))
  return { calls = calls, crash = n.crash, hang = n.hang, silent = n.silent + n.nan, message = n.message,
    findings = findings }
end

if arg and arg[0] and arg[0]:match("fuzz%.lua$") and debug.getinfo(3) == nil then
  if arg[1] == "minimise" then
    M.minimise_lane(M.config(), arg[2], tonumber(arg[3]))
  elseif arg[1] == "lane" then
    M.lane(M.config(), tonumber(arg[2]), tonumber(arg[3]), arg[4], "lane" .. (arg[5] or "1"))
  else
    local r = M.main()
    os.exit(r.error and 2 or (r.crash + r.hang + r.silent) > 0 and 1 or 0)
  end
end

return M
