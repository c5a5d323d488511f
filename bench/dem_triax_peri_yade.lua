-- dem_triax_peri_yade.lua: the dense triaxial test of spec/dem_reference_triax_spec.lua (a
-- periodic cell, examples/dem_triax_dense.lua) on impact and on Yade from the same compacted
-- sample, one thread each. impact compacts the cloud without friction to 10 kPa; its spheres
-- (positions, radii, velocities, spins) and its cell go to Yade through a text file
-- (bench/yade_triax_peri.py); then each code shears that sample, friction 30 degrees, x and y at
-- 10 kPa, z at RATE, to the same shortening: Yade's PeriTriaxController and Law2_ScGeom_FrictPhys_
-- CundallStrack, with a rolling resistance eta_r Law2_ScGeom6D_CohFrictPhys_CohesionMoment
-- (CohFrictMat alphaKr = 2, etaRoll = eta_r, incremental form: impact's rolling law). Prints,
-- for each eta_r, the friction angle and the volumetric strain of both at axial strains of 1 to
-- 8 % of the sample's height, the peaks and the CPU time of the shear. Yade is skipped, with a
-- line saying so, when it is not installed or with DEM_BENCH_YADE=0.
--
--   lua5.4 bench/dem_triax_peri_yade.lua [MEAN_D] [SEED] [FINAL] [RATE] [ETA_R,...] [MODE,...]
--       (default 0.013 m: 282 spheres, seed 3, 0.07 of the box before compaction, 0.25 / s, 0,0.1:
--        the spec's first test; modes: all (the default) or new or all,new: every contact at 30
--        degrees (the sample read into a new world on both sides), or only those made during
--        the shear (impact's world after compaction with its law's friction raised; Yade's after
--        one step))
local impact = require("impact")
local dem = impact.dem
local top = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.."
local yade_run = dofile(top .. "/bench/yade_run.lua")
local triax = loadfile(top .. "/examples/dem_triax_dense.lua")("module")

yade_run.one_thread()   -- one thread on both sides

local mean = tonumber(arg[1] or "0.013")
local seed = tonumber(arg[2] or "3")
local final = tonumber(arg[3] or "0.07")
local rate = tonumber(arg[4] or "0.25")
local etas = {}
for v in (arg[5] or "0,0.1"):gmatch("[^,]+") do etas[#etas + 1] = tonumber(v) end
local modes = {}
for v in (arg[6] or "all"):gmatch("[^,]+") do modes[#modes + 1] = v end

local c0 = os.clock()
local w0, _, _, done = triax.compacted(mean, seed)
assert(done, "the compaction did not reach its goal")
local compaction_cpu = os.clock() - c0
local cell = w0:cell()
local size = cell.size
-- the spec's axial strain is the shortening over the box before compaction (0.1 m); Yade's
-- and this bench's over the sample's height
local final_sample = final * 0.1 / size[3]
local spheres = {}
for _, b in ipairs(w0:bodies()) do
  spheres[#spheres + 1] = { b.position, b.shape:bounding_radius(), b.velocity, b.angular_velocity }
end
local path = os.tmpname()
dem.save(w0, path)
print(string.format("dense triaxial test (spec/dem_reference_triax_spec.lua): %d spheres, E = %g, "
  .. "ks/kn 0.25, confining %g Pa, friction 30 deg, rate %g / s to %.4f of the sample's height, "
  .. "dt = %.4g s; compacted by impact (%.1f s CPU): porosity %.4f, coordination %.2f, cell %.5f "
  .. "x %.5f x %.5f m", #spheres, triax.E, triax.p, rate, final_sample, w0.dt, compaction_cpu,
  w0:porosity(), w0:coordination(), size[1], size[2], size[3]))

-- the Yade scene: the header line, then "x y z r vx vy vz wx wy wz"
local function scene()
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(string.format("cell %.17g %.17g %.17g %.17g 0.25 %.17g %.17g %.17g %.17g %.17g 0.2\n",
    size[1], size[2], size[3], triax.E, math.rad(30), rate, final_sample, triax.p, w0.dt))
  for _, s in ipairs(spheres) do
    local x, v, o = s[1], s[3], s[4]
    f:write(string.format(string.rep("%.17g", 10, " ") .. "\n", x[1], x[2], x[3], s[2], v[1],
      v[2], v[3], o[1], o[2], o[3]))
  end
  f:close()
  return file
end

-- the curve's friction angle and volumetric strain at ea (of the sample's height)
local function at(curve, ea, stride, col)
  for i = 1 + stride, #curve, stride do
    local a, b = i - stride, i
    if curve[b + col[1]] >= ea then
      local t = (ea - curve[a + col[1]]) / (curve[b + col[1]] - curve[a + col[1]])
      local function lerp(k) return curve[a + k] + t * (curve[b + k] - curve[a + k]) end
      return lerp(col[2]), lerp(col[3])
    end
  end
end

-- one shear on both codes: mode "all" (every contact at 30 degrees: the sample in a new world)
-- or "new" (the spec's world, whose contacts of the compaction stay frictionless)
local w0_fresh = true   -- w0 not sheared yet
local function compare(mode, eta)
  local w, tri, law
  if mode == "all" then
    w, tri, law = triax.with_friction(w0, 30)
  else
    w = w0_fresh and w0 or dem.load(path, { functions = { triax = function() end } })
    w0_fresh = false
    tri, law = w.engines[4], w.engines[3].physics
  end
  local c1 = os.clock()
  local r = triax.sheared(w, tri, law, 30, eta, rate, mode == "all" and final_sample or final)
  local cpu = os.clock() - c1
  local flat = {}   -- ea (of the sample's height), phi, ev
  for _, c in ipairs(r.curve) do
    flat[#flat + 1], flat[#flat + 2], flat[#flat + 3] = c[5], c[2], c[3]
  end
  local peak_at = mode == "all" and r.at or r.at * 0.1 / size[3]
  print(string.format("%s contacts frictional, eta_r = %g: impact %.2f s CPU, %d steps: peak "
    .. "%.2f deg at %.4f, volumetric strain %+.4f at the end", mode, eta, cpu, r.steps, r.peak,
    peak_at, r.ev_end))
  local why_not = yade_run.why_not("bench/yade_triax_peri.py")
  if why_not then
    print("  Yade: not run (" .. why_not .. "): no comparison")
    return
  end
  local out = yade_run.run("bench/yade_triax_peri.py", scene(), { eta, mode },
    { YADE_PERI = true }, { YADE_CURVE = true })
  if not out or not out.YADE_PERI or not out.YADE_CURVE then
    print("  Yade: the run failed: no comparison")
    return
  end
  local y = out.YADE_PERI
  print(string.format("  Yade %s (%s): %.2f s CPU, %d steps: peak %.2f deg at %.4f, volumetric "
    .. "strain %+.4f at the end; impact %.2fx faster per step (CPU)", y.version,
    eta > 0 and "CohesionMoment" or "CundallStrack", y.cpu, y.steps, y.peak, y.at, y.ev_end,
    (y.cpu / y.steps) / (cpu / r.steps)))
  print("  axial strain   phi impact   phi Yade   ev impact   ev Yade")
  for k = 1, 8 do
    local ea = k / 100
    local pi, ei = at(flat, ea, 3, { 0, 1, 2 })
    local py, ey = at(out.YADE_CURVE, ea, 4, { 0, 1, 2 })
    if pi and py then
      print(string.format("  %11.2f   %10.2f   %8.2f   %+9.4f   %+7.4f", ea, pi, py, ei, ey))
    end
  end
end

for _, mode in ipairs(modes) do
  for _, eta in ipairs(etas) do compare(mode, eta) end
end
os.remove(path)
