-- A Yade user's triaxial test (the idea of Yade's triax-tutorial, script-session1): a loose
-- cloud in a box of six frictionless walls, servoed to an isotropic confining pressure
-- (TriaxialStressController), then compressed along z at a constant strain rate while the
-- lateral walls keep the confining pressure. The deviator q = |szz - sxx| and the volumetric
-- strain are recorded and plotted live against the axial strain.
--
--   lua5.4 examples/triaxial_test.lua [confining_Pa] [axial_strain]   (default 1e4 Pa, 0.05)
--   writes triaxial_test.svg (redrawn while the run goes) and triaxial_test.csv
local impact = require("impact")
local dem = impact.dem

local p = tonumber(arg[1] or "1e4")
local final_strain = tonumber(arg[2] or "0.05")
local L = 0.1

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
local spheres = dem.cloud { box = { { 0, 0, 0 }, { L, L, L } },
                            psd = { mean = 0.014, spread = 0.2 }, porosity = 0.6, seed = 1 }
dem.add_spheres(w, spheres, { density = 2600 })
local walls = dem.aabb_walls(w, { lo = { 0, 0, 0 }, hi = { L, L, L } })
print(string.format("%d spheres in a %g m box", #spheres, L))

local phase = "isotropic"
local triax = dem.triax { walls = walls, goal = { -p, -p, -p }, strain_rate = 5,
  max_unbalanced = 0.01, tolerance = 0.01, label = "triax",
  done = function(ww, e)
    if phase ~= "isotropic" then return end
    phase = "deviatoric"
    print(string.format("confined at %g Pa after %d steps: porosity %.3f, coordination %.2f",
      p, ww.steps, ww:porosity { volume = e.volume }, ww:coordination()))
    e.stress_mask = 3          -- x and y keep the confining stress
    e.goal = { -p, -p, -0.2 }  -- z: strain rate -0.2 / s (compression)
  end }
w.engines = {
  dem.force_resetter(), dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = 1e8, friction_angle = 0.5,
                                                 wall_friction_angle = 0 } } },
  triax,
  dem.newton { damping = 0.4 },
}
w.dt = 0.5 * w:p_wave_dt()

-- the isotropic phase
while phase == "isotropic" and w.steps < 100000 do w:run { steps = 500 } end
if phase == "isotropic" then error("the sample did not reach the confining pressure") end

-- the deviatoric phase, recorded from here
local ez0, ev0 = triax.strain[3], nil
local function axial() return -(triax.strain[3] - ez0) end
local function volumetric()
  local s = triax.strain
  local ev = (1 + s[1]) * (1 + s[2]) * (1 + s[3]) - 1
  ev0 = ev0 or ev
  return -(ev - ev0)
end
local columns = {
  axial_strain = axial,
  q = function() return math.abs(triax.stress[3] - triax.stress[1]) end,
  lateral = function() return -(triax.stress[1] + triax.stress[2]) / 2 end,
  volumetric_strain = volumetric,
}
local live = impact.plot.live { w, every_steps = 200, redraw = 10, file = "triaxial_test.svg",
  x = "axial_strain", y = { "q", "lateral" }, title = "Triaxial test: deviator and confining (Pa)",
  columns = columns }
while axial() < final_strain do w:run { steps = 200 } end
live:draw()
live:stop()
live.recorder:write_csv("triaxial_test.csv")

local s = triax.stress
local q = math.abs(s[3] - s[1])
local mean = -(s[1] + s[2] + s[3]) / 3
print(string.format("axial strain %.3f: szz %.4g Pa, lateral %.4g %.4g Pa (goal %g)", axial(),
  s[3], s[1], s[2], -p))
print(string.format("deviator q = %.4g Pa, q / p = %.3f, volumetric strain %.4f", q, q / mean,
  volumetric()))
-- Mohr-Coulomb: sin(phi) = (s1 - s3) / (s1 + s3) with s1 axial, s3 lateral compressions
local s1, s3 = -s[3], -(s[1] + s[2]) / 2
print(string.format("mobilised friction angle %.1f degrees", math.deg(math.asin((s1 - s3) / (s1 + s3)))))
