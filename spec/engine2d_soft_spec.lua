-- The 2D engine's soft step (contact_solver = "soft"): contacts found once per step, solved in
-- sub-steps with soft rows and relax passes, then a restitution pass. Checked against closed
-- forms of the mechanics (Coulomb friction, free fall and restitution, the pendulum's period)
-- and invariants (contact forces carry the weight, stacks stand still).
local impact = require("impact")
local shape2d = impact.shape2d

local pendulum_period = require("spec.support.analytic").pendulum_period
local scenes2d = require("spec.support.scenes2d")

local g = 10


local function ground(w, opts)
  opts = opts or {}
  return w:add_body { shape = shape2d.block { width = opts.width or 40, height = 1 }, position = { 0, -0.5 },
                      fixed = true, friction = opts.friction, elasticity = opts.elasticity }
end

-- Every case under both precisions of the contact passes (soft.precision): "double", and
-- "float" (Box2D v3's arithmetic). Float's round-off shows only where a case asks for less
-- than it gives: a box at rest creeps by about 1e-9 m over 2 s (its rows' impulses, m g h / 2
-- = 0.04 N s, carry 4e-9 of round-off each sub-step) and its forces sum to m g within 3e-8
-- (float's epsilon), so that case allows 1e-8 m and 1e-6 there.
for _, precision in ipairs({ "double", "float" }) do
local function soft_world(opts)
  opts = opts or {}
  local soft = { precision = precision }
  for k, v in pairs(opts.soft or {}) do
    soft[k] = v
  end
  return impact.world2d { strategy = opts.strategy or "contact", dt = opts.dt or 1 / 60,
                          gravity = { 0, -g }, contact_solver = "soft", soft = soft,
                          substeps = opts.substeps }
end
local creep_tol = precision == "float" and 1e-8 or 1e-9
local force_rel = precision == "float" and 1e-6 or 1e-9  -- (float's epsilon: 6e-8)

describe("engine2d soft step (precision " .. precision .. ")", function()
  it("a box at rest: a steady overlap below the slop, no creep, forces summing to m g", function()
    local w = soft_world()
    ground(w, { friction = 0.6 })
    local m = 2
    local blk = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = m,
                             position = { 0.3, 0.5 }, friction = 0.6, elasticity = 0 }
    w:run { duration = 2 }
    local p1 = blk.position
    w:run { duration = 2 }
    local p2 = blk.position
    local overlap = 0.5 - p2[2]
    -- the soft spring's static deflection under the box's weight, of the order of
    -- g / (2 pi f)^2 with f twice hertz against a fixed body: 0.07 mm
    local slop = 0.005  -- distance_tol / 2
    local x = g / (2 * math.pi * 2 * 30) ^ 2
    assert.is_true(overlap > 0.5 * x and overlap < 2 * x and overlap < slop, "overlap " .. overlap)
    assert.near(p1[1], p2[1], creep_tol)  -- no creep
    assert.near(p1[2], p2[2], creep_tol)
    assert.near(0, blk.angle, creep_tol)
    local total, n = 0, 0
    for _, c in ipairs(w:contacts()) do
      total = total + c.force
      n = n + 1
    end
    assert.equal(2, n)
    assert.near(m * g, total, { rel = force_rel })
    assert.equal(0, w:stats().collisions)
  end)

  it("sliding decelerates at mu g within 1 %", function()
    local mu = 0.5
    local w = soft_world()
    ground(w, { width = 100, friction = mu })
    local blk = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, position = { 0, 0.5 },
                             friction = mu, elasticity = 0, velocity = { 5, 0 } }
    w:run { duration = 0.2 }
    local v0, t0 = blk.velocity[1], w.time
    w:run { duration = 0.5 }
    local a = (v0 - blk.velocity[1]) / (w.time - t0)
    assert.near(mu * g, a, 0.01 * mu * g)
  end)

  for _, case in ipairs({ { deg = 20, slides = false }, { deg = 35, slides = true } }) do
    it(string.format("a block on a %d degree slope with mu = 0.5 %s", case.deg,
      case.slides and "slides with a = g (sin - mu cos) within 1 %" or "sticks (tan < mu)"), function()
      local th, mu = math.rad(case.deg), 0.5
      local w = soft_world()
      local blk = scenes2d.block_on_slope(w, case.deg, mu)
      w:run { duration = case.slides and 0.2 or 2 }  -- (sticking: settled onto its contact)
      local p0, v0, t0 = blk.position, blk.velocity, w.time
      w:run { duration = case.slides and 0.8 or 1 }
      local p, v = blk.position, blk.velocity
      local dt = w.time - t0
      if case.slides then
        local a = g * (math.sin(th) - mu * math.cos(th))
        local dv = math.sqrt(v[1] ^ 2 + v[2] ^ 2) - math.sqrt(v0[1] ^ 2 + v0[2] ^ 2)
        assert.near(a, dv / dt, 0.01 * a)
      else
        assert.is_true(math.abs(p[1] - p0[1]) + math.abs(p[2] - p0[2]) < 1e-6, "the block crept")
        assert.near(0, v[1], 1e-6)
      end
    end)
  end

  for _, base in ipairs({ 10, 20 }) do
    it(string.format("the %d-box pyramid stands: every box within a few cm over 5 s",
      base * (base + 1) // 2), function()
      local w = soft_world()
      scenes2d.ground(w, 100)
      local boxes, start = scenes2d.pyramid(w, base)
      w:run { duration = 5 }
      local worst = 0
      for i, b in ipairs(boxes) do
        local p = b.position
        worst = math.max(worst, math.sqrt((p[1] - start[i][1]) ^ 2 + (p[2] - start[i][2]) ^ 2))
        assert.is_true(math.abs(b.angle) < 0.01)
      end
      assert.is_true(worst < 0.04, "a box moved by " .. worst)
      local e = w:energy()
      assert.is_true(e.kinetic + e.rotational < 1e-6)
    end)
  end

  -- A soft contact rests at an overlap and pushes an overlap out: an overlapping pair moving
  -- apart is a contact at work, whatever velocity_tol says (the rigid solvers drop such a
  -- pair as separating: engine2d_robust_spec.lua).
  it("a pyramid stands with a small velocity_tol (0.01 and 0.001)", function()
    for _, vtol in ipairs({ 0.01, 0.001 }) do
      local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -g },
                                 contact_solver = "soft", velocity_tol = vtol,
                                 soft = { precision = precision } }
      scenes2d.ground(w, 100)
      local boxes, start = scenes2d.pyramid(w, 14)
      w:run { duration = 4 }
      local worst = 0
      for i, b in ipairs(boxes) do
        local p = b.position
        worst = math.max(worst, math.sqrt((p[1] - start[i][1]) ^ 2 + (p[2] - start[i][2]) ^ 2))
      end
      assert.is_true(worst < 0.04, "velocity_tol " .. vtol .. ": a box moved by " .. worst)
    end
  end)

  it("a box 2 cm deep in the ground and rising at 1 m/s flies freely (no impulse)", function()
    local w = soft_world { dt = 0.01, substeps = 4 }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 }, fixed = true }
    local y0, v0, t = 0.5 - 0.02, 1, 0.1
    local box = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                             position = { 0.3, y0 }, velocity = { 0, v0 } }
    w:run { duration = t }
    -- sub-stepped semi-implicit Euler under uniform acceleration: v0 t - g t (t + h) / 2,
    -- h the sub-step
    local h = 0.01 / 4
    assert.near(y0 + v0 * t - g * t * (t + h) / 2, box.position[2], 1e-12)
    assert.near(v0 - g * t, box.velocity[2], 1e-12)
    assert.near(0.3, box.position[1], 1e-12)
  end)

  it("a ball dropped from h bounces to e^2 h within a few %", function()
    local e, h0, r = 0.8, 1, 0.1
    local w = soft_world()
    ground(w, { elasticity = 1 })
    local ball = w:add_body { shape = shape2d.ball { radius = r }, mass = 1, position = { 0, h0 + r },
                              elasticity = e }
    local hits = 0
    w:on("collision", function() hits = hits + 1 end)
    local top, rebounded = -math.huge, false
    for _ = 1, 120 do
      w:step()
      local vy = ball.velocity[2]
      if vy > 0 then rebounded = true end
      if rebounded then top = math.max(top, ball.position[2] - r) end
      if rebounded and vy < 0 then break end
    end
    assert.near(e * e * h0, top, 0.05 * e * e * h0)
    assert.equal(1, hits)
  end)

  it("a pendulum on a soft pin joint keeps its period within 1 %", function()
    local th0 = 0.5
    local w = soft_world({ dt = 1 / 120 })
    local bar = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                             position = { math.sin(th0), -math.cos(th0) }, angle = th0 }
    local j = w:add_joint { body1 = bar, point1 = { 0, 1 }, point2 = { 0, 0 } }
    local crossings, prev = {}, bar.angle
    while #crossings < 4 do
      w:step()
      local a = bar.angle
      if prev > 0 and a <= 0 then crossings[#crossings + 1] = w.time - w.dt * a / (a - prev) end
      prev = a
    end
    local I = (0.2 ^ 2 + 2 ^ 2) / 12 + 1 -- about the pin (Steiner)
    local T = pendulum_period(I, 1, g, 1, th0)
    assert.near(T, (crossings[4] - crossings[1]) / 3, 0.01 * T)
    assert.is_true(w:connector_error(j) < 1e-2)
  end)

  for _, rod in ipairs({ false, true }) do
    it(string.format("a block swinging on a %s keeps it within a few mm of its length",
      rod and "rod" or "rope"), function()
        local w = soft_world()
        local blk = w:add_body { shape = shape2d.block { width = 0.4, height = 0.4 }, mass = 2,
                                 position = { 0.3, -1.2 }, elasticity = 0 }
        local c = w:add_rope { body1 = blk, point1 = { 0, 0.2 }, body2 = w.background, point2 = { 0, 0 },
                               length = 1.5, rod = rod }
        local worst = 0  -- (it starts 0.46 m short of its length: caught, or pushed out, first)
        for i = 1, 240 do
          w:step()
          if i > 60 then worst = math.max(worst, math.abs((w:connector_error(c)))) end
        end
        -- soft rows of joint_hertz 60 (capped at a quarter of the 240 Hz sub-step rate)
        assert.is_true(worst < 5e-3, "connector error " .. worst)
        assert.is_true(blk.position[2] < -1.2, "the block fell off")
      end)
  end

  it("the contacts cached while nothing moves follow edits and new arrivals", function()
    local w = soft_world()
    ground(w, { friction = 0.5 })
    local a = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, position = { 0, 0.5 },
                           friction = 0.5, elasticity = 0 }
    w:run { duration = 1 }  -- at rest: the step reuses its contacts
    local rest = a.position[2]
    a.position = { 2, 1.5 }  -- an edit: detected again, it falls and lands at the same height
    w:run { duration = 1.5 }
    assert.near(2, a.position[1], 1e-3)
    assert.near(rest, a.position[2], 1e-6)
    -- a box dropped onto the resting one comes to rest on it
    local b = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, position = { 2, 1.55 },
                           friction = 0.5, elasticity = 0 }
    w:run { duration = 2 }
    assert.near(2, b.position[1], 1e-3)
    assert.is_true(math.abs(b.position[2] - 1.5) < 0.005, "top box at " .. b.position[2])
    local load = 0
    for _, c in ipairs(w:contacts()) do load = load + c.force end
    assert.near(3 * g, load, { rel = 1e-6 })  -- the ground carries both boxes, the lower box one
  end)

  -- The contact cache reuses a step's contacts until a body's points moved a fifth of
  -- distance_tol (0.01 m) since its last detection (|dx| + |dy| + r |da|, r its bounding
  -- radius), so a pair farther apart than distance_tol when detected cannot meet unseen: a
  -- body driven into another, slowly or by a long lever, touches it without overlapping by more
  -- than the soft contact's slop (distance_tol / 2).
  it("bodies creeping into each other meet: a slow pusher, a long turning bar", function()
    local slop = 0.005
    -- a kinematic pusher at 0.1 m/s drives two boxes across frictionless ground
    local w = soft_world()
    ground(w, { width = 100, friction = 0 })
    local pusher = w:add_body { shape = shape2d.block { width = 1, height = 1 }, kinematic = true,
                                position = { -1.02, 0.5 }, velocity = { 0.1, 0 }, friction = 0 }
    local boxes = {}
    for i = 1, 2 do
      boxes[i] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, friction = 0,
                              position = { 0.05 + 1.03 * (i - 1), 0.5 }, elasticity = 0 }
    end
    local worst = -math.huge
    for _ = 1, 180 do
      w:step()
      local left = pusher.position[1]
      for i = 1, 2 do  -- the overlap of each box with the body behind it (no turning: mu = 0)
        worst = math.max(worst, left + 1 - boxes[i].position[1])
        left = boxes[i].position[1]
      end
    end
    assert.is_true(worst < slop, "pushed overlap " .. worst)
    assert.is_true(boxes[2].velocity[1] > 0.09, "the second box was not reached")
    -- a kinematic bar of 400 m turning at 1.5 mrad/s lifts a box near its tip (0.3 m/s there),
    -- no gravity
    local R, hb, omega = 200, 0.1, 1.5e-3
    w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, 0 }, contact_solver = "soft",
                         soft = { precision = precision } }
    w:add_body { shape = shape2d.block { width = 2 * R, height = 2 * hb }, kinematic = true,
                 position = { 0, 0 }, spin = omega }
    local box = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, elasticity = 0,
                             position = { R - 1.5, hb + 0.55 }, friction = 0.5 }
    worst = -math.huge
    for _ = 1, 240 do
      w:step()
      local c, s = math.cos(omega * w.time), math.sin(omega * w.time)
      local bc, bs = math.cos(box.angle), math.sin(box.angle)
      for _, sx in ipairs { -0.5, 0.5 } do  -- the box's lower corners in the bar's frame
        local x = box.position[1] + bc * sx + bs * 0.5
        local y = box.position[2] + bs * sx - bc * 0.5
        worst = math.max(worst, hb - (-s * x + c * y))
      end
    end
    assert.is_true(worst < slop, "lifted overlap " .. worst)
    assert.is_true(box.velocity[2] > 0.25, "the box was not lifted")
  end)

  it("works with kinematic bodies, filters, events and the stats", function()
    local w = soft_world({ strategy = "impulse" })
    ground(w, { friction = 0.5 })
    local begins = 0
    w:on("contact_begin", function() begins = begins + 1 end)
    -- a kinematic platform carries a box along with friction
    local platform = w:add_body { shape = shape2d.block { width = 4, height = 0.2 }, kinematic = true,
                                  position = { 0, 1 }, velocity = { 1, 0 }, friction = 0.5 }
    local box = w:add_body { shape = shape2d.block { width = 0.5, height = 0.5 }, mass = 1,
                             position = { 0, 1.35 }, friction = 0.5, elasticity = 0 }
    -- a box whose mask leaves out the ground's category falls through it
    local ghost = w:add_body { shape = shape2d.block { width = 0.5, height = 0.5 }, mass = 1,
                               position = { 5, 0.3 }, filter = { category = 2, mask = 2 } }
    w:run { duration = 1 }
    assert.near(1, platform.position[1], 1e-9)
    assert.near(1, box.velocity[1], 1e-3)
    assert.is_true(ghost.position[2] < -1)
    assert.is_true(begins >= 1)
    local s = w:stats()
    assert.is_true(s.ode_steps == 60 and s.max_contact_rows >= 2)
  end)
end)
end

describe("engine2d soft step's precision option", function()
  it("takes \"double\" or \"float\", names the option otherwise, and is refused in 3D", function()
    local ok, err = pcall(impact.world2d, { contact_solver = "soft", soft = { precision = "half" } })
    assert.is_false(ok)
    assert.matches("soft.precision", err, 1, true)
    assert.matches("half", err, 1, true)
    assert.matches('"float"', err, 1, true)
    ok, err = pcall(impact.world3d, { contact_solver = "soft", soft = { precision = "float" } })
    assert.is_false(ok)
    assert.matches("soft.precision", err, 1, true)
  end)
end)
