-- The gravity deposition of bench/bench_dem.c (yade.md scenario A: the same radii, jitter,
-- density, walls, law and dt), nx x ny x nz spheres, run as one script on one rank or under
-- mpirun (spec/dem_mpi_spec.lua, bench/dem_mpi_bench.lua). Arguments (key=value): nx, ny, nz,
-- steps, out (rank 0 writes the results there as a Lua table), mpi (1: decompose even on one
-- rank), save=path with save_at=k (dem_mpi.save after step k of the steps), load=path (start
-- from dem_mpi.load instead of building), energy (0: off).
local impact = require("impact")
local dem = impact.dem
local dem_mpi = require("impact.dem_mpi")

local args = {}
for _, a in ipairs(arg or {}) do
  local k, v = a:match("^([%w_]+)=(.*)$")
  if k then args[k] = v end
end
local nx, ny, nz = tonumber(args.nx or 25), tonumber(args.ny or 16), tonumber(args.nz or 5)
local steps = tonumber(args.steps or 6000)
local track = args.energy ~= "0"

local function build()
  local D, rho = 0.026, 2600
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
  local lx, ly = nx * D, ny * D
  for _, p in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } },
                       { { -1, 0, 0 }, { lx, 0, 0 } }, { { 0, 1, 0 }, { 0, 0, 0 } },
                       { { 0, -1, 0 }, { 0, ly, 0 } } } do
    w:add_body { shape = impact.shape3d.wall { normal = p[1] }, fixed = true, position = p[2] }
  end
  for i = 0, nx * ny * nz - 1 do
    local ix, iy, iz = i % nx, (i // nx) % ny, i // (nx * ny)
    local jx = 0.0008 * (((i * 53) % 17) - 8) / 8
    local jy = 0.0008 * (((i * 71) % 19) - 9) / 9
    local r = 0.008 + 0.004 * ((i * 37) % 101) / 100
    w:add_body { shape = impact.shape3d.sphere { radius = r }, density = rho,
                 position = { (ix + 0.5) * D + jx, (iy + 0.5) * D + jy, (iz + 1) * D } }
  end
  w:set_engines {
    dem.force_resetter(),
    dem.collider { verlet_distance = -0.1 },
    dem.interaction_loop { physics = { dem.frict { young = 1e7, ks_ratio = 0.3, friction_angle = 0.5 } },
                           law = { "cundall_strack" } },
    dem.newton { damping = 0.2, track_energy = track },
  }
  w.dt = 0.5 * w:p_wave_dt()
  return w
end

local w, info
if args.load then
  w = dem_mpi.load(args.load)
  info = { rank = dem_mpi.rank(w), size = dem_mpi.size(w) }
else
  w = build()
  info = dem_mpi.decompose(w, { mpi = args.mpi == "1" or nil })
end
local mz0 = dem_mpi.packing(w).mz
local wall0 = require("impact.core").dem_wall_clock()
local cpu0 = os.clock()
local save_at = tonumber(args.save_at or -1)
if args.save and save_at >= 0 then
  w:run { steps = save_at }
  dem_mpi.save(w, args.save)
  w:run { steps = steps - save_at }
else
  w:run { steps = steps }
end
local cpu = os.clock() - cpu0
local wall = require("impact.core").dem_wall_clock() - wall0
local p = dem_mpi.packing(w)
local e = dem_mpi.energy(w)
local s = dem_mpi.stats(w)
-- the state's fingerprint: every owned sphere's position, summed in slot order per rank (the
-- same bits on a rerun)
local fp = 0
for _, b in ipairs(dem_mpi.bodies(w)) do
  local x = b.position
  fp = fp + x[1] * 1.0 + x[2] * 3.0 + x[3] * 7.0
end
fp = dem_mpi.reduce_sum(w, fp)
local all = dem_mpi.reduce_sum(w, { cpu, s.comm_seconds, s.domain_seconds, s.ghosts, s.bytes_sent,
                                    s.messages, s.migrated })
local most = dem_mpi.reduce_max(w, { wall, wall - s.comm_seconds })
if info.rank == 0 and args.out then
  local f = assert(io.open(args.out, "w"))
  f:write(string.format("return { count = %d, mean_z = %.17g, top = %.17g, fingerprint = %.17g, "
    .. "gravity_work = %.17g, kinetic = %.17g, elastic = %.17g, damping = %.17g, plastic = %.17g, "
    .. "ranks = %d, cpu = %.6g, comm = %.6g, domain = %.6g, ghosts = %d, bytes = %.17g, "
    .. "messages = %d, migrated = %d, updates = %d, steps = %d, n = %d, mz0 = %.17g, mz = %.17g, "
    .. "wall = %.6g, busy = %.6g }\n",
    p.count, p.mean_z, p.top, fp, e.gravity_work, e.kinetic, e.elastic, e.damping, e.plastic,
    info.size, all[1], all[2], all[3], all[4], all[5], all[6], all[7], s.updates, steps,
    nx * ny * nz, mz0, p.mz, most[1], most[2]))
  f:close()
end
