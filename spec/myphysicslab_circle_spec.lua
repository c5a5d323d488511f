-- myPhysicsLab's CircleStraightTest scenes (src/test/CircleStraightTest.ts) under the 2D contact
-- strategy, against the states its suite asserts, to its tolerance 1e-5.
-- Common setup (its commonSetup1): RK4, dt 0.025, distance_tol 0.01, velocity_tol 0.5,
-- collision_accuracy 0.6, no damping, masses 1; its handling is serial (grouped, with a last
-- pass); the simultaneous and hybrid modes reach the same states here and are checked too.
local impact = require("impact")
local worst = require("spec.support.myphysicslab").worst
local shape2d = impact.shape2d

local TOL = 1e-5

local function world(handling, extra, gravity, conventions)
  return impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -(gravity or 0) },
                          collision_handling = handling, distance_tol = 0.01, velocity_tol = 0.5,
                          collision_accuracy = 0.6, integrator = "rk4", extra_accel = extra,
                          seed = 99999, conventions = conventions }
end

-- The scenes impact's exact formulas part from, each run twice: under impact's conventions to
-- the distance measured (tol), and under conventions = "myphysicslab" (its approximations:
-- engine2d_def.h) to the tolerance its suite asserts (its_tol)
local function both(tol, its_tol)
  return { { conventions = "impact", tol = tol }, { conventions = "myphysicslab", tol = its_tol } }
end

-- its commonSetup1 under mutual gravitation (G, default 3) and no gravity, serial handling, at
-- dt (default 0.025)
local function gravitating(conventions, dt, G)
  return impact.world2d { strategy = "contact", dt = dt or 0.025, gravity = { 0, 0 },
                          collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
                          collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity",
                          seed = 99999, gravitation = { G = G or 3, softening = 0 },
                          conventions = conventions }
end

-- runs w to t and asserts its bodies' state to tol of myPhysicsLab's (expected), then to t2:
-- the energy kept to e_tol (default 1e-3) and no further collision
local function state_then_quiet(w, bodies, expected, t, t2, tol, e_tol)
  w:run { until_time = t }
  local err = worst(bodies, expected)
  assert.is_true(err <= tol, ("state %.3g from myPhysicsLab's at %g s"):format(err, t))
  local e, c = w:energy().total, w:stats().collisions
  w:run { until_time = t2 }
  assert.near(e, w:energy().total, e_tol or 1e-3)
  assert.equal(c, w:stats().collisions)
end

