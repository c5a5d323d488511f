-- The 2D engine's contact strategy: contact forces from the LCP, friction, joints, ropes and
-- rods, checked against analytic answers.
local impact = require("impact")
local shape2d = impact.shape2d

local pendulum_period = require("spec.support.analytic").pendulum_period
local scenes2d = require("spec.support.scenes2d")

describe("engine2d contact strategy", function()
  it("brings bodies to rest at the half gap, then no collisions and constant energy", function()
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 } }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 }, fixed = true }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 2 },
                              elasticity = 0.5 }
    local blk = w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = 1,
                             position = { 2, 1 }, angle = 0.3, elasticity = 0.5 }
    w:run { until_time = 4 }
    local c0, e0 = w:stats().collisions, w:energy().total
    assert.is_true(c0 > 0)
    w:run { until_time = 8 }
    assert.equal(c0, w:stats().collisions)
    assert.near(e0, w:energy().total, 1e-9)
    -- resting on the ground with the gap distance_tol / 2 = 0.005
    assert.near(0.505, ball.position[2], 1e-7)
    assert.near(0.255, blk.position[2], 1e-7)
    assert.near(0, math.sin(blk.angle), 1e-7)
    -- the potential energy of the two at rest, m g h
    assert.near(10 * 0.505 + 10 * 0.255, w:energy().total, 1e-6)
    local cs = w:contacts()
    assert.equal(3, #cs) -- the ball's point and the block's two corners
    local total = 0
    for _, c in ipairs(cs) do
      assert.near(0.005, c.distance, 1e-7)
      total = total + c.force
    end
    assert.near(20, total, 1e-6) -- the contacts carry both weights
  end)

  for _, case in ipairs({ { deg = 20, slides = false }, { deg = 35, slides = true } }) do
    it(string.format("a block on a %d degree slope with mu = 0.5 %s", case.deg,
      case.slides and "slides with a = g (sin - mu cos)" or "sticks (tan < mu)"), function()
      local th, mu, g = math.rad(case.deg), 0.5, 10
      local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -g } }
      local blk = scenes2d.block_on_slope(w, case.deg, mu)
      local p0 = blk.position
      w:run { duration = 1 }
      local p = blk.position
      local s = math.sqrt((p[1] - p0[1]) ^ 2 + (p[2] - p0[2]) ^ 2)
      if case.slides then
        assert.is_true(math.tan(th) > mu)
        assert.near(0.5 * g * (math.sin(th) - mu * math.cos(th)) * 1 ^ 2, s, 1e-6)
        -- it moves down the slope, along it
        assert.near(-math.cos(th), (p[1] - p0[1]) / s, 1e-6)
      else
        assert.is_true(math.tan(th) < mu)
        assert.near(0, s, 1e-9)
      end
      assert.near(th, blk.angle, 1e-9)
      assert.equal(0, w:stats().lcp_failures)
    end)
  end

  it("a per-pair friction coefficient overrides the bodies'", function()
    -- 35 degrees: with mu = 0.5 from the bodies the block slides; the pair's 0.8 > tan 35 holds it
    local th, g = math.rad(35), 10
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -g } }
    local n = { -math.sin(th), math.cos(th) }
    local slope = w:add_body { shape = shape2d.block { width = 40, height = 1 }, angle = th,
                               fixed = true, friction = 0.5 }
    local d = 0.755
    local a = w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = 1,
                           position = { d * n[1] - 3 * math.cos(th), d * n[2] - 3 * math.sin(th) },
                           angle = th, friction = 0.5, elasticity = 0 }
    local b = w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = 1,
                           position = { d * n[1] + 3 * math.cos(th), d * n[2] + 3 * math.sin(th) },
                           angle = th, friction = 0.5, elasticity = 0 }
    w:set_pair { body1 = b, body2 = slope, friction = 0.8 }
    local a0, b0 = a.position, b.position
    w:run { duration = 1 }
    local sa = math.sqrt((a.position[1] - a0[1]) ^ 2 + (a.position[2] - a0[2]) ^ 2)
    local sb = math.sqrt((b.position[1] - b0[1]) ^ 2 + (b.position[2] - b0[2]) ^ 2)
    assert.near(0.5 * g * (math.sin(th) - 0.5 * math.cos(th)), sa, 1e-6)
    assert.near(0, sb, 1e-9)
    assert.has_error(function() w:set_pair { body1 = a, body2 = a, friction = 1 } end)
    assert.has_error(function() w:set_pair { body1 = a, body2 = b } end)
  end)

  it("swings a physical pendulum on a pin joint with the exact period; the joint stays tight", function()
    local th0, g = 0.5, 10
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -g } }
    -- a 0.2 x 2 bar of mass 1 pinned at its top end to the background at the origin
    local bar = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                             position = { math.sin(th0), -math.cos(th0) }, angle = th0 }
    local j = w:add_joint { body1 = bar, point1 = { 0, 1 }, point2 = { 0, 0 } }
    local I = (0.2 ^ 2 + 2 ^ 2) / 12 + 1 -- about the pin (Steiner)
    local T = pendulum_period(I, 1, g, 1, th0)
    local crossings, prev, worst = {}, bar.angle, 0
    local e0 = w:energy().total
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
    assert.near(e0, w:energy().total, 1e-3)
  end)

  it("a joint along one normal is a slider: free fall along it, held across it", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { -3, -10 } }
    local b = w:add_body { shape = shape2d.block { width = 0.2, height = 0.2 }, mass = 1,
                           position = { 0, 5 }, spin = 0 }
    -- the body's centre held on the line x = 0 (normal x), pushed sideways by gravity
    local j = w:add_joint { body1 = b, point1 = { 0, 0 }, point2 = { 0, 0 }, normal = "x" }
    w:run { duration = 1 }
    assert.near(5 - 10 / 2, b.position[2], 1e-9)
    assert.near(0, b.position[1], 1e-9)
    assert.near({ 0, -10 }, b.velocity, 1e-9)
    assert.near(0, (w:connector_error(j)), 1e-9)
  end)

  it("joint small impacts keep a fast-spinning pin tighter (no extra acceleration)", function()
    local function drift(small_impacts)
      local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 },
                                 extra_accel = "none", joint_small_impacts = small_impacts }
      local bar = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                               position = { 1, 0 }, angle = math.pi / 2, spin = 20,
                               velocity = { 0, 20 } }
      local j = w:add_joint { body1 = bar, point1 = { 0, 1 }, point2 = { 0, 0 } }
      local worst = 0
      for _ = 1, 300 do
        w:step()
        worst = math.max(worst, (w:connector_error(j)))
      end
      return worst
    end
    local without, with = drift(false), drift(true)
    assert.is_true(with < 2e-5, "joint error " .. with)
    assert.is_true(with < without / 10, with .. " vs " .. without)
  end)

  it("a rope pendulum goes slack where the tension vanishes and is caught taut again", function()
    -- a ball on a rope of length 1 with v0^2 = 3.5 g L at the bottom: the tension
    -- m v^2 / L + m g cos(phi) vanishes at cos(phi) = (2 g L - v0^2) / (3 g L) = -1/2
    local g, L = 10, 1
    local w = impact.world2d { strategy = "contact", dt = 0.005, gravity = { 0, -g } }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.05 }, mass = 1, position = { 0, -L },
                              velocity = { math.sqrt(3.5 * g * L), 0 }, elasticity = 0 }
    local rope = w:add_rope { body1 = ball, point2 = { 0, 0 }, length = L }
    local jerks = 0
    w:on("collision", function(ev)
      if ev.body1 == w.background or ev.body2 == w.background then jerks = jerks + 1 end
    end)
    local slack_phi, longest = nil, 0
    for _ = 1, 400 do
      w:step()
      local _, dist = w:connector_error(rope)
      longest = math.max(longest, dist)
      if not slack_phi and dist < L - 0.02 then -- beyond distance_tol: slack
        local p = ball.position
        slack_phi = math.deg(math.atan(p[1], -p[2]))
      end
    end
    assert.is_not_nil(slack_phi)
    -- independently: the free flight from phi = 120 deg with v^2 = g L / 2 (tangential) reaches
    -- |p| = L - 0.02 at the angle found by bisection on the parabola
    local phi0 = math.rad(120)
    local v = math.sqrt(g * L / 2)
    local px, py = L * math.sin(phi0), -L * math.cos(phi0)
    local vx, vy = v * math.cos(phi0), v * math.sin(phi0)
    local function radius(t) return math.sqrt((px + vx * t) ^ 2 + (py + vy * t - g * t * t / 2) ^ 2) end
    local lo, hi = 1e-6, 0.3
    for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if radius(mid) > L - 0.02 then lo = mid else hi = mid end
    end
    local want = math.deg(math.atan(px + vx * lo, -(py + vy * lo - g * lo * lo / 2)))
    assert.near(want, slack_phi, 1.5)
    assert.is_true(longest < L + 1e-4, "stretched to " .. longest)
    assert.is_true(jerks >= 1)
  end)

  it("a removed body's connector is gone and its slot's new body collides again", function()
    -- (impulse holds a joint by the small impacts after each step)
    local w = impact.world2d { strategy = "impulse", dt = 0.01, gravity = { 0, 0 },
                               joint_small_impacts = true }
    local a = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 0 } }
    local b = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0.5, 0 } }
    local j = w:add_joint { body1 = a, point1 = { 0.25, 0 }, body2 = b, point2 = { -0.25, 0 } }
    w:remove_body(b)
    assert.has_error(function() w:connector_error(j) end)
    -- a new body takes b's slot and moves into a: they collide (no joint exclusion left)
    local c = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 3, 0 },
                           velocity = { -2, 0 } }
    w:run { duration = 1.5 }
    assert.equal(1, w:stats().collisions)
    assert.near({ 0, 0 }, c.velocity, 1e-9)
    assert.near({ -2, 0 }, a.velocity, 1e-9)
  end)

  it("a rod keeps its length while the body spins about it", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, 0 } }
    local b = w:add_body { shape = shape2d.block { width = 0.4, height = 0.2 }, mass = 1,
                           position = { 1.5, 0 }, velocity = { 0, 3 }, spin = 1 }
    local rod = w:add_rope { body1 = b, point2 = { 0, 0 }, length = 1.5, rod = true }
    local e0, worst = w:energy().total, 0
    for _ = 1, 300 do
      w:step()
      worst = math.max(worst, (w:connector_error(rod)))
    end
    assert.is_true(worst < 1e-4, "rod error " .. worst)
    -- no gravity: the speed around the pivot and the spin are constant
    assert.near(e0, w:energy().total, 1e-4 * e0)
  end)

  it("Newton's cradle on rods (serial): only the last ball swings out", function()
    local w = impact.world2d { strategy = "contact", collision_handling = "serial", dt = 0.01,
                               gravity = { 0, -10 }, seed = 2 }
    local r, len, gap = 0.25, 2.0, 0.005
    local h0 = 0.05 -- release height of the first ball
    local th = math.acos(1 - h0 / len)
    local balls = {}
    for i = 1, 5 do
      local x = (i - 3) * (2 * r + gap)
      local pos = i == 1 and { x - len * math.sin(th), -len * math.cos(th) } or { x, -len }
      balls[i] = w:add_body { shape = shape2d.ball { radius = r }, mass = 1, position = pos }
      w:add_rope { body1 = balls[i], point2 = { x, 0 }, length = len, rod = true }
    end
    local e0 = w:energy().total
    local top = {}
    w:run { duration = 1.6, every = 0, fn = function()
      for i = 1, 5 do top[i] = math.max(top[i] or -math.huge, balls[i].position[2]) end
    end }
    for i = 2, 4 do assert.near(-len, top[i], 1e-6) end
    -- the last ball rises to the first one's release height, up to the gap spacing
    assert.near(-len + h0, top[5], 2e-3)
    assert.near(e0, w:energy().total, 1e-4)
  end)

  it("free Newton's cradle: simultaneous (-0.6, 0.4, 0.4, 0.4, 0.4), serial (0, 0, 0, 0, 1)", function()
    for _, handling in ipairs({ "simultaneous", "serial" }) do
      local w = impact.world2d { strategy = "contact", collision_handling = handling, dt = 1 / 60,
                                 gravity = { 0, 0 } }
      local balls = {}
      for k = 0, 4 do
        local x = k == 0 and -1.5 or (k - 1) * 1.005
        balls[k + 1] = w:add_body { shape = shape2d.ball { radius = 0.5 }, density = 1,
                                    position = { x, 0 }, velocity = { k == 0 and 1 or 0, 0 } }
      end
      w:run { duration = 2 }
      local want = handling == "serial" and { 0, 0, 0, 0, 1 } or { -0.6, 0.4, 0.4, 0.4, 0.4 }
      for k = 1, 5 do assert.near({ want[k], 0 }, balls[k].velocity, 1e-9) end
    end
  end)

  it("decays spinning and moving balls exponentially under damping", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, 0 },
                               damping = { linear = 0.3, angular = 0.2 } }
    local b = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 2, velocity = { 1, 0 }, spin = 4 }
    local I = 2 * 0.5 ^ 2 / 2
    w:run { duration = 2 }
    assert.near(math.exp(-0.3 * 2 / 2), b.velocity[1], 1e-8)
    assert.near(4 * math.exp(-0.2 * 2 / I), b.spin, 1e-7)
  end)

  it("PGS: a pyramid of 15 touching boxes with friction stands; the ground carries the weight", function()
    local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -10 },
                               contact_solver = "pgs", pgs_iterations = 30, extra_accel = "velocity",
                               collision_handling = "simultaneous" }
    local ground = scenes2d.ground(w, 40)
    local boxes, start = scenes2d.pyramid(w, 5)
    w:run { duration = 3 }
    local e = w:energy()
    assert.is_true(e.kinetic + e.rotational < 1e-8)
    for i, b in ipairs(boxes) do
      assert.is_true(math.abs(b.position[1] - start[i][1]) < 1e-3)
      assert.is_true(math.abs(b.angle) < 1e-3)
    end
    local load = scenes2d.load_on(w, ground)
    assert.near(15 * 10, load, 1e-3 * 150)
    assert.equal(0, w:stats().collisions)
  end)

  it("settles a pile of 10 random blocks in a pit #slow", function()
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 }, seed = 5 }
    local function fixed(x, y, wd, ht, ang)
      w:add_body { shape = shape2d.block { width = wd, height = ht }, position = { x, y },
                   angle = ang or 0, fixed = true }
    end
    fixed(0, -4.5, 12, 1)
    fixed(-6.5, 0, 1, 10)
    fixed(6.5, 0, 1, 10)
    fixed(-3.2, -3.2, 6, 0.6, -0.5)
    fixed(3.2, -3.2, 6, 0.6, 0.5)
    local blocks = {}
    for i = 1, 10 do
      local wd, ht = 0.5 + w:random(), 0.5 + w:random()
      blocks[i] = w:add_body { shape = shape2d.block { width = wd, height = ht }, density = 1,
                               position = { -4 + ((i - 1) % 5) * 2, -1 + (i > 5 and 2 or 0) },
                               angle = w:random() * 6.28, elasticity = 0.8 }
    end
    w:run { until_time = 10 }
    local c0, e0 = w:stats().collisions, w:energy().total
    w:run { until_time = 12 }
    assert.equal(c0, w:stats().collisions)
    assert.near(e0, w:energy().total, 1e-5)
    for _, c in ipairs(w:contacts()) do
      assert.near(0.005, c.distance, 1e-6)
      assert.is_true(c.force >= 0)
    end
    for _, b in ipairs(blocks) do
      assert.is_true(b.position[2] < 0 and math.abs(b.position[1]) < 6)
    end
  end)
end)
