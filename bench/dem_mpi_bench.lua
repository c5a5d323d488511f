-- The dem strategy on 1 and 2 MPI ranks (impact.dem_mpi): the gravity deposition of
-- bench/bench_dem.c at N = 200,000 (100 x 100 x 20 spheres, spec/support/dem_mpi_deposit.lua),
-- DEM_MPI_BENCH_STEPS steps (default 200: the pile still falling, so rates only), one thread per
-- rank. Per run: particle-steps per second (wall time of the steps, the slowest rank), the
-- parallel efficiency (rate on 2 ranks / 2 x rate on 1), the communication share (time inside
-- the message layer, waiting included, over the ranks' time), the ghosts and the bytes and
-- messages per step (the figures of the 64-rank estimate in doc/manual/05-dem.md). Skipped with
-- a line when mpirun or impact.mpi (build/impact/mpi.so) is missing. On a loaded machine the
-- wall times are noise: "busy" (the slowest rank's time outside the message layer) is printed too.
local steps = math.tointeger(tonumber(os.getenv("DEM_MPI_BENCH_STEPS") or "")) or 200
-- DEM_MPI_BENCH_NZ: fewer layers for a quicker run (building 200,000 bodies through w:add_body
-- takes minutes: its cost grows with the world's size)
local nx, ny = 100, 100
local nz = math.tointeger(tonumber(os.getenv("DEM_MPI_BENCH_NZ") or "")) or 20
local n = nx * ny * nz

local function say(fmt, ...) io.write(string.format(fmt, ...), "\n") io.flush() end

say("dem on MPI ranks: deposition N = %d, %d steps (impact.dem_mpi)", n, steps)
if not os.execute("command -v mpirun >/dev/null 2>&1") then
  say("  skipped: mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)")
  return
end
if not package.searchpath("impact.mpi", package.cpath) then
  say("  skipped: impact.mpi not built (make, with Open MPI installed)")
  return
end
local out = os.tmpname()
local env = string.format("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
  .. "OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 LUA_PATH_5_4=%q LUA_CPATH_5_4=%q",
  package.path, package.cpath)

local function run(np)
  local launcher = np == 1 and "" or string.format("mpirun -np %d --oversubscribe", np)
  local cmd = string.format("%s %s lua5.4 spec/support/dem_mpi_deposit.lua nx=%d ny=%d nz=%d "
    .. "steps=%d energy=0 out=%s 2>&1", env, launcher, nx, ny, nz, steps, out)
  local p = assert(io.popen(cmd))
  local text = p:read("a")
  if not p:close() then
    say("  %d rank(s) failed: %s", np, text)
    return nil
  end
  return dofile(out)
end

local one, two = run(1), run(2)
os.remove(out)
if not (one and two) then return end
for _, r in ipairs { one, two } do
  local ranks = r.ranks
  say("  %d rank%s: %.3g particle-steps/s (%.2f s wall, busy %.2f s, CPU %.2f s over the ranks), "
    .. "comm %.1f %% of the ranks' time, ghosts %d, %.3g MB and %.0f messages per step, "
    .. "%d updates, %d migrated, mean z %.5f m", ranks, ranks > 1 and "s" or "",
    r.n * r.steps / r.wall, r.wall, r.busy, r.cpu,
    ranks > 1 and 100 * r.comm / (ranks * r.wall) or 0, r.ghosts, r.bytes / r.steps / 1e6,
    r.messages / r.steps, r.updates, r.migrated, r.mean_z)
end
say("  parallel efficiency on 2 ranks: %.2f (wall), %.2f (busy: outside the message layer)",
  one.wall / (2 * two.wall), one.wall / (2 * two.busy))
