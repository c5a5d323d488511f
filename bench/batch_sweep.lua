-- A sweep's throughput under impact.batch's launchers (issue 21, item 5): the same 8 jobs
-- (bench/data/sweep_job.lua, one OpenMP thread each) under launcher "local" with 1 and 2 worker
-- processes, and under "mpi" on 1, 2 and 3 ranks (rank 0 hands out the jobs, ranks 1..N-1 run
-- them; one rank alone runs them itself), on this machine (mpirun --oversubscribe). The mpi
-- times include mpirun's start-up. Skipped with a message when Open MPI is not installed.
local core = require("impact.core")
local impact = require("impact")

local n_jobs, steps = 8, 40000
local script = "bench/data/sweep_job.lua"
local params = {}
for i = 1, n_jobs do params[i] = { steps = steps, tag = i } end

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  return d
end

local function check(records, what)
  for i, r in ipairs(records) do
    if not r.ok then error(string.format("%s: job %d failed: %s", what, i, tostring(r.error))) end
  end
end

print(string.format("impact.batch sweep throughput: %d jobs of %d dem steps (one sphere, "
  .. "one thread each)", n_jobs, steps))
print(string.format("%-26s %8s %9s %8s", "launcher", "wall s", "jobs/s", "speedup"))
local base
local function row(name, wall)
  base = base or wall
  print(string.format("%-26s %8.2f %9.2f %8.2f", name, wall, n_jobs / wall, base / wall))
end

local env_omp = "OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive"
for _, jobs in ipairs { 1, 2 } do
  local dir = tmpdir()
  local t0 = core.clock()
  check(impact.batch { script = script, params = params, jobs = jobs, dir = dir,
    lua = "env " .. env_omp .. " lua5.4" }, "local")
  row(string.format("local, jobs = %d", jobs), core.clock() - t0)
  os.execute("rm -rf '" .. dir .. "'")
end

local have_mpi = os.execute("command -v mpirun >/dev/null 2>&1")
  and package.searchpath("impact.mpi", package.cpath)
if not have_mpi then
  print("mpi: skipped (Open MPI not installed: apt-get install openmpi-bin libopenmpi-dev, then make)")
  return
end
for _, np in ipairs { 1, 2, 3 } do
  local dir = tmpdir()
  os.execute("mkdir -p '" .. dir .. "'")
  local sweep = dir .. "/sweep.lua"
  local f = assert(io.open(sweep, "w"))
  f:write(string.format("local p = {} for i = 1, %d do p[i] = { steps = %d, tag = i } end\n"
    .. "return { script = %q, params = p, dir = %q, launcher = 'mpi' }\n", n_jobs, steps, script,
    dir .. "/out"))
  f:close()
  local cmd = string.format("%s OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
    .. "LUA_PATH_5_4=%q LUA_CPATH_5_4=%q mpirun -np %d --oversubscribe lua5.4 -e "
    .. "\"os.exit(require('impact.cli').main({'batch', '%s'}), true)\" > %s/out.txt 2>&1",
    env_omp, package.path, package.cpath, np, sweep, dir)
  local t0 = core.clock()
  local ok = os.execute(cmd)
  local wall = core.clock() - t0
  if not ok then
    local out = io.open(dir .. "/out.txt")
    error("mpirun -np " .. np .. " failed:\n" .. (out and out:read("a") or ""))
  end
  row(string.format("mpi, %d rank%s (%d running)", np, np > 1 and "s" or "", math.max(1, np - 1)), wall)
  os.execute("rm -rf '" .. dir .. "'")
end
print("(speedup against local, jobs = 1; this machine's other load counts too)")
