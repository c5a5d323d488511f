-- 3D joints under time_stepping = "ode" (src/engine3d/engine3d_joints_ode.c): the joints' rows
-- as constraint forces at each evaluation of the world's integrator (acceleration level, with
-- the rows' curvature and a critically damped drift correction). Every expectation is a closed
-- form or a conservation law: RK4 at dt = 0.01 leaves the period error far below 1e-3.
local impact = require("impact")
local s3 = impact.shape3d

local g = 9.81

local function world(strategy, opts)
  opts = opts or {}
  return impact.world3d { strategy = strategy or "contact", gravity = { 0, 0, -g }, dt = 0.01,
                          time_stepping = "ode", sleep = opts.sleep }
end

-- the mean period of x(t) from its upward zero crossings, located by linear interpolation
local period = require("spec.support.analytic").stepped_period

describe("3D joints under time_stepping = \"ode\"", function()
  local th0 = 0.1  -- amplitude; the period's first correction (1 + th0^2 / 16), the next 4e-7

  it("a pendulum's period is the physical pendulum's 2 pi sqrt(I_pivot / (m g d))", function()
    for _, strategy in ipairs { "contact", "impulse" } do
      local w = world(strategy)
      local m, r, L = 1, 0.05, 1
      local b = w:add_body { shape = s3.sphere { radius = r }, mass = m,
                             position = { L * math.sin(th0), 0, -L * math.cos(th0) } }
      local j = w:add_joint { kind = "ball", body1 = b, anchor = { 0, 0, 0 } }
      local T = period(w, function() return b.position[1] end, 5)
      local I = 2 / 5 * m * r ^ 2 + m * L ^ 2
      local expected = 2 * math.pi * math.sqrt(I / (m * g * L)) * (1 + th0 ^ 2 / 16)
      assert.near(expected, T, 1e-3 * expected, strategy)
      assert.is_true(w:connector_error(j) < 1e-6)
    end
  end)

  it("a hinge: the bar's period, and an off-axis torque does not turn it off its axis", function()
    local w = world("contact")
    local m, l, t = 2, 0.8, 0.05
    local c, s = math.cos(th0), math.sin(th0)
    local bar = w:add_body { shape = s3.box { size = { t, t, l } }, mass = m,
                             position = { l / 2 * s, 0, -l / 2 * c },
                             orientation = { math.cos(th0 / 2), 0, math.sin(th0 / 2), 0 } }
    local j = w:add_joint { kind = "hinge", body1 = bar, anchor = { 0, 0, 0 }, axis = { 0, 1, 0 } }
    local T = period(w, function() return bar.position[1] end, 4)
    local I = m * (l ^ 2 + t ^ 2) / 12 + m * (l / 2) ^ 2
    local expected = 2 * math.pi * math.sqrt(I / (m * g * l / 2)) * (1 + th0 ^ 2 / 16)
    assert.near(expected, T, 1e-3 * expected)
    for _ = 1, 20 do
      bar:apply_torque { 5, 0, 3 }  -- about x and z: the hinge's rows take it all
      w:step()
    end
    local lin, _, ang = w:connector_error(j)
    assert.is_true(lin < 1e-6 and ang < 1e-9, lin .. " " .. ang)
    assert.near(0, bar.angular_velocity[1], 1e-9)
    assert.near(0, bar.angular_velocity[3], 1e-9)
  end)

  it("a motor spins up at max_force / I, then holds its speed; a limit stops a slider", function()
    -- a 2 kg sphere (r = 0.5) on a hinge through its centre, no gravity: omega(t) =
    -- min(speed, tau t / I), I = 2/5 m r^2 = 0.2
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, 0 }, dt = 0.01, time_stepping = "ode" }
    local ball = w:add_body { shape = s3.sphere { radius = 0.5 }, mass = 2 }
    w:add_joint { kind = "hinge", body1 = ball, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                  motor = { speed = 3, max_force = 0.2 } }
    w:run { duration = 0.5 }
    assert.near(0.2 * 0.5 / 0.2, ball.angular_velocity[3], 1e-9)
    w:run { duration = 3 }
    assert.near(3, ball.angular_velocity[3], 1e-9)
    -- a box falling along a vertical slider stops at its lower limit: a force-level limit
    -- closes without an impulse, so it passes the limit by about its speed times dt / 2 at
    -- most, then is brought back onto it
    w = world("contact")
    local box = w:add_body { shape = s3.box { size = { 0.2, 0.2, 0.2 } }, mass = 1 }
    w:add_joint { kind = "slider", body1 = box, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 },
                  limits = { -0.5, 0.5 } }
    local lowest = 0
    for _ = 1, 200 do
      w:step()
      lowest = math.min(lowest, box.position[3])
    end
    assert.is_true(lowest > -0.5 - math.sqrt(2 * g * 0.5) * 0.01 / 2, tostring(lowest))
    assert.near(-0.5, box.position[3], 1e-6)
    assert.near(0, box.velocity[3], 1e-5)  -- (the row acts once the gap closes within dt)
  end)

  it("a double pendulum keeps its energy and its joints' drift stays bounded", function()
    -- two 1 kg bobs on 1 m links (ball joints), the first released horizontal: chaotic, yet
    -- the energy is conserved (RK4, no friction) and the joints hold over the run
    local w = world("contact")
    local a = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1, position = { 1, 0, 0 } }
    local b = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1, position = { 2, 0, 0 } }
    local j1 = w:add_joint { kind = "ball", body1 = a, anchor = { 0, 0, 0 } }
    local j2 = w:add_joint { kind = "ball", body1 = b, body2 = a, anchor = { 1, 0, 0 } }
    local e0 = w:energy().total
    local worst = 0
    for _ = 1, 300 do
      w:step()
      worst = math.max(worst, w:connector_error(j1), w:connector_error(j2))
    end
    assert.is_true(worst < 1e-3, tostring(worst))
    assert.near(e0, w:energy().total, 1e-2 * 2 * g)
  end)

  it("a chain hanging at rest sleeps under \"ode\" too, and a push wakes it", function()
    local w = world("contact", { sleep = true })
    local prev
    local links = {}
    for i = 1, 2 do
      local b = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1, position = { 0, 0, -0.5 * i } }
      w:add_joint { kind = "ball", body1 = b, body2 = prev, anchor = { 0, 0, -0.5 * i + 0.5 } }
      links[i], prev = b, b
    end
    w:run { duration = 0.7 }
    assert.is_false(links[2]:is_awake())
    local p = links[2].position
    w:run { duration = 0.3 }
    assert.are.same(p, links[2].position)
    links[2]:apply_impulse { 0.5, 0, 0 }
    w:run { duration = 0.2 }
    assert.is_true(links[1]:is_awake() and links[2]:is_awake())
    assert.is_true(links[2].position[1] > 0.05)
    assert.near(0.5, math.sqrt(links[1].position[1] ^ 2 + links[1].position[3] ^ 2), 1e-4)
  end)
end)
