-- myPhysicsLab's MiscellanyTest scenes (src/test/MiscellanyTest.ts) under the 2D contact
-- strategy, against the states its suite asserts (tolerance 1e-5) and the closed forms.
local impact = require("impact")
local shape2d = impact.shape2d
local mpl = require("spec.support.myphysicslab")
local worst = mpl.worst
local clock = require("spec.support.myphysicslab_clock")
local curved = require("spec.support.myphysicslab_curved")

describe("myPhysicsLab MiscellanyTest", function()
  -- damping_standard: two balls (radius 0.5 and 1, mass 1) spinning at 2 rad/s under its
  -- DampingLaw(0.1, rotateRatio 0.15): a torque -0.1 * 0.15 omega, so
  -- omega = omega0 exp(-c t / I) and angle = omega0 I / c (1 - exp(-c t / I)), I = r^2 / 2;
  -- the larger ball spins longer. Its common setup: RK4, dt 0.025, serial handling.
  it("damping_standard: spinning balls slowed by angular damping", function()
    local c = 0.1 * 0.15
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, 0 },
                               collision_handling = "serial", distance_tol = 0.01,
                               velocity_tol = 0.5, collision_accuracy = 0.6, integrator = "rk4",
                               extra_accel = "velocity", joint_small_impacts = true,
                               damping = { linear = 0.1, angular = c } }
    local small = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 2, 0 },
                               spin = 2, elasticity = 0.8 }
    local large = w:add_body { shape = shape2d.ball { radius = 1 }, mass = 1, position = { -2, 0 },
                               spin = 2, elasticity = 0.8 }
    w:run { until_time = 4 }
    local expected = { { small, 0.5, 6.3536101, 1.2375668 }, { large, 1, 7.5386376, 1.7738409 } }
    for _, e in ipairs(expected) do
      local b, r = e[1], e[2]
      local inertia = r * r / 2
      local decay = math.exp(-c * 4 / inertia)
      assert.near(2 * decay, b.spin, 1e-7)                        -- the closed form (RK4's error)
      assert.near(2 * inertia / c * (1 - decay), b.angle, 1e-7)
      assert.near(e[3], b.angle, 1e-5)                            -- myPhysicsLab's state
      assert.near(e[4], b.spin, 1e-5)
      assert.same({ e[1] == small and 2 or -2, 0 }, b.position)
    end
  end)

  -- newtons_cradle: five pendulums (myPhysicsLab's makePendulum: a ball of radius
  -- sqrt(0.05^2 + 0.6^2) at the end of a 0.1 x 3 stick, centre of mass at the ball's centre,
  -- moment r^2 / 2) pinned 3 above their centres, hanging at the half gap from each other; the
  -- first let go from -pi/4, gravity 32, elasticity 1, serial handling, extra acceleration
  -- "velocity", no small impacts. Its suite asserts the state at t = 3.5 to 1e-4, the energy to
  -- 2e-4, the joints to 1e-5 and 3 collisions: the first ball strikes, the last swings out and
  -- back and strikes, the first swings out and back and strikes; only the last then moves.
  -- impact keeps the energy, the joints and the three strikes, and the state to its 1e-4
  -- (5e-8, since the collision-time estimate's fixes; measured against myPhysicsLab's own
  -- engine).
  it("newtons_cradle: only the last ball moves, energy and joints kept", function()
    local wd, len, r = 0.05, 3, 0.6
    local rr = math.sqrt(wd * wd + r * r)
    local pendulum = shape2d.path():move_to(wd, r):line_to(wd, len + wd):line_to(-wd, len + wd)
      :line_to(-wd, r):arc_to(wd, r, { center = { 0, 0 } }):close():build()
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -32 },
                               collision_handling = "serial", distance_tol = 0.01,
                               velocity_tol = 0.5, collision_accuracy = 0.6, integrator = "rk4",
                               extra_accel = "velocity", seed = 99999 }
    local x = -(5 * 2 * r + 4 * 0.005) / 2 + r
    local bodies, joints = {}, {}
    for i = 1, 5 do
      local a = i == 1 and -math.pi / 4 or 0
      bodies[i] = w:add_body { shape = pendulum, mass = 1, inertia = rr * rr / 2,
                               center_of_mass = { 0, 0 }, position = { x + 3 * math.sin(a),
                               2 - 3 * math.cos(a) }, angle = a, elasticity = 1 }
      joints[i] = w:add_joint { body1 = bodies[i], point1 = { 0, len }, body2 = w.background,
                                point2 = { x, 2 }, normal = "both" }
      x = x + 2 * rr + 0.005
    end
    local strikes, last = 0, -1
    w:on("collision", function(e)
      if e.time > last + 0.1 then strikes = strikes + 1 end
      last = e.time
    end)
    local e0 = w:energy().total
    w:run { until_time = 3.5 }
    assert.equal(3, strikes)
    assert.near(e0, w:energy().total, 2e-4)
    for i = 1, 5 do
      assert.is_true(w:connector_error(joints[i]) <= 1e-5)
    end
    local err = worst(bodies, {
      { -2.4099971, 0.0000096, -0.9999987, 0, 0.0000002, 0.0000032 },
      { -1.2008376, 0.0000096, -1, 0, 0.000001, 0.0000032 },
      { 0.0083218, 0.0000096, -1, 0, 0.000001, 0.0000032 },
      { 1.2174815, 0.0000096, -1, 0, 0.0000011, 0.0000032 },
      { 2.6955475, -7.3437744, -0.9879222, -0.6609408, 0.0897584, -2.4578176 } })
    assert.is_true(err <= 1e-4, ("state %.3g from myPhysicsLab's"):format(err))
  end)

  -- three_body_spin: three blocks pinned in a row (1 x 3 of mass 2, 1 x 6 of mass 0.2, 1 x 3
  -- of mass 1, the last turned by pi; each pin two joint rows), launched with sloppy velocities
  -- that the first step's plastic joint impulse makes consistent; no gravity, RK4, serial
  -- handling, extra acceleration "velocity", small impacts on joints, DampingLaw(d, 0.15).
  -- Its pins (JointUtil.attachRigidBody with CoordType.BODY) hold along the outer block's own
  -- axes, turning with it: frame = "body". With pins along the world's axes the states at dt
  -- 0.0025 and 0.001 agree too (1.5e-7, 4.3e-8), but at dt 0.025 (three_body_spin_test1) they
  -- end 6e-3 away: the joints' drift between the small impacts enters the acceleration
  -- through the turning normal (2 n' . (p1' - p2'), and no n'' . (p1 - p2) term in its b).
  local function three_body(dt, damping, frame)
    local w = impact.world2d { strategy = "contact", dt = dt, gravity = { 0, 0 },
      collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
      collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity",
      joint_small_impacts = true, damping = { linear = damping, angular = 0.15 * damping } }
    local b1 = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 2,
      position = { 0, 4 }, velocity = { -6, 0 }, spin = -6, elasticity = 0.8 }
    local b2 = w:add_body { shape = shape2d.block { width = 1, height = 6 }, mass = 0.2,
      elasticity = 0.8 }
    local b3 = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
      position = { 0, -4 }, angle = math.pi, velocity = { 12, 0 }, spin = -6, elasticity = 0.8 }
    b2:no_collide(b1)
    b2:no_collide(b3)
    b1:no_collide(b3)
    local pins = { w:add_joint { body1 = b2, point1 = { 0, 2.7 }, body2 = b1, point2 = { 0, -1.3 },
                                 normal = "both", frame = frame },
                   w:add_joint { body1 = b2, point1 = { 0, -2.7 }, body2 = b3,
                                 point2 = { 0, -1.3 }, normal = "both", frame = frame } }
    return w, { b1, b2, b3 }, pins
  end

  local function three_body_spin(dt, damping, frame)
    local w, bodies, pins = three_body(dt, damping, frame)
    w:step()  -- the joints' plastic impulse, then one step
    local e1 = w:energy().total
    w:run { until_time = 4 }
    local loose = math.max(w:connector_error(pins[1]), w:connector_error(pins[2]))
    return bodies, w:energy().total - e1, loose
  end

  it("three_body_spin_test1 (dt 0.025, pins in the outer blocks' frames): its state to 1e-5, "
    .. "joints within 0.005", function()
    local bodies, _, loose = three_body_spin(0.025, 0, "body")
    local err = worst(bodies, {
      { 2.3679591, 2.5231233, 0.1758214, 4.7692645, 11.1720974, 6.6244896 },
      { -1.070704, -0.9423498, 1.5687438, -10.3375145, 10.3514746, 3.0702532 },
      { -4.5217775, -4.8577766, 3.3346085, -7.4710261, 14.0257479, -7.3496166 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 4.4e-8
    assert.is_true(loose <= 0.005)
    -- its dt 0.0025 state too (test2, 1.5e-7 with pins along the world's axes)
    local de
    bodies, de = three_body_spin(0.0025, 0, "body")
    assert.is_true(math.abs(de) <= 1e-4)                                          -- 2.0e-6
    err = worst(bodies, {
      { 2.3693978, 2.5157571, 0.1774004, 4.7723935, 11.1720697, 6.6244608 },
      { -1.0715336, -0.9428909, 1.5676422, -10.3428559, 10.3527691, 3.0711914 },
      { -4.5244888, -4.8429361, 3.3316707, -7.4762159, 14.0249841, -7.3569172 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 5.0e-8
  end)

  it("three_body_spin_test2 (dt 0.0025): its state to 1e-5, energy to 1e-4, joints within 1e-6",
    function()
    local bodies, de, loose = three_body_spin(0.0025, 0)
    local err = worst(bodies, {
      { 2.3693978, 2.5157571, 0.1774004, 4.7723935, 11.1720697, 6.6244608 },
      { -1.0715336, -0.9428909, 1.5676422, -10.3428559, 10.3527691, 3.0711914 },
      { -4.5244888, -4.8429361, 3.3316707, -7.4762159, 14.0249841, -7.3569172 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))
    assert.is_true(math.abs(de) <= 1e-4)
    assert.is_true(loose <= 1e-6)
  end)

  it("three_body_spin_test4A (damping 0.1, dt 0.001): its state to 1e-5, joints within 1e-5",
    function()
    local bodies, de, loose = three_body_spin(0.001, 0.1)
    local err = worst(bodies, {
      { -0.3914985, 4.2712576, -0.9371374, -0.2752856, 7.1893131, 2.9115049 },
      { 0.999713, 1.1355909, 0.9358352, 3.456432, 9.2880734, 2.0450875 },
      { 0.4230309, -8.8727579, 4.5037653, -0.5909616, 13.3797935, 5.0812079 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))
    assert.is_true(de < 0)  -- damping takes energy
    assert.is_true(loose <= 1e-5)
  end)

  -- three_body_spin_test3A, 3B, 4B: the same under its AdaptiveStepSolver around RK4 (each
  -- 0.025 s step retaken in 5, 25, ... sub-steps until the energy's change over the step, 3A,
  -- or the change of that change, 3B and 4B, is within 1e-6). impact has no such integrator
  -- (its adaptive GSL methods control the state's local error; the 2D collision advance takes
  -- fixed-step methods): spec/support/myphysicslab.lua builds it from world steps, which, with
  -- no contact here, is the same ODE, small impacts on joints after every sub-step (its run
  -- has them after every 0.025 s step). The pins in the outer blocks' frames, the setup's and
  -- the test's initial handling (two plastic joint impulses), then the energy recorded.
  -- Measured: 3A 1.3e-6, 3B 3.8e-8, 4B 4.3e-8 from its states (its 1e-5); with fixed RK4 steps
  -- 3B and 4B are met from dt 0.001 (3.9e-8, 4.4e-8) but 3A stays 2.2e-5 away (its figure is
  -- the coarser first-difference solution, not the converged one).
  for _, case in ipairs {
    { "3A", 0, false, 1e-4, 1.3e-6, {
      { 2.3693976, 2.515764, 0.1774025, 4.772389, 11.1720697, 6.624474 },
      { -1.0715337, -0.9428688, 1.5676466, -10.3428519, 10.3527684, 3.0711811 },
      { -4.5244885, -4.8429543, 3.3316656, -7.4762076, 14.0249893, -7.3568965 } } },
    { "3B", 0, true, 1e-6, 3.8e-8, {
      { 2.3693979, 2.5157564, 0.1774006, 4.7723939, 11.1720697, 6.6244607 },
      { -1.0715337, -0.942891, 1.5676421, -10.3428564, 10.3527692, 3.0711915 },
      { -4.5244891, -4.8429346, 3.3316704, -7.4762165, 14.024984, -7.356918 } } },
    { "4B", 0.1, true, nil, 4.3e-8, {
      { -0.3914985, 4.2712576, -0.9371374, -0.2752856, 7.1893131, 2.9115049 },
      { 0.999713, 1.1355909, 0.9358352, 3.456432, 9.2880734, 2.0450875 },
      { 0.4230309, -8.8727579, 4.5037653, -0.5909616, 13.3797935, 5.0812079 } } } } do
    local name, damping, second, energy_tol, measured, want = table.unpack(case)
    it("three_body_spin_test" .. name .. " (its AdaptiveStepSolver, second differences "
      .. tostring(second) .. "): its state at 4 s to 1e-5"
      .. (energy_tol and (", energy to " .. energy_tol) or ", energy lost to damping")
      .. ", joints within 1e-5", function()
      local w, bodies, pins = three_body(0.025, damping, "body")
      w:handle_collisions()  -- its setup's handling
      w:handle_collisions()  -- its test's
      local e1 = w:energy().total
      for _ = 1, 160 do mpl.adaptive_step(w, bodies, 0.025, second) end
      local err = worst(bodies, want)
      assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's (measured %g)"):format(err, measured))
      local de = w:energy().total - e1
      if energy_tol then
        assert.is_true(math.abs(de) <= energy_tol, ("energy change %.3g"):format(de))  -- 4.2e-6, 2.0e-8
      else
        assert.is_true(de < 0)
      end
      assert.is_true(math.max(w:connector_error(pins[1]), w:connector_error(pins[2])) <= 1e-5)
    end)
  end

  -- chain: seven 1 x 3 links (mass 1) pinned end to end, 0.15 and 0.85 of their length along
  -- their right side (ChainConfig.makeChain: body points (0, -1.05) and (0, 1.05) from the
  -- centre), laid at -157.5, -135, ... -22.5 degrees from the pivot (-5, 4), whose last pin is
  -- fixed where the chain ends (5.557, 4); gravity 4, RK4, extra acceleration
  -- "velocity_joints", no small impacts
  it("chain: a chain of seven links fixed at both ends, its state to 1e-4, energy to 2e-4, "
    .. "joints within 1e-5", function()
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -4 },
      collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
      collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity_joints",
      joint_small_impacts = false }
    local links, pins, p = {}, {}, { -5, 4 }
    for i = 1, 7 do
      local a = math.rad(-180 + 22.5 * i)
      local s, c = math.sin(a), math.cos(a)
      local centre = { p[1] - 1.05 * s, p[2] + 1.05 * c }
      links[i] = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
                              position = centre, angle = a, elasticity = 0.8 }
      pins[#pins + 1] = i == 1
        and w:add_joint { body1 = links[1], point1 = { 0, -1.05 }, body2 = w.background,
                          point2 = p, normal = "both" }
        or w:add_joint { body1 = links[i - 1], point1 = { 0, 1.05 }, body2 = links[i],
                         point2 = { 0, -1.05 }, normal = "both" }
      p = { centre[1] - 1.05 * s, centre[2] + 1.05 * c }
    end
    pins[#pins + 1] = w:add_joint { body1 = links[7], point1 = { 0, 1.05 }, body2 = w.background,
                                    point2 = p, normal = "both" }
    for i = 1, 7 do
      for j = i + 1, 7 do links[i]:no_collide(links[j]) end
    end
    local e0 = w:energy().total
    w:run { until_time = 3.5 }
    local err = worst(links, {
      { -4.3917922, 0.2739492, 3.1440883, 0.1946673, -2.5237903, 0.3200673 },
      { -3.1342985, 0.3464647, 1.4629927, 0.230839, -2.4749292, -0.2441077 },
      { -1.628153, 0.0725155, 0.0309381, -0.0300435, -2.1870376, -0.1194909 },
      { 0.2787065, -0, -0.5759324, -0.1324303, -1.5707963, 0.0000001 },
      { 2.185566, -0.0725155, 0.0309382, -0.0300434, -0.954555, 0.1194908 },
      { 3.6917114, -0.3464645, 1.4629927, 0.230839, -0.6666634, 0.2441076 },
      { 4.9492051, -0.2739491, 3.1440884, 0.1946673, -0.6178024, -0.3200672 } })
    assert.is_true(err <= 1e-4, ("state %.3g from myPhysicsLab's"):format(err))
    assert.near(e0, w:energy().total, 2e-4)
    assert.equal(0, w:stats().collisions)
    for _, j in ipairs(pins) do assert.is_true(w:connector_error(j) <= 1e-5) end
  end)

  -- RopeTest's double_rod_spin_test (the arrangement three_body_spin mimics): a 1 x 3 block at
  -- (-1.5, 0) turned pi/4 and a ball of radius 1 turned 3 pi/4, masses 1, joined by a rod of
  -- length 4 from the block's point (0, 1) to the ball's (0.2, 0.3), the ball moved along the
  -- line between those points to put them 4 apart (its alignConnectors); launched at -4 and 4
  -- m/s along y, no gravity, RK4 at dt 0.01, serial handling, extra acceleration "velocity", no
  -- small impacts. Its setup's handleCollisions gives the rod one plastic impulse (here
  -- w:handle_collisions()): the rod's rate is zero after it, the energy 16 -> 15.3137. Its
  -- state at 4 s to 1e-4 (measured 1.5e-6 under both conventions; without the initial impulse
  -- the rod's rate stays uncorrected and the state is 5.8 away), then no collision and the
  -- energy kept to 1e-4 to 8 s (3.9e-7).
  for _, conventions in ipairs { "impact", "myphysicslab" } do
    it("double_rod_spin_test (" .. conventions .. "): its state at 4 s to 1e-4, then no "
      .. "collision and energy to 1e-4", function()
      local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, 0 },
        collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
        collision_accuracy = 0.6, extra_accel = "velocity", integrator = "rk4",
        conventions = conventions }
      local function rotate(a, p)
        local c, s = math.cos(a), math.sin(a)
        return { c * p[1] - s * p[2], s * p[1] + c * p[2] }
      end
      local a1, a2 = math.pi / 4, 3 * math.pi / 4
      local t1, t2 = rotate(a1, { 0, 1 }), rotate(a2, { 0.2, 0.3 })
      local p1, p2 = { -1.5 + t1[1], t1[2] }, { 1.5 + t2[1], t2[2] }
      local len = math.sqrt((p2[1] - p1[1]) ^ 2 + (p2[2] - p1[2]) ^ 2)
      local q2 = { p1[1] + 4 * (p2[1] - p1[1]) / len, p1[2] + 4 * (p2[2] - p1[2]) / len }
      local b1 = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
        position = { -1.5, 0 }, angle = a1, velocity = { 0, -4 }, elasticity = 0.8 }
      local b2 = w:add_body { shape = shape2d.ball { radius = 1 }, mass = 1, angle = a2,
        position = { q2[1] - t2[1], q2[2] - t2[2] }, velocity = { 0, 4 }, elasticity = 0.8 }
      local rod = w:add_rope { body1 = b1, point1 = { 0, 1 }, body2 = b2, point2 = { 0.2, 0.3 },
                               length = 4, rod = true }
      assert.near(16, w:energy().total, 1e-12)
      w:handle_collisions()
      -- the plastic impulse along the rod: its ends' relative velocity along it is zero
      local function point_velocity(b, p)
        local r = rotate(b.angle, p)
        return { b.velocity[1] - b.spin * r[2], b.velocity[2] + b.spin * r[1] }, r
      end
      local v1, r1 = point_velocity(b1, { 0, 1 })
      local v2, r2 = point_velocity(b2, { 0.2, 0.3 })
      local d = { b2.position[1] + r2[1] - b1.position[1] - r1[1],
                  b2.position[2] + r2[2] - b1.position[2] - r1[2] }
      assert.near(0, ((v2[1] - v1[1]) * d[1] + (v2[2] - v1[2]) * d[2]) / 4, 1e-12)
      assert.is_true(w:energy().total < 16)
      w:run { until_time = 4 }
      local err = worst({ b1, b2 }, {
        { -1.3440816, 2.7586505, -1.1513866, -2.2201892, -2.9211644, -0.7262073 },
        { 1.8870925, -2.7586505, 1.0254415, 2.2201892, 9.245482, 3.1965811 } })
      assert.is_true(err <= 1e-4, ("state %.3g from myPhysicsLab's at 4 s"):format(err))
      local e4 = w:energy().total
      w:run { until_time = 8 }
      assert.equal(0, w:stats().collisions)
      assert.near(e4, w:energy().total, 1e-4)
      assert.is_true(w:connector_error(rod) <= 1e-5)
    end)
  end

  -- The rest of its MiscellanyTest needs what impact's 2D engine does not have:
  -- non_collide_edges: its EdgeRange, a body that collides with some edges of another and not
  -- with others (the ball with the pendulum's bob, not its rod); impact's no_collide is per
  -- body pair. Built with the ball colliding with the whole pendulum (the pendulum as
  -- newtons_cradle's, mass 1; the ball of radius 0.5, mass 0.7, from (-0.2, -2); the floor 10 x
  -- 0.5 at (0, -6); gravity 3, DampingLaw(0.1, 0.15)) the first difference is at 2.541 s: the
  -- ball strikes the rod's side (at (-0.107, 2.254) in the pendulum's frame), which its ball
  -- passes through (the strike on the bob at 1.639 s is one its edge range allows). State at
  -- 5 s then 1.24 away (3.58 with no collision between the two at all), under both
  -- conventions. (clock_with_gears: below.)
  -- roller_hump_test and roller_end_point_test: its PathJoint (a body point held on a
  -- NumericalPath, here a hump and a circle of radius 3) and PathEndPoint (a one-sided stop on
  -- the path); impact has pins, sliders along a straight direction, ropes and rods, no curved
  -- track. curved_test_error asserts that its CurvedTestApp scene (6 curved bodies, given
  -- state) gets stuck within 1 s ("ComputeForces is unable to find reasonable set of forces"):
  -- CurvedTestApp's shapes are not ported.
  -- non_collide_edges: its EdgeRange (the ball ignores the pendulum's edges 0 to 2, its rod;
  -- here edges 1 to 3: `ball:no_collide(pendulum, { edges = { 1, 3 } })`): the ball strikes the
  -- bob, passes through the rod, the rod strikes the floor. Its commonSetup1 (RK4, dt 0.025,
  -- serial handling, extra acceleration "velocity", small impacts on joints), elasticity 0.8,
  -- gravity 3, DampingLaw(0.1, 0.15). Its state at 5 s to 1e-5.
  for _, conventions in ipairs { "myphysicslab", "impact" } do
    it("non_collide_edges (" .. conventions .. "): the ball collides with the bob, not the rod; "
      .. "its state at 5 s to 1e-5", function()
      local wd, len, r = 0.05, 3, 0.6
      local rr = math.sqrt(wd * wd + r * r)
      local pendulum_shape = shape2d.path():move_to(wd, r):line_to(wd, len + wd)
        :line_to(-wd, len + wd):line_to(-wd, r):arc_to(wd, r, { center = { 0, 0 } }):close():build()
      local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -3 },
        collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
        collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity",
        joint_small_impacts = true, damping = { linear = 0.1, angular = 0.1 * 0.15 },
        conventions = conventions }
      local pendulum = w:add_body { shape = pendulum_shape, mass = 1, inertia = rr * rr / 2,
        center_of_mass = { 0, 0 }, angle = 5 * math.pi / 4, elasticity = 0.8 }
      local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 0.7,
        position = { -0.2, -2 }, elasticity = 0.8 }
      ball:no_collide(pendulum, { edges = { 1, 3 } })
      w:add_body { shape = shape2d.block { width = 10, height = 0.5 }, fixed = true,
        position = { 0, -6 }, elasticity = 0.8 }
      local rod_hits, bob_hits = 0, 0
      w:on("collision", function(e)  -- the ball's strikes on the pendulum: bob or rod?
        if (e.body1 == ball and e.body2 == pendulum) or (e.body1 == pendulum and e.body2 == ball) then
          local p = pendulum:to_body(e.point)
          if math.sqrt(p[1] ^ 2 + p[2] ^ 2) <= r + 0.02 then bob_hits = bob_hits + 1
          else rod_hits = rod_hits + 1 end
        end
      end)
      w:run { until_time = 5 }
      local err = worst({ pendulum, ball }, {
        { 2.677745, 0.67036, -4.8452014, -0.4877325, 7.9760692, 2.9017526 },
        { -3.776975, -0.8291956, -4.2064328, -0.4007804, -0, -0 } })
      assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))
      assert.is_true(bob_hits >= 1)
      assert.equal(0, rod_hits)
    end)
  end
  -- clock_with_gears: its pendulum clock (PendulumClockConfig.makeClockWithGears, pendulum 4
  -- long, bob 0.6; spec/support/myphysicslab_clock.lua builds its shapes): the anchor (mass 10)
  -- rocks on its pin at (0, 4.6) from 0.13 rad, the escape wheel (mass 1, pinned at the origin,
  -- turned by a constant (0, -1) at (2, 0) of its frame: a torque -2) drives through its inner
  -- gear a second gear (mass 0.5, pinned at (4.728, 0)). Its clock_with_gears_setup: RK4, dt
  -- 0.025, serial handling, extra acceleration "velocity", small impacts on joints, elasticity
  -- 0.3, gravity 10, DampingLaw(0.05, 0.15), its seed 0. What holds: the pins hold, no contact
  -- penetrates, the gears turn against each other (equal gears: the second turns as much as
  -- the wheel, to the backlash), the energy gained is at most the turning torque's work. Its
  -- state at 3.5 s: under its conventions 4.9e-8 away (its own engine, /work/mplref, with the
  -- bob's arc a straight edge: 4.9e-8; step by step the two agree within 1e-7 at every step);
  -- under impact's 2.8e-3 (pending below): impact's small impacts on joints are one plastic
  -- solve, so at 0.15 s the wheel's corner approaching the second gear's edge at 0.119 is
  -- stopped, where its handling strikes it with e = 0.3 (the gear's spin 0.0129 apart after).
  for _, conventions in ipairs { "myphysicslab", "impact" } do
    local tol = conventions == "myphysicslab" and 1e-4 or 5e-3
    it(("clock_with_gears (%s): the escapement and gears turn; its state at 3.5 s to %g")
      :format(conventions, tol), function()
      local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 },
        collision_handling = "serial", distance_tol = 0.01, collision_accuracy = 0.6,
        integrator = "rk4", extra_accel = "velocity", joint_small_impacts = true,
        damping = { linear = 0.05, angular = 0.05 * 0.15 }, conventions = conventions,
        seed = 0 }  -- its ContactSim's RandomLCG(0)
      local bodies, pins = clock.clock(w, shape2d)
      local gear2, escape = bodies[2], bodies[3]
      local g0, e0, energy0 = gear2.angle, escape.angle, w:energy().total
      local min_gap = math.huge
      w:on("step", function()
        for _, c in ipairs(w:contacts()) do min_gap = math.min(min_gap, c.distance) end
      end)
      w:run { until_time = 3.5 }
      local turned = e0 - escape.angle
      assert.is_true(turned > 0.2)                               -- clockwise, 0.231 rad
      assert.is_true(math.abs((gear2.angle - g0) - turned) <= 0.01)  -- 0.227 against 0.231
      assert.is_true(min_gap >= 0)
      assert.is_true(w:energy().total - energy0 <= 2 * turned)
      for _, j in ipairs(pins) do assert.is_true(w:connector_error(j) <= 1e-5) end
      local err = worst(bodies, {
        { 0.2576836, 0.7900146, 0.0072232, 0.0443248, 0.0560475, 0.1720124 },
        { 4.728, 0, -0, -0, 0.190146, 0.1462387 },
        { -0, -0, -0, 0, -0.2306657, -0.1377898 } })
      assert.is_true(err <= tol, ("state %.3g from myPhysicsLab's at 3.5 s"):format(err))
    end)
  end
  pending("clock_with_gears (impact): its state at 3.5 s to 1e-4 (2.8e-3 away: the plastic "
    .. "small impacts on joints; first difference at 0.15 s)")
  -- roller_hump_test and roller_end_point_test: its PathJoint (a body point held on a
  -- NumericalPath: a table of 9000 points, t uniform, the hump x = t, y = 3 + t^2 (t^2 - 7) / 6
  -- for t in [-3, 3], or the circle of radius 3 from t = -3 pi / 2 to pi / 2) and PathEndPoint
  -- (a one-sided stop at the table point nearest (-2, -2)). The block 1 x 3 (mass 1) at (-4, 4)
  -- turned pi / 4, held at its drag point (0, -0.9); its alignConnectors moves it (not turning
  -- it) to put that point on the table point nearest to it. commonSetup1 with no small
  -- impacts and extra acceleration "velocity_joints", gravity 3. Under its conventions the
  -- seed is its ContactSim's (RandomLCG(0): the order of the serial passes' focus draws), and
  -- the path's nearest point is its NumericalPath.findNearestLocal's (a local search from the
  -- point found last, halving its step down to 1e-6); impact's conventions keep impact's
  -- generator and the exact nearest point.
  local function roller(conventions, fn, t0, t1, closed, elasticity)
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -3 },
      collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
      collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity_joints",
      joint_small_impacts = false, conventions = conventions,
      seed = conventions == "myphysicslab" and 0 or nil }
    local a, attach = math.pi / 4, { 0, -0.9 }
    local off = { -math.sin(a) * attach[2], math.cos(a) * attach[2] }
    local px, py = -4 + off[1], 4 + off[2]
    local best, bx, by = math.huge, 0, 0
    local t, delta = t0, (t1 - t0) / 8999
    for _ = 0, 8999 do  -- its findNearestGlobal over its table
      local x, y = fn(t)
      local d = (px - x) ^ 2 + (py - y) ^ 2
      if d < best then best, bx, by = d, x, y end
      t = t + delta
    end
    local block = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
      position = { bx - off[1], by - off[2] }, angle = a, elasticity = elasticity }
    local joint = w:add_path_joint { body1 = block, point1 = attach,
      path = { fn = fn, range = { t0, t1 }, samples = 9000, closed = closed } }
    return w, block, joint, attach
  end

  for _, conventions in ipairs { "myphysicslab", "impact" } do
    it("roller_hump_test (" .. conventions .. "): its state at 4 s to 1e-5, energy to 2e-3, "
      .. "the path joint within 3e-4", function()
      local w, block, joint = roller(conventions,
        function(t) return t, 3 + t * t * (-7 + t * t) / 6 end, -3, 3, false, 0.8)
      local e0 = w:energy().total
      w:run { until_time = 4 }
      local err = worst({ block }, {
        { 0.9930475, 0.7033436, 3.1804777, -2.0938717, 6.084699, 0.8542802 } })
      assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 2.7e-6
      assert.near(e0, w:energy().total, 2e-3)                                       -- 1.3e-3
      assert.is_true(w:connector_error(joint) <= 3e-4)                              -- 2.4e-4
    end)

    -- roller_end_point_test: its state at 10 s, after 7 strikes on the stop (elasticity
    -- 0.5), within its 1e-5 under its conventions (4.96e-8; its own code, run in the reference
    -- copy, 4.96e-8, the two within 7.7e-11 at every step to 15 s); under impact's (the exact
    -- nearest point, impact's generator) 1.18e-5, so 2e-5 there. Each strike is timed as its
    -- own: found at the trial step's stage that first passes the stop, and the estimated
    -- moment of reaching the half gap from the stop's gap and rate at the step's start.
    local tol = conventions == "myphysicslab" and 1e-5 or 2e-5
    it("roller_end_point_test (" .. conventions .. "): its state at 10 s to " .. tol
      .. ", held by the stop and the path, energy 10-15 s to 2e-3, the joint within 3e-3",
      function()
      local w, block, joint, attach = roller(conventions,
        function(t) return 3 * math.cos(t), 3 * math.sin(t) end, -3 * math.pi / 2, math.pi / 2,
        true, 0.5)
      local stop = w:add_path_end { body1 = block, point1 = attach, joint = joint,
                                    at = { -2, -2 }, upper = true }
      local past = 0
      w:on("step", function() past = math.max(past, (w:connector_error(stop))) end)
      w:run { until_time = 10 }
      assert.is_true(w:stats().collisions > 0)  -- it reached the stop
      local err = worst({ block }, {
        { -1.7363317, 0.5083806, -2.9337104, 0.2411583, 9.8677229, 0.6252024 } })
      assert.is_true(err <= tol, ("state %.3g from myPhysicsLab's at 10 s"):format(err))
      local e10 = w:energy().total
      w:run { until_time = 15 }
      assert.near(e10, w:energy().total, 2e-3)                          -- 6.2e-7
      assert.is_true(w:connector_error(joint) <= 3e-3)                  -- 3.6e-6
      assert.is_true(past <= 0.01)                                      -- never through the stop
      -- the point stays below the stop's side of the circle: its angle from the centre
      -- between the stop (225 degrees) and its start (135 degrees)
      local p = block:to_world(attach)
      local ang = math.deg(math.atan(p[2], p[1])) % 360
      assert.is_true(ang >= 135 - 1 and ang <= 225 + 0.5, ang)
    end)
  end
  -- curved_test_error: CurvedTestApp's scene (4 fixed bodies, 6 free ones, 4 walls; its
  -- curved_test_error_setup: serial handling, extra acceleration "velocity_and_distance", dt
  -- 0.025, gravity 3, no damping; spec/support/myphysicslab_curved.lua) at the state its
  -- setupCurvedError records; its test asserts the run fails within 1 s ("stuck": a block
  -- jammed between two fixed ones, ComputeForces finds no forces). With the scene's shapes as
  -- CurvedTestApp.make builds them now, that state has ball 5 (radius 0.4) 0.0895 into block 4
  -- and 0.0872 into the fixed ball 2 (each gap: the centre's distance to the other's outline
  -- less 0.4), so no step can be taken from it: impact stops at the first step with an error
  -- naming the pair, the world kept at its state. (With ball 5 of radius 0.3, which leaves it
  -- clear of both, RK4 under myphysicslab's conventions fails at 0.025 s, the contact forces
  -- not solved, block 4 named; under impact's it runs the second through, 27 collisions, the
  -- free bodies no closer than 0.005 at its end and the energy 0.57 lower.)
  for _, conventions in ipairs { "myphysicslab", "impact" } do
    it("curved_test_error (" .. conventions .. "): its recorded state stops the run with an "
      .. "error, the world kept", function()
      local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -3 },
        collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
        collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity_and_distance",
        conventions = conventions }
      local free = curved.scene(w, shape2d, 1)
      local block4, ball5 = free[4], free[5]
      assert.is_true(w:distance(block4, ball5) < -0.08)         -- -0.0895: 0.3105 - 0.4
      local ok, err = pcall(w.run, w, { until_time = 1 })
      assert.is_false(ok)
      assert.matches("World:step: step 1 from t = 0 failed", err, 1, true)
      assert.matches("bodies involved: #9, #8", err, 1, true)
      assert.equal(0, w.time)
      for i, b in ipairs(free) do
        local want = curved.state[i + 4]
        assert.same({ want[1], want[2], want[3], want[4], want[5], want[6] }, mpl.vars(b))
      end
    end)
  end
end)
