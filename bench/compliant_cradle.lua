-- Newton's cradle of 5 steel balls with 0.1 mm gaps on the compliant strategy: wall time and
-- how much of the first ball's momentum reaches the last.
local impact = require("impact")

impact.material.define("cradle_steel", { E = 2.0e11, nu = 0.3, density = 7800 })
impact.contact_pair.define("cradle_steel", "cradle_steel", { cor = 1, mu_k = 0, mu_r = 0 })
local w = impact.world3d { strategy = "compliant", gravity = { 0, 0, 0 }, dt = 0.001,
  integrator = { method = "rk8pd", rtol = 1e-8, atol = 1e-12 } }
local r, gap, balls = 0.02, 1e-4, {}
for i = 1, 5 do
  balls[i] = w:add_body { shape = impact.shape3d.sphere { radius = r }, material = "cradle_steel",
    position = { (i - 1) * (2 * r + gap) - (i == 1 and 0.01 or 0), 0, 0 },
    velocity = { i == 1 and 1 or 0, 0, 0 } }
end
local t0 = os.clock()
w:run { until_time = 0.1 }
local s = w:stats()
print("compliant Newton's cradle (5 steel balls, 0.1 mm gaps, rk8pd rtol 1e-8), 0.1 s simulated")
print(string.format("  wall %.3f s; %d internal steps, %d events, last ball at %.5f m/s (first at %.2e)",
  os.clock() - t0, s.substeps, s.events, balls[5].velocity[1], balls[1].velocity[1]))
