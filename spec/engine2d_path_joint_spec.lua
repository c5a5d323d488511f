-- World:add_path_joint and World:add_path_end (2D, strategy "contact"): a body point held on a
-- path given as points or as a function sampled along a parameter (myPhysicsLab's PathJoint on
-- a NumericalPath) and a one-sided stop along it (its PathEndPoint). Checked against closed
-- forms: sliding down a straight incline, the large-amplitude pendulum's period, Newton's
-- restitution at the stop. (Its MiscellanyTest roller scenes: myphysicslab_misc_spec.lua.)
local impact = require("impact")
local shape2d = impact.shape2d

local function world(opts)
  local def = { strategy = "contact", dt = 0.01, gravity = { 0, -10 }, integrator = "rk4",
                extra_accel = "velocity_joints" }
  for k, v in pairs(opts or {}) do def[k] = v end
  return impact.world2d(def)
end

-- the complete elliptic integral of the first kind, K(k), by the arithmetic-geometric mean
local function ellip_k(k)
  local a, b = 1, math.sqrt(1 - k * k)
  for _ = 1, 30 do a, b = (a + b) / 2, math.sqrt(a * b) end
  return math.pi / (2 * a)
end

describe("World:add_path_joint", function()
  it("a ball held at its centre on a straight incline slides with g sin(theta)", function()
    local th = math.rad(30)
    local d = { math.cos(th), -math.sin(th) }
    local w = world()
    local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 2 }
    local j = w:add_path_joint { body1 = ball,
      path = { points = { { -d[1], -d[2] }, { 0, 0 }, { 5 * d[1], 5 * d[2] },
                          { 10 * d[1], 10 * d[2] } } } }
    w:run { until_time = 1 }
    local s = ball.position[1] * d[1] + ball.position[2] * d[2]
    assert.near(0.5 * 10 * math.sin(th) * w.time ^ 2, s, 1e-9)
    assert.near(10 * math.sin(th) * w.time, ball.velocity[1] * d[1] + ball.velocity[2] * d[2], 1e-9)
    assert.is_true(w:connector_error(j) < 1e-9)
    assert.near(0, ball.spin, 1e-12)
  end)

  for _, n in ipairs { 2000, 20000 } do
    it("a ball on a circle of radius 3 is a pendulum: its period at 60 degrees is "
      .. "4 sqrt(L / g) K(sin 30 degrees) (" .. n .. " points)", function()
      local L, th0 = 3, math.rad(60)
      local period = 4 * math.sqrt(L / 10) * ellip_k(math.sin(th0 / 2))
      local w = world { dt = period / 800 }
      local start = { L * math.sin(th0), -L * math.cos(th0) }
      local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1, position = start }
      local j = w:add_path_joint { body1 = ball, path = { closed = true, samples = n,
        fn = function(t) return L * math.cos(t), L * math.sin(t) end, range = { 0, 2 * math.pi } } }
      local e0 = w:energy().total
      for _ = 1, 800 do w:step() end
      -- back where it started, at rest, after one period
      local miss = math.sqrt((ball.position[1] - start[1]) ^ 2 + (ball.position[2] - start[2]) ^ 2)
      assert.is_true(miss < 1e-3, miss)
      assert.is_true(math.abs(ball.velocity[1]) + math.abs(ball.velocity[2]) < 1e-2)
      assert.near(e0, w:energy().total, 1e-4)
      assert.is_true(w:connector_error(j) < 1e-5)
    end)
  end

  -- under myPhysicsLab's conventions each path joint and end keeps its nearest-point search's
  -- last point (the next search starts there, and where it starts moves the point found
  -- within the search's 1e-6): the world file holds it; a file without it (as from before)
  -- starts the search again at the nearest table point, which here continues otherwise
  for _, conventions in ipairs { "impact", "myphysicslab" } do
    it("is saved and loaded (" .. conventions .. "): the loaded world continues bit for bit",
      function()
        local w = world { gravity = { 0, -3 }, conventions = conventions }
        local block = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
                                   position = { -2, 2.3 }, angle = 0.5 }
        local j = w:add_path_joint { body1 = block, point1 = { 0, -0.9 }, path = {
          samples = 500, range = { -3, 3 },
          fn = function(t) return t, 3 + t * t * (-7 + t * t) / 6 end } }
        w:add_path_end { body1 = block, point1 = { 0, -0.9 }, joint = j, at = { 2, 1 } }
        w:run { until_time = 0.55 }
        local path = os.tmpname()
        w:save(path)
        local w2 = impact.load(path)
        local f = io.open(path)
        local text = f:read("a")
        f:close()
        local bare, n = text:gsub('%["near_[kp]"%]=[^,]*,', "")
        assert.equal(conventions == "myphysicslab" and 4 or 0, n)  -- (joint and end: k, p)
        f = io.open(path, "w")
        f:write(bare)
        f:close()
        local w3 = impact.load(path)
        os.remove(path)
        for _, x in ipairs { w, w2, w3 } do x:run { until_time = 2 } end
        local b2, b3 = w2:bodies()[1], w3:bodies()[1]
        assert.same(block.position, b2.position)
        assert.same(block.velocity, b2.velocity)
        assert.equal(block.angle, b2.angle)
        if conventions == "myphysicslab" then  -- 1.3e-7 apart at 2 s
          assert.is_true(math.abs(block.position[1] - b3.position[1]) > 1e-9)
        else
          assert.same(block.position, b3.position)
        end
      end)
  end

  it("rejects bad input with clear errors", function()
    local w = world()
    local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1 }
    local function err(opts, pattern)
      opts.body1 = opts.body1 == nil and ball or opts.body1
      local ok, msg = pcall(w.add_path_joint, w, opts)
      assert.is_false(ok)
      assert.matches(pattern, msg)
    end
    err({ path = { points = { { 0, 0 }, { 1, 0 } } } }, "must hold 3 to 10000000 points, got 2")
    err({ path = { points = { { 0, 0 }, { 1, 0 }, { 1, 0 } } } }, "points 2 and 3 of the path are equal")
    err({ path = { points = { { 0, 0 }, { 1, 0 }, { 0 / 0, 1 } } } },
      "path.points%[3%]. must be an array of 2 finite numbers")
    err({ path = { fn = function(t) return t, t end } }, "option 'path.range' = {t0, t1} is required")
    err({ path = { fn = function(t) return t, t end, range = { 1, 0 } } }, "t0 < t1")
    err({ path = { fn = function(t) return t end, range = { 0, 1 } } },
      "option 'path.fn' must return two finite numbers")
    err({ path = { fn = function(t) return t, t end, range = { 0, 1 }, samples = 2 } },
      "samples")
    err({ path = { points = { { 0, 0 }, { 1, 0 }, { 2, 0 } }, fn = print } }, "either 'points' or 'fn'")
    err({ path = {} }, "either 'points' or 'fn'")
    err({ path = 5 }, "option 'path' must be a table")
    err({ path = { points = { { 0, 0 }, { 1, 0 }, { 2, 0 } }, closd = true } }, "unknown option")
    err({ body1 = false, path = { points = { { 0, 0 }, { 1, 0 }, { 2, 0 } } } }, "option 'body1'")
    local w3 = impact.world2d { strategy = "impulse", joint_small_impacts = false }
    local b3 = w3:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1 }
    local ok, msg = pcall(w3.add_path_joint, w3,
      { body1 = b3, path = { points = { { 0, 0 }, { 1, 0 }, { 2, 0 } } } })
    assert.is_false(ok)
    assert.matches("joint_small_impacts", msg)
  end)
