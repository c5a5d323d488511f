-- Sleeping (src/core/islands.c, src/engine3d/engine3d_sleep.c, src/engine2d/engine2d_sleep.c):
-- islands of touching or joined bodies whose speeds stay under sleep_linear and sleep_angular
-- for sleep_time fall asleep (not integrated: their poses do not change, bit for bit), and wake
-- on an awake body's contact or approach, an applied force or impulse, an edit of their state,
-- or a new joint. Each
-- expectation follows from the rule itself or from the mechanics (momentum, the contact's
-- distance tolerance, a pendulum's speed).
local impact = require("impact")
local files = require("spec.support.files")
local s3 = impact.shape3d

local g = 9.81
local dt = 1 / 100

local function world(opts)
  opts = opts or {}
  local o = { strategy = opts.strategy or "contact", gravity = opts.gravity or { 0, 0, -g }, dt = dt,
              contact_solver = opts.solver, sleep = opts.sleep, sleep_time = opts.sleep_time }
  if opts.sleep == nil then o.sleep = true end
  return impact.world3d(o)
end

local function ground(w, friction)
  return w:add_body { shape = s3.box { size = { 40, 40, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                      friction = friction or 0.5, elasticity = 0 }
end

local function box(w, x, z, opts)
  opts = opts or {}
  return w:add_body { shape = s3.box { size = { 1, 1, 1 } }, mass = opts.mass or 1, position = { x, 0, z },
                      friction = opts.friction or 0.5, elasticity = 0, sleep = opts.sleep }
end

local function pose(b)
  local p, q = b.position, b.orientation
  return { p[1], p[2], p[3], q[1], q[2], q[3], q[4] }
end

local function same(a, b)
  for i = 1, #a do
    if a[i] ~= b[i] then return false end
  end
  return true
end

-- steps until b sleeps (at most n steps); the number of steps taken
local function until_asleep(w, b, n)
  for i = 1, n do
    w:step()
    if not b:is_awake() then return i end
  end
  return nil
end

describe("sleeping", function()
  it("a box resting on the ground falls asleep after sleep_time (and a step), its pose then fixed", function()
    for _, solver in ipairs { "lcp", "pgs" } do
      local w = world { solver = solver }
      ground(w)
      local b = box(w, 0, 0.5)
      -- at rest from the start: its rest time grows by dt each step and reaches 0.5 s at the
      -- 50th step (51st with the sum's rounding)
      local n = until_asleep(w, b, 200)
      assert.is_truthy(n, solver)
      assert.is_true(n * dt >= 0.5 - 1e-12 and n * dt <= 0.5 + dt + 1e-12, solver .. " " .. tostring(n))
      local st = w:stats()
      assert.are.equal(1, st.sleeping)
      assert.are.equal(1, st.islands)
      assert.are.same({ 0, 0, 0 }, b.velocity)
      local p = pose(b)
      w:run { duration = 2 }
      assert.is_false(b:is_awake())
      assert.is_true(same(p, pose(b)), solver)
      assert.are.same({ 0, 0, 0 }, b.velocity)
    end
  end)

  it("is off by default, and on or off changes nothing until a body sleeps (bit for bit)", function()
    local function run(sleep, duration)
      local w = world { sleep = sleep, solver = "pgs" }
      ground(w)
      local a = box(w, 0, 0.7)
      local b = w:add_body { shape = s3.sphere { radius = 0.4 }, mass = 2, position = { 0.2, 0, 2 },
                             velocity = { 0.5, 0, 0 }, friction = 0.5, elasticity = 0.3 }
      w:run { duration = duration }
      return w, pose(a), pose(b)
    end
    local w0, a0, b0 = run(nil, 0.4)
    local _, a1, b1 = run(false, 0.4)
    local w2, a2, b2 = run(true, 0.4)
    assert.is_true(same(a0, a1) and same(b0, b1))
    assert.is_true(same(a0, a2) and same(b0, b2))
    assert.are.equal(0, w0:stats().sleeping)
    assert.are.equal(0, w2:stats().sleeping)
    -- impact.world3d without the option never sleeps
    local w = impact.world3d { strategy = "contact", dt = dt }
    ground(w)
    local c = box(w, 0, 0.5)
    w:run { duration = 2 }
    assert.is_true(c:is_awake())
    assert.are.equal(0, w:stats().sleeping)
  end)

  it("a ball sliding into a sleeping box wakes it and passes on its momentum", function()
    -- frictionless ground, plastic impact: the horizontal momentum m v0 is shared, none lost
    local w = world { solver = "lcp" }
    ground(w, 0)
    local b = box(w, 0, 0.5, { friction = 0 })
    assert.is_truthy(until_asleep(w, b, 100))
    local m, v0 = 0.5, 2
    local ball = w:add_body { shape = s3.sphere { radius = 0.25 }, mass = m, position = { -3, 0, 0.25 },
                              velocity = { v0, 0, 0 }, friction = 0, elasticity = 0 }
    local woke
    for _ = 1, 200 do
      w:step()
      if b:is_awake() then woke = true break end
    end
    assert.is_true(woke)
    w:run { duration = 0.5 }
    local p = m * ball.velocity[1] + 1 * b.velocity[1]
    assert.near(m * v0, p, 1e-9 * m * v0)
    assert.is_true(b.velocity[1] > 0.1)
    assert.is_true(b.position[1] > 0)
  end)

  it("a ball dropped on a sleeping stack wakes the whole island, which holds it", function()
    local w = world { solver = "pgs" }
    ground(w)
    local stack = { box(w, 0, 0.5), box(w, 0, 1.5), box(w, 0, 2.5) }
    assert.is_truthy(until_asleep(w, stack[1], 300))
    for _, b in ipairs(stack) do assert.is_false(b:is_awake()) end
    assert.are.equal(3, w:stats().sleeping)
    assert.are.equal(1, w:stats().islands)
    local r = 0.3
    local ball = w:add_body { shape = s3.sphere { radius = r }, mass = 1, position = { 0, 0, 4.5 },
                              friction = 0.5, elasticity = 0 }
    local woke = false
    for _ = 1, 100 do
      w:step()
      if stack[1]:is_awake() then woke = true break end
    end
    assert.is_true(woke)
    for _, b in ipairs(stack) do assert.is_true(b:is_awake()) end  -- the island, not one body
    w:run { duration = 2 }
    -- no penetration beyond the distance tolerance (0.01 m): the ball's centre above the top
    -- face (z = 3) by its radius less the tolerance
    local tol = 0.01
    assert.is_true(ball.position[3] >= 3 + r - tol, tostring(ball.position[3]))
    assert.is_true(stack[3].position[3] >= 2.5 - 3 * tol)
  end)

  it("a body landing on a sleeping body is held at contact: no penetration beyond distance_tol", function()
    local w = world { solver = "lcp" }
    ground(w)
    local b = box(w, 0, 0.5)
    assert.is_truthy(until_asleep(w, b, 100))
    local top = box(w, 0.2, 3)
    w:run { duration = 2 }
    assert.is_true(top.position[3] >= 1.5 - 0.01, tostring(top.position[3]))
    assert.is_true(b.position[3] >= 0.5 - 0.01)
  end)

  it("an applied force, an impulse or a set velocity wakes a sleeping body", function()
    -- on frictionless ground the force F over a step dt gives v = F dt / m exactly
    local function asleep_box()
      local w = world { solver = "lcp" }
      ground(w, 0)
      local b = box(w, 0, 0.5, { friction = 0, mass = 2 })
      assert.is_truthy(until_asleep(w, b, 100))
      return w, b
    end
    local w, b = asleep_box()
    b:apply_force { 4, 0, 0 }
    w:step()
    assert.is_true(b:is_awake())
    assert.near(4 * dt / 2, b.velocity[1], 1e-12)
    w, b = asleep_box()
    b:apply_impulse { 1, 0, 0 }
    w:step()
    assert.is_true(b:is_awake())
    assert.near(0.5, b.velocity[1], 1e-12)
    w, b = asleep_box()
    b.velocity = { 0, 0.3, 0 }
    local y0 = b.position[2]
    w:step()
    assert.is_true(b:is_awake())
    assert.near(y0 + 0.3 * dt, b.position[2], 1e-12)
    local _, c = asleep_box()
    c:wake()
    assert.is_true(c:is_awake())
    w, b = asleep_box()
    b.position = { 1, 0, 0.5 }
    w:step()
    assert.is_true(b:is_awake())
  end)

  it("b:sleep() puts a moving body's island to sleep at the step's end, unless sleep = false", function()
    local w = world { solver = "pgs" }
    ground(w, 0)
    local a = box(w, 0, 0.5, { friction = 0 })
    local b = box(w, 5, 0.5, { friction = 0, sleep = false })
    a.velocity = { 1, 0, 0 }
    b.velocity = { 1, 0, 0 }
    w:step()
    a:sleep()
    b:sleep()
    local x = a.position[1]
    w:step()  -- frictionless: it slides dt at 1 m/s, then sleeps
    assert.near(x + dt, a.position[1], 1e-12)
    assert.is_false(a:is_awake())
    assert.are.same({ 0, 0, 0 }, a.velocity)
    assert.is_true(b:is_awake())
    assert.near(1, b.velocity[1], 1e-12)
    x = a.position[1]
    w:run { duration = 1 }
    assert.are.equal(x, a.position[1])
    local still = impact.world3d { strategy = "contact" }
    local c = still:add_body { shape = s3.sphere { radius = 1 }, mass = 1 }
    local ok, err = pcall(c.sleep, c)
    assert.is_false(ok)
    assert.matches("does not sleep", err, 1, true)
  end)

  it("a hanging joint chain at rest sleeps, and a motor joined to it wakes it", function()
    local w = world { solver = "pgs", sleep_time = 0.3 }
    local links, prev = {}, nil
    for i = 1, 3 do
      local b = w:add_body { shape = s3.sphere { radius = 0.1 }, mass = 1, position = { 0, 0, -0.5 * i } }
      w:add_joint { kind = "ball", body1 = b, body2 = prev, anchor = { 0, 0, -0.5 * i + 0.5 } }
      links[i], prev = b, b
    end
    assert.is_truthy(until_asleep(w, links[3], 200))
    for _, b in ipairs(links) do assert.is_false(b:is_awake()) end
    local p = pose(links[3])
    w:run { duration = 1 }
    assert.is_true(same(p, pose(links[3])))
    -- a wheel on a motorised hinge at the last link: the joint wakes the chain
    local wheel = w:add_body { shape = s3.sphere { radius = 0.2 }, mass = 0.5,
                               position = { 0, 0, -1.7 } }
    w:add_joint { kind = "hinge", body1 = wheel, body2 = links[3], anchor = { 0, 0, -1.7 },
                  axis = { 0, 0, 1 }, motor = { speed = 2, max_force = 10 } }
    w:step()
    for _, b in ipairs(links) do assert.is_true(b:is_awake()) end
    w:run { duration = 1 }
    -- the motor holds w_wheel - w_link = 2 about z; the ball joints pass no torque about z, so
    -- I_wheel w_wheel + I_link w_link = 0 (2/5 m r^2: 0.008 and 0.004): w_wheel = 2/3, w_link = -4/3
    assert.is_true(wheel:is_awake())
    assert.near(2 / 3, wheel.angular_velocity[3], 1e-6)
    assert.near(-4 / 3, links[3].angular_velocity[3], 1e-6)
  end)

  it("a swinging pendulum never sleeps: its speed exceeds the threshold within every half period", function()
    -- released at 30 degrees, L = 1: the bottom speed sqrt(2 g L (1 - cos 30)) = 1.62 m/s; its
    -- speed is under 0.05 m/s only near the turning points, for far less than sleep_time
    local w = world { solver = "pgs" }
    local L, th = 1, math.rad(30)
    local b = w:add_body { shape = s3.sphere { radius = 0.05 }, mass = 1,
                           position = { L * math.sin(th), 0, -L * math.cos(th) } }
    w:add_joint { kind = "ball", body1 = b, anchor = { 0, 0, 0 } }
    local fastest = 0
    for _ = 1, 500 do
      w:step()
      assert.is_true(b:is_awake())
      local v = b.velocity
      fastest = math.max(fastest, math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2))
    end
    assert.near(math.sqrt(2 * g * L * (1 - math.cos(th))), fastest, 0.05)
    assert.are.equal(0, w:stats().sleeping)
  end)

  it("a body with sleep = false keeps its island awake; other islands sleep", function()
    local w = world { solver = "pgs" }
    ground(w)
    local low = box(w, 0, 0.5)
    local high = box(w, 0, 1.5, { sleep = false })
    local alone = box(w, 5, 0.5)
    assert.is_false(high.sleep_enabled)
    assert.is_true(low.sleep_enabled)
    w:run { duration = 2 }
    assert.is_false(alone:is_awake())
    assert.is_true(low:is_awake())
    assert.is_true(high:is_awake())
    local st = w:stats()
    assert.are.equal(1, st.sleeping)
    assert.are.equal(2, st.islands)  -- the ground joins none: the stack and the lone box
  end)

  it("delivers sleep and wake events, one per body, in worlds that sleep", function()
    local w = world { solver = "pgs" }
    ground(w)
    local a, b = box(w, 0, 0.5), box(w, 3, 0.5)
    local slept, woke = {}, {}
    w:on("sleep", function(e) slept[#slept + 1] = e end)
    w:on("wake", function(e) woke[#woke + 1] = e end)
    assert.is_truthy(until_asleep(w, a, 100))
    assert.are.equal(2, #slept)
    for _, e in ipairs(slept) do
      assert.are.equal("sleep", e.kind)
      assert.near(w.time, e.time, 1e-12)
      assert.are.equal(w.background, e.body2)
    end
    assert.is_true(slept[1].body1 == a and slept[2].body1 == b)
    assert.are.same(a.position, slept[1].point)
    b:wake()
    w:step()
    assert.are.equal(1, #woke)
    assert.are.equal(b, woke[1].body1)
    assert.are.equal("wake", woke[1].kind)
    -- a world that does not sleep has no such events
    local still = impact.world3d { strategy = "contact" }
    local ok, err = pcall(still.on, still, "sleep", print)
    assert.is_false(ok)
    assert.matches("accepted: collision, contact_begin, contact_end, step)", err, 1, true)
    assert.is_true(w.sleep)
    assert.is_false(still.sleep)
  end)

  it("removing a body of a sleeping island wakes the rest of it", function()
    local w = world { solver = "pgs" }
    ground(w)
    local low, high = box(w, 0, 0.5), box(w, 0, 1.5)
    assert.is_truthy(until_asleep(w, high, 200))
    w:remove_body(low)
    w:step()
    assert.is_true(high:is_awake())
    w:run { duration = 0.2 }
    assert.is_true(high.position[3] < 1.5 - 0.1)  -- it falls: g t^2 / 2 = 0.2 m by t = 0.2 s
  end)

  it("is refused, with the reason, where the strategy cannot honour it", function()
    local cases = {
      { impact.world2d, { strategy = "compliant", sleep = true } },
      { impact.world3d, { strategy = "compliant", sleep = true } },
      { impact.world3d, { strategy = "dem", sleep = true } },
      { impact.world3d, { strategy = "none", sleep = true } },
      { impact.world2d, { strategy = "contact", contact_solver = "soft", sleep = true } },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1], c[2])
      assert.is_false(ok)
      assert.matches("option 'sleep'", err, 1, true)
    end
    local ok, err = pcall(impact.world3d, { strategy = "contact", sleep = true, sleep_time = -1 })
    assert.is_false(ok)
    assert.matches("sleep_time", err, 1, true)
    -- nor can a sleeping world switch to such a strategy; between impulse and contact it may
    local w = world {}
    ok, err = pcall(function() w.strategy = "compliant" end)
    assert.is_false(ok)
    assert.matches("sleep = true", err, 1, true)
    w.strategy = "impulse"
    -- sleep = false is accepted everywhere
    assert.is_truthy(impact.world3d { strategy = "compliant", sleep = false })
  end)
  it("is kept by World:save and impact.load: asleep after the load, the same run after", function()
    local function state(w)
      local out = { string.format("%a", w.time) }
      for _, b in ipairs(w:bodies()) do
        for _, k in ipairs { "position", "orientation", "velocity", "angular_velocity" } do
          for _, v in ipairs(b[k]) do out[#out + 1] = string.format("%a", v) end
        end
        out[#out + 1] = tostring(b:is_awake())
      end
      local st = w:stats()
      out[#out + 1] = st.sleeping .. "/" .. st.islands
      return table.concat(out, " ")
    end
    local w = world()
    ground(w)
    box(w, 0, 0.5)
    box(w, 0, 1.5, { sleep = true })
    w:step(80)
    assert.are.equal(2, w:stats().sleeping)
    local w2 = files.reloaded(w)
    assert.are.equal(state(w), state(w2))
    -- a ball dropped on the sleeping stack wakes it in both, the same way
    for _, x in ipairs { w, w2 } do
      x:add_body { shape = s3.sphere { radius = 0.3 }, mass = 1, position = { 0, 0, 3 },
                   elasticity = 0, friction = 0.5 }
      x:step(150)
    end
    assert.are.equal(state(w), state(w2))
  end)
end)

-- 2D worlds (engine2d_sleep.c) under both time steppings, and 3D worlds under "ode"
-- (engine3d_ode.c): a sleeping body is held (its derivative 0) and its pairs with sleeping or
-- fixed bodies are not detected.
local s2 = impact.shape2d
local steppings = { "symplectic_euler", "ode" }

local function world2d(ts, opts)
  opts = opts or {}
  local o = { strategy = opts.strategy or "contact", gravity = { 0, -g }, dt = dt, time_stepping = ts,
              sleep = opts.sleep, sleep_time = opts.sleep_time,
              joint_small_impacts = opts.strategy == "impulse" or nil }
  if opts.sleep == nil then o.sleep = true end
  return impact.world2d(o)
end

local function ground2d(w, friction)
  return w:add_body { shape = s2.block { width = 40, height = 1 }, fixed = true, position = { 0, -0.5 },
                      friction = friction or 0.5, elasticity = 0 }
end

-- a unit block resting at the half gap (distance_tol / 2 = 0.005) above y0
local function block2d(w, x, y0, opts)
  opts = opts or {}
  return w:add_body { shape = s2.block { width = 1, height = 1 }, mass = opts.mass or 1,
                      position = { x, y0 + 0.505 }, friction = opts.friction or 0.5, elasticity = 0,
                      sleep = opts.sleep }
end

local function pose2d(b) return { b.position[1], b.position[2], b.angle } end

describe("sleeping in 2D worlds", function()
  for _, ts in ipairs(steppings) do
    it("a block on the ground falls asleep after sleep_time, its pose then fixed bit for bit (" .. ts .. ")",
      function()
        local w = world2d(ts)
        ground2d(w)
        local b = block2d(w, 0, 0)
        local n = until_asleep(w, b, 200)
        assert.is_truthy(n)
        assert.is_true(n * dt >= 0.5 - 1e-12 and n * dt <= 0.5 + dt + 1e-12, tostring(n))
        local st = w:stats()
        assert.are.equal(1, st.sleeping)
        assert.are.equal(1, st.islands)
        assert.are.same({ 0, 0 }, b.velocity)
        local p, ends = pose2d(b), 0
        w:on("contact_end", function() ends = ends + 1 end)
        w:run { duration = 1 }
        assert.is_false(b:is_awake())
        assert.is_true(same(p, pose2d(b)))
        assert.are.equal(0, ends)  -- its contact with the ground holds while it sleeps
      end)

    it("a ball dropped on a sleeping stack wakes the island and momentum passes (" .. ts .. ")", function()
      local w = world2d(ts)
      ground2d(w)
      local stack = { block2d(w, 0, 0), block2d(w, 0, 1.01) }
      assert.is_truthy(until_asleep(w, stack[1], 300))
      assert.are.equal(2, w:stats().sleeping)
      assert.are.equal(1, w:stats().islands)
      local r = 0.25
      local ball = w:add_body { shape = s2.ball { radius = r }, mass = 1, position = { 0, 3.5 },
                                elasticity = 0 }
      local woke = false
      for _ = 1, 100 do
        w:step()
        if stack[1]:is_awake() then woke = true break end
      end
      assert.is_true(woke)
      for _, b in ipairs(stack) do assert.is_true(b:is_awake()) end
      -- it woke as the ball arrived: free fall from 3.5 - r to the top face at 2.02 (within the
      -- tolerance) takes sqrt(2 (1.23) / g) = 0.50 s
      assert.near(math.sqrt(2 * (3.5 - r - 2.02) / g), w.time - 0.5, 0.1 + dt)
      w:run { duration = 1 }
      -- held: no penetration beyond distance_tol (0.01)
      assert.is_true(ball.position[2] >= 2.02 + r - 0.01, tostring(ball.position[2]))
      assert.is_true(stack[2].position[2] >= 1.515 - 0.02)
    end)

    it("a ball sliding into a sleeping block wakes it; the horizontal momentum is kept (" .. ts .. ")",
      function()
        local w = world2d(ts)
        ground2d(w, 0)
        local b = block2d(w, 0, 0, { friction = 0 })
        assert.is_truthy(until_asleep(w, b, 100))
        local m, v0, r = 0.5, 2, 0.25
        local ball = w:add_body { shape = s2.ball { radius = r }, mass = m, position = { -2, r + 0.005 },
                                  velocity = { v0, 0 }, friction = 0, elasticity = 0 }
        w:run { duration = 1.5 }
        assert.is_true(b:is_awake())
        assert.near(m * v0, m * ball.velocity[1] + b.velocity[1], 1e-6 * m * v0)
        assert.is_true(b.velocity[1] > 0.1)
      end)

    it("a force, an impulse or a set velocity wakes a sleeping block (" .. ts .. ")", function()
      local function asleep()
        local w = world2d(ts)
        ground2d(w, 0)
        local b = block2d(w, 0, 0, { friction = 0, mass = 2 })
        assert.is_truthy(until_asleep(w, b, 100))
        return w, b
      end
      local w, b = asleep()
      b:apply_force { 4, 0 }
      w:step()
      assert.is_true(b:is_awake())
      assert.near(4 * dt / 2, b.velocity[1], 1e-9)  -- frictionless: v = F dt / m
      w, b = asleep()
      b:apply_impulse { 1, 0 }
      w:step()
      assert.is_true(b:is_awake())
      assert.near(0.5, b.velocity[1], 1e-9)
      w, b = asleep()
      b.velocity = { 0.3, 0 }
      w:step()
      assert.is_true(b:is_awake())
      assert.is_true(b.position[1] > 0)
    end)

    it("a swinging pendulum never sleeps; one hanging at rest does, and its joint holds (" .. ts .. ")",
      function()
        for _, strategy in ipairs { "contact", "impulse" } do
          local w = world2d(ts, { strategy = strategy })
          local L, th = 1, math.rad(30)
          local b = w:add_body { shape = s2.ball { radius = 0.05 }, mass = 1,
                                 position = { L * math.sin(th), -L * math.cos(th) } }
          -- pinned at the origin by its point (-L sin th, L cos th) (the body frame at angle 0)
          w:add_joint { body1 = b, point1 = { -L * math.sin(th), L * math.cos(th) }, body2 = w.background,
                        point2 = { 0, 0 }, normal = "both" }
          local fastest = 0
          for _ = 1, 300 do
            w:step()
            assert.is_true(b:is_awake())
            fastest = math.max(fastest, math.sqrt(b.velocity[1] ^ 2 + b.velocity[2] ^ 2))
          end
          assert.near(math.sqrt(2 * g * L * (1 - math.cos(th))), fastest, 0.05)
          -- hanging straight down, at rest: it sleeps, and a push wakes it
          local h = world2d(ts, { strategy = strategy })
          local c = h:add_body { shape = s2.ball { radius = 0.05 }, mass = 1, position = { 0, -L } }
          h:add_joint { body1 = c, point1 = { 0, L }, body2 = h.background, point2 = { 0, 0 },
                        normal = "both" }
          assert.is_truthy(until_asleep(h, c, 200), strategy)
          local p = pose2d(c)
          h:run { duration = 0.5 }
          assert.is_true(same(p, pose2d(c)))
          c:apply_impulse { 0.5, 0 }
          h:run { duration = 0.1 }
          assert.is_true(c:is_awake())
          if strategy == "contact" then  -- (the impulse strategy's joints drift awake or not)
            assert.near(L, math.sqrt(c.position[1] ^ 2 + c.position[2] ^ 2), 1e-3)
          end
        end
      end)
  end

  it("on or off changes nothing until a body sleeps (bit for bit)", function()
    for _, ts in ipairs(steppings) do
      local function run(sleep)
        local w = world2d(ts, { sleep = sleep })
        ground2d(w)
        local a = block2d(w, 0, 0.3)
        local b = w:add_body { shape = s2.ball { radius = 0.4 }, mass = 2, position = { 0.2, 2 },
                               velocity = { 0.5, 0 }, elasticity = 0.3 }
        w:run { duration = 0.3 }
        return pose2d(a), pose2d(b)
      end
      local a0, b0 = run(false)
      local a1, b1 = run(true)
      assert.is_true(same(a0, a1) and same(b0, b1), ts)
    end
  end)

  it("is kept by World:save and impact.load (2D)", function()
    local function state(w)
      local out = { string.format("%a", w.time) }
      for _, b in ipairs(w:bodies()) do
        for _, k in ipairs { "position", "velocity" } do
          for _, v in ipairs(b[k]) do out[#out + 1] = string.format("%a", v) end
        end
        out[#out + 1] = string.format("%a", b.angle) .. tostring(b:is_awake())
      end
      local st = w:stats()
      out[#out + 1] = st.sleeping .. "/" .. st.islands
      return table.concat(out, " ")
    end
    local w = world2d("symplectic_euler")
    ground2d(w)
    block2d(w, 0, 0)
    block2d(w, 3, 0)
    w:step(60)
    assert.are.equal(2, w:stats().sleeping)
    local w2 = files.reloaded(w)
    assert.are.equal(state(w), state(w2))
    for _, x in ipairs { w, w2 } do
      x:add_body { shape = s2.ball { radius = 0.3 }, mass = 1, position = { 0, 2 }, elasticity = 0 }
      x:step(80)
    end
    assert.are.equal(state(w), state(w2))
  end)
end)

describe("sleeping in 3D worlds under time_stepping = \"ode\"", function()
  local function world_ode(strategy)
    return impact.world3d { strategy = strategy, gravity = { 0, 0, -g }, dt = dt, time_stepping = "ode",
                            sleep = true }
  end

  it("a box on the ground falls asleep, its pose fixed; a ball dropped on it wakes it", function()
    local w = world_ode("contact")
    ground(w)
    local b = w:add_body { shape = s3.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 0.505 },
                           friction = 0.5, elasticity = 0 }
    local n = until_asleep(w, b, 200)
    assert.is_truthy(n)
    assert.is_true(n * dt >= 0.5 - 1e-12, tostring(n))
    local p = pose(b)
    w:run { duration = 0.5 }
    assert.is_true(same(p, pose(b)))
    local r = 0.25
    local ball = w:add_body { shape = s3.sphere { radius = r }, mass = 1, position = { 0, 0, 2 },
                              friction = 0.5, elasticity = 0 }
    local woke = false
    for _ = 1, 100 do
      w:step()
      if b:is_awake() then woke = true break end
    end
    assert.is_true(woke)
    w:run { duration = 0.5 }
    assert.is_true(ball.position[3] >= 1.01 + r - 0.01, tostring(ball.position[3]))
  end)

  it("an applied force wakes it; on or off changes nothing until a body sleeps", function()
    local w = world_ode("contact")
    ground(w, 0)
    local b = w:add_body { shape = s3.box { size = { 1, 1, 1 } }, mass = 2, position = { 0, 0, 0.505 },
                           friction = 0, elasticity = 0 }
    assert.is_truthy(until_asleep(w, b, 200))
    b:apply_force { 4, 0, 0 }
    w:step()
    assert.is_true(b:is_awake())
    assert.near(4 * dt / 2, b.velocity[1], 1e-9)
    local function run(sleep)
      local x = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = dt, time_stepping = "ode",
                                 sleep = sleep }
      ground(x)
      local s = x:add_body { shape = s3.sphere { radius = 0.4 }, mass = 2, position = { 0.2, 0, 1 },
                             velocity = { 0.5, 0, 0 }, friction = 0.5, elasticity = 0.3 }
      x:run { duration = 0.3 }
      return pose(s)
    end
    assert.is_true(same(run(false), run(true)))
  end)
end)
