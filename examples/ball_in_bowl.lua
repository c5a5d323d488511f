-- A ball rocking in a concave bowl (a block whose top is a concave arc), under the contact
-- strategy: the curved-edge terms of the contact force keep it on the arc. Without friction
-- the ball slides and its centre swings on a circle of radius R - r like a pendulum,
-- T = 2 pi sqrt((R - r) / g) for small swings; with friction the disc (I = m r^2 / 2) rolls,
-- T = 2 pi sqrt(3 (R - r) / (2 g)). The ball rests at the half gap (0.005), so the centre's
-- radius is R - r - 0.005 and the friction acts 0.005 beyond the disc's rim.
local impact = require("impact")

local R, r, g = 2.0, 0.25, 9.81
local function run(friction)
  local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -g } }
  local bowl_shape = impact.shape2d.concave_top_block { width = 3, height = 1, radius = R }
  -- place the bowl so that shape coordinates are world coordinates
  w:add_body { shape = bowl_shape, position = bowl_shape:centroid(), fixed = true, friction = friction }
  -- the arc's centre is above the top corners (+-1.5, 1): at (0, 1 + sqrt(R^2 - 1.5^2))
  local cy = 1 + math.sqrt(R * R - 1.5 * 1.5)
  local a0 = 0.15  -- start 0.15 rad from the bottom, at rest, resting on the arc (half gap)
  local d = R - r - 0.005
  local ball = w:add_body { shape = impact.shape2d.ball { radius = r }, mass = 1,
                            position = { d * math.sin(a0), cy - d * math.cos(a0) },
                            friction = friction, elasticity = 0.5 }
  local crossings, prev = {}, ball.position[1]
  local e0 = w:energy().total
  while #crossings < 5 and w.time < 20 do
    w:step()
    local x = ball.position[1]
    if prev > 0 and x <= 0 then crossings[#crossings + 1] = w.time - w.dt * x / (x - prev) end
    prev = x
  end
  local periods = {}
  for i = 2, #crossings do periods[#periods + 1] = crossings[i] - crossings[i - 1] end
  return periods, w:energy().total - e0, w:stats(), ball
end

for _, friction in ipairs({ 0, 0.8 }) do
  local periods, de, s, ball = run(friction)
  local rho, reff = R - r - 0.005, r + 0.005
  local factor = friction > 0 and 1 + 0.5 * (r / reff) ^ 2 or 1
  local small = 2 * math.pi * math.sqrt(factor * rho / g)
  -- amplitude correction for a pendulum of amplitude a0: T ~ T0 (1 + a0^2 / 16)
  print(string.format("ball in a bowl, friction %.1f (%s):", friction,
    friction > 0 and "rolls" or "slides"))
  for i, p in ipairs(periods) do
    print(string.format("  period %d: %.5f s", i, p))
  end
  print(string.format("  theory: %.5f s (small swings), %.5f s with the amplitude correction",
    small, small * (1 + 0.15 ^ 2 / 16)))
  print(string.format("  spin now %.4f rad/s; energy change %.2e J; collisions %d; LCP solves %d",
    ball.spin, de, s.collisions, s.lcp_solves))
end