describe("myPhysicsLab CircleStraightTest", function()
  -- rotating_block_vs_ball_1 and _0: a 1 x 3 block turning at 0.5 rad/s and drifting at
  -- -0.2 m/s meets a ball (radius 0.75) at rest, no gravity; the approach is slower than
  -- velocity_tol, so it is a contact, and the block's face then slides along the ball to its
  -- corner. Its suite notes that the test fails when a false contact is found there (a second
  -- contact at the corner beside the face's own, whose force would change the energy): the
  -- face's contact and the corner's are one contact, as in its similarTo rule.
  local expected = {
    [1] = { { -1.6324684, -0.2331973, -0.7357376, -0.1458555, 0, 0 },
            { 1.1324684, 0.0331973, 0.7357376, 0.1458555, 1.965865, 0.2512581 } },
    [0] = { { -1.6274159, -0.2325424, -0.7371557, -0.1463887, 0, 0 },
            { 1.1274159, 0.0325424, 0.7371557, 0.1463887, 1.964511, 0.2505587 } },
  }
  for _, handling in ipairs { "serial", "simultaneous", "hybrid" } do
    for _, elasticity in ipairs { 1, 0 } do
      it(("rotating_block_vs_ball_%d (%s)"):format(elasticity, handling), function()
        local w = world(handling, "velocity")
        local ball = w:add_body { shape = shape2d.ball { radius = 0.75 }, mass = 1,
                                  position = { -0.4, 0 }, elasticity = elasticity }
        local block = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
                                   position = { 1.5, 0 }, angle = -math.pi / 4,
                                   velocity = { -0.2, 0 }, spin = 0.5, elasticity = elasticity }
        w:run { until_time = 8 }
        local err = worst({ ball, block }, expected[elasticity])
        assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's"):format(err))
        -- after the contact ends nothing acts: the energy then stays put
        local e = w:energy().total
        w:run { until_time = 9 }
        assert.near(e, w:energy().total, 1e-12)
      end)
    end
  end

  -- elastic_balls: six balls (radius 0.8, elasticity 1, 0.8, ..., 0) dropped from y = 2 onto
  -- the floor of a 12 x 12 box (top at y = -6), gravity 3, extra acceleration
  -- velocity_and_distance. At t = 10 the elastic ball is in its third flight,
  -- v = g (4 t0 - t) with t0 = sqrt(2 * 7.195 / 3) (it falls to the half gap); the 0.8 ball
  -- is in a later flight; the rest lie at the half gap (y = -6 + 0.8 + 0.005). 17 collisions.
  for _, handling in ipairs { "serial", "simultaneous", "hybrid" } do
    it("elastic_balls (" .. handling .. ")", function()
      local w = world(handling, "velocity_and_distance", 3)
      local function wall(wd, ht, x, y)
        w:add_body { shape = shape2d.block { width = wd, height = ht }, fixed = true,
                     position = { x, y }, elasticity = 1 }
      end
      wall(14, 1, 0, -6.5); wall(14, 1, 0, 6.5); wall(1, 12, -6.5, 0); wall(1, 12, 6.5, 0)
      local balls = {}
      for i = 0, 5 do
        balls[#balls + 1] = w:add_body { shape = shape2d.ball { radius = 0.8 }, mass = 1,
                                         position = { -5 + 2 * i, 2 }, elasticity = 1 - 0.2 * i }
      end
      w:run { until_time = 10 }
      local t0 = math.sqrt(2 * 7.195 / 3)  -- down to the half gap
      assert.near(3 * (4 * t0 - 10), balls[1].velocity[2], 1e-4)  -- the closed form, to RK4's error
      local err = worst(balls, {
        { -5, 0, -0.3044753, -3.7184475 }, { -3, 0, -3.5265603, -1.1428554 },
        { -1, 0, -5.195, 0 }, { 1, 0, -5.195, 0 }, { 3, 0, -5.195, 0 }, { 5, 0, -5.195, 0 } })
      assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's"):format(err))
      -- (serial and hybrid report one more: a tiny impulse, 0.02 N s, on the 0.6 ball while
      -- it settles into contact, where myPhysicsLab's contact is already at rest)
      local n = w:stats().collisions
      if handling == "simultaneous" then
        assert.equal(17, n)
      else
        assert.is_true(n == 17 or n == 18, tostring(n))
      end
    end)
  end

  -- ball_falls_on_floor_stuck: under impulse alone (no contact forces) a ball of elasticity
  -- 0.8 bouncing on a floor makes ever smaller bounces; they accumulate at the Zeno time
  -- t0 (1 + 2 e / (1 - e)), t0 = sqrt(2 h / g) with h = 1.495 (to the half gap), about 8.98 s,
  -- beyond which the strategy cannot go: its suite expects the run to fail before 15 s. The
  -- failure is a clear error naming the bodies, after the Zeno time, and the world keeps its
  -- last good state.
  it("ball_falls_on_floor_stuck: impulse alone fails past the Zeno time, clearly", function()
    local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, -3 },
                               collision_handling = "serial", distance_tol = 0.01,
                               velocity_tol = 0.5, collision_accuracy = 0.6, integrator = "rk4",
                               seed = 99999 }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1,
                              position = { 0, 0 }, elasticity = 0.8 }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, fixed = true,
                 position = { 0, -2.5 }, elasticity = 0.8 }
    local ok, err = pcall(function() w:run { until_time = 15 } end)
    assert.is_false(ok)
    assert.matches("#1", err, 1, true)
    assert.matches("#2", err, 1, true)
    local t0 = math.sqrt(2 * 1.495 / 3)
    assert.is_true(w.time > t0 * (1 + 2 * 0.8 / 0.2) and w.time < 15, tostring(w.time))
    assert.is_true(ball.position[2] > -1.5 - 1e-6)  -- the last good state: not in the floor
  end)

  -- ball_block_collide: a ball (radius 0.75) whose centre of mass is 0.2 above its centre
  -- (myPhysicsLab's setCenterOfMass, the moment about it kept at r^2 / 2) spinning at 1 rad/s
  -- meets a block's corner at (1, -1) m/s, elasticity 1, no gravity: its state at t = 3 to
  -- 1e-5, momentum and energy kept.
  it("ball_block_collide: a ball with its centre of mass off its centre hits a corner", function()
    local w = world("serial", "velocity")
    local ball = w:add_body { shape = shape2d.ball { radius = 0.75 }, mass = 1,
                              center_of_mass = { 0, 0.2 }, position = { -2, 2 },
                              velocity = { 1, -1 }, spin = 1, elasticity = 1 }
    local block = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                               position = { 0, 0 }, elasticity = 1 }
    assert.near(0.75 ^ 2 / 2, ball.inertia, 1e-15)
    local e0 = w:energy().total
    w:run { until_time = 3 }
    assert.equal(1, w:stats().collisions)
    local err = worst({ ball, block }, {
      { -1.135972, 0.0179439, 1.1812653, 0.0028806, 3.1087039, 1.0499788 },
      { 2.135972, 0.9820561, -2.1812653, -1.0028806, 0.1358799, 0.0624735 } })
    assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's"):format(err))
    assert.near(e0, w:energy().total, 1e-12)
    assert.near(1, ball.velocity[1] + block.velocity[1], 1e-12)
    assert.near(-1, ball.velocity[2] + block.velocity[2], 1e-12)
  end)
