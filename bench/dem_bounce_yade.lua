-- dem_bounce_yade.lua: spheres bouncing on a plane with Hertz-Mindlin and a normal restitution
-- en = 0.5, on impact and on Yade, same scene, one thread each (the bouncing sphere of Yade's
-- examples/simple-scene with the law of its examples/test/mindlin.py: FrictMat, Ip2_FrictMat_
-- FrictMat_MindlinPhys(en), Law2_ScGeom_MindlinPhys_Mindlin). A square lattice of identical
-- spheres (radius 5 mm, 4 radii apart: they never touch each other) is dropped from rest onto
-- the wall z = 0 from gaps of 2 to 8 cm (seven heights in turn), no damping, E = 1e7, Poisson
-- 0.3, dt = 0.5 P-wave step. Each sphere's rebound apex is taken the first time it is seen
-- going up out of contact (every 200 steps): apex = gap + vz^2 / (2 g), exact in ballistic
-- flight. The physics: the restitution e = sqrt(apex / drop) must be en for every drop height
-- (Tsuji's damping, cn proportional to kn^(1/2) overlap^(1/4), makes e independent of the
-- impact speed for Hertz's law). Prints each side's time of the steps (wall and CPU, the
-- samplings between chunks excluded), e over the spheres (mean, min, max) and the largest
-- difference of the apexes of the two codes, sphere by sphere. Yade is skipped, with a line
-- saying so, when it is not installed or with DEM_BENCH_YADE=0.
--
--   lua5.4 bench/dem_bounce_yade.lua [SIDE]     (default 50: 2500 spheres)
local impact = require("impact")
local core = require("impact.core")
local dem = impact.dem
local yade_run = dofile((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/yade_run.lua")

yade_run.one_thread()   -- one thread on both sides

local side = math.tointeger(tonumber(arg[1] or "50"))
local r, E, nu, phi, en, rho, g = 0.005, 1e7, 0.3, 0.5, 0.5, 2600, 9.81
local chunk = 200
local spheres, drops = {}, {}
for i = 0, side - 1 do
  for j = 0, side - 1 do
    local drop = 0.02 + 0.01 * ((i * side + j) % 7)
    spheres[#spheres + 1] = { center = { 4 * r * i, 4 * r * j, r + drop }, radius = r }
    drops[#drops + 1] = drop
  end
end

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -g } }
w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true }
local bodies = dem.add_spheres(w, spheres, { density = rho })
w.engines = { dem.force_resetter(), dem.collider {},
              dem.interaction_loop { physics = { dem.mindlin { young = E, poisson = nu,
                                                               friction_angle = phi, en = en } },
                                     law = { "hertz_mindlin" } },
              dem.newton { damping = 0 } }
w.dt = 0.5 * w:p_wave_dt()
-- the highest drop's fall and rebound, with a margin
local steps = math.ceil((math.sqrt(2 * 0.08 / g) * (1 + en) + 0.01) / w.dt)

local wall, cpu = 0, 0
local apex = {}
while w.steps < steps do
  local t0, c0 = core.clock(), os.clock()
  w:run { steps = math.min(chunk, steps - w.steps) }
  wall, cpu = wall + core.clock() - t0, cpu + os.clock() - c0
  for k, b in ipairs(bodies) do
    if not apex[k] then
      local gap, vz = b.position[3] - r, b.velocity[3]
      if gap > 0 and vz > 0 then apex[k] = gap + vz * vz / (2 * g) end
    end
  end
end

local function summary(a)
  local sum, lo, hi, n = 0, math.huge, -math.huge, 0
  for k = 1, #drops do
    if a[k] and a[k] >= 0 then
      local e = math.sqrt(a[k] / drops[k])
      sum, n = sum + e, n + 1
      lo, hi = math.min(lo, e), math.max(hi, e)
    end
  end
  return { mean = n > 0 and sum / n or 0 / 0, lo = lo, hi = hi, n = n }
end

local function show(name, t, e)
  print(string.format("  %-6s %6.2f s wall %6.2f s CPU, %d steps: %.3e particle-steps/s (CPU); "
    .. "restitution over %d spheres: mean %.4f, min %.4f, max %.4f (en = %g)", name, t.wall, t.cpu,
    t.steps, #spheres * t.steps / t.cpu, e.n, e.mean, e.lo, e.hi, en))
end

print(string.format("bouncing spheres (Hertz-Mindlin, en = %g, no damping): %d spheres of "
  .. "radius %g m dropped from %g to %g m on a wall, E = %g, Poisson %g, dt = %.4g s, one "
  .. "thread each", en, #spheres, r, 0.02, 0.08, E, nu, w.dt))
local us = summary(apex)
show("impact", { wall = wall, cpu = cpu, steps = w.steps }, us)

local out = yade_run.beside("bench/yade_bounce.py", string.format("scene %.17g %.17g %.17g %.17g "
  .. "%.17g %d %d", E, nu, phi, en, rho, steps, chunk), spheres, {}, { YADE_BOUNCE = true },
  { YADE_APEX = true })
if not out then return end
local y, yapex = out.YADE_BOUNCE, out.YADE_APEX
show("Yade", y, summary(yapex))
local worst = 0
for k = 1, #spheres do
  if apex[k] and yapex[k] and yapex[k] > 0 then
    worst = math.max(worst, math.abs(apex[k] - yapex[k]) / yapex[k])
  end
end
print(string.format("  impact / Yade (Yade %s): %.2fx faster per step (CPU), dt %.4g vs %.4g s; "
  .. "largest apex difference, sphere by sphere: %.2e (relative)", y.version,
  (y.cpu / y.steps) / (cpu / w.steps), w.dt, y.dt, worst))
