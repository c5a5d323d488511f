-- dem_triax_yade.lua: a triaxial test on impact and on Yade, same scene, one thread each (Yade's
-- examples/triax-tutorial/script-session1.py without its sphere growth: impact has no
-- internalCompaction). A cloud of spheres (dem.cloud, seed 1) in a box of six frictionless
-- walls, linear Cundall-Strack law (E = 1e8, ks/kn = 0.5 as the tutorial's FrictMat poisson,
-- friction angle 30 degrees), damping 0.2, dt = 0.5 P-wave step, no gravity: the walls are
-- servoed to an isotropic 10 kPa (mean wall stresses within 1 %, unbalanced force < 0.01), then
-- z is compressed at 0.5 / s with x and y at 10 kPa, to an axial strain of 0.1. Prints each
-- side's time of the steps (wall and CPU; start-up and scene building excluded), steps, final
-- stresses, the mobilised friction angle and porosity. The same spheres go to Yade through a
-- text file (bench/yade_triax.py); Yade is skipped, with a line saying so, when it is not
-- installed or with DEM_BENCH_YADE=0.
--
--   lua5.4 bench/dem_triax_yade.lua [N_APPROX] [AXIAL_STRAIN]     (default 800 spheres, 0.1)
local impact = require("impact")
local core = require("impact.core")
local dem = impact.dem
local yade_run = dofile((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/yade_run.lua")

yade_run.one_thread()   -- one thread on both sides

local n_approx = tonumber(arg[1] or "800")
local final = tonumber(arg[2] or "0.1")
local L, p, E, ks, phi, rate = 0.1, 1e4, 1e8, 0.5, math.rad(30), 0.5
-- the mean diameter giving about n_approx spheres at porosity 0.6 in the box
local d = (0.4 * L ^ 3 / n_approx / (math.pi / 6)) ^ (1 / 3)
local spheres = dem.cloud { box = { { 0, 0, 0 }, { L, L, L } }, psd = { mean = d, spread = 0.2 },
                            porosity = 0.6, seed = 1 }

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
dem.add_spheres(w, spheres, { density = 2600 })
local walls = dem.aabb_walls(w, { lo = { 0, 0, 0 }, hi = { L, L, L } })
local confined = false
local triax = dem.triax { walls = walls, goal = { -p, -p, -p }, strain_rate = 5,
                          max_unbalanced = 0.01, tolerance = 0.01,
                          done = function() confined = true end }
w.engines = { dem.force_resetter(), dem.collider {},
              dem.interaction_loop { physics = { dem.frict { young = E, ks_ratio = ks,
                friction_angle = phi, wall_friction_angle = 0 } } },
              triax, dem.newton { damping = 0.2 } }
w.dt = 0.5 * w:p_wave_dt()

local wall, cpu = 0, 0
local function run(n)
  local t0, c0 = core.clock(), os.clock()
  w:run { steps = n }
  wall, cpu = wall + core.clock() - t0, cpu + os.clock() - c0
end

while not confined and w.steps < 200000 do run(100) end
local iso_steps, iso_porosity = w.steps, w:porosity { volume = triax.volume }
triax.stress_mask = 3
triax.goal = { -p, -p, -rate }
local h0 = triax.size[3]
local function axial() return 1 - triax.size[3] / h0 end
while axial() < final and w.steps < iso_steps + 1000000 do run(100) end
local s = triax.stress
local us = { n = #spheres, steps = w.steps, iso_steps = iso_steps, wall = wall, cpu = cpu,
             iso_porosity = iso_porosity, porosity = w:porosity { volume = triax.volume },
             axial_strain = axial(), s1 = -s[3], s3 = -(s[1] + s[2]) / 2, dt = w.dt }

local function angle(r) return math.deg(math.asin((r.s1 - r.s3) / (r.s1 + r.s3))) end

local function show(name, r)
  print(string.format("  %-6s %6.2f s wall %6.2f s CPU, %d steps (%d isotropic): %.3e "
    .. "particle-steps/s (CPU); confined porosity %.4f; at axial strain %.4f: s1 %.0f Pa, s3 %.0f "
    .. "Pa, friction angle %.1f deg, porosity %.4f", name, r.wall, r.cpu, r.steps, r.iso_steps,
    r.n * r.steps / r.cpu, r.iso_porosity, r.axial_strain, r.s1, r.s3, angle(r), r.porosity))
end

print(string.format("triaxial test (Yade's triax-tutorial scene, wall servo): %d spheres, "
  .. "E = %g, ks/kn = %g, friction %g deg, confining %g Pa, axial rate %g / s to %g, "
  .. "dt = %.4g s, one thread each", #spheres, E, ks, math.deg(phi), p, rate, final, w.dt))
show("impact", us)

local out = yade_run.beside("bench/yade_triax.py", string.format("box %.17g %.17g %.17g %.17g %.17g",
  L, E, ks, phi, rate), spheres, { p, final }, { YADE_TRIAX = true })
if not out then return end
local y = out.YADE_TRIAX
show("Yade", y)
print(string.format("  impact / Yade (Yade %s): %.2fx faster per step (CPU), %.2fx in total CPU; "
  .. "dt %.4g vs %.4g s; friction angle %+.1f deg, porosity %+.4f, s1 %+.1f %%", y.version,
  (y.cpu / y.steps) / (us.cpu / us.steps), y.cpu / us.cpu, us.dt, y.dt, angle(us) - angle(y),
  us.porosity - y.porosity, 100 * (us.s1 - y.s1) / y.s1))
