-- The 3D impulse and contact strategies under time_stepping = "ode" (src/engine3d/engine3d_ode.h):
-- the world's integrator advances the state, the resting contacts' forces come from the
-- acceleration-level problem with Coulomb friction on the circular cone (Baraff 1994), and
-- collisions back up to the half gap, where impulses with restitution act. Each expectation is
-- a closed form or a conservation law named beside it; tolerances say what they allow.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function world(opts)
  opts = opts or {}
  return impact.world3d { strategy = opts.strategy or "contact", time_stepping = "ode",
                          gravity = opts.gravity or { 0, 0, -g }, dt = opts.dt or 1 / 500,
                          integrator = opts.integrator, contact_solver = opts.solver,
                          collision_handling = opts.handling, extra_accel = opts.extra_accel }
end

-- the default extra acceleration holds resting contacts at the half gap distance_tol / 2
local half_gap = 0.005

local function ground(w, opts)
  opts = opts or {}
  return w:add_body { shape = shape3d.box { size = { 400, 400, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                      friction = opts.friction or 0.5, elasticity = opts.elasticity or 0 }
end

local scenes3d = require("spec.support.scenes3d")
local dot = scenes3d.dot

-- translational plus rotational kinetic energy, (1/2) m v.v + (1/2) w.(I w) (I: world frame)
local function kinetic(body)
  local v, om, i = body.velocity, body.angular_velocity, body.world_inertia
  local rot = 0
  for r = 1, 3 do
    for c = 1, 3 do rot = rot + 0.5 * om[r] * i[r][c] * om[c] end
  end
  return 0.5 * body.mass * dot(v, v) + rot
end

describe("3D contact under time_stepping = \"ode\"", function()
  it("a ball in free flight follows the parabola x0 + v0 t + g t^2 / 2 to RK4's accuracy", function()
    -- RK4 integrates a quadratic in t exactly: only round-off remains
    local w = world { dt = 1 / 1000, integrator = "rk4" }
    local ball = w:add_body { shape = shape3d.sphere { radius = 0.1 }, mass = 2, position = { 1, -2, 10 },
                              velocity = { 1, 2, 3 }, angular_velocity = { 0.3, -0.2, 1 } }
    w:run { duration = 1 }
    local t = w.time
    assert.near(1 + t, ball.position[1], 1e-9)
    assert.near(-2 + 2 * t, ball.position[2], 1e-9)
    assert.near(10 + 3 * t - 0.5 * g * t ^ 2, ball.position[3], 1e-9)
    assert.near(3 - g * t, ball.velocity[3], 1e-9)
    assert.near(1, ball.angular_velocity[3], 1e-12)  -- a sphere keeps its spin
    assert.are.equal(0, #w:contacts())
  end)

  it("a box sliding on the floor decelerates at mu g in every direction (isotropic friction)", function()
    -- while sliding: dv/dt = -mu g along the slip, whatever its direction (the circular cone);
    -- measured over 0.5 s from 4 m/s (the box stops after 4 / (mu g) = 1.36 s)
    local mu = 0.3
    for _, deg in ipairs { 0, 30, 45, 72, 135 } do
      local w = world {}
      ground(w, { friction = mu })
      local c, s = math.cos(math.rad(deg)), math.sin(math.rad(deg))
      local box = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                               position = { 0, 0, 0.5 + half_gap }, friction = mu,
                               orientation = { math.cos(0.2), 0, 0, math.sin(0.2) } }
      w:run { duration = 0.1 }  -- settle on the floor
      box.velocity = { 4 * c, 4 * s, 0 }
      w:run { duration = 0.5 }
      local v = box.velocity
      local decel = (4 - math.sqrt(v[1] ^ 2 + v[2] ^ 2)) / 0.5
      assert.near(mu * g, decel, 0.01 * mu * g)
      assert.is_true(math.abs(c * v[2] - s * v[1]) < 1e-6, "the friction acts along the slip only")
      assert.near(0.5 + half_gap, box.position[3], 1e-3)
    end
  end)

  it("a box on a 30 degree slope slides at g (sin - mu cos) for mu = 0.3, stays for mu = 0.6", function()
    local th = math.rad(30)
    local n, down = { -math.sin(th), 0, math.cos(th) }, { -math.cos(th), 0, -math.sin(th) }
    local q = { math.cos(-th / 2), 0, math.sin(-th / 2), 0 }
    for _, mu in ipairs { 0.3, 0.6 } do
      local w = world {}
      w:add_body { shape = shape3d.box { size = { 400, 40, 1 } }, fixed = true, friction = mu,
                   position = { -0.5 * n[1], 0, -0.5 * n[3] }, orientation = q }
      local h = 0.25 + half_gap
      local p0 = { n[1] * h, n[2] * h, n[3] * h }
      local box = w:add_body { shape = shape3d.box { size = { 0.5, 0.5, 0.5 } }, mass = 1, position = p0,
                               orientation = q, friction = mu }
      w:run { duration = 2 }
      -- mu = 0.3: 2.35629 m/s^2 down the slope; mu = 0.6 > tan 30 = 0.577: it stays
      scenes3d.assert_slope_outcome(w, box, p0, th, mu, g, n, down)
      if mu == 0.6 then
        -- statics: the slope carries m g cos 30 along its normal and m g sin 30 up the slope,
        -- inside the cone (sin 30 < mu cos 30)
        local fn, ft = 0, { 0, 0, 0 }
        for _, c in ipairs(w:contacts()) do
          fn = fn + c.normal_force
          for k = 1, 3 do ft[k] = ft[k] + c.friction_force[k] end
          assert.is_true(math.sqrt(dot(c.friction_force, c.friction_force)) <= mu * c.normal_force + 1e-9)
        end
        assert.near(g * math.cos(th), fn, 1e-6 * g)
        assert.near(-g * math.sin(th), dot(ft, down), 1e-6 * g)
      end
    end
  end)

  it("a sphere launched without spin slides, then rolls at 5/7 v0 from t = 2 v0 / (7 mu g)", function()
    -- sliding: dv/dt = -mu g, dw/dt = (5/2) mu g / R; rolling once v = w R, at 5/7 v0
    for _, solver in ipairs { "lcp", "pgs" } do
      local w = world { solver = solver }
      local mu, r, v0 = 0.2, 0.5, 3
      ground(w, { friction = mu })
      local ball = w:add_body { shape = shape3d.sphere { radius = r }, mass = 1,
                                position = { 0, 0, r + half_gap },
                                friction = mu }
      w:run { duration = 0.05 }
      ball.velocity = { v0, 0, 0 }
      local t_roll = 2 * v0 / (7 * mu * g)  -- 0.437 s
      w:run { duration = 0.5 * t_roll }
      assert.near(v0 - mu * g * 0.5 * t_roll, ball.velocity[1], 0.01 * v0)
      w:run { duration = t_roll }
      assert.near(5 / 7 * v0, ball.velocity[1], 0.005 * v0)
      assert.near(5 / 7 * v0 / r, ball.angular_velocity[2], 0.005 * v0 / r)
    end
  end)

  it("two spheres colliding elastically keep momentum and kinetic energy", function()
    -- an oblique impact (offset 0.4 of the radii sum), masses 1 and 3, e = 1, frictionless
    local w = world { gravity = { 0, 0, 0 }, handling = "simultaneous" }
    local a = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { -2, 0, 0 },
                           velocity = { 3, 0, 0 }, elasticity = 1, friction = 0 }
    local b = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 3, position = { 0, 0.4, 0 },
                           velocity = { -1, 0, 0 }, elasticity = 1, friction = 0 }
    local hits = 0
    w:on("collision", function() hits = hits + 1 end)
    w:run { duration = 1 }
    assert.are.equal(1, hits)
    for k = 1, 3 do  -- momentum: 1 * 3 + 3 * (-1) = 0 along x, 0 across
      assert.near(0, a.velocity[k] + 3 * b.velocity[k], 1e-9)
    end
    local energy = 0.5 * dot(a.velocity, a.velocity) + 1.5 * dot(b.velocity, b.velocity)
    assert.near(0.5 * 9 + 0.5 * 3, energy, 1e-9)
    assert.is_true(b.velocity[2] > 0.1, "the oblique impact turns b away")
  end)

  it("Newton's cradle: serial handling sends the momentum to the last ball, simultaneous spreads it",
     function()
    -- serial: one collision at a time, v' = (0, 0, 1) v; simultaneous, 3 balls, e = 1 on the
    -- colliding contact, 0 on the resting one (one problem): u12 = v, u23 = 0 with both
    -- impulses positive gives p12 = 4/3 m v, p23 = 2/3 m v, v' = (-1/3, 2/3, 2/3) v; both keep
    -- momentum and kinetic energy
    for _, handling in ipairs { "serial", "simultaneous", "hybrid" } do
      local w = world { gravity = { 0, 0, 0 }, handling = handling, dt = 1 / 1000 }
      local balls = {}
      for i = 1, 3 do
        balls[i] = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1,
                                position = { i == 1 and -1.2 or (i - 2) * (1 + half_gap), 0, 0 },
                                velocity = { i == 1 and 1 or 0, 0, 0 }, elasticity = 1, friction = 0 }
      end
      w:run { duration = 0.6 }
      local v = {}
      for i = 1, 3 do v[i] = balls[i].velocity[1] end
      if handling == "simultaneous" then
        assert.near(-1 / 3, v[1], 1e-9)
        assert.near(2 / 3, v[2], 1e-9)
        assert.near(2 / 3, v[3], 1e-9)
      else
        assert.near(0, v[1], 1e-9)
        assert.near(0, v[2], 1e-9)
        assert.near(1, v[3], 1e-9)
      end
      assert.near(1, v[1] + v[2] + v[3], 1e-12)
      assert.near(0.5, 0.5 * (v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2), 1e-9)
    end
  end)

  it("a ball dropped with elasticity e rebounds at e times its impact speed, from the half gap", function()
    for _, case in ipairs { { "contact", 0.5 }, { "contact", 0.9 }, { "impulse", 0.5 } } do
      local e = case[2]
      local w = world { dt = 1 / 1000, strategy = case[1] }
      ground(w, { elasticity = 1 })
      local r, h0 = 0.1, 1
      local ball = w:add_body { shape = shape3d.sphere { radius = r }, mass = 1, position = { 0, 0, r + h0 },
                                elasticity = e }
      local hit
      w:on("collision", function(ev) hit = hit or ev end)
      while not hit do w:step() end
      -- the impact happens at the half gap, within the accuracy band (collision_accuracy 0.6)
      local fall = h0 - half_gap
      local vin = math.sqrt(2 * g * fall)
      assert.near(-vin, hit.normal_velocity, 0.01 * vin)
      assert.near(e * vin, ball.velocity[3], 0.01 * vin)
      assert.is_true(math.abs(ball.position[3] - r - half_gap) <= 0.6 * half_gap + 1e-9)
    end
  end)

  it("a resting box neither creeps nor gains energy, and its contact forces carry its weight", function()
    local w = world {}
    ground(w, { friction = 0.5 })
    local box = w:add_body { shape = shape3d.box { size = { 1, 0.6, 0.4 } }, mass = 2,
                             position = { 0.3, -0.2, 0.2 + half_gap }, friction = 0.5 }
    local p0 = box.position
    w:run { duration = 3 }
    local p = box.position
    assert.is_true(math.sqrt((p[1] - p0[1]) ^ 2 + (p[2] - p0[2]) ^ 2 + (p[3] - p0[3]) ^ 2) < 1e-6)
    assert.is_true(kinetic(box) < 1e-12)
    local total, friction = 0, 0
    for _, c in ipairs(w:contacts()) do
      total = total + c.normal_force * c.normal[3]
      friction = friction + math.sqrt(dot(c.friction_force, c.friction_force))
    end
    assert.near(2 * g, total, 1e-6 * 2 * g)  -- the weight, shared by the corners
    assert.is_true(friction < 1e-6)
  end)

  it("a stack of three boxes stands", function()
    for _, solver in ipairs { "lcp", "pgs" } do
      local w = world { solver = solver }
      ground(w, { friction = 0.6 })
      local boxes = {}
      for i = 1, 3 do
        boxes[i] = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, friction = 0.6,
                                position = { 0.05 * (i - 1), 0, (i - 0.5) + i * half_gap } }
      end
      local start = {}
      for i = 1, 3 do start[i] = boxes[i].position end
      w:run { duration = 2 }
      for i = 1, 3 do
        local p = boxes[i].position
        assert.is_true(math.abs(p[1] - start[i][1]) < 1e-3 and math.abs(p[3] - start[i][3]) < 1e-3,
                       solver .. ": box " .. i .. " moved")
        assert.is_true(kinetic(boxes[i]) < 1e-8)
      end
    end
  end)

  it("events: a box dropped on the floor collides, touches, and leaves when lifted", function()
    -- dt = 10 ms: the trial step that reaches the floor (at 2.4 m/s) crosses it and backs up
    local w = world { dt = 1 / 100 }
    ground(w, {})
    local box = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 0.8 } }
    local seen = {}
    for _, kind in ipairs { "collision", "contact_begin", "contact_end" } do
      w:on(kind, function() seen[kind] = (seen[kind] or 0) + 1 end)
    end
    w:run { duration = 1 }
    assert.is_true((seen.collision or 0) >= 1)
    assert.are.equal(1, seen.contact_begin)
    assert.near(0.5 + half_gap, box.position[3], 1e-3)
    box.velocity = { 0, 0, 2 }
    w:run { duration = 0.1 }
    assert.are.equal(1, seen.contact_end)
    local s = w:stats()
    assert.is_true(s.ode_steps > 0 and s.backups > 0 and s.force_solves > 0)
  end)

  it("every shape rests at the half gap above its lowest point, on a box and on a wall", function()
    -- the extra acceleration brings a resting contact to distance_tol / 2 at rest (2D's meaning)
    local lying_x = { math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0 }  -- z axis onto x
    local cuboid_points = scenes3d.cuboid_points
    local cases = {
      { "sphere", shape3d.sphere { radius = 0.3 }, 0.3 },
      { "box", shape3d.box { size = { 0.4, 0.6, 0.8 } }, 0.4 },
      { "smoothed box", shape3d.box { size = { 0.4, 0.6, 0.8 }, smoothing = 0.05 }, 0.4 },
      { "ellipsoid", shape3d.ellipsoid { radii = { 0.5, 0.4, 0.3 } }, 0.3 },
      { "cylinder standing", shape3d.cylinder { radius = 0.3, length = 1 }, 0.5 },
      { "cylinder lying", shape3d.cylinder { radius = 0.3, length = 1 }, 0.3, lying_x },
      { "capsule lying", shape3d.capsule { radius = 0.2, length = 0.6 }, 0.2, lying_x },
      { "cone on its base", shape3d.cone { radius = 0.4, length = 0.9 }, 0.225 },  -- centroid: h / 4
      { "convex hull", shape3d.convex { points = cuboid_points(1, 0.8, 0.5) }, 0.25 },
      { "polyhedron", shape3d.polyhedron { points = cuboid_points(1, 1, 1) }, 0.5 },
    }
    for _, floor in ipairs { "box", "wall" } do
      for _, points in ipairs { "clipping", "volumetric" } do
        local w = impact.world3d { strategy = "contact", time_stepping = "ode", gravity = { 0, 0, -g },
                                   dt = 1 / 240, contact_points = points }
        if floor == "box" then
          ground(w, {})
        else
          w:add_body { shape = shape3d.wall { normal = { 0, 0, 1 } }, fixed = true, friction = 0.5 }
        end
        local bodies = {}
        for i, case in ipairs(cases) do  -- dropped from 5 cm
          bodies[i] = w:add_body { shape = case[2], density = 500, friction = 0.5, elasticity = 0,
                                   position = { 3 * i, 0, case[3] + 0.05 }, orientation = case[4] }
        end
        w:run { duration = 2 }
        for i, case in ipairs(cases) do
          local b, what = bodies[i], case[1] .. " on a " .. floor .. " (" .. points .. ")"
          assert.near(case[3] + half_gap, b.position[3], 1e-6, what)
          assert.near(3 * i, b.position[1], 1e-6, what)
          assert.is_true(kinetic(b) < 1e-12, what)
        end
      end
    end
  end)

  it("extra_accel: the distance term closes a resting gap error as a critically damped "
     .. "oscillator of time extra_accel_dt; the velocity term alone leaves the gap as it is", function()
    -- the contact keeps d'' = -(2 d' T + (d - d*)) / T^2 (2D's meaning): from rest at d0,
    -- d(t) = d* + (d0 - d*) (1 + t / T) exp(-t / T); "velocity" (d'' = -d' / T) and "none" keep d0
    local d0, T = 0.003, 0.05
    for _, extra in ipairs { "velocity_and_distance", "velocity_and_distance_joints", "velocity", "none" } do
      local w = impact.world3d { strategy = "contact", time_stepping = "ode", gravity = { 0, 0, -g },
                                 dt = 1 / 1000, extra_accel = extra, extra_accel_dt = T }
      ground(w, {})
      local box = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                               position = { 0, 0, 0.5 + d0 } }
      w:run { duration = 0.1 }
      local t = w.time
      local expected = d0
      if extra:match("distance") then
        expected = half_gap + (d0 - half_gap) * (1 + t / T) * math.exp(-t / T)
      end
      assert.near(expected, box.position[3] - 0.5, 1e-7, extra)
    end
  end)

  it("runs bit for bit the same twice", function()
    local function run()
      local w = world { handling = "hybrid" }
      ground(w, { friction = 0.4 })
      local bodies = {}
      for i = 1, 4 do
        bodies[i] = w:add_body { shape = i % 2 == 0 and shape3d.box { size = { 0.5, 0.4, 0.3 } }
                                   or shape3d.sphere { radius = 0.2 }, mass = i, elasticity = 0.3,
                                 friction = 0.4, position = { 0.3 * i, 0.1 * i, 0.5 + 0.6 * i },
                                 velocity = { -0.5, 0.2 * i, 0 },
                                 orientation = { math.cos(0.1 * i), math.sin(0.1 * i), 0, 0 } }
      end
      w:run { duration = 1 }
      local out = {}
      for i = 1, 4 do
        for _, x in ipairs(bodies[i].position) do out[#out + 1] = string.format("%a", x) end
        for _, x in ipairs(bodies[i].velocity) do out[#out + 1] = string.format("%a", x) end
      end
      return table.concat(out, " ")
    end
    assert.are.equal(run(), run())
  end)

  it("a step that cannot resolve a collision fails naming the time and the bodies, keeping the state",
     function()
    -- max_backups = 1: the first trial step crosses the floor at 10 m/s and may back up once only
    local w = impact.world3d { strategy = "contact", time_stepping = "ode", gravity = { 0, 0, -g },
                               dt = 1 / 20,
                               max_backups = 1 }
    local floor = ground(w, {})
    local ball = w:add_body { shape = shape3d.sphere { radius = 0.3 }, mass = 1, position = { 0, 0, 0.5 },
                              velocity = { 0, 0, -10 } }
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("step 1 from t = 0 failed (integrator rk4)", err, 1, true)
    assert.matches("a collision between bodies #" .. floor.id .. " and #" .. ball.id
                   .. " was not resolved after 1 back-ups at t = 0", err, 1, true)
    assert.matches("the world keeps its state at t = 0", err, 1, true)
    assert.are.equal(0, w.time)
    assert.are.same({ 0, 0, 0.5 }, ball.position)
    assert.are.same({ 0, 0, -10 }, ball.velocity)
  end)

  it("refuses what has no meaning in 3D, with the option, the value and what to do", function()
    local function err(opts)
      local ok, e = pcall(impact.world3d, opts)
      assert.is_false(ok)
      return e
    end
    local e = err { strategy = "contact", time_stepping = "ode", joint_small_impacts = true }
    -- (the message said "3D worlds have no joints" before 3D joints, issue #17 item 1)
    assert.matches("option 'joint_small_impacts' (got true) acts on joints of 2D worlds", e, 1, true)
    e = err { strategy = "contact", extra_accel = "velocity" }
    assert.matches("option 'extra_accel' (got \"velocity\") belongs to the force-level contact", e, 1, true)
    assert.matches("time_stepping = \"ode\"", e, 1, true)
    e = err { strategy = "impulse", time_stepping = "ode", substeps = 4 }
    assert.matches("option 'substeps' (got 4)", e, 1, true)
    e = err { strategy = "contact", time_stepping = "rk4" }
    assert.matches("time_stepping", e, 1, true)
    assert.matches("rk4", e, 1, true)
    -- the accepted combination
    local w = impact.world3d { strategy = "contact", time_stepping = "ode", extra_accel = "velocity",
                               extra_accel_dt = 0.01, integrator = "rkf45" }
    assert.is_not_nil(w)
  end)
end)
