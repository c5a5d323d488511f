-- The 2D engine's impulse strategy: collision advance and collision impulses, checked against
-- closed-form answers (myPhysicsLab's engine2D, see ../shared/reference/myphysicslab.md).
local impact = require("impact")
local shape2d = impact.shape2d
local scenes2d = require("spec.support.scenes2d")

local function ground(w, width)
  return w:add_body { shape = shape2d.block { width = width or 20, height = 1 },
                      position = { 0, -0.5 }, fixed = true, name = "ground" }
end

local function energy(w) return w:energy().total end

describe("engine2d impulse strategy", function()
  it("bounces a ball with rebound speeds e v and heights falling by e^2", function()
    for _, e in ipairs({ 1.0, 0.8, 0.5 }) do
      local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, -10 } }
      ground(w)
      local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 2, position = { 0, 3 },
                                elasticity = e, name = "ball" }
      local hits, apex = scenes2d.bounce(w, ball, 400, 3, 3)
      assert.is_true(#hits >= 3)
      -- the first impact speed: free fall from 2.5 m less the gap (distance_tol/2 +- 0.003)
      local v1 = -hits[1].normal_velocity
      assert.is_true(v1 > math.sqrt(20 * (2.5 - 0.008)) and v1 < math.sqrt(20 * (2.5 - 0.002)))
      for k = 1, 3 do
        local ev = hits[k]
        -- the impulse on a fixed ground: (1 + e) m |v|
        assert.near((1 + e) * 2 * -ev.normal_velocity, ev.impulse, 1e-9 * ev.impulse)
        assert.near({ 0, 1 }, ev.normal, 1e-12)
        assert.equal("ball", (ev.body1.name == "ball" and ev.body1 or ev.body2).name)
      end
      for k = 1, 2 do
        -- the next approach speed is e times this one, up to the gap's spread (|dv| <= g 0.006 / v)
        assert.near(e * -hits[k].normal_velocity, -hits[k + 1].normal_velocity, 0.02)
        -- apex heights above the rest level (centre at 0.505) fall by e^2
        local h1, h2 = apex[k] - 0.505, apex[k + 1] - 0.505
        assert.near(e * e, h2 / h1, 0.01)
      end
      if e == 1 then
        assert.near(3, apex[1], 0.01) -- back up to its starting height
      end
      local s = w:stats()
      assert.is_true(s.collisions >= 3)
      assert.equal(0, s.lcp_failures)
    end
  end)

  local function flat_square(handling)
    local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, 0 },
                               collision_handling = handling, seed = 7 }
    ground(w)
    -- a 1 x 1 square of mass 1 moving down at 3 m/s, flat, 0.1 above the ground
    local sq = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                            position = { 0, 0.6 }, velocity = { 0, -3 }, name = "square" }
    local e0 = energy(w)
    w:run { duration = 0.2 }
    return w, sq, e0
  end

  it("bounces a square falling flat straight up under simultaneous handling", function()
    local w, sq, e0 = flat_square("simultaneous")
    assert.near({ 0, 3 }, sq.velocity, 1e-9)
    assert.near(0, sq.spin, 1e-9)
    assert.near(e0, energy(w), 1e-9)
  end)

  it("spins a square falling flat under serial handling, conserving energy", function()
    local w, sq, e0 = flat_square("serial")
    -- worked by hand: corner impulses 2.4 then 3.36 (K = 1/m + r_x^2 / I = 2.5, I = 1/6)
    -- leave vy = 2.76 and |spin| = 2.88, with 1/2 2.76^2 + 1/12 2.88^2 = 4.5 = 1/2 3^2
    assert.near(2.76, sq.velocity[2], 1e-9)
    assert.near(0, sq.velocity[1], 1e-12)
    assert.near(2.88, math.abs(sq.spin), 1e-9)
    assert.near(e0, energy(w), 1e-9)
  end)

  it("bounces the square straight under hybrid handling (one body's corners together)", function()
    local _, sq = flat_square("hybrid")
    assert.near({ 0, 3 }, sq.velocity, 1e-9)
    assert.near(0, sq.spin, 1e-9)
  end)

  local function one_hits_two(handling)
    local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, 0 },
                               collision_handling = handling, seed = 3 }
    local ball = shape2d.ball { radius = 0.5 }
    -- two balls touching at the half gap, a third coming at 3 m/s along the line of centres
    local a = w:add_body { shape = ball, mass = 1, position = { -2, 0 }, velocity = { 3, 0 }, name = "a" }
    local b = w:add_body { shape = ball, mass = 1, position = { 0, 0 }, name = "b" }
    local c = w:add_body { shape = ball, mass = 1, position = { 1.005, 0 }, name = "c" }
    local p0, e0 = w:momentum(), energy(w)
    w:run { duration = 0.6 }
    return w, a, b, c, p0, e0
  end

  it("one ball hitting two touching balls, simultaneous: -v/3, 2v/3, 2v/3", function()
    -- the LCP by hand: collision row elastic (e = 1), contact row e = 0: j1 = 4, j2 = 2
    local w, a, b, c, p0, e0 = one_hits_two("simultaneous")
    assert.near({ -1, 0 }, a.velocity, 1e-9)
    assert.near({ 2, 0 }, b.velocity, 1e-9)
    assert.near({ 2, 0 }, c.velocity, 1e-9)
    assert.near(p0, w:momentum(), 1e-9)
    assert.near(e0, energy(w), 1e-9)
  end)

  for _, handling in ipairs({ "serial", "hybrid" }) do
    it("one ball hitting two touching balls, " .. handling .. ": only the last ball moves", function()
      local w, a, b, c, p0, e0 = one_hits_two(handling)
      assert.near({ 0, 0 }, a.velocity, 1e-9)
      assert.near({ 0, 0 }, b.velocity, 1e-9)
      assert.near({ 3, 0 }, c.velocity, 1e-9)
      assert.near(p0, w:momentum(), 1e-9)
      assert.near(e0, energy(w), 1e-9)
    end)
  end

  it("keeps a fast small ball inside a box of thin walls", function()
    local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, 0 } }
    local t = 0.01
    local wall = function(x, y, wd, ht)
      w:add_body { shape = shape2d.block { width = wd, height = ht }, position = { x, y }, fixed = true }
    end
    wall(0, -2 - t / 2, 4 + 2 * t, t)
    wall(0, 2 + t / 2, 4 + 2 * t, t)
    wall(-2 - t / 2, 0, t, 4)
    wall(2 + t / 2, 0, t, 4)
    local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1, position = { 0.3, -0.1 },
                              velocity = { 200, 153 } }
    local e0 = energy(w)
    for _ = 1, 40 do
      w:step()
      local p = ball.position
      assert.is_true(math.abs(p[1]) < 2 and math.abs(p[2]) < 2, "escaped at t = " .. w.time)
    end
    assert.is_true(w:stats().collisions > 20)
    assert.near(e0, energy(w), 1e-9 * e0)
  end)

  it("raises a stuck error naming the time and bodies, keeping the last good state", function()
    -- myPhysicsLab's ball_falls_on_floor_stuck: without contact forces a bouncing ball that
    -- comes to rest cannot be kept out of the floor
    local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, -10 } }
    ground(w)
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 1 },
                              elasticity = 0.8, name = "ball" }
    local ok, err
    for _ = 1, 600 do
      local t, y = w.time, ball.position[2]
      ok, err = pcall(w.step, w)
      if not ok then
        assert.equal(t, w.time)
        assert.equal(y, ball.position[2])
        break
      end
    end
    assert.is_false(ok)
    assert.matches("back%-ups", err)
    assert.matches("t = %d", err)
    assert.matches("'ball'", err)
    assert.matches("'ground'", err)
  end)

  it("reports contact_begin when a ball lands and contact_end when it leaves", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 } }
    local g = ground(w)
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 1.5 },
                              elasticity = 0, name = "ball" }
    local log = {}
    w:on("contact_begin", function(ev) log[#log + 1] = ev end)
    w:on("contact_end", function(ev) log[#log + 1] = ev end)
    local hits = 0
    w:on("collision", function() hits = hits + 1 end)
    w:run { duration = 1 }
    assert.equal(1, hits)
    assert.equal(1, #log)
    local ev = log[1]
    assert.equal("contact_begin", ev.kind)
    assert.equal(g, ev.body1)
    assert.equal(ball, ev.body2)
    assert.near({ 0, 1 }, ev.normal, 1e-12)
    -- it lands after falling 1 - gap: t = sqrt(2 (1 - 0.005) / 10), within a step
    assert.near(math.sqrt(2 * 0.995 / 10), ev.time, 0.01)
    ball:apply_impulse({ 0, 5 })
    w:run { duration = 0.2 }
    assert.equal(2, #log)
    assert.equal("contact_end", log[2].kind)
    assert.equal(ball, log[2].body2)
  end)

  it("switches strategies between runs: none passes through, impulse bounces", function()
    local w = impact.world2d { strategy = "none", dt = 0.01, gravity = { 0, 0 } }
    local wall = w:add_body { shape = shape2d.block { width = 0.2, height = 4 }, position = { 2, 0 },
                              fixed = true }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, velocity = { 2, 0 } }
    w:run { duration = 3 } -- passes through the wall
    assert.near({ 6, 0 }, ball.position, 1e-9)
    ball.position = { 0, 0 }
    w.strategy = "impulse"
    assert.equal("impulse", w.strategy)
    w:run { duration = 3 }
    -- it meets the wall (face at x = 1.9) with its surface at the half gap and comes back
    -- elastically: x = 1.9 - 0.5 - 0.005 - 2 (3 - 1.395 / 2)
    assert.near({ -2, 0 }, ball.velocity, 1e-9)
    assert.near(1.395 - 2 * (3 - 1.395 / 2), ball.position[1], 1e-6)
    assert.equal(1, w:stats().collisions)
    assert.is_not_nil(wall)
  end)

  it("a ball with elasticity 0 does not rebound and rests at the half gap (contact)", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 } }
    ground(w)
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 2 },
                              elasticity = 0 }
    local top_after = -math.huge
    local landed = false
    w:on("collision", function() landed = true end)
    for _ = 1, 200 do
      w:step()
      if landed then top_after = math.max(top_after, ball.position[2]) end
    end
    assert.is_true(landed)
    assert.near(0.505, top_after, 1e-6)
    assert.near(0.505, ball.position[2], 1e-9)
    assert.near({ 0, 0 }, ball.velocity, 1e-9)
  end)

  it("rejects bad options with clear errors", function()
    assert.has_error(function() impact.world2d { strategy = "impulse", collision_handling = "x" } end)
    assert.has_error(function() impact.world2d { distance_tol = -1 } end)
    assert.has_error(function() impact.world2d { collision_accuracy = 2 } end)
    assert.has_error(function() impact.world3d { strategy = "impulse", extra_accel = "velocity" } end)
    local w = impact.world2d {}
    assert.has_error(function() w:add_body { shape = shape2d.ball {}, elasticity = 1.5 } end)
    assert.has_error(function() w:add_body { shape = shape2d.ball {}, friction = -1 } end)
  end)
end)