end)

-- CircleStraightTest's wedged_ball: a ball (radius 1.5, centre of mass (0.4, 0.2) off its
-- centre) dropped beside the left wall onto a fixed block's corner, wedged between them under
-- gravity 3, elasticity 0.8, extra acceleration velocity_and_distance, in the 12 x 12 walls.
-- Its suite asserts the state at 3 s to 1e-5; asserted here to 1e-4 (measured 3.3e-5). What
-- remains is a choice (engine2d_contact.c, push_speed): from 1.0 s the ball is closer to the
-- wall than the half gap while still approaching; impact pushes such a contact out only once
-- it carries a load, ContactSim at once with (2 v h + x) / h^2, which adds energy to touching
-- stacks and cradles (spec/engine2d_touching_spec.lua). With ContactSim's rule (a measuring
-- build) the state is 3.4e-7 from its asserted one; under conventions = "myphysicslab" (that
-- rule with its other approximations) 4e-8, within its 1e-5. At 1.025 s a stage finds the
-- ball 0.0012 inside the wall and already leaving: it abandons the trial step (ContactSim's
-- illegalState) and the back-up handles the approach with an impulse, as myPhysicsLab does.
describe("myPhysicsLab CircleStraightTest wedged_ball", function()
  for _, c in ipairs(both(1e-4, 1e-5)) do
    it(("its state at 3 s to %g under conventions %q (it asserts 1e-5), 12 collisions, energy "
        .. "lost"):format(c.tol, c.conventions), function()
      local w = world("serial", "velocity_and_distance", 3, c.conventions)
      local ball = w:add_body { shape = shape2d.ball { radius = 1.5 }, mass = 1,
                                center_of_mass = { 0.4, 0.2 }, position = { -5.5 + 1.5 + 0.01, -3 },
                                elasticity = 0.8 }
      assert.near(1.5 ^ 2 / 2, ball.inertia, 1e-15)
      w:add_body { shape = shape2d.block { width = 1, height = 1 }, position = { -2.5, -5 },
                   fixed = true, elasticity = 0.8 }
      for _, wall in ipairs { { 14, 1, 0, -6.5 }, { 1, 14, 6.5, 0 }, { 14, 1, 0, 6.5 },
                              { 1, 14, -6.5, 0 } } do
        w:add_body { shape = shape2d.block { width = wall[1], height = wall[2] }, fixed = true,
                     position = { wall[3], wall[4] }, elasticity = 0.8 }
      end
      local e0 = w:energy().total
      w:run { until_time = 3 }
      local err = worst({ ball },
        { { -4.9277059, -0.1631422, -4.4398357, 0.6282979, -3.3497083, -1.4515518 } })
      assert.is_true(err <= c.tol, ("state %.3g from myPhysicsLab's"):format(err))
      assert.equal(12, w:stats().collisions)  -- as many as myPhysicsLab's engine has by 3 s
      assert.is_true(w:energy().total < e0)  -- inelastic strikes: energy only lost
    end)
  end
end)

