-- Clumps of spheres (Yade's clumps) poured into a box: dumbbells and trimers of spheres with
-- the linear law, Cundall's damping 0.2, until the packing settles. Prints the clumps' mass
-- properties, the contacts by kind (never between members of one clump) and the energy
-- balance kept by the engine.
--   lua5.4 examples/dem_clumps.lua [clumps per side (3)] [max steps (40000)]
local impact = require("impact")
local dem = impact.dem

local n = tonumber(arg and arg[1]) or 3
local max_steps = tonumber(arg and arg[2]) or 40000
local L = 0.05 * n  -- the box's inner size

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local walls = {
  { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } }, { { -1, 0, 0 }, { L, 0, 0 } },
  { { 0, 1, 0 }, { 0, 0, 0 } }, { { 0, -1, 0 }, { 0, L, 0 } },
}
for _, wl in ipairs(walls) do
  w:add_body { shape = impact.shape3d.wall { normal = wl[1] }, fixed = true, position = wl[2] }
end

local clumps = {}
for i = 0, n * n * n - 1 do
  local x = 0.05 * (i % n) + 0.025
  local y = 0.05 * ((i // n) % n) + 0.025
  local z = 0.05 * (i // (n * n)) + 0.03
  local a = 0.9 * i  -- each turned differently about z
  local c, s = math.cos(a), math.sin(a)
  local spheres
  if i % 2 == 0 then  -- a dumbbell of two overlapping spheres
    spheres = { { center = { x - 0.008 * c, y - 0.008 * s, z }, radius = 0.01 },
                { center = { x + 0.008 * c, y + 0.008 * s, z }, radius = 0.01 } }
  else                -- a trimer of three separate spheres
    spheres = { { center = { x, y, z }, radius = 0.009 },
                { center = { x + 0.016 * c, y + 0.016 * s, z }, radius = 0.006 },
                { center = { x - 0.008 * s, y + 0.008 * c, z + 0.012 }, radius = 0.005 } }
  end
  clumps[#clumps + 1] = w:add_clump { spheres = spheres, density = 2600 }
end

for k = 1, 2 do
  local b = clumps[k]
  local I = b.inertia
  print(string.format("%s: %d members, mass %.6g kg, inertia diag %.4g %.4g %.4g kg m^2 (%s)",
    k == 1 and "dumbbell" or "trimer", #b:members(), b.mass, I[1][1], I[2][2], I[3][3],
    k == 1 and "overlap counted once" or "no overlap"))
end

local same_clump = 0
w.engines = {
  dem.force_resetter(),
  dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = 1e7, ks_ratio = 0.3, friction_angle = 0.5 } } },
  dem.newton { damping = 0.2, track_energy = true },
  dem.every { iterations = 2000, fn = function(s)
    for _, I in ipairs(s:interactions { all = true }) do
      if I.body1 == I.body2 then same_clump = same_clump + 1 end
    end
    local u = s:unbalanced_force()
    print(string.format("step %6d  t = %.3f s  real contacts %4d  unbalanced %.4f", s.steps,
      s.time, s:dem_stats().real, u))
    if s.steps >= 10000 and u < 0.01 then
      print("settled: unbalanced force below 0.01")
      s:pause()
    end
  end },
}
w.dt = 0.5 * w:p_wave_dt()
w:run { steps = max_steps }

local wall_contacts, clump_contacts = 0, 0
for _, I in ipairs(w:interactions()) do
  if I.body1.shape.kind == "wall" then
    wall_contacts = wall_contacts + 1
  else
    clump_contacts = clump_contacts + 1
  end
end
print(string.format("final: step %d, %d member-wall and %d member-member contacts between "
  .. "clumps, %d within a clump", w.steps, wall_contacts, clump_contacts, same_clump))
local e = w:dem_energy()
print(string.format("energy: gravity's work %.6f J = kinetic %.2e + elastic %.2e + damping "
  .. "%.6f + sliding %.6f (%.2f %% unbooked: the sliding loss is booked to O(dt))",
  e.gravity_work, e.kinetic, e.elastic, e.damping, e.plastic,
  100 * (1 - (e.kinetic + e.elastic + e.damping + e.plastic) / e.gravity_work)))
