-- Joints, ropes and rods of 3D worlds (src/engine3d/engine3d_joints.c): rows of the velocity
-- step's contact problem under "impulse" and "contact", swept with the contacts ("pgs") or in
-- the exact Coulomb problem ("lcp"). Every expectation is a closed form or a conservation law
-- of the mechanism; tolerances say what the first-order scheme (symplectic Euler, h = dt)
-- allows.
local impact = require("impact")
local s3 = impact.shape3d

local g = 9.81
local solvers = { "pgs", "lcp" }

local function world(opts)
  opts = opts or {}
  return impact.world3d { strategy = opts.strategy or "contact", contact_solver = opts.solver,
                          gravity = opts.gravity or { 0, 0, -g }, dt = opts.dt or 1e-3,
                          pgs_iterations = opts.pgs_iterations }
end

local function norm(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end

-- the first value of w:connector_error (the anchors' error, m)
local function lin_err(w, j) return (w:connector_error(j)) end

-- the mean period of x(t) from its upward zero crossings, located by linear interpolation
local period = require("spec.support.analytic").stepped_period

describe("3D joints", function()
  it("a pendulum's period is the physical pendulum's 2 pi sqrt(I_pivot / (m g d))", function()
    -- small amplitude theta0 = 0.1 with the first amplitude correction (1 + theta0^2 / 16);
    -- the next term (11/3072 theta0^4) is 4e-7. A sphere on a ball joint at distance L from its
    -- centre: I_pivot = 2/5 m r^2 + m L^2, d = L; a bar of length l on a hinge through its end:
    -- I_pivot = m (l^2 + t^2) / 12 + m (l/2)^2, d = l/2. Symplectic Euler's period error is
    -- O((omega h)^2) (1e-6 here); the crossings are interpolated within a step.
    local th0 = 0.1
    for _, solver in ipairs(solvers) do
      for _, strategy in ipairs { "contact", "impulse" } do
        local w = world { solver = solver, strategy = strategy }
        local m, r, L = 1, 0.05, 1
        local b = w:add_body { shape = s3.sphere { radius = r }, mass = m,
                               position = { L * math.sin(th0), 0, -L * math.cos(th0) } }
        local j = w:add_joint { kind = "ball", body1 = b, anchor = { 0, 0, 0 } }
        local T = period(w, function() return b.position[1] end, 6)
        local I = 2 / 5 * m * r ^ 2 + m * L ^ 2
        local expected = 2 * math.pi * math.sqrt(I / (m * g * L)) * (1 + th0 ^ 2 / 16)
        assert.near(expected, T, 1e-3 * expected, solver .. " " .. strategy)
        assert.is_true(lin_err(w, j) < 1e-6)
      end
      -- the physical pendulum on a hinge (axis y), swinging in the x-z plane
      local w = world { solver = solver }
      local m, l, t = 2, 0.8, 0.05
      local c, s = math.cos(th0), math.sin(th0)
      local bar = w:add_body { shape = s3.box { size = { t, t, l } }, mass = m,
                               position = { l / 2 * s, 0, -l / 2 * c },
                               orientation = { math.cos(th0 / 2), 0, math.sin(th0 / 2), 0 } }
      local j = w:add_joint { kind = "hinge", body1 = bar, anchor = { 0, 0, 0 }, axis = { 0, 1, 0 } }
      local T = period(w, function() return bar.position[1] end, 6)
      local I = m * (l ^ 2 + t ^ 2) / 12 + m * (l / 2) ^ 2
      local expected = 2 * math.pi * math.sqrt(I / (m * g * l / 2)) * (1 + th0 ^ 2 / 16)
      assert.near(expected, T, 1e-3 * expected, solver .. " hinge")
      local lin, _, ang = w:connector_error(j)
      assert.is_true(lin < 1e-6 and ang < 1e-9)
    end
  end)

  it("a double pendulum keeps its energy within the first-order bound of symplectic Euler", function()
    -- two 1 kg bobs on 1 m links (hinges, axis y), released at 1 rad and horizontal: over 5 s
    -- the largest |E - E0| is below 0.5 % of m g L at h = 1e-3 and halves with h (the scheme's
    -- energy error is O(h) and does not grow: no drift from the joints' rows)
    for _, solver in ipairs(solvers) do
      local worst = {}
      for k, dt in ipairs { 1e-3, 5e-4 } do
        local w = world { solver = solver, dt = dt }
        local b1 = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1,
                                position = { math.sin(1), 0, -math.cos(1) } }
        local b2 = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1,
                                position = { math.sin(1) + 1, 0, -math.cos(1) } }
        local j1 = w:add_joint { kind = "hinge", body1 = b1, anchor = { 0, 0, 0 }, axis = { 0, 1, 0 } }
        local j2 = w:add_joint { kind = "hinge", body1 = b2, body2 = b1, anchor = b1.position,
                                 axis = { 0, 1, 0 } }
        local e0, err = w:energy().total, 0
        worst[k] = 0
        while w.time < 5 - dt / 2 do
          w:step()
          worst[k] = math.max(worst[k], math.abs(w:energy().total - e0))
          err = math.max(err, lin_err(w, j1), lin_err(w, j2))
        end
        assert.is_true(err < 1e-3, solver .. ": the links' error " .. err)
      end
      assert.is_true(worst[1] < 0.005 * g, solver .. ": |dE| " .. worst[1])
      local ratio = worst[1] / worst[2]
      assert.is_true(ratio > 1.5 and ratio < 3, solver .. ": first order, ratio " .. ratio)
    end
  end)

  it("a hinge blocks off-axis motion: under an off-axis torque the spin stays on its axis", function()
    -- a box hinged at its centre about z, torque (1, 2, 0.5) N m each step, no gravity: the hinge
    -- takes the torque's x and y parts, the box spins up at tau_z / I_zz (exact under the scheme)
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver, gravity = { 0, 0, 0 } }
      local m, a, b = 2, 0.4, 0.2
      local box = w:add_body { shape = s3.box { size = { a, b, 0.1 } }, mass = m }
      local j = w:add_joint { kind = "hinge", body1 = box, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 } }
      for _ = 1, 1000 do
        box:apply_torque { 1, 2, 0.5 }
        w:step()
      end
      local om, izz = box.angular_velocity, m * (a ^ 2 + b ^ 2) / 12
      assert.near(0.5 * w.time / izz, om[3], 1e-9 * om[3])
      assert.is_true(math.sqrt(om[1] ^ 2 + om[2] ^ 2) < 1e-9 * om[3])
      assert.is_true(norm(box.velocity) < 1e-9)
      local lin, _, ang = w:connector_error(j)
      assert.is_true(lin < 1e-9 and ang < 1e-9)
    end
  end)

  it("a slider lets a body move only along its axis, sliding at g (axis . g_hat) without friction", function()
    -- the axis at 45 degrees below the horizontal: the travel is a t^2 / 2 with a = g / sqrt(2)
    -- (symplectic Euler: a h^2 n (n + 1) / 2, within a h t of it); no motion off the axis, no turn
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver }
      local box = w:add_body { shape = s3.box { size = { 0.2, 0.2, 0.2 } }, mass = 1 }
      local ax = { 1 / math.sqrt(2), 0, -1 / math.sqrt(2) }
      local j = w:add_joint { kind = "slider", body1 = box, anchor = { 0, 0, 0 }, axis = ax }
      for _ = 1, 1000 do
        box:apply_torque { 0.3, -0.2, 0.1 }  -- the slider takes torques too
        w:step()
      end
      local p, t, a = box.position, w.time, g / math.sqrt(2)
      local travel = p[1] * ax[1] + p[3] * ax[3]
      assert.near(0.5 * a * t ^ 2, travel, a * 1e-3 * t)
      assert.near(travel, select(4, w:connector_error(j)), 1e-12)
      assert.is_true(math.abs(p[2]) < 1e-9 and math.abs(p[1] + p[3]) < 1e-9)
      assert.is_true(norm(box.angular_velocity) < 1e-9)
      local q = box.orientation
      assert.near(1, q[1], 1e-12)
    end
  end)

  it("limits stop a slider at its end and a hinge at its angle", function()
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver }
      local box = w:add_body { shape = s3.box { size = { 0.2, 0.2, 0.2 } }, mass = 1 }
      w:add_joint { kind = "slider", body1 = box, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                              limits = { -0.5, 0.5 } }
      local lowest = 0
      for _ = 1, 1000 do
        w:step()
        lowest = math.min(lowest, box.position[3])
      end
      assert.is_true(lowest > -0.5 - 1e-6, solver .. ": slider " .. lowest)
      assert.near(-0.5, box.position[3], 1e-6)
      assert.is_true(math.abs(box.velocity[3]) < 1e-6)
      -- a horizontal bar hinged at one end (axis y) falls and stops at the hinge's limit: its
      -- angle (body1's turn about the axis relative to body2) rises to hi and stays there
      w = world { solver = solver }
      local bar = w:add_body { shape = s3.box { size = { 1, 0.1, 0.1 } }, mass = 1, position = { 0.5, 0, 0 } }
      local j = w:add_joint { kind = "hinge", body1 = bar, anchor = { 0, 0, 0 }, axis = { 0, 1, 0 },
                        limits = { -0.3, 0.3 } }
      local lo, hi = 0, 0
      for _ = 1, 2000 do
        w:step()
        local at = select(4, w:connector_error(j))
        lo, hi = math.min(lo, at), math.max(hi, at)
      end
      assert.is_true(lo > -1e-9 and hi < 0.3 + 1e-6, solver .. ": hinge " .. lo .. " " .. hi)
      assert.near(0.3, select(4, w:connector_error(j)), 1e-6)
      assert.is_true(norm(bar.angular_velocity) < 1e-6)
    end
  end)

  it("a motor reaches its speed when max_force allows, and spins up at max_force / I before", function()
    -- a 2 kg sphere (r = 0.5) on a hinge through its centre, no gravity: omega(t) =
    -- min(speed, tau t / I), I = 2/5 m r^2 = 0.2; with a large max_force the speed at once
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver, gravity = { 0, 0, 0 } }
      local ball = w:add_body { shape = s3.sphere { radius = 0.5 }, mass = 2 }
      w:add_joint { kind = "hinge", body1 = ball, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                    motor = { speed = 3, max_force = 0.2 } }
      w:run { duration = 0.5 }
      assert.near(0.2 * 0.5 / 0.2, ball.angular_velocity[3], 1e-9)
      w:run { duration = 1 }  -- at 3 rad/s from t = 3 I / tau = 3 s on
      assert.near(1.5 * 0.2 / 0.2, ball.angular_velocity[3], 1e-9)
      w:run { duration = 2 }
      assert.near(3, ball.angular_velocity[3], 1e-9)
      w = world { solver = solver, gravity = { 0, 0, 0 } }
      ball = w:add_body { shape = s3.sphere { radius = 0.5 }, mass = 2 }
      w:add_joint { kind = "hinge", body1 = ball, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                    motor = { speed = -2, max_force = 1e3 } }
      w:step()
      assert.near(-2, ball.angular_velocity[3], 1e-9)
      -- a slider's motor: a linear speed along its axis against gravity
      w = world { solver = solver }
      local box = w:add_body { shape = s3.box { size = { 0.2, 0.2, 0.2 } }, mass = 1 }
      w:add_joint { kind = "slider", body1 = box, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                    motor = { speed = 0.5, max_force = 1e4 } }
      w:run { duration = 0.2 }
      assert.near(0.5, box.velocity[3], 1e-9)
      assert.near(0.5 * w.time, box.position[3], 1e-9)
    end
  end)

  it("a chain of rods keeps its lengths: errors bounded while it falls from the horizontal", function()
    -- ten 0.1 kg beads on 0.1 m rods hanging from the origin, released horizontal: the drift of
    -- each step (its curvature, second order in h) is corrected at the next, so every length
    -- stays within 1e-3 of its own over 2 s
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver }
      local n, l = 10, 0.1
      local prev, rods = w.background, {}
      for i = 1, n do
        local b = w:add_body { shape = s3.sphere { radius = 0.02 }, mass = 0.1, position = { i * l, 0, 0 },
                               collide = false }
        rods[i] = w:add_rope { body1 = b, body2 = prev, length = l, rod = true }
        prev = b
      end
      local worst, lowest = 0, 0
      for _ = 1, 2000 do
        w:step()
        lowest = math.min(lowest, prev.position[3])
        for k = 1, n do
          worst = math.max(worst, lin_err(w, rods[k]))
        end
      end
      assert.is_true(worst < 1e-3 * l, solver .. ": " .. worst)
      assert.is_true(lowest < -0.8)  -- it fell: the last bead swung down to near its full reach
    end
  end)

  it("a rope holds only when taut: a bob falls freely until it is, then swings on it", function()
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver }
      local b = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1, position = { 0.6, 0, 0 } }
      local rope = w:add_rope { body1 = b, length = 1 }
      -- free fall until |p| = 1: z = -0.8 at t = sqrt(1.6 / g)
      local t_taut = math.sqrt(2 * 0.8 / g)
      w:run { duration = t_taut - 0.02 }
      assert.near(-0.5 * g * w.time ^ 2, b.position[3], g * 1e-3 * w.time)
      assert.near(0.6, b.position[1], 1e-12)
      w:run { duration = 1 }
      assert.is_true(norm(b.position) < 1 + 1e-4)
      assert.is_true(lin_err(w, rope) < 1e-4)
    end
  end)

  it("a Newton's cradle on rods: the last ball leaves with the first's speed, the others stay", function()
    -- five 1 kg balls (e = 1, no friction) on 1 m rods, 0.1 mm apart; the first released at
    -- 0.3 rad hits the row at v = sqrt(2 g L (1 - cos 0.3)); the impacts pass along the row
    -- one at a time (each cut at its time of impact), so momentum and energy go to the last
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver }
      local r, L, n = 0.05, 1, 5
      local balls = {}
      for i = 1, n do
        local x = (i - 1) * (2 * r + 1e-4)
        local pos = i == 1 and { x - L * math.sin(0.3), 0, -L * math.cos(0.3) } or { x, 0, -L }
        balls[i] = w:add_body { shape = s3.sphere { radius = r }, mass = 1, position = pos,
                                elasticity = 1, friction = 0 }
        w:add_rope { body1 = balls[i], point2 = { x, 0, 0 }, length = L, rod = true }
      end
      local v0 = math.sqrt(2 * g * L * (1 - math.cos(0.3)))
      local best, others = 0, nil
      for _ = 1, 700 do
        w:step()
        local v = balls[n].velocity[1]
        if v > best then
          best, others = v, 0
          for i = 1, n - 1 do
            others = math.max(others, norm(balls[i].velocity))
          end
        end
      end
      assert.near(v0, best, 0.01 * v0)
      assert.is_true(others < 0.01 * v0, solver .. ": " .. others)
    end
  end)

  it("a four-bar linkage (closed loop) moves as Grashof says and keeps its loop closed", function()
    -- ground d = 0.6, crank a = 0.2, coupler b = 0.6, rocker c = 0.5: s + l = 0.8 <= p + q = 1.1
    -- with the shortest link beside the ground, a crank-rocker: the crank, driven by a motor at
    -- 1 turn/s, turns fully; the rocker swings between the angles where crank and coupler are
    -- aligned (|AC| = b + a and b - a). Four hinges about y (a redundant closed loop in 3D).
    local a, b, c, d = 0.2, 0.6, 0.5, 0.6
    local function meet(p, rp, q, rq)  -- the intersection of two circles in the x-z plane below p q
      local dx, dz = q[1] - p[1], q[3] - p[3]
      local len = math.sqrt(dx * dx + dz * dz)
      local s = (rp * rp - rq * rq + len * len) / (2 * len)
      local hgt = math.sqrt(rp * rp - s * s)
      return { p[1] + (s * dx + hgt * dz) / len, 0, p[3] + (s * dz - hgt * dx) / len }
    end
    local A, D, B = { 0, 0, 0 }, { d, 0, 0 }, { 0, 0, a }
    local C = meet(D, c, B, b)
    local function rocker_angle(p) return math.atan(p[3], p[1] - d) end
    local th1, th2 = rocker_angle(meet(D, c, A, b - a)), rocker_angle(meet(D, c, A, b + a))
    local lo_th, hi_th = math.min(th1, th2), math.max(th1, th2)
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver, gravity = { 0, 0, 0 } }
      local function bar(p, q)
        local dx, dz = q[1] - p[1], q[3] - p[3]
        local th = math.atan(-dz, dx)
        return w:add_body { shape = s3.box { size = { math.sqrt(dx * dx + dz * dz), 0.02, 0.02 } }, mass = 1,
                            collide = false, position = { (p[1] + q[1]) / 2, 0, (p[3] + q[3]) / 2 },
                            orientation = { math.cos(th / 2), 0, math.sin(th / 2), 0 } }
      end
      local crank, coupler, rocker = bar(A, B), bar(B, C), bar(D, C)
      local y = { 0, 1, 0 }
      local joints = {
        w:add_joint { kind = "hinge", body1 = crank, anchor = A, axis = y,
                      motor = { speed = 2 * math.pi, max_force = 100 } },
        w:add_joint { kind = "hinge", body1 = coupler, body2 = crank, anchor = B, axis = y },
        w:add_joint { kind = "hinge", body1 = rocker, body2 = coupler, anchor = C, axis = y },
        w:add_joint { kind = "hinge", body1 = rocker, anchor = D, axis = y },
      }
      local turned, last, lo, hi, err = 0, select(4, w:connector_error(joints[1])), math.huge, -math.huge, 0
      for _ = 1, 2000 do
        w:step()
        local at = select(4, w:connector_error(joints[1]))
        turned = turned + math.atan(math.sin(at - last), math.cos(at - last))
        last = at
        local th = rocker_angle(rocker.position)
        lo, hi = math.min(lo, th), math.max(hi, th)
        for _, j in ipairs(joints) do
          local lin, _, ang = w:connector_error(j)
          err = math.max(err, lin, ang)
        end
      end
      assert.near(2, math.abs(turned) / (2 * math.pi), 0.01)  -- two full turns in 2 s
      assert.near(lo_th, lo, 1e-4)
      assert.near(hi_th, hi, 1e-4)
      assert.is_true(err < 1e-5, solver .. ": " .. err)
    end
  end)

  it("a hinged bar resting on frictionless ground: joint and contact share its weight by moments", function()
    -- a 2 kg bar hinged at one end 0.5 m above the ground falls onto it and rests: with no
    -- friction the ground pushes straight up, so moments about the hinge give the ground's force
    -- N = m g (x_centre - x_hinge) / (x_contact - x_hinge), the hinge the rest
    for _, solver in ipairs(solvers) do
      for _, strategy in ipairs { "contact", "impulse" } do
        local w = world { solver = solver, strategy = strategy }
        w:add_body { shape = s3.box { size = { 10, 10, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                     friction = 0, elasticity = 0 }
        local m = 2
        local bar = w:add_body { shape = s3.box { size = { 1, 0.1, 0.05 } }, mass = m,
                                 position = { 0.5, 0, 0.5 }, friction = 0, elasticity = 0 }
        local j = w:add_joint { kind = "hinge", body1 = bar, anchor = { 0, 0, 0.5 }, axis = { 0, 1, 0 } }
        w:run { duration = 3 }
        local n, moment = 0, 0
        for _, c in ipairs(w:contacts()) do
          n = n + c.normal_force
          moment = moment + c.normal_force * c.point[1]
        end
        assert.near(m * g * bar.position[1] / (moment / n), n, 1e-6 * n, solver .. " " .. strategy)
        assert.is_true(n > 0.4 * m * g and n < 0.6 * m * g)  -- about half: it rests near its far end
        assert.is_true(lin_err(w, j) < 1e-9 and norm(bar.angular_velocity) < 1e-6)
      end
    end
  end)

  it("a fixed joint makes one rigid body of two: no relative motion, angular momentum = torque t", function()
    -- the joint's impulses are internal: the pair's momentum stays 0 and its angular momentum
    -- grows as the torque's impulse, within the scheme's O(h) (its explicit gyroscopic term)
    for _, solver in ipairs(solvers) do
      local w = world { solver = solver, gravity = { 0, 0, 0 } }
      local a = w:add_body { shape = s3.box { size = { 0.4, 0.2, 0.2 } }, mass = 1,
                             position = { -0.2, 0, 0 } }
      local b = w:add_body { shape = s3.box { size = { 0.4, 0.2, 0.2 } }, mass = 3, position = { 0.2, 0, 0 } }
      local j = w:add_joint { kind = "fixed", body1 = a, body2 = b, anchor = { 0, 0, 0 } }
      local tau = { 0.02, -0.01, 0.03 }
      for _ = 1, 500 do
        a:apply_torque(tau)
        w:step()
      end
      local lin, _, ang = w:connector_error(j)
      assert.is_true(lin < 1e-5 and ang < 1e-5, solver .. ": " .. lin .. " " .. ang)
      local h = w:angular_momentum()
      for k = 1, 3 do
        assert.near(tau[k] * w.time, h[k], 1e-3 * norm(tau) * w.time)
      end
      local p = w:momentum()
      assert.is_true(norm(p) < 1e-9)
    end
  end)
end)

describe("3D joints: the API", function()
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return e
  end

  it("refuses joints under strategies that would ignore them", function()
    for _, strategy in ipairs { "none", "compliant", "dem" } do
      local w = impact.world3d { strategy = strategy }
      local b = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1 }
      assert.matches("World:add_joint: joints, ropes and rods act only under the strategies "
        .. "\"contact\" and \"impulse\"; this world's strategy is \"" .. strategy .. "\"",
        err(w.add_joint, w, { kind = "ball", body1 = b }), 1, true)
      assert.matches("World:add_rope: joints, ropes and rods act only",
        err(w.add_rope, w, { body1 = b, length = 1 }), 1, true)
    end
  end)

  it("checks its options, naming them", function()
    local w = world {}
    local b = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1 }
    local cases = {
      { { body1 = b }, "option 'kind' is required in a 3D world" },
      { { kind = "pin", body1 = b },
        "option 'kind' must be one of \"ball\", \"hinge\", \"slider\", \"fixed\", got" },
      { { kind = "ball" }, "option 'body1' is required" },
      { { kind = "ball", body1 = b, normal = "x" }, "unknown option" },
      { { kind = "hinge", body1 = b }, "option 'axis' is required for a hinge joint" },
      { { kind = "hinge", body1 = b, axis = { 0, 0, 0 } }, "option 'axis' must be a nonzero vector" },
      { { kind = "hinge", body1 = b, axis = { 0, 0 / 0, 1 } }, "option 'axis'" },
      { { kind = "ball", body1 = b, anchor = { 1, 0 / 0, 0 } }, "option 'anchor'" },
      { { kind = "ball", body1 = b, anchor = { 1e300, 0, 0 } }, "within 1e150 of the bodies' centres" },
      { { kind = "ball", body1 = b, axis = { 0, 0, 1 } },
        "option 'axis' is for the kinds \"hinge\" and \"slider\"" },
      { { kind = "fixed", body1 = b, limits = { 0, 1 } }, "option 'limits' is for the kinds" },
      { { kind = "slider", body1 = b, axis = { 1, 0, 0 }, limits = { 1, 0 } }, "lo <= hi" },
      { { kind = "hinge", body1 = b, axis = { 1, 0, 0 }, limits = { -4, 0 } }, "within [-pi, pi]" },
      { { kind = "hinge", body1 = b, axis = { 1, 0, 0 }, motor = { speed = 1 } }, "needs both 'speed'" },
      { { kind = "hinge", body1 = b, axis = { 1, 0, 0 }, motor = { speed = 1, max_force = 1, torque = 2 } },
        "unknown option motor.torque" },
      { { kind = "hinge", body1 = b, axis = { 1, 0, 0 }, motor = { speed = 1, max_force = -1 } },
        "option 'motor.max_force'" },
      { { kind = "ball", body1 = b, anchor = { 0, 0, 0 }, point1 = { 0, 0, 0 } }, "not both" },
      { { kind = "ball", body1 = b, body2 = b }, "two different bodies" },
      { { kind = "ball", body1 = w.background }, "two different bodies" },
    }
    for _, case in ipairs(cases) do
      local e = err(w.add_joint, w, case[1])
      assert.matches("World:add_joint: ", e, 1, true)
      assert.matches(case[2], e, 1, true)
    end
    assert.matches("World:add_rope: option 'length' is required", err(w.add_rope, w, { body1 = b }), 1, true)
    assert.matches("World:add_rope: unknown option",
      err(w.add_rope, w, { body1 = b, length = 1, kind = "x" }), 1, true)
    local f = w:add_body { shape = s3.sphere { radius = 0.1 }, fixed = true, position = { 1, 0, 0 } }
    assert.matches("do not move does nothing", err(w.add_joint, w, { kind = "ball", body1 = f }), 1, true)
  end)

  it("gives handles; removing a connector or one of its bodies lets the other body go", function()
    local w = world {}
    local b = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1, position = { 1, 0, 0 } }
    local j = w:add_joint { kind = "hinge", body1 = b, anchor = { 0, 0, 0 }, axis = { 0, 1, 0 } }
    assert.equal("hinge", j.kind)
    local r = w:add_rope { body1 = b, length = 2, rod = true }
    assert.equal("rod", r.kind)
    assert.equal("rope", w:add_rope { body1 = b, length = 2 }.kind)
    w:remove_connector(r)
    assert.matches("World:connector_error: the connector was removed", err(w.connector_error, w, r), 1, true)
    w:run { duration = 0.5 }
    assert.near(1, norm(b.position), 1e-6)  -- held on its circle by the hinge
    -- a body removed takes its joints with it: the bob on a second body falls freely
    local c = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1, position = { 0, 5, 0 } }
    local held = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1, position = { 0, 5, -1 } }
    local jc = w:add_joint { kind = "ball", body1 = c, anchor = { 0, 5, 0 } }
    local jh = w:add_rope { body1 = held, body2 = c, length = 1, rod = true }
    w:remove_body(c)
    assert.matches("one of the connector's bodies was removed", err(w.connector_error, w, jh), 1, true)
    assert.matches("one of the connector's bodies was removed", err(w.remove_connector, w, jc), 1, true)
    local z0, t0 = held.position[3], w.time
    w:run { duration = 0.3 }
    assert.near(z0 - 0.5 * g * (w.time - t0) ^ 2, held.position[3], g * 1e-3 * 0.3)
    -- a world holding joints keeps them from strategies that would ignore them
    assert.matches("would ignore", err(function() w.strategy = "none" end), 1, true)
    w.strategy = "impulse"
    assert.equal("impulse", w.strategy)
  end)
end)
