-- Gravity deposition of polydisperse spheres in an open box, scripted the way Yade users
-- script it (../shared/reference/yade.md, scenario A; Yade's deposit.py line by line):
-- an engine list, a periodic checkpoint runner placed first, a stop when the packing settles.
--
--   lua5.4 examples/dem_deposition.lua [NXxNYxNZ] [steps] [damping]     (default 10x10x10 20000 0.2)
local impact = require("impact")
local dem = impact.dem

local layout = arg[1] or "10x10x10"
local nx, ny, nz = layout:match("^(%d+)x(%d+)x(%d+)$")
nx, ny, nz = tonumber(nx), tonumber(ny), tonumber(nz)
assert(nx, "layout must be NXxNYxNZ, got " .. layout)
local steps = math.tointeger(tonumber(arg[2] or "20000"))
local damping = tonumber(arg[3] or "0.2")
local N = nx * ny * nz

local D, rho = 0.026, 2600
local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local LX, LY = nx * D, ny * D
-- five infinite walls, normals pointing into the box (open top)
for _, wall in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } },
                        { { -1, 0, 0 }, { LX, 0, 0 } }, { { 0, 1, 0 }, { 0, 0, 0 } },
                        { { 0, -1, 0 }, { 0, LY, 0 } } } do
  w:add_body { shape = impact.shape3d.wall { normal = wall[1] }, fixed = true, position = wall[2] }
end
local spheres, z0 = {}, 0
for i = 0, N - 1 do
  local ix, iy, iz = i % nx, (i // nx) % ny, i // (nx * ny)
  local r = 0.008 + 0.004 * ((i * 37) % 101) / 100.0
  local jx = 0.0008 * (((i * 53) % 17) - 8) / 8.0
  local jy = 0.0008 * (((i * 71) % 19) - 9) / 9.0
  spheres[#spheres + 1] = w:add_body { shape = impact.shape3d.sphere { radius = r },
    density = rho, position = { (ix + 0.5) * D + jx, (iy + 0.5) * D + jy, (iz + 1.0) * D } }
  z0 = z0 + (iz + 1.0) * D / N
end

local function mean_z()
  local s = 0
  for _, b in ipairs(spheres) do s = s + b.position[3] end
  return s / N
end

local clock = os.clock()
w.engines = {
  dem.every { iterations = 500, fn = function(s)
    local st = s:dem_stats()
    print(string.format("step %6d  t = %.4f s  mean z %.5f  real contacts %5d  unbalanced %.4f  "
      .. "(%.0f steps/s CPU)", s.steps, s.time, mean_z(), st.real, s:unbalanced_force(),
      500 / (os.clock() - clock)))
    if s.steps == 500 then
      local a = -(1 - damping) * 9.81
      print(string.format("  free fall: mean z %.11f, leapfrog closed form %.11f", mean_z(),
        z0 + a * s.dt ^ 2 * 500 * 501 / 2))
    end
    if s.steps >= 5000 and s:unbalanced_force() < 0.01 then
      print("  settled: unbalanced force below 0.01")
      s:pause()
    end
    clock = os.clock()
  end },
  dem.force_resetter(),
  dem.collider { verlet_distance = -0.1 },
  dem.interaction_loop { geometry = { "sphere_sphere", "wall_sphere" },
                         physics = { dem.frict { young = 1e7, ks_ratio = 0.3, friction_angle = 0.5 } },
                         law = { "cundall_strack" } },
  dem.newton { damping = damping, label = "newton" },
}
w.dt = 0.5 * w:p_wave_dt()
print(string.format("%d spheres, dt = %.15g s (0.5 P-wave step)", N, w.dt))
w:run { steps = steps }
print(string.format("final: step %d, mean z %.5f, real contacts %d", w.steps, mean_z(),
  w:dem_stats().real))
