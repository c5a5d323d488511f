-- A block hanging from the background on a damped spring, recorded to CSV.
-- Equilibrium stretch m g / k; the oscillation decays as exp(-c t / (2 m)).
-- Run: make run SCRIPT=examples/bouncing_spring.lua   (writes spring.csv)
local impact = require("impact")

local m, k, c, g = 2.0, 80.0, 0.8, 9.81
local w = impact.world2d { gravity = { 0, -g }, dt = 0.005 }
local block = w:add_body { shape = impact.shape2d.block { width = 0.2, height = 0.1 }, mass = m,
  position = { 0, -1 }, name = "block" }
w:add_spring { body1 = w.background, point1 = { 0, 0 }, body2 = block, point2 = { 0, 0.05 },
  rest_length = 0.8, stiffness = k, damping = c }
local rec = impact.recorder { w, every = 0.05, columns = {
  { "t", "time" }, { "y", { block, "position", 2 } }, { "energy", "energy.total" } } }
w:run { until_time = 10 }
rec:write_csv("spring.csv")
-- u = y - y_eq obeys m u'' + c u' + k u = 0; with gamma = c / (2 m) and
-- omega_d = sqrt(k / m - gamma^2), A = sqrt(u^2 + ((u' + gamma u) / omega_d)^2) = A0 exp(-gamma t)
local y_eq = -(0.8 + m * g / k) - 0.05
local gamma = c / (2 * m)
local omega_d = math.sqrt(k / m - gamma ^ 2)
local function envelope(u, v) return math.sqrt(u ^ 2 + ((v + gamma * u) / omega_d) ^ 2) end
local a0 = envelope(-1 - y_eq, 0)
local a = envelope(block.position[2] - y_eq, block.velocity[2])
print(string.format("recorded %d rows to spring.csv", rec:count()))
print(string.format("equilibrium height %.5f m; oscillation amplitude %.6e m after %g s, "
  .. "expected A0 exp(-c t / 2m) = %.6e m", y_eq, a, w.time, a0 * math.exp(-gamma * w.time)))
