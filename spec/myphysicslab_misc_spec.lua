-- myPhysicsLab's MiscellanyTest scenes (src/test/MiscellanyTest.ts) under the 2D contact
-- strategy, against the states its suite asserts (tolerance 1e-5) and the closed forms.
local impact = require("impact")
local shape2d = impact.shape2d

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
end)
