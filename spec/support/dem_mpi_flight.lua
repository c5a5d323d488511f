-- A sphere flying across the cut between two ranks (spec/dem_mpi_spec.lua): ten spheres at
-- rest on a line along x (0.05, 0.15, ..., 0.95 m; no contacts) and a flyer at x = 0.3 m with
-- velocity (vx, 0, vz), under gravity, no damping; with 2 ranks the cut is at x = 0.4 m, which
-- the flyer crosses at t = 0.05 s. Rank 0 writes to out: the flyer's final position (from its
-- owner), the rank that owns it, the spheres migrated, the steps, dt.
local impact = require("impact")
local dem = impact.dem
local dem_mpi = require("impact.dem_mpi")

local args = {}
for _, a in ipairs(arg or {}) do
  local k, v = a:match("^([%w_]+)=(.*)$")
  if k then args[k] = v end
end
local steps, dt, vx, vz = tonumber(args.steps or 1000), 1e-4, 2.0, 0.5

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
for k = 0, 9 do
  w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
               position = { 0.05 + 0.1 * k, 0, 1 } }
end
local flyer = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                           position = { 0.3, 0.2, 1 }, velocity = { vx, 0, vz } }
w:set_engines {
  dem.force_resetter(), dem.collider(),
  dem.interaction_loop { physics = { dem.frict { young = 1e7 } }, law = { "cundall_strack" } },
  dem.newton { damping = 0 },
}
w.dt = dt
local info = dem_mpi.decompose(w)
w:run { steps = steps }
local mine = dem_mpi.owns(w, flyer)
local x = mine and flyer.position or { 0, 0, 0 }
local s = dem_mpi.reduce_sum(w, { x[1], x[2], x[3], mine and info.rank or 0, mine and 1 or 0,
                                  dem_mpi.stats(w).migrated })
if info.rank == 0 and args.out then
  local f = assert(io.open(args.out, "w"))
  f:write(string.format("return { x = %.17g, y = %.17g, z = %.17g, owner = %d, owners = %d, "
    .. "migrated = %d, steps = %d, dt = %.17g, vx = %.17g, vz = %.17g, x0 = 0.3, z0 = 1, "
    .. "ranks = %d }\n", s[1], s[2], s[3], s[4], s[5], s[6], steps, dt, vx, vz, info.size))
  f:close()
end