-- CircleStraightTest's ball_block_contact: a ball (centre of mass 0.2 off its centre) and a
-- 1 x 3 block sliding past each other in contact under mutual gravitation (G = 3). Not matched:
-- ball_block_attract (20 s of collisions and rolling) is matched to 1e-3, not its 1e-4: see
-- the test below.
describe("myPhysicsLab CircleStraightTest ball_block_contact", function()
  it("their state to 1e-5 at 1 and 4 s (measured 5e-8), energy to 1e-5 and no collision "
    .. "after the first second", function()
    local w = gravitating()
    local ball = w:add_body { shape = shape2d.ball { radius = 0.75 }, mass = 1,
      inertia = 0.75 ^ 2 / 2, center_of_mass = { 0, 0.2 }, position = { -0.2525, 0 },
      velocity = { 0, 0.6 }, spin = 1, elasticity = 0.8 }
    local block = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
      position = { 1, 0 }, velocity = { 0, -0.6 }, elasticity = 0.8 }
    w:run { until_time = 1 }
    local err = worst({ ball, block }, {
      { -0.2749218, 0.0874195, 0.4044095, 0.1208178, 0.4380613, 0.0903604 },
      { 1.0224218, -0.0874195, -0.4044095, -0.1208178, -0.0766021, -0.3218581 } })
    assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's at 1 s"):format(err))
    local e1, c1 = w:energy().total, w:stats().collisions
    w:run { until_time = 4 }
    err = worst({ ball, block }, {
      { -0.0405174, -0.1600652, 0.4408221, -0.0927029, -2.9119182, -1.956407 },
      { 0.7880174, 0.1600652, -0.4408221, 0.0927029, -0.4529687, -0.165526 } })
    assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's at 4 s"):format(err))
    assert.near(e1, w:energy().total, 1e-5)
    assert.equal(c1, w:stats().collisions)
  end)
end)

-- CircleCircleTest.ts: circular edges against circular edges. concave_circle_and_ball (a ball
-- rocking in a block's concave arc) is matched to 1e-3, not its 1e-5: 6.8e-4 from its state at
-- 6 s (0.032 before the collision-time estimate of curved edges took the rate of their
-- centres; 0.22 with the block's true moment instead of its bounding box's). Measured against
-- myPhysicsLab's own code (a TypeScript build of its engine, which reproduces the states its
-- suite asserts to 5e-8), the rest is its curvature term of contacts on arcs, |dv|^2 / rho
-- with the whole relative velocity of the centres (Curved Edge Physics: n' = dv / rho), where
-- the exact second derivative of the gap has only the tangential part |dv_t|^2 / rho; with
-- its term impact follows its state to 1e-9 for the 6 s: under conventions = "myphysicslab"
-- (measured 4.4e-8) it is asserted to its 1e-5.
describe("myPhysicsLab CircleCircleTest", function()
  for _, c in ipairs(both(1e-3, 1e-5)) do
    it(("concave_circle_and_ball: its state at 6 s to %g under conventions %q, then from 6 s to "
      .. "9 s no collision and the energy kept to 1e-3 (its assertions)"):format(c.tol, c.conventions),
      function()
      -- TestShapes.makeConcaveCirclePoly: a 3 x 1.5 block whose top is a concave arc of radius 2
      -- from (3, 1) to (0, 1), centre of mass (1.5, 0), its bounding box's moment (9 + 2.25) / 12;
      -- a ball of radius 0.5 with its centre of mass at (0.2, 0) from the centre; G = 3
      local w = gravitating(c.conventions)
      local arc = shape2d.path():move_to(0, -0.5):line_to(3, -0.5):line_to(3, 1)
        :arc_to(0, 1, { center = { 1.5, 1 + math.sqrt(4 - 2.25) }, outside = false }):close():build()
      local block = w:add_body { shape = arc, mass = 1, center_of_mass = { 1.5, 0 },
                                 inertia = 0.9375, position = { 0, -2 }, elasticity = 0.8 }
      local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, inertia = 0.125,
                                center_of_mass = { 0.2, 0 }, position = { 0.5, -0.22 },
                                elasticity = 0.8 }
      state_then_quiet(w, { block, ball }, {  -- energy drift to 9 s 1.9e-5
        { 0.1967144, -0.8904188, -1.4219796, 0.1258683, -0.10235, 0.1459626 },
        { 0.3032856, 0.8904188, -0.7980204, -0.1258683, -1.8963003, 3.4576941 } }, 6, 9, c.tol)
    end)
  end

  it("ball_ball_contact: two balls with offset centres of mass rolling on each other under "
    .. "mutual gravitation (G = 3): their state to 1e-5 at 1 and 4 s, energy to 1e-5, no "
    .. "collision after the first step", function()
    local w = gravitating()
    -- makeBall: mass 1, moment r^2 / 2 about the centre of mass wherever it is put
    local a = w:add_body { shape = shape2d.ball { radius = 0.75 }, mass = 1, inertia = 0.75 ^ 2 / 2,
      center_of_mass = { 0, 0.2 }, position = { -0.754, -0.2 }, spin = 1, elasticity = 0.8 }
    local b = w:add_body { shape = shape2d.ball { radius = 1 }, mass = 1, inertia = 0.5,
      center_of_mass = { 0, -0.3 }, position = { 0.95, 0.3 }, angle = math.pi, elasticity = 0.8 }
    w:run { until_time = 1 }
    local err = worst({ a, b }, {
      { -0.7845976, 0.0291469, -0.1822277, 0.0576237, 0.6655733, 0.4093619 },
      { 0.9805976, -0.0291469, 0.2822277, -0.0576237, 3.4239727, 0.5085931 } })
    assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's at 1 s"):format(err))
    local e1, c1 = w:energy().total, w:stats().collisions
    w:run { until_time = 4 }
    err = worst({ a, b }, {
      { -0.5864811, 0.094376, -0.1374326, -0.3109941, -1.0070382, -1.6390627 },
      { 0.7824811, -0.094376, 0.2374326, 0.3109941, 6.1598454, 0.562238 } })
    assert.is_true(err <= TOL, ("state %.3g from myPhysicsLab's at 4 s"):format(err))
    assert.near(e1, w:energy().total, 1e-5)
    assert.equal(c1, w:stats().collisions)
  end)
end)

