-- The 2D engine's semi-implicit Euler time stepping (time_stepping = "symplectic_euler"): one
-- velocity-level contact solve per step, v1 = v0 + h M^-1 (F + J^T f), x1 = x0 + h v1.
-- Checked against closed forms: of the mechanics, and of the scheme itself where it is first
-- order (uniform acceleration: v_n = a n h exactly, x_n = a h^2 n (n + 1) / 2).
local impact = require("impact")
local shape2d = impact.shape2d

local pendulum_period = require("spec.support.analytic").pendulum_period
local scenes2d = require("spec.support.scenes2d")

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return tostring(e)
end

local function ground_and_block(opts, solver)
  local w = impact.world2d { strategy = "contact", dt = opts.dt or 0.01, gravity = { 0, -10 },
                             time_stepping = "symplectic_euler", contact_solver = solver,
                             pgs_iterations = opts.pgs_iterations, extra_accel = opts.extra_accel }
  local ground = w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 },
                              fixed = true, friction = opts.friction }
  return w, ground
end

describe("engine2d symplectic_euler time stepping", function()
  it("is a checked world option", function()
    local w = impact.world2d { strategy = "contact", time_stepping = "symplectic_euler" }
    assert.is_not_nil(w)
    assert.matches('impact.world2d: option \'time_stepping\' must be one of "ode", "symplectic_euler", '
      .. 'got "leapfrog"', err_of(impact.world2d, { strategy = "contact", time_stepping = "leapfrog" }))
    assert.matches("option 'time_stepping' must be", err_of(impact.world2d, { time_stepping = 2 }))
  end)

  for _, solver in ipairs({ "lcp", "pgs" }) do
    it("a block resting on the floor: the contact forces carry m g, nothing moves (" .. solver .. ")",
      function()
        local w = ground_and_block({ pgs_iterations = 50 }, solver)
        local m, g = 3, 10
        -- resting at the half gap distance_tol / 2 = 0.005
        local blk = w:add_body { shape = shape2d.block { width = 2, height = 1 }, mass = m,
                                 position = { 0.3, 0.505 }, elasticity = 0 }
        w:run { duration = 2 }
        local total, n = 0, 0
        for _, c in ipairs(w:contacts()) do
          total = total + c.force
          n = n + 1
          assert.near(0.005, c.distance, 1e-12)
        end
        assert.equal(2, n)
        assert.near(m * g, total, { rel = 1e-9 })
        assert.near({ 0.3, 0.505 }, blk.position, 1e-12)
        assert.near({ 0, 0 }, blk.velocity, 1e-12)
        assert.near(0, blk.angle, 1e-12)
        assert.equal(0, w:stats().collisions)
      end)
  end

  for _, case in ipairs({ { deg = 20, slides = false }, { deg = 35, slides = true } }) do
    for _, solver in ipairs({ "lcp", "pgs" }) do
      it(string.format("a block on a %d degree slope with mu = 0.5 %s (%s)", case.deg,
        case.slides and "slides with a = g (sin - mu cos)" or "sticks (tan < mu)", solver), function()
        local th, mu, g, h = math.rad(case.deg), 0.5, 10, 0.01
        local w = impact.world2d { strategy = "contact", dt = h, gravity = { 0, -g },
                                   time_stepping = "symplectic_euler", contact_solver = solver,
                                   pgs_iterations = 50 }
        local blk = scenes2d.block_on_slope(w, case.deg, mu)
        local p0 = blk.position
        local steps = 100
        w:run { steps = steps }
        local t = steps * h
        local p, v = blk.position, blk.velocity
        local s = math.sqrt((p[1] - p0[1]) ^ 2 + (p[2] - p0[2]) ^ 2)
        if case.slides then
          assert.is_true(math.tan(th) > mu)
          local a = g * (math.sin(th) - mu * math.cos(th))
          -- the scheme under uniform acceleration: v = a t, s = a t (t + h) / 2
          assert.near(a * t, math.sqrt(v[1] ^ 2 + v[2] ^ 2), 1e-9)
          assert.near(0.5 * a * t * (t + h), s, 1e-9)
          -- which is the mechanics' a t^2 / 2 to first order in h
          assert.near(0.5 * a * t ^ 2, s, 0.5 * a * t * h + 1e-9)
          assert.near(-math.cos(th), (p[1] - p0[1]) / s, 1e-9)
          assert.near(-math.sin(th), (p[2] - p0[2]) / s, 1e-9)
        else
          assert.is_true(math.tan(th) < mu)
          assert.near(0, s, 1e-9)
          assert.near({ 0, 0 }, v, 1e-9)
          -- the slope carries the weight: m g cos along the normal, m g sin along it
          local fn, ft = 0, 0
          for _, c in ipairs(w:contacts()) do
            fn = fn + c.force
            ft = ft + math.abs(c.friction_force)
          end
          assert.near(2 * g * math.cos(th), fn, { rel = 1e-9 })
          assert.near(2 * g * math.sin(th), ft, { rel = 1e-9 })
        end
        assert.near(th, blk.angle, 1e-9)
        assert.equal(0, w:stats().lcp_failures)
      end)
    end
  end

  for _, solver in ipairs({ "lcp", "pgs" }) do
    it("a stack of 3 boxes comes to rest at the half gap, never deeper than the tolerance (" .. solver
      .. ")", function()
      -- the distance term (Baumgarte, velocity level) moves every contact to distance_tol / 2
      local tol = 0.01
      local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -10 },
                                 time_stepping = "symplectic_euler", contact_solver = solver,
                                 pgs_iterations = 30, extra_accel = "velocity_and_distance",
                                 distance_tol = tol, collision_handling = "simultaneous" }
      local ground = w:add_body { shape = shape2d.block { width = 40, height = 2 }, position = { 0, -1 },
                                  fixed = true, friction = 0.6 }
      local boxes, gap0 = {}, 0.002  -- closer than the half gap: pushed apart
      for k = 0, 2 do
        boxes[#boxes + 1] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, density = 1,
                                         position = { 0, 0.5 + k + (k + 1) * gap0 }, friction = 0.6,
                                         elasticity = 0 }
      end
      local deepest = math.huge
      for _ = 1, 300 do
        w:step()
        for _, c in ipairs(w:contacts()) do deepest = math.min(deepest, c.distance) end
      end
      assert.is_true(deepest > -tol)
      local e = w:energy()
      assert.is_true(e.kinetic + e.rotational < 1e-12)
      for _, c in ipairs(w:contacts()) do
        if c.normal[2] > 0.5 then assert.near(tol / 2, c.distance, 1e-6) end
      end
      for k, b in ipairs(boxes) do
        assert.near(0, b.position[1], 1e-4)
        assert.near(0, b.angle, 1e-6)
        assert.near(k - 0.5 + k * tol / 2, b.position[2], 1e-6)
      end
      assert.near(3 * 10, scenes2d.load_on(w, ground), { rel = 1e-6 })
    end)
  end

  it("a pyramid of 15 boxes stands and comes to rest with 10 PGS sweeps", function()
    local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -10 },
                               time_stepping = "symplectic_euler", contact_solver = "pgs",
                               pgs_iterations = 10, extra_accel = "velocity",
                               collision_handling = "simultaneous" }
    local ground = scenes2d.ground(w, 40)
    local boxes, start = scenes2d.pyramid(w, 5)
    w:run { duration = 5 }
    local e = w:energy()
    assert.is_true(e.kinetic + e.rotational < 1e-10)
    for i, b in ipairs(boxes) do
      assert.is_true(math.abs(b.position[1] - start[i][1]) < 1e-3)
      assert.is_true(math.abs(b.position[2] - start[i][2]) < 0.01)
      assert.is_true(math.abs(b.angle) < 1e-3)
    end
    local load = scenes2d.load_on(w, ground)
    assert.near(15 * 10, load, { rel = 1e-6 })
  end)

  it("a physical pendulum on a pin joint: the exact period to second order, bounded energy", function()
    -- symplectic Euler's phase error is O(h^2) and its energy error oscillates without drift;
    -- the joint rows are held at velocity level with the distance term
    local th0, g = 0.5, 10
    local function swing(dt, periods)
      local w = impact.world2d { strategy = "contact", dt = dt, gravity = { 0, -g },
                                 time_stepping = "symplectic_euler" }
      local bar = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                               position = { math.sin(th0), -math.cos(th0) }, angle = th0 }
      local j = w:add_joint { body1 = bar, point1 = { 0, 1 }, point2 = { 0, 0 } }
      local crossings, prev, worst, e0 = {}, bar.angle, 0, w:energy().total
      local band = 0
      while #crossings < periods + 1 do
        w:step()
        local a = bar.angle
        if prev > 0 and a <= 0 then crossings[#crossings + 1] = w.time - w.dt * a / (a - prev) end
        prev = a
        worst = math.max(worst, (w:connector_error(j)))
        band = math.max(band, math.abs(w:energy().total - e0))
      end
      return (crossings[periods + 1] - crossings[1]) / periods, worst, band
    end
    local I = (0.2 ^ 2 + 2 ^ 2) / 12 + 1 -- about the pin (Steiner)
    local T = pendulum_period(I, 1, g, 1, th0)
    local T1, j1, band1 = swing(0.004, 4)
    local T2, j2, band2 = swing(0.002, 4)
    local r = math.abs(T1 - T) / math.abs(T2 - T)
    assert.is_true(r > 3 and r < 5, "period error ratio " .. r)  -- second order: 4
    assert.near(T, T2, 1e-4 * T)
    assert.is_true(j2 < 1e-4 and j2 < j1, "joint error " .. j2)
    -- energy band (no drift): first order in h, within 0.2 % of m g d
    assert.is_true(band2 < 2e-3 * 10 and band2 < band1, "energy band " .. band2)
  end)

  it("impulse strategy: a ball bounces with rebound speeds e v and heights falling by e^2", function()
    -- free flight is exact in velocity (v = v0 - g t at every step) and first order in height;
    -- collisions are found by the collision advance and handled by impulses as under "ode"
    for _, e in ipairs({ 1.0, 0.5 }) do
      local w = impact.world2d { strategy = "impulse", dt = 0.002, gravity = { 0, -10 },
                                 time_stepping = "symplectic_euler" }
      w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 }, fixed = true }
      local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 2, position = { 0, 3 },
                                elasticity = e }
      local hits, apex = scenes2d.bounce(w, ball, 5000, 3, 2)
      assert.is_true(#hits >= 3)
      -- free fall from 2.5 m less the gap (distance_tol / 2 +- 0.003), to first order in h
      local v1 = -hits[1].normal_velocity
      assert.near(math.sqrt(20 * 2.495), v1, 0.02 * v1)
      for k = 1, 2 do
        assert.near((1 + e) * 2 * -hits[k].normal_velocity, hits[k].impulse, 1e-9 * hits[k].impulse)
        -- the scheme comes back to a height g h slower than it left (x_n = v t - g t (t + h) / 2
        -- is back at t = 2 v / g - h), plus the gap's spread as under "ode"
        assert.near(e * -hits[k].normal_velocity, -hits[k + 1].normal_velocity, 10 * 0.002 + 0.02)
      end
      local h1, h2 = apex[1] - 0.505, apex[2] - 0.505
      assert.near(e * e, h2 / h1, 0.01)
      if e == 1 then
        -- back up to its starting height, less about v h = 7 * 0.002 lost to the first-order
        -- scheme over the fall and the rise
        assert.near(3 - 7 * 0.002, apex[1], 0.01)
      end
    end
  end)
end)
