-- One 3D scene under three strategies side by side: three steel balls dropped on a steel
-- plate (restitution 0.7, friction 0.5), one of them thrown sideways so it slides, then rolls.
--   impulse, contact: rigid bodies, velocity-level steps with exact Coulomb friction (1 ms)
--   compliant: Modia3D's elastic-dissipative law, GSL's rk8pd and located contact events
-- Each prints the first rebound height of the dropped balls (theory: h cor^2 = 0.49 h), the
-- rolling ball's speed (theory: 5/7 of its throw, 0.714), and the processor time. The rigid
-- strategies split a step at a time of impact (collision_accuracy 0.01: within 0.05 mm);
-- what is left of the heights' error is their free flight's, first order in dt (v dt / 2).
-- Run: make run SCRIPT=examples/strategies_3d.lua
local impact = require("impact")

local cor, mu = 0.7, 0.5
local heights = { 0.5, 1.0 }

local function scene(strategy)
  local opts = { strategy = strategy, gravity = { 0, 0, -9.81 } }
  if strategy ~= "compliant" then opts.dt, opts.collision_accuracy = 1e-3, 0.01 else opts.dt = 0.01 end
  local w = impact.world3d(opts)
  w:add_body { shape = impact.shape3d.box { size = { 20, 20, 0.2 } }, fixed = true,
               position = { 0, 0, -0.1 }, material = "steel", elasticity = 1, friction = mu }
  local r = 0.05
  local balls = {}
  for i, h in ipairs(heights) do
    balls[i] = w:add_body { shape = impact.shape3d.sphere { radius = r }, material = "steel",
                            position = { i, 0, r + h }, elasticity = cor, friction = mu }
  end
  local roller = w:add_body { shape = impact.shape3d.sphere { radius = r }, material = "steel",
                              position = { -1, 0, r }, velocity = { 1, 0, 0 }, elasticity = cor,
                              friction = mu }
  return w, balls, roller, r
end

local results = {}
for _, strategy in ipairs { "impulse", "contact", "compliant" } do
  local w, balls, roller, r = scene(strategy)
  local top, falling, bounced = {}, {}, {}
  for i = 1, #balls do top[i], falling[i] = 0, true end
  local t0 = os.clock()
  w:run { duration = 2, every = 1e-3, fn = function()
    for i, b in ipairs(balls) do
      local vz = b.velocity[3]
      if falling[i] and vz > 0 then falling[i], bounced[i] = false, true end
      if bounced[i] then
        top[i] = math.max(top[i], b.position[3] - r)
        if vz < 0 then bounced[i] = nil end
      end
    end
  end }
  results[#results + 1] = { strategy = strategy, top = top, roll = roller.velocity[1],
                            cpu = os.clock() - t0 }
end

print("three steel balls on a steel plate (cor 0.7, mu 0.5), 2 s")
print(string.format("%-10s %-22s %-22s %-12s %s", "strategy", "rebound of 0.5 m drop",
  "rebound of 1 m drop", "roll speed", "cpu s"))
for _, res in ipairs(results) do
  print(string.format("%-10s %-22.4f %-22.4f %-12.4f %.3f", res.strategy, res.top[1], res.top[2],
    res.roll, res.cpu))
end
print(string.format("%-10s %-22.4f %-22.4f %-12.4f", "theory", heights[1] * cor ^ 2,
  heights[2] * cor ^ 2, 5 / 7))
return results
