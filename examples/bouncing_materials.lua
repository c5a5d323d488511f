-- A ball bouncing on a plate of its own material, under the compliant strategy (Modia3D's
-- elastic-dissipative contact): rebound heights fall by cor^2, the ball sinks to Hertz's
-- static depth. Run: make run SCRIPT=examples/bouncing_materials.lua
local impact = require("impact")

local g, r, h = 9.81, 0.02, 0.5
print(string.format("A ball of radius %g m dropped from %g m onto a plate of the same material.", r, h))
print(string.format("%-10s %5s %-34s %9s %12s %12s", "material", "cor", "first rebound heights (m)",
  "bounces", "rest depth", "Hertz depth"))
for _, material in ipairs { "steel", "aluminium", "wood" } do
  local cor = impact.contact_pair.get(material, material).cor
  local w = impact.world3d { strategy = "compliant", gravity = { 0, 0, -g }, dt = 0.01,
    integrator = { method = "rk8pd", rtol = 1e-8, atol = 1e-10 } }
  w:add_body { shape = impact.shape3d.box { size = { 1, 1, 0.1 } }, fixed = true,
    material = material, position = { 0, 0, -0.05 } }
  local ball = w:add_body { shape = impact.shape3d.sphere { radius = r }, material = material,
    position = { 0, 0, r + h } }
  local heights, bounces = {}, 0
  w:on("contact_begin", function(e)
    bounces = bounces + 1
    if bounces > 1 and #heights < 3 then heights[#heights + 1] = e.normal_velocity ^ 2 / (2 * g) end
  end)
  w:run { until_time = 3 }
  local m = impact.material.get(material)
  local e_star = m.E / (1 - m.nu ^ 2) / 2
  local depth = (3 * ball.mass * g / (4 * e_star * math.sqrt(r))) ^ (2 / 3)
  local shown = {}
  for i, hh in ipairs(heights) do shown[i] = string.format("%.4f", hh) end
  print(string.format("%-10s %5.2f %-34s %9d %12.4e %12.4e", material, cor,
    table.concat(shown, " ") .. string.format(" (h cor^2: %.4f)", h * cor ^ 2), bounces,
    r - ball.position[3], depth))
end
