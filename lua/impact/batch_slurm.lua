--- impact.batch_slurm: impact.batch's launcher "slurm". Writes into the sweep's dir:
---   manifest.lua     the sweep (script, parameters, module paths, directory) as data
---   array.sbatch     a job array (sbatch --array=<the jobs not done yet>[%jobs]); task i runs
---                    job i, found by SLURM_ARRAY_TASK_ID, through impact.batch.task
---   collect.sbatch   gathers the records into dir/results.lua (impact.batch.collect)
---   submit.sh        submits the array, then the collect step after it (afterany)
--- `sbatch` (a list of strings) adds #SBATCH lines to both scripts, e.g. { "--time=01:00:00" }.
-- @module impact.batch_slurm
local jobs_files = require("impact.batch_jobs")
local M = {}
local q = jobs_files.shell_quote

local function lua_call(sweep, call)
  return string.format("LUA_PATH_5_4=%s LUA_CPATH_5_4=%s %s -e %s", q(sweep.path), q(sweep.cpath),
    sweep.lua, q(call))
end

local function sbatch_lines(sweep, name)
  local lines = { "#!/bin/sh", "#SBATCH --job-name=" .. name,
    "#SBATCH --output=" .. sweep.dir .. "/slurm_%A_%a.out" }
  for k, v in ipairs(sweep.sbatch or {}) do
    if type(v) ~= "string" or v:find("\n") then
      error(string.format("impact.batch: option 'sbatch' must be a list of one-line strings "
        .. "(sbatch options), got entry %d = %s", k, tostring(v)), 0)
    end
    lines[#lines + 1] = "#SBATCH " .. v
  end
  return lines
end

function M.run(sweep, batch)
  if sweep.sbatch ~= nil and type(sweep.sbatch) ~= "table" then
    error("impact.batch: option 'sbatch' must be a list of sbatch options, got " .. type(sweep.sbatch), 0)
  end
  local cwd = jobs_files.cwd()
  sweep.dir = jobs_files.absolute(sweep.dir)
  sweep.script = jobs_files.absolute(sweep.script)
  os.execute("mkdir -p " .. q(sweep.dir))
  jobs_files.write_file(sweep.dir .. "/manifest.lua", jobs_files.encode {
    script = sweep.script, params = sweep.params, dir = sweep.dir, lua = sweep.lua,
    path = sweep.path, cpath = sweep.cpath, cwd = cwd })
  local todo = batch._todo(sweep)
  local task = lua_call(sweep, string.format(
    "os.exit(require('impact.batch').task(%q))", sweep.dir))
  local collect = lua_call(sweep, string.format(
    "local r = require('impact.batch').collect(%q) local n = 0 "
    .. "for _, j in ipairs(r) do if j.ok then n = n + 1 end end "
    .. "print(n .. ' of ' .. #r .. ' jobs ok') os.exit(n == #r and 0 or 1)", sweep.dir))
  local array = sbatch_lines(sweep, "impact_sweep")
  local ids = {}
  for k, i in ipairs(todo) do ids[k] = tostring(i) end
  local range = table.concat(ids, ",")
  if sweep.jobs then range = range .. "%" .. sweep.jobs end
  array[#array + 1] = "#SBATCH --array=" .. (range ~= "" and range or "1")
  array[#array + 1] = "cd " .. q(cwd) .. " || exit 1"
  array[#array + 1] = task
  local col = sbatch_lines(sweep, "impact_collect")
  col[#col + 1] = "cd " .. q(cwd) .. " || exit 1"
  col[#col + 1] = collect
  local paths = { array = sweep.dir .. "/array.sbatch", collect = sweep.dir .. "/collect.sbatch",
    submit = sweep.dir .. "/submit.sh", task_command = task, todo = todo }
  jobs_files.write_file(paths.array, table.concat(array, "\n") .. "\n")
  jobs_files.write_file(paths.collect, table.concat(col, "\n") .. "\n")
  local submit = { "#!/bin/sh", "# submits the sweep's job array, then its collect step",
    "set -e" }
  if #todo == 0 then
    submit[#submit + 1] = "sbatch " .. q(paths.collect)
  else
    submit[#submit + 1] = "array=$(sbatch --parsable " .. q(paths.array) .. ")"
    submit[#submit + 1] = "sbatch --dependency=afterany:${array%%;*} " .. q(paths.collect)
  end
  jobs_files.write_file(paths.submit, table.concat(submit, "\n") .. "\n")
  os.execute("chmod +x " .. q(paths.submit))
  if sweep.submit then
    local ok = os.execute("sh " .. q(paths.submit))
    if not ok then error("impact.batch: submitting " .. paths.submit .. " failed (is Slurm's sbatch "
      .. "installed and a controller running?)", 0) end
  end
  local records = batch._records(sweep, todo)
  records.slurm = paths
  return records
end

local function load_manifest(dir)
  if type(dir) ~= "string" then
    error("impact.batch: the sweep's dir must be a string, got " .. type(dir), 0)
  end
  local path = dir .. "/manifest.lua"
  local s = jobs_files.read_file(path)
  if not s then
    error("impact.batch: no sweep in " .. dir .. " (" .. path .. " is missing; launcher \"slurm\" "
      .. "writes it)", 0)
  end
  return jobs_files.decode(s, "=" .. path)
end

function M.task(dir, i)
  local sweep = load_manifest(dir)
  local id = i or os.getenv("SLURM_ARRAY_TASK_ID")
  local n = math.tointeger(tonumber(id))
  if not n or n < 1 or n > #sweep.params then
    error(string.format("impact.batch.task: the job index (argument or SLURM_ARRAY_TASK_ID) must "
      .. "be an integer in [1, %d], got %s", #sweep.params, tostring(id)), 0)
  end
  if jobs_files.done(sweep, n) then return 0 end
  jobs_files.prepare(sweep, n)
  os.execute(jobs_files.command(sweep, n))
  local r = jobs_files.record(sweep, n)
  return r and r.exit_code or 1
end

function M.collect(dir)
  local sweep = load_manifest(dir)
  local records = jobs_files.records(sweep)
  jobs_files.write_file(sweep.dir .. "/results.lua", jobs_files.encode(records))
  return records
end

return M
