-- What the myPhysicsLab fidelity specs share: its state variables of a 2D body and the
-- distance of a state from the one its test suite asserts.
local M = {}

-- myPhysicsLab's variables of a body: x, vx, y, vy, angle, spin
function M.vars(b)
  return { b.position[1], b.velocity[1], b.position[2], b.velocity[2], b.angle, b.spin }
end

-- the largest difference between the bodies' variables and the expected rows (a row may give
-- fewer than six: the first ones are compared); map[i] picks body i's row (default i)
function M.worst(bodies, expected, map)
  local m = 0
  for i, b in ipairs(bodies) do
    local got, want = M.vars(b), expected[map and map[i] or i]
    for k = 1, #want do
      m = math.max(m, math.abs(got[k] - want[k]))
    end
  end
  return m
end

return M