end)

describe("World:add_path_end", function()
  it("stops the point at its limit with Newton's restitution", function()
    local w = world { gravity = { 0, 0 } }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1, velocity = { 2, 0 },
                              elasticity = 0.5 }
    local j = w:add_path_joint { body1 = ball, path = { points = { { -5, 0 }, { 0, 0 }, { 5, 0 } } } }
    local stop = w:add_path_end { body1 = ball, joint = j, limit = 6 }  -- x = 1 (p from x = -5)
    local hits = {}
    w:on("collision", function(e) hits[#hits + 1] = e end)
    w:run { until_time = 1 }
    assert.equal(1, #hits)
    assert.near(-0.5 * 2, ball.velocity[1], 1e-9)  -- v' = -e v
    assert.is_true(ball.position[1] <= 1)
    assert.equal(0, (w:connector_error(stop)))
    -- caught at the half gap (distance_tol / 2 before the limit), then back at e v
    assert.near((1 - 0.005) / 2, hits[1].time, 1e-9)
    assert.near(1 - 0.005 - 0.5 * 2 * (1 - hits[1].time), ball.position[1], 1e-9)
  end)

  it("rejects bad input with clear errors", function()
    local w = world()
    local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 1 }
    local j = w:add_path_joint { body1 = ball, path = { points = { { -5, 0 }, { 0, 0 }, { 5, 0 } } } }
    local rope = w:add_rope { body1 = ball, point2 = { 0, 5 }, length = 6 }
    local function err(opts, pattern)
      opts.body1 = ball
      local ok, msg = pcall(w.add_path_end, w, opts)
      assert.is_false(ok)
      assert.matches(pattern, msg)
    end
    err({ limit = 1 }, "option 'joint' %(a path joint of World:add_path_joint%) is required")
    err({ joint = rope, limit = 1 },
        "must be a path joint %(World:add_path_joint%), got a connector of kind 'rope'")
    err({ joint = j }, "give one of option 'at'")
    err({ joint = j, limit = 1, at = { 0, 0 } }, "got both")
    err({ joint = j, limit = 0 / 0 }, "limit")
  end)
end)
