-- dem_triax_dense.lua: a drained triaxial test of a dense sphere packing in a periodic cell (the
-- idea of Yade's triax-basic with its PeriTriaxController). A cloud is compacted without friction
-- to an isotropic 10 kPa (random close packing), the friction is raised, and the cell is
-- compressed along z at a constant rate with x and y held at 10 kPa. Prints the mobilised friction
-- angle phi = asin((s1 - s3) / (s1 + s3)) and the volumetric strain (dilation > 0) along the
-- axial strain, and the peak.
--
--   lua5.4 examples/dem_triax_dense.lua [MEAN_D] [SEED] [ROLLING] [FINAL] [RATE]
--       (default 0.013 m (282 spheres), seed 3, rolling resistance 0, to 7 % at 0.25 / s;
--        every contact at 30 degrees: with_friction below)
--
-- Loaded with loadfile(path)("module") it returns its parts instead, which
-- spec/dem_reference_triax_spec.lua and bench/dem_triax_peri_yade.lua share:
--   compacted(mean_d, seed) -> w, tri, law, done   (done: the compaction reached its goal)
--   with_friction(w, friction_deg) -> w2, tri2, law2: the same sample, every contact frictional
--   sheared(w, tri, law, friction_deg, rolling, rate, final) -> {peak, at, ev_peak, ev_end,
--       ev_min, curve = {{ea, phi, ev, s3, ea_sample}, ... every 100 steps}, steps}: ea is the
--       shortening over the side of the box before compaction (0.1 m), ea_sample over the
--       sample's height when the shear starts (its side after compaction, about 0.086 m)
--   E, p: the Young's modulus (Pa) and the confining pressure (Pa).
local impact = require("impact")
local dem = impact.dem

local M = {}
M.E, M.p = 1e8, 1e4   -- stiffness level kn / (p d) = E / (2 p) = 5000: stiff grains

-- a cloud in a periodic cell compacted without friction to the isotropic goal -p; returns the
-- world, its controller, its contact law and whether the goal was reached
function M.compacted(mean, seed)
  local L, p = 0.1, M.p
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
  dem.add_spheres(w, dem.cloud { box = { { 0, 0, 0 }, { L, L, L } },
                                 psd = { mean = mean, spread = 0.2 }, porosity = 0.6,
                                 seed = seed }, { density = 2600 })
  w:set_cell { size = { L, L, L } }
  local done = false
  local tri = dem.peri_triax { goal = { -p, -p, -p }, strain_rate = 10, max_unbalanced = 0.01,
                               tolerance = 0.01, label = "triax",
                               done = function() done = true end }
  local law = dem.frict { young = M.E, friction_angle = 0 }
  w.engines = { dem.force_resetter(), dem.collider {}, dem.interaction_loop { physics = { law } },
                tri, dem.newton { damping = 0.6 } }
  w.dt = 0.5 * w:p_wave_dt()
  while not done and w.steps < 150000 do w:run { steps = 100 } end
  return w, tri, w.engines[3].physics, done
end

-- the sample of w (after compacted) in a new world whose contacts all have the friction angle
-- friction_deg: the same spheres (positions, radii, velocities, spins), the same cell, the
-- engines of compacted. Raising the law's friction_angle in w itself reaches only the contacts
-- made afterwards: a contact's friction is set when it is made (as Yade's FrictPhys, which is why
-- Yade's triaxial scripts call setContactFriction); here every contact is made again, at the
-- first step, as Yade makes them when it reads the same spheres (bench/yade_triax_peri.py).
function M.with_friction(w0, friction_deg)
  local p = M.p
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
  local spheres, old = {}, w0:bodies()
  for i, b in ipairs(old) do
    spheres[i] = { center = b.position, radius = b.shape:bounding_radius() }
  end
  local bodies = dem.add_spheres(w, spheres, { density = 2600 })
  for i, b in ipairs(bodies) do
    b.velocity, b.angular_velocity = old[i].velocity, old[i].angular_velocity
  end
  w:set_cell { size = w0:cell().size }
  local tri = dem.peri_triax { goal = { -p, -p, -p }, strain_rate = 10, max_unbalanced = 0.01,
                               tolerance = 0.01, label = "triax" }
  local law = dem.frict { young = M.E, friction_angle = math.rad(friction_deg) }
  w.engines = { dem.force_resetter(), dem.collider {}, dem.interaction_loop { physics = { law } },
                tri, dem.newton { damping = 0.6 } }
  w.dt = w0.dt
  return w, tri, w.engines[3].physics
end

-- axial compression at `rate` (1/s) with the lateral stress held at p, to the axial strain
-- `final`; returns the peak friction angle (degrees), the axial strain there, the volumetric
-- strains (dilation > 0) at the peak, at the end and at their least, and the curve
function M.sheared(w, tri, law, friction_deg, rolling, rate, final)
  local p = M.p
  law.friction_angle = math.rad(friction_deg)
  law.rolling = rolling
  local ez0, v0, h0, steps0 = w:cell().strain[3][3], w:cell().volume, w:cell().size[3], w.steps
  tri.stress_mask = 3
  tri.goal = { -p, -p, ez0 - 2 * final }
  tri.strain_rate = rate
  tri.max_unbalanced = 1e9
  w.engines[5].damping = 0.2
  local peak, at, ev_peak, ev_min = -1, 0, 0, 0
  local ea, ev, curve = 0, 0, {}
  while ea < final do
    w:run { steps = 100 }
    local s = w:stress()
    local s1, s3 = -s[3][3], -(s[1][1] + s[2][2]) / 2
    local phi = math.deg(math.asin((s1 - s3) / (s1 + s3)))
    ea = ez0 - w:cell().strain[3][3]
    ev = math.log(w:cell().volume / v0)
    curve[#curve + 1] = { ea, phi, ev, s3, 1 - w:cell().size[3] / h0 }
    ev_min = math.min(ev_min, ev)
    if phi > peak then peak, at, ev_peak = phi, ea, ev end
  end
  return { peak = peak, at = at, ev_peak = ev_peak, ev_end = ev, ev_min = ev_min, curve = curve,
           steps = w.steps - steps0 }
end

if ... == "module" then return M end

local mean = tonumber(arg and arg[1] or "0.013")
local seed = tonumber(arg and arg[2] or "3")
local rolling = tonumber(arg and arg[3] or "0")
local final = tonumber(arg and arg[4] or "0.07")
local rate = tonumber(arg and arg[5] or "0.25")
local w, _, _, done = M.compacted(mean, seed)
if not done then error("the compaction did not reach its goal in 150000 steps") end
print(string.format("%d spheres: porosity %.4f, coordination %.2f after compaction",
  #w:bodies(), w:porosity(), w:coordination()))
local w2, tri2, law2 = M.with_friction(w, 30)
local r = M.sheared(w2, tri2, law2, 30, rolling, rate, final)
for _, c in ipairs(r.curve) do
  print(string.format("axial strain %.4f  friction angle %5.2f deg  volumetric strain %+.4f", c[1],
    c[2], c[3]))
end
print(string.format("peak %.2f deg at axial strain %.4f (rolling %g), dilation %.4f at the end",
  r.peak, r.at, rolling, r.ev_end))
