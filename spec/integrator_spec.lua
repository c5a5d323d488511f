-- Integrators on a stiff problem, and what happens when a step fails.
local impact = require("impact")

-- An overdamped mass on a spring to the background: m x'' + c x' + k x = 0 with
-- c = 1e4, k = 1, m = 1: rates r = (-c +- sqrt(c^2 - 4 m k)) / (2 m), about -1e-4 and -1e4,
-- a stiffness ratio of 1e8. x(t) = A e^(r1 t) + B e^(r2 t) with x(0) = 1, x'(0) = 0.
local m, c, k = 1, 1e4, 1
local disc = math.sqrt(c * c - 4 * m * k)
local r1, r2 = (-c + disc) / (2 * m), (-c - disc) / (2 * m)
local A = -r2 / (r1 - r2)
local B = r1 / (r1 - r2)
local function exact(t) return A * math.exp(r1 * t) + B * math.exp(r2 * t) end

local function stiff_world(integrator, dt)
  local w = impact.world2d { gravity = { 0, 0 }, dt = dt, integrator = integrator }
  local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = m,
    position = { 1, 0 }, name = "stiff" }
  w:add_spring { body1 = b, point1 = { 0, 0 }, body2 = w.background, point2 = { 0, 0 },
    rest_length = 0, stiffness = k, damping = c }
  return w, b
end

describe("a stiff overdamped spring", function()
  it("msbdf follows the closed form with large steps", function()
    local w, b = stiff_world({ method = "msbdf", rtol = 1e-8, atol = 1e-10 }, 0.5)
    w:run { until_time = 20, every = 2, fn = function(ww)
      assert.near(exact(ww.time), b.position[1], { rel = 1e-6, abs = 1e-9 })
    end }
    -- an implicit method needs far fewer evaluations than the stability limit of an explicit
    -- one (h < 2.8 / 1e4 for RK4: at least 7e4 steps over 20 s)
    assert.is_true(w:stats().substeps < 5000)
  end)

  it("RK4 beyond its stability limit fails, names the body and keeps the last good state", function()
    local w, b = stiff_world("rk4", 0.01)
    local ok, err = pcall(w.run, w, { until_time = 5 })
    assert.is_false(ok)
    assert.matches("World:step: step %d+ from t = [%d.e+-]+ failed %(integrator rk4%): the state "
      .. "became non%-finite; the world keeps its state at t = ", err)
    assert.matches("bodies involved: 'stiff' %(#1%)", err)
    -- the world is usable and its state is the finite one before the failed step
    local x = b.position[1]
    assert.is_true(x == x and math.abs(x) < math.huge)
    assert.are.equal(1, w:stats().failures)
    local t = w.time
    assert.is_true(t > 0 and t < 5)
    assert.near(t, w.steps * 0.01, 1e-12)
  end)

  it("an adaptive method that needs too many steps fails cleanly", function()
    local w = stiff_world({ method = "rkf45", rtol = 1e-10, atol = 1e-12, max_substeps = 50 }, 1)
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("more than 50 internal steps", err)
    assert.near(0, w.time, 0)
  end)
end)

describe("switching integrators between runs", function()
  it("takes effect at the next step and keeps the state", function()
    local w, b = stiff_world({ method = "msbdf", rtol = 1e-8, atol = 1e-10 }, 0.5)
    w:run { until_time = 1 }
    w.integrator = { method = "rk8pd", rtol = 1e-10, atol = 1e-12 }
    assert.are.equal("rk8pd", w.integrator.method)
    w.dt = 0.01
    w:run { until_time = 1.2 }
    assert.near(exact(1.2), b.position[1], { rel = 1e-6 })
  end)
end)
