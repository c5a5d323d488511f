-- Newton's cradle: five balls on rods from the ceiling, touching; the first is pulled back and
-- let go. Under serial collision handling the impact runs through the row and only the last
-- ball swings out (myPhysicsLab's engine2D overview, "Multiple Simultaneous Collisions").
local impact = require("impact")

local handling = arg and arg[1] or "serial"
local w = impact.world2d { strategy = "contact", collision_handling = handling, dt = 0.01,
                           gravity = { 0, -9.81 }, seed = 2 }
local r, len, gap = 0.25, 2.0, 0.005
local balls, rods = {}, {}
for i = 1, 5 do
  local x = (i - 3) * (2 * r + gap)
  local pos = { x, -len }
  if i == 1 then  -- pulled back by 0.6 rad
    pos = { x - len * math.sin(0.6), -len * math.cos(0.6) }
  end
  balls[i] = w:add_body { shape = impact.shape2d.ball { radius = r }, mass = 1, position = pos,
                          name = "ball" .. i }
  rods[i] = w:add_rope { body1 = balls[i], point2 = { x, 0 }, length = len, rod = true }
end

local hits = 0
w:on("collision", function() hits = hits + 1 end)
local e0 = w:energy().total
local top = {}
w:run { duration = 1.2, every = 0.01, fn = function()
  for i = 1, 5 do top[i] = math.max(top[i] or -math.huge, balls[i].position[2]) end
end }
print(string.format("Newton's cradle (%s handling), t = %.2f s, %d collision impulses", handling,
  w.time, hits))
for i = 1, 5 do
  local v = balls[i].velocity
  print(string.format("  ball %d: velocity (%7.4f, %7.4f)  highest y %.4f", i, v[1], v[2], top[i]))
end
print(string.format("  energy: %.6f J at the start, %.6f J now", e0, w:energy().total))
local worst = 0
for i = 1, 5 do worst = math.max(worst, (w:connector_error(rods[i]))) end
print(string.format("  largest rod length error: %.2e m", worst))