-- CircleStraightTest's concave_ball_block_collide: a 1 x 1 block (turned by pi/8 - pi/24) falls
-- into the concave arc of the block above, G = 3, dt 0.01, and settles rocking there; and
-- ball_block_attract: a ball (centre of mass 0.2 off its centre) and a 1 x 1 block, both
-- spinning, drawn together (G = 3) into collisions and rolling for 20 s. Matched to 1e-3, not
-- their 1e-5 and 1e-4: 1.8e-4 and 4.3e-4 (0.19 and 2.6 before the collision-time estimate of
-- curved edges took their gap and its rate from the centres, and the contact strategy's stages
-- detected the paths from the step's start as ContactSim's). Measured against myPhysicsLab's
-- own code, the rest is its curvature term on arcs (|dv|^2 / rho, see
-- concave_circle_and_ball) and its lever arm of a vertex contact (see ngon_block in
-- myphysicslab_straight_spec): with both impact follows ball_block_attract to 1e-9 for 20 s;
-- concave_ball_block_collide then parts at 1.62 s by its rule for what to handle after a
-- back-up: only the records that penetrated (or approach faster than velocity_tol), where
-- impact handles a penetrating pair when any of its records is close, a slow touch of its
-- other corner too (one impulse of 1e-5 and one back-up more; with its rule as well impact
-- follows it to 1e-9 for 8 s, but the block pile of examples/ then settles later). Under
-- conventions = "myphysicslab" (its three choices) both are asserted to its tolerances
-- (measured 3.6e-8 and 3.4e-8).
-- its makeConcaveCirclePoly: a 3 x 1.5 block whose top is a concave arc of radius 2 (its centre
-- 2.3228757 above the centre of mass), mass 1, placed with its centre of mass at (0, y)
local function concave_holder(w, y)
  local arc = shape2d.path():move_to(0, -0.5):line_to(3, -0.5):line_to(3, 1)
    :arc_to(0, 1, { center = { 1.5, 1 + math.sqrt(4 - 2.25) }, outside = false }):close():build()
  return w:add_body { shape = arc, mass = 1, center_of_mass = { 1.5, 0 }, inertia = 0.9375,
                      position = { 0, y }, elasticity = 0.8 }
end

