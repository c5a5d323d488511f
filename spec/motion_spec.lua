-- Smooth motion against closed forms: free fall, projectile, spring, damping, orbits.
local impact = require("impact")
local analytic = require("spec.support.analytic")

describe("free fall and projectile (RK4 is exact on polynomials of degree <= 4)", function()
  it("a 2D projectile follows x0 + v0 t, y0 + v0y t - g t^2 / 2 to 1e-10", function()
    local g = 9.81
    local w = impact.world2d { gravity = { 0, -g }, dt = 0.01, integrator = "rk4" }
    local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 2,
      position = { 1, 20 }, velocity = { 3, 7 } }
    w:run { until_time = 2, every = 0.1, fn = function(ww)
      local t = ww.time
      assert.near({ 1 + 3 * t, 20 + 7 * t - 0.5 * g * t * t }, b.position, 1e-10)
      assert.near({ 3, 7 - g * t }, b.velocity, 1e-10)
    end }
    assert.near(2, w.time, 1e-12)
  end)

  it("a 3D body falls along gravity and keeps spinning at a constant rate", function()
    local w = impact.world3d { gravity = { 0, 0, -9.81 }, dt = 0.005 }
    local b = w:add_body { shape = impact.shape3d.sphere { radius = 0.2 }, density = 1000,
      position = { 0, 0, 10 }, velocity = { 1, -2, 0 }, angular_velocity = { 0, 0, 4 } }
    w:run { duration = 1.5 }
    local t = 1.5
    assert.near({ t, -2 * t, 10 - 0.5 * 9.81 * t * t }, b.position, 1e-10)
    assert.near({ 0, 0, 4 }, b.angular_velocity, 1e-12)
    -- a sphere spinning about z by 4 rad/s for 1.5 s: q = (cos 3, 0, 0, sin 3)
    assert.near({ math.cos(3), 0, 0, math.sin(3) }, b.orientation, 1e-9)
  end)
end)

