-- The 3D impulse and contact strategies (src/engine3d): velocity-level time stepping with
-- exact Coulomb friction. Each expectation is a closed form (or a conservation law) from the
-- physics named beside it; tolerances are stated with their reason (the scheme is first order
-- in h, so an error of a few h-sized steps is expected of trajectories).
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function ground(w, opts)
  opts = opts or {}
  return w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true,
                      position = { 0, 0, -0.5 }, friction = opts.friction or 0.5,
                      elasticity = opts.elasticity or 0 }
end

local function world(opts)
  opts = opts or {}
  return impact.world3d { strategy = opts.strategy or "contact", gravity = { 0, 0, -g },
                          dt = opts.dt or 1 / 600, contact_solver = opts.solver,
                          collision_handling = opts.handling }
end

local function speed(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end

describe("3D impulse and contact strategies", function()
  it("a sphere launched without spin slides, then rolls at 5/7 v0 from t = 2 v0 / (7 mu g)", function()
    -- sliding: dv/dt = -mu g, dw/dt = (5/2) mu g / R; rolling when v = w R: v = 5/7 v0
    for _, solver in ipairs { "lcp", "pgs" } do
      local w = world { solver = solver }
      local mu, v0, r = 0.3, 5, 0.5
      ground(w, { friction = mu })
      local ball = w:add_body { shape = shape3d.sphere { radius = r }, mass = 1, position = { 0, 0, r },
                                velocity = { v0, 0, 0 }, friction = mu }
      local t_roll = 2 * v0 / (7 * mu * g)
      w:run { duration = t_roll / 2 }
      -- halfway: still sliding at v0 - mu g t
      assert.near(v0 - mu * g * w.time, ball.velocity[1], 1e-9 * v0)
      w:run { duration = 1 }
      assert.near(5 / 7 * v0, ball.velocity[1], 1e-9 * v0)
      assert.near(5 / 7 * v0, ball.angular_velocity[2] * r, 1e-9 * v0)
      assert.near(r, ball.position[3], 1e-9)
    end
  end)

  it("a sphere rolls down a 30 degree slope at a = 5/7 g sin(theta)", function()
    -- no slip needs mu >= 2/7 tan(theta) = 0.165; mu = 0.5
    local th = math.rad(30)
    local w = world {}
    local n = { -math.sin(th), 0, math.cos(th) }  -- slope normal
    w:add_body { shape = shape3d.box { size = { 200, 20, 1 } }, fixed = true, friction = 0.5,
                 position = { -0.5 * n[1], 0, -0.5 * n[3] },
                 orientation = { math.cos(-th / 2), 0, math.sin(-th / 2), 0 } }
    local r = 0.25
    local ball = w:add_body { shape = shape3d.sphere { radius = r }, mass = 2,
                              position = { r * n[1], 0, r * n[3] }, friction = 0.5 }
    w:run { duration = 1 }
    local a = 5 / 7 * g * math.sin(th)
    local v = ball.velocity
    local along = -(v[1] * math.cos(th) + v[3] * math.sin(th))  -- down the slope: -(cos, 0, sin)
    assert.near(a * w.time, along, 1e-6 * a)
    assert.near(0, v[1] * n[1] + v[3] * n[3], 1e-9)  -- stays on the slope
  end)

  it("two equal spheres with elasticity 1 exchange velocities (momentum and energy kept)", function()
    local w = world { dt = 1 / 1000 }
    w.gravity = { 0, 0, 0 }
    local a = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { 0, 0, 0 },
                           velocity = { 2, 0, 0 }, elasticity = 1 }
    local b = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { 3, 0, 0 },
                           elasticity = 1 }
    w:run { duration = 2 }
    assert.near(0, speed(a.velocity), 1e-9)
    assert.near(2, b.velocity[1], 1e-9)
    assert.near(2, a:momentum()[1] + b:momentum()[1], 1e-12)
  end)

  it("two spinning boxes colliding off centre keep momentum, angular momentum and (e = 1, "
     .. "frictionless) energy", function()
    -- no gravity: the impulses are internal, equal and opposite at shared points, so linear and
    -- angular momentum (about the origin) are kept exactly; a single elastic impact point with
    -- Newton's law keeps the energy too
    local w = world { dt = 1 / 240, handling = "simultaneous" }
    w.gravity = { 0, 0, 0 }
    w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 0 },
                 velocity = { 2, 0.3, 0 }, angular_velocity = { 0, 0, 1 }, elasticity = 1, friction = 0 }
    w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 2, position = { 3, 0.4, 0.2 },
                 orientation = { math.cos(0.2), 0, 0, math.sin(0.2) }, elasticity = 1, friction = 0 }
    local p0, l0, e0 = w:momentum(), w:angular_momentum(), w:energy().total
    w:run { duration = 3 }
    assert.is_true(w:stats().collisions >= 1)
    assert.near(p0, w:momentum(), 1e-12)
    assert.near(l0, w:angular_momentum(), 1e-12)
    assert.near(e0, w:energy().total, 1e-12 * e0)
  end)

  it("Newton's cradle: serial handling sends the momentum to the last ball, simultaneous "
     .. "spreads it", function()
    -- serial: one collision at a time; simultaneous, 3 balls, e = 1 (one LCP): v' = (-1/3, 2/3, 2/3) v
    -- (p12 = 4v/3, p23 = 2v/3 from u12 = v, u23 = 0 with both impulses positive); both keep
    -- momentum and kinetic energy
    for _, handling in ipairs { "serial", "simultaneous" } do
      local w = world { dt = 1 / 1000, handling = handling, strategy = "impulse" }
      w.gravity = { 0, 0, 0 }
      local balls = {}
      for i = 1, 3 do
        balls[i] = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1,
                                position = { i == 1 and -1 or (i - 2), 0, 0 },
                                velocity = { i == 1 and 1 or 0, 0, 0 }, elasticity = 1 }
      end
      w:run { duration = 0.6 }
      local v = {}
      for i = 1, 3 do v[i] = balls[i].velocity[1] end
      if handling == "serial" then
        assert.near(0, v[1], 1e-9)
        assert.near(0, v[2], 1e-9)
        assert.near(1, v[3], 1e-9)
      else
        assert.near(-1 / 3, v[1], 1e-9)
        assert.near(2 / 3, v[2], 1e-9)
        assert.near(2 / 3, v[3], 1e-9)
      end
      assert.near(1, v[1] + v[2] + v[3], 1e-12)
      assert.near(0.5, 0.5 * (v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2), 1e-9)
    end
  end)

  it("a ball dropped with elasticity e rebounds at e times its impact speed", function()
    for _, e in ipairs { 0, 0.5, 0.9 } do
      local w = world { dt = 1 / 2000 }
      ground(w, { elasticity = 1 })
      local h0, r = 1, 0.1
      local ball = w:add_body { shape = shape3d.sphere { radius = r }, mass = 1, position = { 0, 0, r + h0 },
                                elasticity = e }
      local vin = math.sqrt(2 * g * h0)
      local vout
      w:on("collision", function() vout = vout or true end)
      while w.time < 1 do
        w:step()
        if vout == true then vout = ball.velocity[3] end
      end
      -- first order in h: the bounce happens within one step of the contact (|v| h = 2.2 mm)
      assert.near(e * vin, vout, 0.01 * vin + 2 * g / 2000)
    end
  end)

  it("is deterministic: the same scene gives the same state bit for bit", function()
    local function run()
      local w = world { dt = 1 / 240 }
      ground(w)
      for i = 1, 6 do
        w:add_body { shape = shape3d.sphere { radius = 0.3 }, mass = 1,
                     position = { 0.1 * i, 0.05 * i, 0.7 * i }, friction = 0.4, elasticity = 0.3 }
      end
      w:run { duration = 2 }
      return w:state_hash()
    end
    assert.equal(run(), run())
  end)

  it("a step that would leave the numbers fails naming the body, and the world keeps its state", function()
    local w = world { dt = 1 / 60 }
    ground(w)
    local ball = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { 0, 0, 0.5 } }
    w:step(3)
    local rocket = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, name = "rocket",
                                position = { 1.79e308, 0, 5 }, velocity = { 1.79e308, 0, 0 } }
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("step 4 from t = 0.05", err, 1, true)
    assert.matches("'rocket' (#", err, 1, true)
    assert.matches("the world keeps its state", err, 1, true)
    assert.near(0.05, w.time, 1e-15)
    assert.equal(1.79e308, rocket.position[1])
    assert.near(0.5, ball.position[3], 1e-9)
  end)
end)
