-- Kinematic bodies: infinite mass, moved by their velocity or by a function of time, unaffected
-- by forces, gravity and contacts, carrying what rests on them by friction.
local impact = require("impact")
local shape2d, shape3d = impact.shape2d, impact.shape3d

local g, mu, v = 10, 0.5, 1

-- a world with a kinematic platform (its top at height 0) and a unit box resting on it
local function conveyor(dim, strategy, platform)
  local w = dim == 2 and impact.world2d { strategy = strategy, dt = 0.001, gravity = { 0, -g } }
    or impact.world3d { strategy = strategy, dt = 0.001, gravity = { 0, 0, -g } }
  local material = strategy == "compliant" and "steel" or nil  -- steel on steel: mu_k = 0.5
  local common = { friction = mu, elasticity = 0, material = material }
  local function def(t)
    for k, x in pairs(common) do t[k] = x end
    return t
  end
  local p
  if dim == 2 then
    p = w:add_body(def { shape = shape2d.block { width = 100, height = 1 }, position = { 0, -0.5 },
                         kinematic = true, velocity = { v, 0 } })
  else
    platform = platform or { position = { 0, 0, -0.5 }, kinematic = true, velocity = { v, 0, 0 } }
    platform.shape = shape3d.box { size = { 100, 100, 1 } }
    p = w:add_body(def(platform))
  end
  local b = dim == 2
    and w:add_body(def { shape = shape2d.block { width = 1, height = 1 }, position = { 0, 0.505 } })
    or w:add_body(def { shape = shape3d.box { size = { 1, 1, 1 } }, position = { 0, 0, 0.5 } })
  return w, p, b
end

