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

-- its Shapes.makeDiamond(wd, ht, a): a wd x ht rectangle turned by a in the body's frame
-- (the body at angle 0), its vertices rotated with the same floating operations in the same
-- order (Vector.rotate: x cos - y sin, x sin + y cos), so that their rounding, which decides
-- which corner meets which edge when corners meet exactly, is its own. Its centroid is the
-- origin (setCentroid): give the body center_of_mass = {0, 0}; its moment is
-- (wd^2 + ht^2) / 12 for mass 1.
function M.diamond(shape2d, wd, ht, a)
  local c, s = math.cos(a), math.sin(a)
  local p = shape2d.path()
  for i, v in ipairs { { -wd / 2, -ht / 2 }, { wd / 2, -ht / 2 }, { wd / 2, ht / 2 }, { -wd / 2, ht / 2 } } do
    local x, y = v[1] * c - v[2] * s, v[1] * s + v[2] * c
    if i == 1 then p:move_to(x, y) else p:line_to(x, y) end
  end
  return p:close():build()
end

-- its AdaptiveStepSolver (an experimental solver of its, not an impact integrator) built from
-- world steps, for scenes without contacts: a step of h is taken whole, then again from the
-- same state in 5, 25, ... equal sub-steps until the energy's change over h (second: the
-- change of that change from the previous try) is within 1e-6. The bodies' states are put
-- back between tries (the world's clock is not: it counts every sub-step taken).
function M.adaptive_step(w, bodies, h, second)
  local saved, e0 = {}, w:energy().total
  for i, b in ipairs(bodies) do saved[i] = { b.position, b.velocity, b.angle, b.spin } end
  local d, last, first = h, math.huge, true
  while true do
    if not first then
      for i, b in ipairs(bodies) do
        b.position, b.velocity, b.angle, b.spin = saved[i][1], saved[i][2], saved[i][3], saved[i][4]
      end
      d = d / 5
    end
    local t = 0
    while t < h do
      w.dt = t + d > h - 1e-10 and h - t or d
      t = t + w.dt
      w:step()
    end
    local diff = math.abs(e0 - w:energy().total)
    local value = (not second) and diff or (first and math.huge or math.abs(diff - last))
    last, first = diff, false
    if value <= 1e-6 then return end
  end
end

return M
