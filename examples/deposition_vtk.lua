-- 216 spheres deposited into a box (the dem strategy), exported for ParaView: one .vtp file
-- per frame and out/deposition/run.pvd with the times (open it in ParaView, Glyph filter:
-- sphere, scale by radius, factor 2).
-- Run: make run SCRIPT=examples/deposition_vtk.lua
local impact = require("impact")
local dem = impact.dem

local n, D = 6, 0.026
local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local L = n * D
for _, wall in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } },
                        { { -1, 0, 0 }, { L, 0, 0 } }, { { 0, 1, 0 }, { 0, 0, 0 } },
                        { { 0, -1, 0 }, { 0, L, 0 } } } do
  w:add_body { shape = impact.shape3d.wall { normal = wall[1] }, fixed = true, position = wall[2] }
end
for i = 0, n * n * n - 1 do
  local ix, iy, iz = i % n, (i // n) % n, i // (n * n)
  w:add_body { shape = impact.shape3d.sphere { radius = 0.008 + 0.004 * w:random() },
    density = 2600, position = { (ix + 0.5) * D, (iy + 0.5) * D, (iz + 1) * D } }
end
w.engines = { dem.force_resetter(), dem.collider {},
  dem.interaction_loop { geometry = { "sphere_sphere", "wall_sphere" },
    physics = { dem.frict { young = 1e7, ks_ratio = 0.25, friction_angle = 0.5 } },
    law = { "cundall_strack" } },
  dem.newton { damping = 0.2 } }
w.dt = 0.5 * w:p_wave_dt()
local series = impact.vtk.series { w, every = 0.05, dir = "out/deposition", name = "run" }
w:run { until_time = 0.6 }
series:stop()
local top = 0
for _, b in ipairs(w:bodies()) do
  if not b.fixed then top = math.max(top, b.position[3]) end
end
print(string.format("%d spheres settled for 0.6 s in %d steps: highest centre %.4f m, "
  .. "unbalanced force %.3f; ParaView: out/deposition/run.pvd", n * n * n, w.steps, top,
  w:unbalanced_force()))
