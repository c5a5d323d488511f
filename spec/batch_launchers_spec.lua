-- impact.batch's launchers: resume under "local", a sweep of 6 jobs with one failing under
-- mpirun -np 2 on localhost (when Open MPI is installed), then resumed; the Slurm job array's
-- tasks run by hand with SLURM_ARRAY_TASK_ID set, then its collect step.
local impact = require("impact")
local spec_files = require("spec.support.files")
local tmpdir, read = spec_files.tmpdir, spec_files.read
local jobs_files = require("impact.batch_jobs")

local script = "spec/data/batch_job.lua"
local dt, g = 1e-3, 9.81

-- undamped leapfrog free fall from z = 1 (spec/data/batch_job.lua): z = 1 - g dt^2 n (n + 1) / 2
local function fall(n) return 1 - g * dt * dt * n * (n + 1) / 2 end

-- six jobs; job 3 fails on purpose when failing is set
local function six(failing)
  local p = {}
  for i = 1, 6 do p[i] = { steps = 5 * i, tag = "j" .. i, fail = (failing and i == 3) or nil } end
  return p
end

local function check_jobs(records, failing)
  assert.equal(6, #records)
  for i, r in ipairs(records) do
    if failing and i == 3 then
      assert.is_false(r.ok)
      assert.is_true(r.exit_code ~= 0)
      assert.matches("job failed on purpose", r.error)
    else
      assert.is_true(r.ok, r.error)
      assert.near(fall(5 * i), r.result.z, 1e-12)
      assert.equal(5 * i, r.result.steps)
      assert.equal("j" .. i, r.result.tag)
    end
  end
end

-- runs a shell command; returns its exit code and output
local function sh(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and 0 or code, out
end

describe("impact.batch resume (launcher local)", function()
  it("skips the jobs already done with the same parameters and reruns the failed one", function()
    local dir = tmpdir()
    check_jobs(impact.batch { script = script, params = six(true), jobs = 2, dir = dir }, true)
    local log1 = read(dir .. "/job_1.log")
    local again = impact.batch { script = script, params = six(false), jobs = 2, dir = dir }
    check_jobs(again, false)
    for i = 1, 6 do assert.equal(i ~= 3 or nil, again[i].resumed) end
    assert.equal(log1, read(dir .. "/job_1.log"))
    -- changed parameters are not "done"; resume = false reruns everything
    local p = six(false)
    p[2].steps = 7
    local changed = impact.batch { script = script, params = p, dir = dir }
    assert.is_nil(changed[2].resumed)
    assert.near(fall(7), changed[2].result.z, 1e-12)
    assert.is_true(changed[1].resumed)
    local all = impact.batch { script = script, params = p, dir = dir, resume = false }
    for i = 1, 6 do assert.is_nil(all[i].resumed) end
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("checks the launcher options", function()
    local function err(o) return select(2, pcall(impact.batch, o)) end
    assert.matches([[option 'launcher' must be one of "local", "mpi", "slurm"]],
      err { script = script, params = { {} }, launcher = "pbs" })
    assert.matches("launcher \"mpi\" needs option 'dir'",
      err { script = script, params = { {} }, launcher = "mpi" })
    assert.matches("option 'jobs' is for launcher \"local\" and \"slurm\"",
      err { script = script, params = { {} }, launcher = "mpi", jobs = 2, dir = "x" })
    assert.matches("params%[2%] must be a table", err { script = script, params = { {}, 3 } })
    assert.matches("option 'sbatch' must be a list of one%-line strings",
      err { script = script, params = { {} }, launcher = "slurm", dir = tmpdir(), sbatch = { "a\nb" } })
    -- without the impact.mpi module: a clear error naming what to install
    local _, out = sh(string.format("LUA_PATH_5_4=%q lua5.4 -e \"package.cpath = '' print(select(2, "
      .. "pcall(require('impact.batch'), { script = '%s', params = { {} }, launcher = 'mpi', "
      .. "dir = '/nonexistent' })))\"", package.path, script))
    assert.matches("launcher \"mpi\" needs the module impact.mpi %(build/impact/mpi.so%), which make "
      .. "builds when Open MPI is installed", out)
    assert.matches("no sweep in /nonexistent", select(2, pcall(impact.batch.task, "/nonexistent", 1)))
  end)
end)

describe("bin/impact batch", function()
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  it("runs a sweep file, lists the jobs and exits 1 when one failed; 2 for a wrong command line",
    function()
    local dir = tmpdir()
    local f = assert(io.open(dir .. "/sweep.lua", "w"))
    f:write(string.format("return { script = %q, params = { { steps = 4 }, { fail = true } }, "
      .. "dir = %q }", script, dir .. "/out"))
    f:close()
    local code, out = sh(env .. " lua5.4 bin/impact batch " .. dir .. "/sweep.lua --jobs 2")
    assert.equal(1, code, out)
    assert.matches("job 1 [^\n]* ok\n", out)
    assert.matches("job 2 [^\n]* FAILED %(exit 1, log ", out)
    assert.matches("1 of 2 jobs ok, failed: 2\n", out)
    assert.near(fall(4), jobs_files.record({ dir = dir .. "/out", params = { { steps = 4 } } }, 1).result.z,
      1e-12)
    code, out = sh(env .. " lua5.4 bin/impact batch")
    assert.equal(2, code)
    assert.matches("no sweep file given", out)
    code, out = sh(env .. " lua5.4 bin/impact batch x.lua --jobs 0")
    assert.equal(2, code)
    assert.matches("option %-%-jobs must be a positive integer, got \"0\"", out)
    code, out = sh(env .. " lua5.4 bin/impact batch " .. dir .. "/sweep.lua --launcher pbs")
    assert.equal(1, code)
    assert.matches("option 'launcher' must be one of", out)
    code, out = sh(env .. " lua5.4 bin/impact batch --help")
    assert.equal(0, code)
    assert.matches("usage: impact batch SWEEP.lua", out)
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)

describe("impact.batch launcher slurm", function()
  it("writes a job array whose tasks run one job each by SLURM_ARRAY_TASK_ID, and a collect step",
    function()
    local dir = tmpdir()
    local r = impact.batch { script = script, params = six(true), dir = dir, launcher = "slurm",
      jobs = 2, sbatch = { "--time=00:10:00" } }
    for i = 1, 6 do assert.is_true(r[i].pending) end
    local array = read(r.slurm.array)
    assert.matches("#SBATCH %-%-array=1,2,3,4,5,6%%2\n", array)
    assert.matches("#SBATCH %-%-time=00:10:00\n", array)
    assert.matches("sbatch %-%-dependency=afterany:", read(r.slurm.submit))
    -- the array's tasks, by hand: the array script's last line with SLURM_ARRAY_TASK_ID set
    local task = array:match("([^\n]+)\n$")
    assert.equal(r.slurm.task_command, task)
    for i = 1, 6 do
      local code, out = sh("SLURM_ARRAY_TASK_ID=" .. i .. " " .. task)
      assert.equal(i == 3 and 1 or 0, code, out)
    end
    local code, out = sh(read(r.slurm.collect):match("([^\n]+)\n$"))
    assert.equal(1, code)
    assert.matches("5 of 6 jobs ok", out)
    check_jobs(jobs_files.decode(read(dir .. "/results.lua"), "=results.lua"), true)
    check_jobs(impact.batch.collect(dir), true)
    -- resubmitted with the failure fixed: the array holds the failed job only
    local again = impact.batch { script = script, params = six(false), dir = dir, launcher = "slurm" }
    assert.matches("#SBATCH %-%-array=3\n", read(again.slurm.array))
    assert.is_true(again[1].resumed)
    assert.equal(0, (sh("SLURM_ARRAY_TASK_ID=3 " .. again.slurm.task_command)))
    check_jobs(impact.batch.collect(dir), false)
    assert.matches("integer in %[1, 6%], got 7", select(2, pcall(impact.batch.task, dir, 7)))
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("runs through a real sbatch #slurm", function()
    if os.execute("command -v sbatch >/dev/null 2>&1 && scontrol ping >/dev/null 2>&1") then
      pending("a real sbatch run is not scripted yet; the tasks above are run by hand")
    else
      pending("Slurm (slurm-wlm with a running controller) not available: real sbatch run skipped")
    end
  end)
end)

describe("impact.batch launcher mpi", function()
  local have_mpirun = os.execute("command -v mpirun >/dev/null 2>&1")
  -- found, not loaded: the MPI library stays out of this process
  local have_module = package.searchpath("impact.mpi", package.cpath) ~= nil
  it("runs a sweep of 6 jobs with one failing under mpirun -np 2, then resumes it", function()
    if not (have_mpirun and have_module) then
      pending("Open MPI not installed (apt-get install openmpi-bin libopenmpi-dev, then make): "
        .. "the mpirun sweep is skipped")
      return
    end
    local dir = tmpdir()
    local sweep = dir .. "/sweep.lua"
    local f = assert(io.open(sweep, "w"))
    f:write(string.format([[
local params = {}
for i = 1, 6 do
  params[i] = { steps = 5 * i, tag = "j" .. i, fail = (i == 3 and os.getenv("FAIL3")) and true or nil }
end
return { script = %q, params = params, dir = %q, launcher = "mpi" }
]], script, dir .. "/out"))
    f:close()
    -- Open MPI's own allocations are not ours to check: no leak report from the ranks
    local env = string.format("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      .. "ASAN_OPTIONS=detect_leaks=0 LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
    local run = string.format("%s mpirun -np 2 --oversubscribe lua5.4 -e "
      .. "\"os.exit(require('impact.cli').main({'batch', '%s'}), true)\"", env, sweep)
    local code, out = sh("FAIL3=1 " .. run)
    assert.equal(1, code, out)
    assert.matches("5 of 6 jobs ok, failed: 3\n", out)
    assert.matches("job 3 .*FAILED", out)
    local sw = { dir = dir .. "/out", params = six(true) }
    check_jobs(jobs_files.records(sw), true)
    local log1 = read(dir .. "/out/job_1.log")
    code, out = sh(run)
    assert.equal(0, code, out)
    assert.matches("6 of 6 jobs ok\n", out)
    for i = 1, 6 do
      assert.matches(string.format("job %d [^\n]*%s\n", i, i == 3 and "ok" or "ok %(done before%)"), out)
    end
    check_jobs(jobs_files.records { dir = dir .. "/out", params = six(false) }, false)
    assert.equal(log1, read(dir .. "/out/job_1.log"))
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("impact.mpi: rank, size, strings with zero bytes both ways, tags, argument errors, finalize",
    function()
    if not (have_mpirun and have_module) then
      pending("Open MPI not installed (apt-get install openmpi-bin libopenmpi-dev, then make): "
        .. "the impact.mpi check is skipped")
      return
    end
    local dir = tmpdir()
    local f = assert(io.open(dir .. "/api.lua", "w"))
    f:write([==[
local mpi = require("impact.mpi")
assert(not mpi.initialized())
assert(select(2, pcall(mpi.rank)):find("MPI is not running", 1, true))
local rank, size = mpi.init()
assert(mpi.initialized() and mpi.rank() == rank and mpi.size() == size and size == 2)
local big = string.rep("a\0b", 400000)
if rank == 0 then
  mpi.send(1, big, 7)
  local s, src, tag = mpi.recv(1)
  assert(s == "" and src == 1 and tag == 3, "empty message back")
  assert(select(2, pcall(mpi.send, 2, "x")):find("rank must be in [0, 1], got 2", 1, true))
  assert(select(2, pcall(mpi.send, 1, "x", -1)):find("tag must be in [0, 32767], got -1", 1, true))
  assert(select(2, pcall(mpi.recv, -1)):find("rank must be in [0, 1], got -1", 1, true))
  print("rank 0 ok")
else
  local s, src, tag = mpi.recv(0, 7)
  assert(s == big and src == 0 and tag == 7, "big message with zero bytes")
  mpi.send(0, "", 3)
end
mpi.finalize()
assert(not mpi.initialized())
assert(select(2, pcall(mpi.init)):find("already finalized", 1, true))
]==])
    f:close()
    local code, out = sh(string.format("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      .. "ASAN_OPTIONS=detect_leaks=0 LUA_PATH_5_4=%q LUA_CPATH_5_4=%q mpirun -np 2 --oversubscribe "
      .. "lua5.4 %s/api.lua", package.path, package.cpath, dir))
    assert.equal(0, code, out)
    assert.matches("rank 0 ok", out)
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)
