-- Bodies that touch (distance 0, below the half gap distance_tol / 2) under the 2D engine: the
-- extra acceleration's distance term holds them where they are instead of pushing them out to
-- the half gap (a contact can only push: the pushed bodies flew apart at |d - gap| / (e h), an
-- energy gain growing as dt shrinks); and simultaneous impulses leave alone the touching pairs
-- that no collision is transmitted to.
local impact = require("impact")
local shape2d = impact.shape2d
local scenes2d = require("spec.support.scenes2d")

-- five balls of mass 1 on rods of length len, exactly touching; the first is released from
-- the height h0 above the others
local function touching_cradle(handling, dt, g, h0)
  local w = impact.world2d { strategy = "contact", collision_handling = handling, dt = dt,
                             gravity = { 0, -g }, seed = 2 }
  local r, len = 0.25, 2.0
  local th = math.acos(1 - h0 / len)
  local balls = {}
  for i = 1, 5 do
    local x = (i - 3) * 2 * r
    local pos = i == 1 and { x - len * math.sin(th), -len * math.cos(th) } or { x, -len }
    balls[i] = w:add_body { shape = shape2d.ball { radius = r }, mass = 1, position = pos,
                            elasticity = 1 }
    w:add_rope { body1 = balls[i], point2 = { x, 0 }, length = len, rod = true }
  end
  return w, balls, len
end

describe("engine2d touching bodies", function()
  for _, handling in ipairs({ "serial", "simultaneous" }) do
    for _, dt in ipairs({ 0.01, 0.005, 0.0025 }) do
      it(string.format("a touching cradle on rods (%s, dt %g) keeps its energy", handling, dt), function()
        local g, h0 = 10, 0.05
        local w, balls, len = touching_cradle(handling, dt, g, h0)
        local e0 = w:energy().total
        -- before the striker arrives (a quarter period, pi/2 sqrt(len / g) = 0.70 s) the
        -- touching row stays exactly at rest
        w:run { until_time = 0.5 }
        for i = 2, 5 do
          assert.near({ 0, 0 }, balls[i].velocity, 1e-12)
          assert.near(-len, balls[i].position[2], 1e-12)
        end
        -- (the rods' RK4 error takes away 1e-5 J at dt 0.01, O(dt^2); nothing is gained)
        assert.is_true(w:energy().total <= e0 and w:energy().total > e0 - 2e-5)
        local top = {}
        w:run { until_time = 1.6, every = 0, fn = function()
          for i = 1, 5 do top[i] = math.max(top[i] or -math.huge, balls[i].position[2]) end
        end }
        assert.near(e0, w:energy().total, 1e-4)
        if handling == "serial" then
          -- myPhysicsLab: the impact runs through the row, only the last ball swings out
          for i = 2, 4 do assert.near(-len, top[i], 1e-5) end
          assert.near(-len + h0, top[5], 1e-3)
        else
          -- one LCP: the four touching balls leave as one at 0.4 of the impact speed, the
          -- striker rebounds at 0.6 (momentum and energy kept): rises 0.16 h0 and 0.36 h0
          for i = 2, 5 do assert.near(-len + 0.16 * h0, top[i], 1e-3) end
          for i = 3, 5 do assert.near(top[2], top[i], 1e-9) end
        end
      end)
    end
  end

  for _, stepping in ipairs({ "rk4", "symplectic_euler" }) do
    for _, dt in ipairs({ 0.01, 0.0025 }) do
      it(string.format("a stack of touching boxes rests (%s, dt %g): no energy gained, no creep",
                       stepping, dt), function()
        local w = impact.world2d { strategy = "contact", dt = dt, gravity = { 0, -10 },
                                   time_stepping = stepping ~= "rk4" and stepping or nil }
        local ground = w:add_body { shape = shape2d.block { width = 10, height = 1 },
                                    position = { 0, -0.5 }, fixed = true }
        local boxes = {}
        for k = 0, 4 do
          boxes[k + 1] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                      position = { 0, 0.5 + k } }
        end
        local e0 = w:energy().total
        w:run { duration = 3 }
        local e = w:energy()
        assert.near(e0, e.total, 1e-9)
        assert.is_true(e.kinetic + e.rotational < 1e-20)
        for k, b in ipairs(boxes) do
          assert.near({ 0, 0.5 + (k - 1) }, b.position, 1e-9)
          assert.near(0, b.angle, 1e-12)
        end
        assert.equal(0, w:stats().collisions)
        -- the ground carries the five weights
        assert.near(5 * 10, scenes2d.load_on(w, ground), 1e-6)
      end)
    end
  end
end)