describe("myPhysicsLab CircleStraightTest concave_ball_block_collide and ball_block_attract", function()
  for _, c in ipairs(both(1e-3, 1e-5)) do
    it(("concave_ball_block_collide: its state at 8 s to %g under conventions %q, then from 8 s "
      .. "to 12 s no collision and the energy kept to 1e-3 (its assertions)"):format(c.tol, c.conventions),
      function()
      local w = gravitating(c.conventions, 0.01)
      local holder = concave_holder(w, -2)
      local block = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
        position = { 0.5, -0.22 }, angle = math.pi / 8 - math.pi / 24, elasticity = 0.8 }
      state_then_quiet(w, { holder, block }, {  -- energy drift to 12 s 4.8e-7
        { 0.3091927, 0.5475717, -1.5539282, 0.0193363, 0.084485, -0.2984758 },
        { 0.1908073, -0.5475717, -0.6660718, -0.0193363, -1.5117501, -1.2518051 } }, 8, 12, c.tol)
    end)
  end

  for _, c in ipairs(both(1e-3, 1e-4)) do
    it(("ball_block_attract: its state at 20 s to %g under conventions %q (it asserts 1e-4)")
      :format(c.tol, c.conventions), function()
      local w = gravitating(c.conventions)
      local ball = w:add_body { shape = shape2d.ball { radius = 0.75 }, mass = 1,
        inertia = 0.75 ^ 2 / 2, center_of_mass = { 0, 0.2 }, position = { -2, 2 },
        velocity = { 0.1, -0.1 }, spin = 1, elasticity = 0.8 }
      local block = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
        position = { 0, 0 }, velocity = { -0.1, 0.1 }, spin = -1, elasticity = 0.8 }
      w:run { until_time = 20 }
      local err = worst({ ball, block }, {
        { -1.3699699, 0.2138555, 1.5307076, -0.2372712, 33.3931299, 1.7136164 },
        { -0.6300301, -0.2138555, 0.4692924, 0.2372712, -7.2779759, -1.8957024 } })
      assert.is_true(err <= c.tol, ("state %.3g from myPhysicsLab's at 20 s"):format(err))
    end)
  end
end)

-- The collision-time estimate after a back-up (myPhysicsLab's updateCollision) takes the gap's
-- rate at the earlier state. For curved edges that is the rate of the centres along their
-- line, whatever the spin: a ball's spin moves no point of its rim toward another ball. (The
-- record moved back with its bodies had kept its impact point where the back-up found it, off
-- the new line of centres, and its velocity there mixed the spin in: the estimate missed, a
-- spinning ball took up to four back-ups and two binary searches and met the other ball at
-- another moment.)
describe("collision time of curved edges", function()
  it("a ball glancing off a fixed ball collides at the same moment whatever its spin: when its "
    .. "gap is half the tolerance (closed form, to the accuracy band), after one back-up", function()
    -- a ball of radius 0.5 from (-3, 1) at 4 m/s along x, a fixed ball of radius 1 at the
    -- origin: the centres are 1.5 + 0.005 apart when (4 t - 3)^2 + 1 = 1.505^2
    local t_half = (3 - math.sqrt(1.505 ^ 2 - 1)) / 4
    local times = {}
    for _, spin in ipairs { 0, 30, -30, 60 } do
      local w = impact.world2d { strategy = "impulse", dt = 0.025, gravity = { 0, 0 },
        collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
        collision_accuracy = 0.6, integrator = "rk4", seed = 1 }
      w:add_body { shape = shape2d.ball { radius = 1 }, fixed = true, position = { 0, 0 },
                   elasticity = 1 }
      w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { -3, 1 },
                   velocity = { 4, 0 }, spin = spin, elasticity = 1 }
      local hit
      w:on("collision", function(e) hit = hit or e end)
      w:run { until_time = 0.5 }
      assert.is_truthy(hit)
      -- the accuracy band: within 0.6 of the half gap (0.003 m) at about 3 m/s of approach
      assert.near(t_half, hit.time, 0.003 / 3)
      assert.equal(1, w:stats().backups)
      assert.equal(0, w:stats().binary_searches)
      times[#times + 1] = hit.time
    end
    for k = 2, #times do assert.near(times[1], times[k], 1e-12) end
  end)
end)

