-- Torque-free rigid bodies in 3D against Euler's equations solved in closed form
-- (Landau & Lifshitz, Mechanics, section 37: the body-frame angular velocity is given by
-- Jacobi's elliptic functions; the component about the intermediate axis is the sn one).
local impact = require("impact")
local analytic = require("spec.support.analytic")

-- a box 1 x 2 x 3 of mass 1: I = diag(13, 10, 5) / 12; x is the major axis, y the
-- intermediate one, z the minor one
-- omega_body: the initial angular velocity in the body frame
local q0 = { math.cos(0.3), math.sin(0.3) * 0.6, 0, math.sin(0.3) * 0.8 }
local function tumbling_box(omega_body, method, rtol)
  local w = impact.world3d { gravity = { 0, 0, 0 }, dt = 0.01,
    integrator = { method = method or "rk8pd", rtol = rtol or 1e-12, atol = 1e-13 } }
  local b = w:add_body { shape = impact.shape3d.box { size = { 1, 2, 3 } }, mass = 1,
    orientation = q0, angular_velocity = analytic.rotate(q0, omega_body) }
  return w, b
end

describe("a torque-free asymmetric body over 100 turns", function()
  it("keeps its world-frame angular momentum and energy to 1e-9 over 100 turns (rk8pd)", function()
    local w, b = tumbling_box({ 3, 0.2, 0.1 })
    local l0, e0 = w:angular_momentum(), w:energy().total
    local turns = 100
    w:run { duration = turns * 2 * math.pi / 3, every = 1, fn = function(ww)
      assert.near(l0, ww:angular_momentum(), { rel = 1e-9, abs = 1e-9 * analytic.norm(l0) })
      assert.near(e0, ww:energy().total, { rel = 1e-9 })
    end }
    assert.near(1, analytic.norm(b.orientation), 1e-14)
  end)
end)

describe("a torque-free asymmetric body", function()
  it("flips about its intermediate axis with the period of the elliptic solution", function()
    local w, b = tumbling_box({ 0.2, 2, 0.15 })
    -- principal moments, ascending, and the invariants 2E and M^2 in the body frame
    local I1, I2, I3 = 5 / 12, 10 / 12, 13 / 12
    local wz, wy, wx = 0.15, 2, 0.2  -- body-frame components on the ascending axes
    local twoE = I1 * wz ^ 2 + I2 * wy ^ 2 + I3 * wx ^ 2
    local M2 = (I1 * wz) ^ 2 + (I2 * wy) ^ 2 + (I3 * wx) ^ 2
    local k2, rate
    if M2 > twoE * I2 then
      k2 = (I2 - I1) * (twoE * I3 - M2) / ((I3 - I2) * (M2 - twoE * I1))
      rate = math.sqrt((I3 - I2) * (M2 - twoE * I1) / (I1 * I2 * I3))
    else
      k2 = (I3 - I2) * (M2 - twoE * I1) / ((I2 - I1) * (twoE * I3 - M2))
      rate = math.sqrt((I2 - I1) * (twoE * I3 - M2) / (I1 * I2 * I3))
    end
    -- the intermediate component goes as sn(rate t): it changes sign every 2 K / rate
    local half_period = 2 * analytic.elliptic_k(math.sqrt(k2)) / rate
    local ts, ys, min_y = {}, {}, math.huge
    w:run { duration = 3.2 * half_period, every = 0, fn = function(ww)
      local wb = analytic.unrotate(b.orientation, b.angular_velocity)
      ts[#ts + 1] = ww.time
      ys[#ys + 1] = wb[2]
      min_y = math.min(min_y, wb[2])
    end }
    assert.is_true(min_y < -1.9, "the spin about the intermediate axis reverses")
    local z = analytic.zero_crossings(ts, ys)
    assert.is_true(#z >= 3)
    for i = 2, #z do
      assert.near(half_period, z[i] - z[i - 1], { rel = 1e-6 })
    end
  end)

  it("spins steadily about its major axis (stable)", function()
    local w, b = tumbling_box({ 3, 0.01, 0.01 })
    local min_x = math.huge
    w:run { duration = 20, every = 0.05, fn = function()
      min_x = math.min(min_x, analytic.unrotate(b.orientation, b.angular_velocity)[1])
    end }
    assert.is_true(min_x > 2.99)
  end)

  it("gives the same answer with rkf45, rkck and msbdf at their tolerance", function()
    local ref_w, ref_b = tumbling_box({ 0.2, 2, 0.15 })
    ref_w:run { duration = 3 }
    for _, method in ipairs { "rkf45", "rkck", "msbdf" } do
      local w, b = tumbling_box({ 0.2, 2, 0.15 }, method, 1e-10)
      w:run { duration = 3 }
      assert.near(ref_b.angular_velocity, b.angular_velocity, 1e-6)
      assert.near(ref_b.orientation, b.orientation, 1e-6)
    end
  end)
end)