describe("a mass on a spring", function()
  local m, k = 2.0, 50.0
  local omega = math.sqrt(k / m)

  local function oscillator(integrator, dt)
    local w = impact.world2d { gravity = { 0, 0 }, dt = dt, integrator = integrator }
    local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = m,
      position = { 0.3, 0 } }
    w:add_spring { body1 = b, point1 = { 0, 0 }, body2 = w.background, point2 = { 0, 0 },
      rest_length = 0, stiffness = k }
    return w, b
  end

  it("oscillates with period 2 pi sqrt(m/k) and keeps its energy (RK4)", function()
    local period = 2 * math.pi / omega
    local w, b = oscillator("rk4", period / 1000)
    local e0 = w:energy().total
    assert.near(0.5 * k * 0.09, e0, 1e-14)
    local ts, xs = {}, {}
    w:run { duration = 10 * period, every = 0, fn = function(ww)
      ts[#ts + 1] = ww.time
      xs[#xs + 1] = b.position[1]
    end }
    local z = analytic.zero_crossings(ts, xs)
    assert.are.equal(20, #z)
    -- x = 0.3 cos(omega t) crosses zero at (2n + 1) pi / (2 omega)
    for i, tz in ipairs(z) do
      assert.near((2 * i - 1) * math.pi / (2 * omega), tz, 1e-6)
    end
    assert.near(e0, w:energy().total, { rel = 1e-10 })
    assert.near(0.3 * math.cos(omega * w.time), b.position[1], 1e-9)
  end)

  it("converges at order 2 with modified Euler and order 4 with RK4", function()
    local function error_at(integrator, dt)
      local w, b = oscillator(integrator, dt)
      w:run { until_time = 1 }
      return math.abs(b.position[1] - 0.3 * math.cos(omega * w.time))
    end
    local ratio2 = error_at("modified_euler", 0.01) / error_at("modified_euler", 0.005)
    local ratio4 = error_at("rk4", 0.02) / error_at("rk4", 0.01)
    assert.near(4, ratio2, 0.3)
    assert.near(16, ratio4, 1.5)
  end)

  it("a spring between two free bodies conserves momentum and energy", function()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.001, integrator = "rk4" }
    local a = w:add_body { shape = impact.shape2d.block { width = 1, height = 0.2 }, mass = 1,
      position = { 0, 0 }, velocity = { 0.5, 1 }, spin = 2 }
    local b = w:add_body { shape = impact.shape2d.ball { radius = 0.3 }, mass = 3,
      position = { 2, 0.5 }, velocity = { -0.2, 0 } }
    w:add_spring { body1 = a, point1 = { 0.5, 0.1 }, body2 = b, point2 = { 0, 0.3 },
      rest_length = 1, stiffness = 40 }
    local p0, l0, e0 = w:momentum(), w:angular_momentum(), w:energy().total
    w:run { duration = 5 }
    -- linear momentum is a linear invariant, kept by any Runge-Kutta method up to roundoff;
    -- angular momentum is quadratic, kept to the method's O(h^4) error
    assert.near(p0, w:momentum(), 1e-12)
    assert.near(l0, w:angular_momentum(), { rel = 1e-8 })
    assert.near(e0, w:energy().total, { rel = 1e-8 })
  end)
end)

describe("damping", function()
  it("linear damping c slows a body as v0 exp(-c t / m)", function()
    local m, c = 4, 2
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01, damping = { linear = c } }
    local b = w:add_body { shape = impact.shape2d.ball { radius = 0.5 }, mass = m,
      velocity = { 3, -1 } }
    w:run { until_time = 3, every = 0.5, fn = function(ww)
      local f = math.exp(-c * ww.time / m)
      assert.near({ 3 * f, -f }, b.velocity, { rel = 1e-9, abs = 1e-14 })
      -- x(t) = v0 m / c (1 - exp(-c t / m))
      assert.near({ 3 * m / c * (1 - f), -m / c * (1 - f) }, b.position, { rel = 1e-9, abs = 1e-14 })
    end }
  end)

  it("angular damping c slows a spin as w0 exp(-c t / I)", function()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01, damping = { angular = 0.3 } }
    local b = w:add_body { shape = impact.shape2d.block { width = 2, height = 1 }, mass = 1.2,
      spin = 5 }
    local inertia = 1.2 * (4 + 1) / 12
    assert.near(inertia, b.inertia, 1e-15)
    w:run { until_time = 2 }
    assert.near(5 * math.exp(-0.3 * 2 / inertia), b.spin, { rel = 1e-9 })
  end)

  it("a body's own damping overrides the world's", function()
    local w = impact.world3d { gravity = { 0, 0, 0 }, dt = 0.01, damping = { linear = 10 } }
    local b = w:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1,
      velocity = { 1, 0, 0 }, damping = { linear = 0.5 } }
    w:run { until_time = 1 }
    assert.near(math.exp(-0.5), b.velocity[1], { rel = 1e-9 })
  end)
end)

describe("mutual gravitation", function()
  it("two bodies on a circular orbit return after 2 pi sqrt(a^3 / (G M))", function()
    local G, m1, m2, a = 1.0, 3.0, 1.0, 2.0
    local w = impact.world2d { gravity = { 0, 0 }, gravitation = { G = G }, dt = 0.01,
      integrator = { method = "rk8pd", rtol = 1e-12, atol = 1e-12 } }
    -- centre of mass at rest at the origin; relative speed sqrt(G M / a)
    local v = math.sqrt(G * (m1 + m2) / a)
    local b1 = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = m1,
      position = { -a * m2 / (m1 + m2), 0 }, velocity = { 0, -v * m2 / (m1 + m2) } }
    local b2 = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = m2,
      position = { a * m1 / (m1 + m2), 0 }, velocity = { 0, v * m1 / (m1 + m2) } }
    local e0 = w:energy()
    -- E = -G m1 m2 / (2 a) for a circular orbit
    assert.near(-G * m1 * m2 / (2 * a), e0.total, 1e-14)
    local period = 2 * math.pi * math.sqrt(a ^ 3 / (G * (m1 + m2)))
    local steps = math.floor(period / w.dt)
    w:run { steps = steps }
    w.dt = period - w.time  -- land exactly on one period
    w:step()
    assert.near(period, w.time, 1e-12)
    assert.near({ -a * m2 / (m1 + m2), 0 }, b1.position, 1e-8)
    assert.near({ a * m1 / (m1 + m2), 0 }, b2.position, 1e-8)
    assert.near(e0.total, w:energy().total, { rel = 1e-10 })
    assert.near({ 0, 0 }, w:momentum(), 1e-13)
  end)
end)
