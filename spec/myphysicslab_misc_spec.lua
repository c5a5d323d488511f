-- myPhysicsLab's MiscellanyTest scenes (src/test/MiscellanyTest.ts) under the 2D contact
-- strategy, against the states its suite asserts (tolerance 1e-5) and the closed forms.
local impact = require("impact")
local shape2d = impact.shape2d
local worst = require("spec.support.myphysicslab").worst

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
  local function three_body_spin(dt, damping, frame)
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
    w:step()  -- the joints' plastic impulse, then one step
    local e1 = w:energy().total
    w:run { until_time = 4 }
    local loose = math.max(w:connector_error(pins[1]), w:connector_error(pins[2]))
    return { b1, b2, b3 }, w:energy().total - e1, loose
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
end)
