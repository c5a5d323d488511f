--- impact.batch: parameter sweeps (Yade's yade-batch, beyond one machine). Runs one script over
--- a list of parameter sets, collects each job's result and log, and reports a failing job
--- without stopping the others.
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
--- { params, ok, exit_code, result, log (the file), error (the log's last lines on failure),
---   resumed (true when it was done by an earlier run and skipped) }.
---
--- launcher (default "local"):
---   "local"  `jobs` worker processes on this machine.
---   "mpi"    run under `mpirun -np N lua5.4 sweep.lua` (or `mpirun -np N bin/impact batch ...`):
---            rank 0 hands out the jobs one at a time as ranks come free, ranks 1..N-1 run them
---            (one rank alone runs them all itself). Needs impact.mpi (build/impact/mpi.so, built
---            by make when Open MPI is installed) and `dir` on a file system every rank sees.
---            Rank 0 gets the records; the other ranks get an empty list with .rank set.
---   "slurm"  writes dir/array.sbatch (one array task per job, by SLURM_ARRAY_TASK_ID),
---            dir/collect.sbatch (gathers the records into dir/results.lua) and dir/submit.sh
---            (submits both, the collect step after the array); submits them when
---            `submit = true`. Returns the records as they stand (jobs not ended: pending = true)
---            with .slurm = { array =, collect =, submit =, task_command = }.
--- A rerun in the same dir skips the jobs already done with the same parameters (resume = false
--- runs them all again).
-- @module impact.batch
local options = require("impact.options")
local jobs_files = require("impact.batch_jobs")
local batch = {}

local encode, decode, q = jobs_files.encode, jobs_files.decode, jobs_files.shell_quote

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
                   poll = true, launcher = true, resume = true, submit = true, sbatch = true }
local launchers = { "local", "mpi", "slurm" }

-- the checked options as a sweep: { script, params, dir, lua, path, cpath, launcher, ... }
local function sweep_of(opts, level)
  local what = "impact.batch"
  options.check_keys(what, opts, run_keys, { level = level })
  local launcher = options.enum(what, opts, "launcher", "local", launchers, { level = level })
  if type(opts.script) ~= "string" or not io.open(opts.script, "r") then
    error(string.format("%s: option 'script' must name a readable file, got %s", what,
      tostring(opts.script)), level)
  end
  if type(opts.params) ~= "table" or #opts.params == 0 then
    error(what .. ": option 'params' must be a non-empty list of parameter tables", level)
  end
  if launcher == "mpi" and opts.jobs ~= nil then
    error(what .. ": option 'jobs' is for launcher \"local\" and \"slurm\" (under \"mpi\" the "
      .. "number of ranks sets the parallelism), got " .. options.describe(opts.jobs), level)
  end
  local sweep = {
    launcher = launcher,
    script = opts.script,
    params = opts.params,
    jobs = options.integer(what, opts, "jobs", launcher == "local" and 1 or nil,
      { min = 1, level = level }),
    poll = options.number(what, opts, "poll", 0.05,
      { min = 0, max = 60, text = "a number of seconds in [0, 60]", level = level }),
    dir = options.string(what, opts, "dir", nil, { level = level }),
    lua = options.string(what, opts, "lua", "lua5.4", { level = level }),
    resume = options.boolean(what, opts, "resume", true, { level = level }),
    submit = options.boolean(what, opts, "submit", false, { level = level }),
    sbatch = opts.sbatch,
    path = package.path,
    cpath = package.cpath,
  }
  for i = 1, #sweep.params do
    if type(sweep.params[i]) ~= "table" then
      error(string.format("%s: params[%d] must be a table, got %s", what, i,
        options.describe(sweep.params[i])), level)
    end
  end
  if sweep.lua:find("[^%w%./_%-= ]") then
    error(what .. ": option 'lua' must be a command (letters, digits, spaces and . / _ - =), got "
      .. string.format("%q", sweep.lua), level)
  end
  if sweep.dir == nil then
    if launcher ~= "local" then
      error(what .. ": launcher \"" .. launcher .. "\" needs option 'dir' (a directory every "
        .. "rank or node sees)", level)
    end
    sweep.dir = os.tmpname()  -- a unique name; the file itself is not needed
    os.remove(sweep.dir)
    sweep.dir = sweep.dir .. "_batch"
  end
  return sweep
end
batch._sweep_of = sweep_of

--- the jobs still to run, in order (all of them unless resuming)
function batch._todo(sweep)
  local todo = {}
  for i = 1, #sweep.params do
    if not (sweep.resume and jobs_files.done(sweep, i)) then todo[#todo + 1] = i end
  end
  return todo
end

--- the records once the jobs in todo have ended; the others are marked resumed
function batch._records(sweep, todo)
  local ran = {}
  for _, i in ipairs(todo) do ran[i] = true end
  local records = jobs_files.records(sweep)
  for i, r in ipairs(records) do
    if not ran[i] and r.ok then r.resumed = true end
  end
  return records
end

local function run_local(sweep)
  local todo = batch._todo(sweep)
  local running, next_job, finished, state = 0, 1, 0, {}
  while finished < #todo do
    while running < sweep.jobs and next_job <= #todo do
      local i = todo[next_job]
      jobs_files.prepare(sweep, i)
      os.execute("(" .. jobs_files.command(sweep, i) .. ") &")
      state[i] = "running"
      running, next_job = running + 1, next_job + 1
    end
    local progressed = false
    for k = 1, next_job - 1 do
      local i = todo[k]
      if state[i] == "running" and jobs_files.read_file(jobs_files.base(sweep, i) .. ".rc") then
        state[i] = "ended"
        running, finished, progressed = running - 1, finished + 1, true
      end
    end
    if not progressed and finished < #todo then
      os.execute(string.format("sleep %.3f", sweep.poll))
    end
  end
  return batch._records(sweep, todo)
end

local function run(opts, level)
  local sweep = sweep_of(opts, level + 1)
  if sweep.launcher == "mpi" then return require("impact.batch_mpi").run(sweep, batch) end
  if sweep.launcher == "slurm" then return require("impact.batch_slurm").run(sweep, batch) end
  os.execute("mkdir -p " .. q(sweep.dir))
  return run_local(sweep)
end

--- impact.batch.task(dir [, i]): runs job i (default: SLURM_ARRAY_TASK_ID) of the sweep that
--- launcher "slurm" wrote into dir, unless it is done already; returns its exit code.
function batch.task(dir, i)
  return require("impact.batch_slurm").task(dir, i)
end

--- impact.batch.collect(dir): the records of the sweep that launcher "slurm" wrote into dir,
--- also written to dir/results.lua.
function batch.collect(dir)
  return require("impact.batch_slurm").collect(dir)
end

return setmetatable(batch, { __call = function(_, opts) return run(opts, 3) end })
