-- Balls of elasticity 1, 0.8, 0.6 and 0.4 dropped from 1 m onto a floor (the contact strategy:
-- impulses at collisions, contact forces once a ball rests): each rebound reaches e^2 times the
-- height before. The heights are recorded and plotted to
-- out/bouncing_balls.svg and out/bouncing_balls.png.
-- Run: make run SCRIPT=examples/bouncing_balls_plot.lua
local impact = require("impact")

local w = impact.world2d { strategy = "contact", gravity = { 0, -9.81 }, dt = 0.005 }
w:add_body { shape = impact.shape2d.block { width = 10, height = 0.5 }, fixed = true,
  position = { 0, -0.25 }, name = "floor" }
local r, h0 = 0.1, 1.0
local balls, columns = {}, { { "t", "time" } }
for i, e in ipairs { 1.0, 0.8, 0.6, 0.4 } do
  balls[i] = w:add_body { shape = impact.shape2d.ball { radius = r }, mass = 1, elasticity = e,
    position = { 2 * i - 5, r + h0 }, name = string.format("e = %.1f", e) }
  columns[#columns + 1] = { balls[i].name, { balls[i], "position", 2 } }
end
local rec = impact.recorder { w, every = 0.005, columns = columns }
w:run { until_time = 3 }
rec:plot { x = "t", y = { "e = 1.0", "e = 0.8", "e = 0.6", "e = 0.4" },
  file = "out/bouncing_balls.svg", title = "Bouncing balls", x_label = "time (s)",
  y_label = "height of the centre (m)" }
rec:plot { x = "t", y = { "e = 1.0", "e = 0.8", "e = 0.6", "e = 0.4" },
  file = "out/bouncing_balls.png", title = "Bouncing balls", x_label = "time (s)",
  y_label = "height of the centre (m)" }

-- the highest point after the first bounce: collisions are resolved at half the distance
-- tolerance, g = distance_tol / 2 = 0.005 m above the floor, so the apex is g + (h0 - g) e^2
local t = rec:series("t")
local g = 0.005
print(string.format("%-9s %22s %20s", "ball", "first rebound height", "g + (h0 - g) e^2"))
for i, b in ipairs(balls) do
  local y, bounced, top = rec:series(b.name), false, -math.huge
  for k = 2, #y do
    if not bounced and y[k] > y[k - 1] then bounced = true end
    if bounced and y[k] < y[k - 1] then break end
    if bounced then top = math.max(top, y[k]) end
  end
  local e = ({ 1.0, 0.8, 0.6, 0.4 })[i]
  print(string.format("%-9s %20.4f m %18.4f m", b.name, top - r, g + (h0 - g) * e * e))
end
print(string.format("%d samples over %.1f s plotted to out/bouncing_balls.svg and .png", #t, w.time))
