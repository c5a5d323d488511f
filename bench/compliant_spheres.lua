-- Scaling of the compliant strategy: n steel spheres (radius 1 cm) in a square lattice with
-- gaps, dropped 1 cm onto a fixed plate, simulated for 0.2 s at rtol 1e-6. The candidate
-- pairs come from the sort-and-sweep broad phase, so they grow like n, not n^2.
local impact = require("impact")

print("compliant strategy, n spheres dropped on a plate, 0.2 s at rtol 1e-6 (rk8pd)")
for _, n in ipairs { 25, 100, 400 } do
  local w = impact.world3d { strategy = "compliant", dt = 0.01,
    integrator = { method = "rk8pd", rtol = 1e-6, atol = 1e-9 }, compliant = { nz_max = 2 * n } }
  w:add_body { shape = impact.shape3d.box { size = { 10, 10, 0.1 } }, fixed = true,
    material = "steel", position = { 0, 0, -0.05 } }
  local side = math.ceil(math.sqrt(n))
  for i = 0, n - 1 do
    w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, material = "steel",
      position = { 0.025 * (i % side), 0.025 * (i // side), 0.02 } }
  end
  local t0 = os.clock()
  w:run { until_time = 0.2 }
  local s = w:stats()
  print(string.format("  n = %4d: %7.2f s wall, %6d internal steps, %5d events, %6d candidate pairs "
    .. "(all pairs: %d), %d in contact", n, os.clock() - t0, s.substeps, s.events, s.candidate_pairs,
    n * (n + 1) // 2, s.contacts))
end
