--- impact.batch_mpi: impact.batch's launcher "mpi". Every rank evaluates the same sweep; rank 0
--- hands out the jobs one at a time to the ranks that ask (dynamic load balancing: long and
--- short jobs mix), ranks 1..N-1 run them as child processes; a job's files land in the sweep's
--- dir as under the local launcher. With one rank, rank 0 runs every job itself.
--- Messages (tag 1): a worker sends "ready" (first) or "done <i>"; rank 0 answers "job <i>" or
--- "stop".
-- @module impact.batch_mpi
local jobs_files = require("impact.batch_jobs")
local M = {}
local TAG = 1

local function load_mpi()
  local ok, mpi = pcall(require, "impact.mpi")
  if not ok then
    error("impact.batch: launcher \"mpi\" needs the module impact.mpi (build/impact/mpi.so), "
      .. "which make builds when Open MPI is installed (apt-get install openmpi-bin "
      .. "libopenmpi-dev): " .. tostring(mpi):match("^[^\n]*"), 0)
  end
  return mpi
end

local function run_job(sweep, i)
  jobs_files.prepare(sweep, i)
  os.execute(jobs_files.command(sweep, i))
end

function M.run(sweep, batch)
  local mpi = load_mpi()
  local rank, size = mpi.init()
  if rank ~= 0 then
    mpi.send(0, "ready", TAG)
    while true do
      local msg = mpi.recv(0, TAG)
      local i = tonumber(msg:match("^job (%d+)$"))
      if not i then break end
      run_job(sweep, i)
      mpi.send(0, "done " .. i, TAG)
    end
    return { rank = rank }
  end
  os.execute("mkdir -p " .. jobs_files.shell_quote(sweep.dir))
  local todo = batch._todo(sweep)
  if size == 1 then
    for _, i in ipairs(todo) do run_job(sweep, i) end
  else
    local next_job, active = 1, size - 1
    while active > 0 do
      local _, src = mpi.recv(nil, TAG)
      if next_job <= #todo then
        mpi.send(src, "job " .. todo[next_job], TAG)
        next_job = next_job + 1
      else
        mpi.send(src, "stop", TAG)
        active = active - 1
      end
    end
  end
  local records = batch._records(sweep, todo)
  records.rank = 0
  return records
end

return M
