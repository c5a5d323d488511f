-- Heights over time, plotted: three shots from a cannon at 30, 45 and 60 degrees (no air),
-- recorded every 10 ms and drawn with their closed-form heights y(t) = v t sin(a) - g t^2 / 2.
-- Writes out/projectile.svg, out/projectile.png and out/projectile.csv.
-- Run: make run SCRIPT=examples/projectile_plot.lua
local impact = require("impact")
local files = require("impact.files")

local g, v = 9.81, 20
local angles = { 30, 45, 60 }
local w = impact.world2d { gravity = { 0, -g }, dt = 0.001 }
local columns = { { "t", "time" } }
for _, a in ipairs(angles) do
  local r = math.rad(a)
  local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = { 0, 0 },
    velocity = { v * math.cos(r), v * math.sin(r) }, name = a .. " deg" }
  columns[#columns + 1] = { a .. " deg", { b, "position", 2 } }
end
local rec = impact.recorder { w, every = 0.01, columns = columns }
local flight = 2 * v * math.sin(math.rad(60)) / g
w:run { until_time = flight }

files.mkdir("out", "projectile_plot")
rec:write_csv("out/projectile.csv")
local series = {}
for i, a in ipairs(angles) do
  local ys = rec:series(a .. " deg")
  series[#series + 1] = { x = rec:series("t"), y = ys, label = a .. " degrees" }
  local theory = {}
  for k, t in ipairs(rec:series("t")) do
    local y = v * t * math.sin(math.rad(a)) - 0.5 * g * t * t
    theory[k] = y >= 0 and y or 0 / 0
  end
  series[#series + 1] = { x = rec:series("t"), y = theory, color = "#000000", width = 1, dash = { 3, 3 },
    label = i == 1 and "closed form" or nil }
  -- heights below the ground are not plotted: the world has no ground yet (contact comes later)
  for k = 1, #ys do
    if ys[k] < 0 then ys[k] = 0 / 0 end
  end
end
for _, file in ipairs({ "out/projectile.svg", "out/projectile.png" }) do
  impact.plot { file = file, series = series, title = "Cannon shots at 20 m/s", x_label = "t (s)",
    y_label = "height (m)", y_range = { 0, 16 } }
end

print(string.format("%8s %14s %14s", "angle", "top (m)", "v^2 sin^2 a / 2g"))
for _, a in ipairs(angles) do
  local top = -math.huge
  for _, y in ipairs(rec:series(a .. " deg")) do
    if y == y then top = math.max(top, y) end
  end
  print(string.format("%8d %14.4f %14.4f", a, top, (v * math.sin(math.rad(a))) ^ 2 / (2 * g)))
end
print("wrote out/projectile.svg, out/projectile.png, out/projectile.csv")
