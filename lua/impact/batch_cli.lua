--- impact.batch_cli: `impact batch SWEEP.lua [options]`, the command line of impact.batch.
--- SWEEP.lua returns the table of impact.batch options ({ script =, params =, dir =, ... }); the
--- options given here override its fields.
-- @module impact.batch_cli
local jobs_files = require("impact.batch_jobs")
local M = {}

M.usage = [[
usage: impact batch SWEEP.lua [--launcher local|mpi|slurm] [--dir DIR] [--jobs N]
                              [--no-resume] [--submit]

Runs a parameter sweep: SWEEP.lua returns the options of impact.batch, e.g.
  return { script = "job.lua", params = { {E = 1e7}, {E = 1e8} }, dir = "sweep" }
Under MPI:    mpirun -np N impact batch SWEEP.lua --launcher mpi
Under Slurm:  impact batch SWEEP.lua --launcher slurm [--submit]   (writes DIR/submit.sh)
A rerun in the same DIR skips the jobs already done (--no-resume runs them all again).
Prints one line per job; the exit code is 0 when every job succeeded, 1 when one failed
(or the sweep could not run), 2 for a wrong command line.]]

function M.parse(args)
  local o, overrides = {}, {}
  local i = 2
  while i <= #args do
    local a = args[i]
    local key, inline = a:match("^(%-%-[%w-]+)=(.*)$")
    key = key or a
    if a == "-h" or a == "--help" then
      o.help = true
    elseif key == "--launcher" or key == "--dir" or key == "--jobs" then
      local v = inline
      if v == nil then
        i = i + 1
        v = args[i]
      end
      if v == nil or v == "" then return nil, "option " .. key .. " needs a value" end
      if key == "--jobs" then
        v = math.tointeger(tonumber(v))
        if not v or v < 1 then
          return nil, string.format("option --jobs must be a positive integer, got %q", args[i])
        end
      end
      overrides[key:sub(3)] = v
    elseif key == "--no-resume" then
      overrides.resume = false
    elseif key == "--submit" then
      overrides.submit = true
    elseif a:sub(1, 1) == "-" then
      return nil, string.format("unknown option %q", a)
    elseif o.sweep then
      return nil, string.format("one sweep at a time (got %q and %q)", o.sweep, a)
    else
      o.sweep = a
    end
    i = i + 1
  end
  if not o.sweep and not o.help then return nil, "no sweep file given" end
  o.overrides = overrides
  return o
end

local function describe(p)
  local ok, s = pcall(jobs_files.encode, p)
  return ok and s or "?"
end

function M.main(args)
  local o, err = M.parse(args)
  if not o then
    io.stderr:write("impact: ", err, "\n", M.usage, "\n")
    return 2
  end
  if o.help then
    io.stdout:write(M.usage, "\n")
    return 0
  end
  local ok, records = pcall(function()
    local chunk, lerr = loadfile(o.sweep, "t")
    if not chunk then error(lerr, 0) end
    local opts = chunk()
    if type(opts) ~= "table" then
      error(o.sweep .. " must return a table of impact.batch options, it returned " .. type(opts), 0)
    end
    for k, v in pairs(o.overrides) do opts[k] = v end
    return require("impact.batch")(opts)
  end)
  if not ok then
    io.stderr:write("impact: ", tostring(records), "\n")
    return 1
  end
  if records.rank and records.rank ~= 0 then return 0 end -- an MPI worker rank: rank 0 reports
  local n_ok, failed, pending = 0, {}, 0
  for i, r in ipairs(records) do
    local state = r.pending and "pending" or r.ok and (r.resumed and "ok (done before)" or "ok")
      or string.format("FAILED (exit %s, log %s)", tostring(r.exit_code), r.log)
    io.stdout:write(string.format("job %d  %s  %s\n", i, describe(r.params), state))
    if r.ok then n_ok = n_ok + 1 elseif r.pending then pending = pending + 1 else failed[#failed + 1] = i end
  end
  if records.slurm then
    io.stdout:write(string.format("slurm: %s (submit with: sh %s)\n", records.slurm.array,
      records.slurm.submit))
  end
  io.stdout:write(string.format("%d of %d jobs ok", n_ok, #records))
  if #failed > 0 then
    local ids = {}
    for k, i in ipairs(failed) do ids[k] = tostring(i) end
    io.stdout:write(", failed: ", table.concat(ids, " "))
  end
  if pending > 0 then io.stdout:write(string.format(", %d pending", pending)) end
  io.stdout:write("\n")
  return #failed == 0 and 0 or 1
end

return M
