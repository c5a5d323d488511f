-- Three equal masses chasing each other on a figure eight (Chenciner & Montgomery, 2000),
-- under mutual gravitation with G = 1. After one period T = 6.32591398 the bodies are back
-- where they started. Run: make run SCRIPT=examples/figure_eight.lua
local impact = require("impact")

local T = 6.32591398
local w = impact.world2d { gravity = { 0, 0 }, gravitation = { G = 1 }, dt = T / 1000,
  integrator = { method = "rk8pd", rtol = 1e-13, atol = 1e-13 } }
local x1, v3 = { 0.97000436, -0.24308753 }, { -0.93240737, -0.86473146 }
local start = { x1, { -x1[1], -x1[2] }, { 0, 0 } }
local bodies = {
  w:add_body { shape = impact.shape2d.ball { radius = 0.05 }, mass = 1, position = start[1],
    velocity = { -v3[1] / 2, -v3[2] / 2 }, name = "a" },
  w:add_body { shape = impact.shape2d.ball { radius = 0.05 }, mass = 1, position = start[2],
    velocity = { -v3[1] / 2, -v3[2] / 2 }, name = "b" },
  w:add_body { shape = impact.shape2d.ball { radius = 0.05 }, mass = 1, position = start[3],
    velocity = v3, name = "c" },
}
local e0 = w:energy().total
print(string.format("%8s %22s %22s %22s %12s", "t", "a", "b", "c", "energy"))
w:run { steps = 1000, every = T / 4, fn = function(ww)
  local row = { string.format("%8.4f", ww.time) }
  for _, b in ipairs(bodies) do
    row[#row + 1] = string.format("(%9.6f, %9.6f)", b.position[1], b.position[2])
  end
  row[#row + 1] = string.format("%12.9f", ww:energy().total)
  print(table.concat(row, " "))
end }
local worst = 0
for i, b in ipairs(bodies) do
  worst = math.max(worst, math.abs(b.position[1] - start[i][1]), math.abs(b.position[2] - start[i][2]))
end
print(string.format("after one period: largest distance from the start %.2e, energy drift %.2e",
  worst, math.abs(w:energy().total - e0)))
