-- A pile of 20 steel boxes (10 cm) poured onto a steel plate: the compliant strategy (contact
-- patches, issue #19) with the default integrator settings, beside the 3D contact strategy
-- ("contact": impulses and LCP contact forces) on the same scene in the same run. CPU time
-- (os.clock, one thread) per simulated second and its ratio; the pile's kinetic energy at the
-- end says whether it settled. Deterministic scene: 4 layers of 5 boxes, each layer turned.
local impact = require("impact")

local n = tonumber(os.getenv("COMPLIANT_BOXES_N")) or 20
local side, t_end = 0.1, tonumber(os.getenv("COMPLIANT_BOXES_T")) or 1

-- steel, with a contact pair of low restitution so the pile settles on the plate
impact.material.define("bench_steel", { E = 2.0e11, nu = 0.3, density = 8000 })
impact.contact_pair.define("bench_steel", "bench_steel", { cor = 0.2, mu_k = 0.5, mu_r = 0.001 })

local function pile(strategy)
  local opts = { strategy = strategy, gravity = { 0, 0, -9.81 }, dt = 0.01 }
  if strategy == "compliant" then
    opts.compliant = { nz_max = 200 }
  end
  local w = impact.world3d(opts)
  w:add_body { shape = impact.shape3d.box { size = { 4, 4, 0.2 } }, fixed = true, material = "bench_steel",
    position = { 0, 0, -0.1 } }
  local shape = impact.shape3d.box { size = { side, side, side } }
  local bodies = {}
  for i = 0, n - 1 do
    local layer, k = i // 5, i % 5
    local a = 0.3 * layer + 0.1 * k  -- a turn about z, and a small tilt about x
    local tilt = 0.05 * ((i % 3) - 1)
    local q = { math.cos(a / 2) * math.cos(tilt / 2), math.cos(a / 2) * math.sin(tilt / 2),
      math.sin(a / 2) * math.sin(tilt / 2), math.sin(a / 2) * math.cos(tilt / 2) }
    bodies[#bodies + 1] = w:add_body { shape = shape, material = "bench_steel", orientation = q,
      position = { 0.17 * (k - 2) + 0.04 * layer, 0.05 * (layer - 1.5), 0.1 + 0.16 * layer } }
  end
  return w, bodies
end

print(string.format("a pile of %d steel boxes (%g m) poured onto a plate, %g s simulated", n, side, t_end))
local cpu_of = {}
for _, strategy in ipairs { "compliant", "contact" } do
  local w, bodies = pile(strategy)
  local t0 = os.clock()
  local ok, err = pcall(w.run, w, { until_time = t_end })
  local cpu = os.clock() - t0
  local ke = 0
  for _, b in ipairs(bodies) do
    local v = b.velocity
    ke = ke + 0.5 * b.mass * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
  end
  local s, zmin = w:stats(), math.huge
  for _, b in ipairs(bodies) do zmin = math.min(zmin, b.position[3]) end
  if ok then
    cpu_of[strategy] = cpu / t_end
    print(string.format("  %-9s %7.3f s of CPU per simulated second, %7d internal steps, %5d contacts "
      .. "begun, %3d in contact at the end, kinetic energy %.3g J, lowest centre %.4f m", strategy,
      cpu / t_end,
      s.substeps or 0, s.contacts_begun or 0, #w:contacts(), ke, zmin))
  else
    print(string.format("  %-9s failed after %.2f s of CPU at t = %g: %s", strategy, cpu, w.time, err))
  end
end
if cpu_of.compliant and cpu_of.contact and cpu_of.contact > 0 then
  print(string.format("  compliant / contact CPU per simulated second: %.0f",
    cpu_of.compliant / cpu_of.contact))
end
