-- Bodies that touch (distance 0, below the half gap distance_tol / 2) under the 2D engine: the
-- extra acceleration's distance term pushes a contact out to the half gap only as far and as
-- fast as its load can stop it (a contact can only push: pushed bodies used to fly apart at
-- |d - gap| / (e h), an energy gain growing as dt shrinks), an unloaded one is held where it
-- is; and simultaneous impulses leave alone the touching pairs no collision is transmitted to.
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
        -- the striker rests at the half gap from the row, 0.005 m off its lowest point: its
        -- weight loads the touching balls, which are pushed out to the half gap no faster
        -- than that load stops them (a few 1e-4 J, whatever dt; they gained 0.1 J at dt
        -- 0.01 and 1.7 J at dt 0.0025 when thrown apart at |gap| / (e dt))
        assert.near(e0, w:energy().total, 1e-3)
        if handling == "serial" then
          -- myPhysicsLab: the impact runs through the row, only the last ball swings out
          -- (pushed out to the half gap sideways, they swing up x^2 / (2 len): 2.5e-5 m)
          for i = 2, 4 do assert.near(-len, top[i], 5e-5) end
          assert.near(-len + h0, top[5], 1e-3)
        else
          -- one LCP: the four touching balls leave as one at 0.4 of the impact speed, the
          -- striker rebounds at 0.6 (momentum and energy kept): rises 0.16 h0 and 0.36 h0
          for i = 2, 5 do assert.near(-len + 0.16 * h0, top[i], 1e-3) end
        end
      end)
    end
  end

  for _, stepping in ipairs({ "rk4", "symplectic_euler" }) do
    for _, dt in ipairs({ 0.01, 0.0025 }) do
      it(string.format("a stack of touching boxes rises to the half gap and rests (%s, dt %g)",
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
        w:run { duration = 1.5 }
        -- every contact is pushed out to the half gap 0.005 (its load stops the push): box k
        -- (from 0) rises (k + 1) 0.005, the potential energy 15 m g 0.005 = 0.75 J and no more
        -- (the push used to throw the boxes up at |gap| / (e dt): they bounced for ever)
        local function at_rest()
          local e = w:energy()
          assert.near(e0 + 15 * 10 * 0.005, e.total, 1e-9)
          assert.is_true(e.kinetic + e.rotational < 1e-20)
          for k, b in ipairs(boxes) do
            assert.near({ 0, 0.5 + (k - 1) + k * 0.005 }, b.position, 1e-9)
            assert.near(0, b.angle, 1e-12)
          end
        end
        at_rest()
        w:run { duration = 2 }  -- no creep
        at_rest()
        assert.equal(0, w:stats().collisions)
        -- the ground carries the five weights
        assert.near(5 * 10, scenes2d.load_on(w, ground), 1e-6)
      end)
    end
  end

  it("simultaneous impulses leave a slow pair elsewhere to its own elastic collision", function()
    local w = impact.world2d { strategy = "impulse", dt = 0.01, gravity = { 0, 0 },
                               collision_handling = "simultaneous" }
    w:add_body { shape = shape2d.block { width = 1, height = 4 }, position = { -0.5, 0 }, fixed = true }
    local ball = function(x, y, vx)
      return w:add_body { shape = shape2d.ball { radius = 0.25 }, mass = 1, elasticity = 1,
                          position = { x, y }, velocity = { vx, 0 } }
    end
    -- a reaches the wall's half gap at t = 0.02 s; b and c, 0.0095 apart and closing at
    -- 0.1 m/s, are then 0.0075 apart (touching, slower than velocity_tol: a contact), and
    -- collide at t = 0.045 s
    local a = ball(0.295, 0, -2)
    local b = ball(3, 0, 0.05)
    local c = ball(3.5095, 0, -0.05)
    local e0 = w:energy().total
    w:run { duration = 0.5 }
    assert.near({ 2, 0 }, a.velocity, 1e-12)
    assert.near({ -0.05, 0 }, b.velocity, 1e-12)
    assert.near({ 0.05, 0 }, c.velocity, 1e-12)
    assert.near(e0, w:energy().total, 1e-12)
    assert.equal(2, w:stats().collisions)
  end)

  -- Elastic balls bouncing in a box. With the default velocity_tol (0.5) a simultaneous solve
  -- still takes energy when a slow approach (|v| < velocity_tol) is coupled to the collision
  -- being handled: that row is a contact, elasticity 0 (myPhysicsLab's law); giving such rows
  -- their elasticity makes the simultaneous Newton law gain energy instead (several elastic
  -- rows at once). Hybrid handling ricochets them one at a time and keeps the energy; so does
  -- simultaneous handling when only nearly resting pairs count as contacts.
  for _, case in ipairs({ { "hybrid", 0.5 }, { "simultaneous", 0.01 } }) do
    it(string.format("elastic balls in a box keep their energy (%s, velocity_tol %g)", case[1],
                     case[2]), function()
      local w = impact.world2d { strategy = "impulse", dt = 0.01, gravity = { 0, 0 },
                                 collision_handling = case[1], velocity_tol = case[2], seed = 3 }
      local function wall(x, y, wd, ht)
        w:add_body { shape = shape2d.block { width = wd, height = ht }, position = { x, y },
                     fixed = true, elasticity = 1 }
      end
      wall(0, -2.5, 6, 1)
      wall(0, 2.5, 6, 1)
      wall(-2.5, 0, 1, 6)
      wall(2.5, 0, 1, 6)
      for i = 1, 6 do
        local s = 0.3 + 0.2 * i
        w:add_body { shape = shape2d.ball { radius = 0.25 }, mass = 1, elasticity = 1,
                     position = { -1.2 + 0.8 * ((i - 1) % 3), -0.6 + 1.2 * ((i - 1) // 3) },
                     velocity = { s * math.cos(1.7 * i), s * math.sin(1.7 * i) } }
      end
      local e0 = w:energy().total
      w:run { duration = 200 }
      assert.is_true(w:stats().collisions > 500)
      assert.near(e0, w:energy().total, 1e-12 * e0)
    end)
  end
end)