describe("kinematic bodies", function()
  local cases = { { 2, "contact" }, { 3, "impulse" }, { 3, "contact" }, { 3, "compliant" } }
  for _, c in ipairs(cases) do
    local dim, strategy = c[1], c[2]
    it(string.format("drag a box on a conveyor up to its speed at mu g (%dD %s)", dim, strategy), function()
      local w, p, b = conveyor(dim, strategy)
      -- the box slips with acceleration mu g until it moves with the belt at t_s = v / (mu g)
      local t_s = v / (mu * g)
      w:run { until_time = 0.5 * t_s }
      local tol = strategy == "compliant" and 1e-3 or 1e-6
      assert.near(mu * g * 0.5 * t_s, b.velocity[1], tol)
      w:run { until_time = 0.5 }
      assert.near(v, b.velocity[1], 1e-6)
      -- then it covered v^2 / (2 mu g) while slipping and v (t - t_s) since; the belt slid
      -- v^2 / (2 mu g) under it (symplectic steps: to dt v)
      local x = v ^ 2 / (2 * mu * g) + v * (0.5 - t_s)
      assert.near(x, b.position[1], 2e-3)
      -- the platform kept its speed and height: the box's weight and friction do not act on it
      assert.near(v * 0.5, p.position[1], 1e-12)
      assert.equal(v, p.velocity[1])
      assert.equal(-0.5, p.position[dim])
    end)
  end

  it("follows a motion function: the pose at each step's end, the secant velocity", function()
    -- the conveyor again, driven by motion = function(t): x = v t
    local w, p, b = conveyor(3, "contact", {
      motion = function(t) return { v * t, 0, -0.5 } end,
    })
    assert.is_true(p.kinematic)
    w:run { until_time = 0.5 }
    assert.near(v, b.velocity[1], 1e-6)
    assert.near(v ^ 2 / (2 * mu * g) + v * (0.5 - v / (mu * g)), b.position[1], 2e-3)
    assert.equal(v * w.time, p.position[1])     -- exactly where the function puts it
    assert.near(v, p.velocity[1], 1e-12)
    -- 2D: position and angle; the velocity is the secant of the last step
    local w2 = impact.world2d { dt = 0.01 }
    local k = w2:add_body { shape = shape2d.ball { radius = 1 },
                            motion = function(t) return { math.sin(t), 2, 0.3 * t } end }
    assert.same({ 0, 2 }, k.position)
    w2:step(50)
    local t = w2.time
    assert.equal(math.sin(t), k.position[1])
    assert.equal(0.3 * t, k.angle)
    assert.near((math.sin(t) - math.sin(t - 0.01)) / 0.01, k.velocity[1], 1e-12)
    assert.near(0.3, k.spin, 1e-12)
    -- 3D: a quaternion about z turning at 0.5 rad/s
    local w3 = impact.world3d { dt = 0.01 }
    local r = w3:add_body { shape = shape3d.sphere { radius = 1 }, motion = function(tt)
      local a = 0.5 * tt
      return { 0, 0, 1 }, { math.cos(a / 2), 0, 0, math.sin(a / 2) }
    end }
    w3:step(100)
    local q = r.orientation
    assert.near(math.cos(0.25), q[1], 1e-15)
    assert.near(math.sin(0.25), q[4], 1e-15)
    assert.near(0.5, r.angular_velocity[3], 1e-12)
    -- b.motion can be changed or removed (the body then keeps its last velocity)
    r.motion = nil
    assert.is_nil(r.motion)
    w3:step(10)
    assert.near(0.5, r.angular_velocity[3], 1e-12)
  end)

  for _, strategy in ipairs({ "impulse", "contact" }) do
    it("carry a box round on a turntable (3D " .. strategy .. ")", function()
      local w = impact.world3d { strategy = strategy, dt = 0.002, gravity = { 0, 0, -g } }
      local om = 1
      local t = w:add_body { shape = shape3d.box { size = { 10, 10, 1 } }, position = { 0, 0, -0.5 },
                             kinematic = true, angular_velocity = { 0, 0, om }, friction = mu,
                             elasticity = 0 }
      local b = w:add_body { shape = shape3d.box { size = { 0.2, 0.2, 0.2 } }, position = { 1, 0, 0.1 },
                             friction = mu, elasticity = 0 }
      -- mu g = 5 > om^2 r = 1: once up to speed it turns with the table
      w:run { until_time = 3 }
      local x, y = b.position[1], b.position[2]
      local r = math.sqrt(x * x + y * y)
      local speed = math.sqrt(b.velocity[1] ^ 2 + b.velocity[2] ^ 2)
      assert.near(om * r, speed, 1e-4)
      assert.near(om, b.angular_velocity[3], 1e-6)
      -- moving round, not out (the step's velocity is that of the middle of the step, half a
      -- step's turn om dt / 2 behind the position)
      assert.near(0, x * b.velocity[1] + y * b.velocity[2], om * r * r * 0.002)
      assert.is_true(r > 1 and r < 1.05)  -- it slipped a little outwards while catching up
      -- the table turned om t about its axis and stayed in place
      local q = t.orientation
      assert.near(math.cos(om * 3 / 2), q[1], 1e-9)
      assert.near(math.sin(om * 3 / 2), q[4], 1e-9)
      assert.same({ 0, 0, -0.5 }, t.position)
      assert.same({ 0, 0, om }, t.angular_velocity)
    end)
  end

  local walls = { { 2, "impulse" }, { 2, "contact" }, { 3, "impulse" }, { 3, "contact" } }
  for _, c in ipairs(walls) do
    local dim, strategy = c[1], c[2]
    it(string.format("push bodies as a wall of infinite mass (%dD %s)", dim, strategy), function()
      for _, e in ipairs({ 1, 0 }) do
        local w = dim == 2 and impact.world2d { strategy = strategy, dt = 0.001, gravity = { 0, 0 } }
          or impact.world3d { strategy = strategy, dt = 0.001, gravity = { 0, 0, 0 } }
        local wall = dim == 2
          and w:add_body { shape = shape2d.block { width = 1, height = 4 }, position = { -2, 0 },
                           kinematic = true, velocity = { v, 0 }, elasticity = e }
          or w:add_body { shape = shape3d.box { size = { 1, 4, 4 } }, position = { -2, 0, 0 },
                          kinematic = true, velocity = { v, 0, 0 }, elasticity = e }
        local m = 2
        local ball = dim == 2
          and w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = m, elasticity = e }
          or w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = m, elasticity = e }
        w:run { until_time = 3 }
        -- an elastic impact on an infinite mass sends it off at 2 v; a plastic one at v
        local after = e == 1 and 2 * v or v
        assert.near(after, ball.velocity[1], 1e-6)
        assert.equal(v, wall.velocity[1])
        assert.near(3 * v - 2, wall.position[1], 1e-12)
        -- energy and momentum count the free bodies only
        assert.near(0.5 * m * after ^ 2, w:energy().total, 1e-5)
        assert.near(m * after, w:momentum()[1], 1e-6)
        assert.equal(0, wall:kinetic_energy())
      end
    end)
  end

  it("carry a 2D joint: a pendulum on a pivot moving at constant velocity keeps its period", function()
    -- Galileo: in the pivot's (inertial) frame the pendulum swings as on a fixed pin
    local th0 = 0.5
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -g } }
    local pivot = w:add_body { shape = shape2d.ball { radius = 0.1 }, kinematic = true,
                               velocity = { 0.7, 0 }, collide = false }
    local bar = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                             position = { math.sin(th0), -math.cos(th0) }, angle = th0,
                             velocity = { 0.7, 0 }, collide = false }
    local j = w:add_joint { body1 = bar, point1 = { 0, 1 }, body2 = pivot, point2 = { 0, 0 } }
    local I = (0.2 ^ 2 + 2 ^ 2) / 12 + 1  -- about the pin (Steiner)
    local T = require("spec.support.analytic").pendulum_period(I, 1, g, 1, th0)
    local crossings, prev, worst = {}, bar.angle, 0
    while #crossings < 3 do
      w:step()
      local a = bar.angle
      if prev > 0 and a <= 0 then crossings[#crossings + 1] = w.time - w.dt * a / (a - prev) end
      prev = a
      worst = math.max(worst, (w:connector_error(j)))
    end
    assert.near(T, crossings[2] - crossings[1], 1e-5 * T)
    assert.near(T, crossings[3] - crossings[2], 1e-5 * T)
    assert.is_true(worst < 1e-5, "joint error " .. worst)
    assert.near(0.7 * w.time, pivot.position[1], 1e-12)
    -- a connector between a kinematic and a fixed body does nothing: refused
    local f = w:add_body { shape = shape2d.ball { radius = 0.1 }, fixed = true, collide = false }
    local ok, msg = pcall(w.add_joint, w, { body1 = pivot, point1 = { 0, 0 }, body2 = f, point2 = { 0, 0 } })
    assert.is_false(ok)
    assert.matches("two fixed or kinematic bodies", msg, 1, true)
  end)

  it("are unaffected by gravity, forces and impulses", function()
    for _, strategy in ipairs({ "none", "impulse", "contact", "compliant" }) do
      local w = impact.world3d { strategy = strategy, dt = 0.01, gravity = { 0, 0, -10 } }
      local k = w:add_body { shape = shape3d.sphere { radius = 1 }, kinematic = true,
                             velocity = { 1, 2, 0 }, angular_velocity = { 0, 0, 3 },
                             material = strategy == "compliant" and "steel" or nil }
      k:apply_force { 100, 0, 0 }
      k:apply_impulse { 0, 100, 0 }
      w:run { until_time = 1 }
      assert.same({ 1, 2, 0 }, k.velocity)
      assert.same({ 0, 0, 3 }, k.angular_velocity)
      assert.near(1, k.position[1], 1e-12)
      assert.near(2, k.position[2], 1e-12)
      assert.equal(0, k.position[3])
      -- its velocity can be set at any time
      k.velocity = { 0, 0, 1 }
      w:run { duration = 1 }
      assert.near(1, k.position[3], 1e-12)
    end
  end)

  it("are refused where they cannot be honoured, with clear errors", function()
    local w = impact.world2d {}
    local s = shape2d.ball { radius = 1 }
    local function err(def, pattern)
      def.shape = def.shape or s
      local ok, msg = pcall(w.add_body, w, def)
      assert.is_false(ok)
      assert.matches(pattern, msg, 1, true)
    end
    err({ kinematic = true, fixed = true }, "a body is fixed or kinematic, not both")
    err({ kinematic = true, mass = 2 }, "a kinematic body has infinite mass: option 'mass' does not apply")
    err({ kinematic = true, inertia = 2 }, "option 'inertia' does not apply")
    err({ motion = 3 }, "option 'motion' must be a function of time, got 3")
    err({ motion = function() return { 0, 0 } end, position = { 1, 1 } },
        "option 'motion' gives the body's pose and velocity: leave out 'position'")
    err({ motion = function() return { 0, 0 } end, kinematic = false }, "leave out kinematic = false")
    err({ motion = function() return "here" end }, "must return {x, y} or {x, y, angle}, got")
    local b = w:add_body { shape = s }
    local ok, msg = pcall(function() b.motion = function() return { 0, 0 } end end)
    assert.is_false(ok)
    assert.matches("Body.motion: only a kinematic body", msg, 1, true)
    -- a motion function that fails later names the body and the time
    local k = w:add_body { shape = s, name = "lift", motion = function(t)
      if t > 0.05 then error("broken") end
      return { 0, t }
    end }
    ok, msg = pcall(w.step, w, 10)
    assert.is_false(ok)
    assert.matches("World:step: the motion function of body 'lift'", msg, 1, true)
    assert.matches("broken", msg, 1, true)
    assert.is_true(k:is_valid())
    -- dem moves no kinematic body
    local d = impact.world3d { strategy = "dem" }
    ok, msg = pcall(d.add_body, d, { shape = shape3d.sphere { radius = 1 }, kinematic = true })
    assert.is_false(ok)
    assert.matches("the dem strategy does not move kinematic bodies", msg, 1, true)
    local w3 = impact.world3d {}
    w3:add_body { shape = shape3d.sphere { radius = 1 }, kinematic = true, material = "steel" }
    w3.strategy = "dem"
    ok, msg = pcall(w3.step, w3)
    assert.is_false(ok)
    assert.matches("the dem strategy does not move kinematic bodies (the world has 1)", msg, 1, true)
  end)
end)