-- CircleStraightTest's concave_ball_block_contact and _2: the holder of concave_ball_block_collide
-- placed with its arc's centre (radius 2) at the origin, a 1 x 1 block turned by pi/16 resting
-- in the arc, its two lower corners 0.006 from the arc (its setup iterates the block's distance
-- from the origin along the turned axis until distanceToHalfGap = 0.001, half gap 0.005: both
-- corners at sqrt((d + 1/2)^2 + 1/4) = 2 - 0.006 from the centre, solved here in closed form),
-- G = 10, no gravity: they rock in contact. Its state at 8 s to 1e-4 (dt 0.01) and 1e-6 (dt
-- 0.0025), no collision, the energy kept to 1e-4 and 1e-6. Measured: 6.2e-7 and 6.5e-7 from its
-- states, energy 2.2e-5 and 3.8e-7, under both conventions.
describe("myPhysicsLab CircleStraightTest concave_ball_block_contact", function()
  local cases = {
    { name = "concave_ball_block_contact", dt = 0.01, tol = 1e-4, expected = {
      { 0.0976832, -0.7068779, -2.3078333, 0.0053314, -0.0510627, 0.3847691 },
      { 0.1813533, 0.7068779, -1.417854, -0.0053314, -0.0243965, 1.6129892 } } },
    { name = "concave_ball_block_contact_2", dt = 0.0025, tol = 1e-6, expected = {
      { 0.0976759, -0.7068614, -2.3078333, 0.0053102, -0.0510571, 0.3847591 },
      { 0.1813607, 0.7068614, -1.417854, -0.0053102, -0.024377, 1.6129487 } } },
  }
  for _, case in ipairs(cases) do
    for _, conventions in ipairs { "impact", "myphysicslab" } do
      it(("%s (dt %g, conventions %q): its state at 8 s to %g, energy kept to %g, no collision")
        :format(case.name, case.dt, conventions, case.tol, case.tol), function()
        local w = gravitating(conventions, case.dt, 10)
        local holder = concave_holder(w, -2.3228757)
        local a = math.pi / 16
        local d = math.sqrt(1.994 ^ 2 - 0.25) - 0.5
        local block = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
          position = { d * math.sin(a), -d * math.cos(a) }, angle = a, elasticity = 0.8 }
        local e0 = w:energy().total
        w:run { until_time = 8 }
        local err = worst({ holder, block }, case.expected)
        assert.is_true(err <= case.tol, ("state %.3g from myPhysicsLab's"):format(err))
        assert.near(e0, w:energy().total, case.tol)
        assert.equal(0, w:stats().collisions)
      end)
    end
  end
end)

-- CircleStraightTest's circle_arc_block: its makeBlockRoundEdge (a 2 x 1 block whose top is a
-- convex arc about (1, -0.3) through its upper corners; its Polygon.finish puts the centre of
-- mass at the bounding box's centre and takes the box's moment, (w^2 + h^2) / 12, h the arc's
-- top) at (0, -1), and a 1 x 1 block turned by pi/8 - pi/24 at (2.5, 0.3), G = 3, dt 0.01:
-- they collide and settle into rocking contact. Its state at 8 s to 1e-4, then to 12 s the
-- energy kept to 1e-4 and no collision. Measured: 4.9e-8 under both conventions, energy
-- 3.4e-7, 10 collisions before 8 s and none after.
describe("myPhysicsLab CircleStraightTest circle_arc_block", function()
  local function scene(conventions)
    local w = gravitating(conventions, 0.01)
    local top = -0.3 + math.sqrt(2.69)
    local round = shape2d.path():move_to(0, 0):line_to(2, 0):line_to(2, 1)
      :arc_to(0, 1, { center = { 1, -0.3 }, outside = true }):close():build()
    local p = w:add_body { shape = round, mass = 1, center_of_mass = { 1, top / 2 },
      inertia = (4 + top * top) / 12, position = { 0, -1 }, elasticity = 0.8 }
    local b = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
      position = { 2.5, 0.3 }, angle = math.pi / 8 - math.pi / 24, elasticity = 0.8 }
    return w, { p, b }
  end

  -- under conventions = "myphysicslab" the second collision (t = 2.0158) finds the block's
  -- corner on the arc and, 0.09 away, the arc's end corner on the block's face, one normal:
  -- its similarTo takes them for one collision seen from both bodies (nearness 0.36 for the
  -- arc's radius 1.64) and keeps the deeper, the corner on the arc; kept as two, the serial
  -- draw struck the other and the run ended 7.8 from its state
  for _, conventions in ipairs { "impact", "myphysicslab" } do
    it("its state at 8 s to 1e-4, then to 12 s the energy kept to 1e-4 and no collision ("
      .. conventions .. ")", function()
      local w, bodies = scene(conventions)
      state_then_quiet(w, bodies, {
        { 0.8343664, 0.164365, -0.7928884, -0.2694134, -1.0677983, -0.8300614 },
        { 1.6656336, -0.164365, 0.0928884, 0.2694134, 0.5765963, 0.188213 } }, 8, 12, 1e-4, 1e-4)
    end)
  end
end)
