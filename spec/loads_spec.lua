-- Loads (w:add_load): a force and a torque held on a body from step to step and evaluated at
-- every stage of the integrator, in the world's directions or turning with the body (a
-- thruster). Each expectation is a closed form of the motion the load drives.
local impact = require("impact")
local files = require("spec.support.files")
local shape2d, shape3d = impact.shape2d, impact.shape3d

local function block2d(w, opts)
  opts = opts or {}
  return w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = opts.mass or 2,
                      position = opts.position or { 0, 0 }, angle = opts.angle or 0,
                      spin = opts.spin, friction = opts.friction, elasticity = 0 }
end

describe("loads", function()
  it("a constant force in the world's frame: x = F t^2 / (2 m) (2D and 3D)", function()
    local w2 = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
    local b2 = block2d(w2)
    w2:add_load { body = b2, force = { 3, -1 } }
    w2:run { until_time = 2 }
    assert.near(3 * 4 / 4, b2.position[1], 1e-12)
    assert.near(-1 * 4 / 4, b2.position[2], 1e-12)
    local w3 = impact.world3d { gravity = { 0, 0, 0 }, dt = 0.01 }
    local b3 = w3:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 4 }
    w3:add_load { body = b3, force = { 0, 2, 8 } }
    w3:run { until_time = 1 }
    assert.near(2 / 8, b3.position[2], 1e-12)
    assert.near(8 / 8, b3.position[3], 1e-12)
  end)

  it("a thruster turning with a spinning body: v = (F / m) / w (sin w t, 1 - cos w t), to "
    .. "1e-9 (a force held over each step instead is off by O(dt))", function()
    -- the body spins at w without torque (the thrust acts at its centre); the thrust along
    -- its x axis points along (cos w t, sin w t) in the world
    local F, m, om = 2, 2, 3
    local w = impact.world2d { gravity = { 0, 0 }, dt = 1e-3, integrator = "rk4" }
    local b = block2d(w, { mass = m, spin = om })
    w:add_load { body = b, force = { F, 0 }, frame = "body" }
    w:run { until_time = 1 }
    local t = w.time
    assert.near(F / m / om * math.sin(om * t), b.velocity[1], 1e-9)
    assert.near(F / m / om * (1 - math.cos(om * t)), b.velocity[2], 1e-9)
    assert.near(om, b.spin, 1e-12)
    -- the same force applied per step (b:apply_force) is off by about F / m * dt: 1e-3
    local w2 = impact.world2d { gravity = { 0, 0 }, dt = 1e-3, integrator = "rk4" }
    local b2 = block2d(w2, { mass = m, spin = om })
    w2:on("step", function() b2:apply_force({ F * math.cos(b2.angle), F * math.sin(b2.angle) }) end)
    b2:apply_force({ F, 0 })
    w2:run { until_time = 1 }
    assert.is_true(math.abs(b2.velocity[1] - F / m / om * math.sin(om * t)) > 5e-4)
  end)

  it("a force given as a function of time, evaluated at every stage: a force turning in the "
    .. "world at rate W on a free body: v = F / (m W) (sin W t, 1 - cos W t) to 1e-10", function()
    local F, m, W = 3, 2, 5
    local w = impact.world2d { gravity = { 0, 0 }, dt = 1e-3, integrator = "rk4" }
    local b = block2d(w, { mass = m })
    local l = w:add_load { body = b,
      force = function(t) return { F * math.cos(W * t), F * math.sin(W * t) } end }
    assert.equal("function", type(l.force))
    w:run { until_time = 1 }
    local t, q = w.time, F / (m * W)
    assert.near(q * math.sin(W * t), b.velocity[1], 1e-10)
    assert.near(q * (1 - math.cos(W * t)), b.velocity[2], 1e-10)
    -- a torque function in 3D: w = integral of T(t) / I = (1 - cos t) / I for T = sin t
    local w3 = impact.world3d { gravity = { 0, 0, 0 }, dt = 1e-3, integrator = "rk4" }
    local c = w3:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1 }
    w3:add_load { body = c, torque = function(s) return { 0, 0, math.sin(s) } end }
    w3:run { until_time = 1 }
    assert.near((1 - math.cos(w3.time)) / 0.1, c.angular_velocity[3], 1e-9)
    -- a value ends the function; a world with a function load is not saved
    l.force = { 0, 0 }
    assert.same({ 0, 0 }, l.force)
    l.torque = function() return 0 end
    assert.matches("load #1 has a function of time, which cannot be saved",
      select(2, pcall(w.save, w, os.tmpname())))
  end)

  it("a function that fails or returns what is not a force fails the step at its time, and the "
    .. "world keeps its last good state", function()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
    local b = block2d(w)
    local l = w:add_load { body = b, force = function(t) if t > 0.5 then error("no fuel") end
                                                         return { 1, 0 } end }
    local ok, e = pcall(w.run, w, { until_time = 1 })
    assert.is_false(ok)
    assert.matches("the force function of load #1 failed at t = 0.50%d*: .*no fuel", e)
    assert.near(0.5, w.time, 1e-12)
    assert.near(0.25, b.velocity[1], 1e-12)
    l.force = function() return { 1 } end
    assert.matches("it must return an array of 2 finite numbers, got table", select(2, pcall(w.step, w)))
    l.force = function() return { 0 / 0, 1 } end
    assert.matches("must return an array of 2 finite numbers", select(2, pcall(w.step, w)))
    l.force, l.torque = { 0, 0 }, function() coroutine.yield() end
    assert.matches("the torque function of load #1 failed", select(2, pcall(w.step, w)))
    l.torque = function() return w:step() end  -- the world is stepping: it refuses
    assert.matches("the torque function of load #1 failed", select(2, pcall(w.step, w)))
    assert.near(0.5, w.time, 1e-12)
  end)

  it("a force at a point off the centre turns the body: I dw/dt = r x F (2D), and a torque "
    .. "about a principal axis in 3D: w = T t / I", function()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 1e-4 }
    local b = block2d(w, { mass = 2 })
    local I = 2 * (1 + 0.25) / 12
    w:add_load { body = b, force = { 0, 1 }, point = { 0.5, 0 } }  -- world direction, body point
    w:step()
    -- after one short step: spin = (r x F) t / I, the point turned by a negligible angle
    assert.near(0.5 * 1 * 1e-4 / I, b.spin, 1e-9 * 0.5 / I)
    local w3 = impact.world3d { gravity = { 0, 0, 0 }, dt = 0.01 }
    local c = w3:add_body { shape = shape3d.box { size = { 1, 2, 3 } }, mass = 6 }
    w3:add_load { body = c, torque = { 0, 0, 1.5 }, frame = "body" }
    w3:run { until_time = 2 }
    local Iz = 6 * (1 + 4) / 12
    assert.near(1.5 * 2 / Iz, c.angular_velocity[3], 1e-9)
    assert.near(0, c.angular_velocity[1], 1e-12)
  end)

  it("pushing a block on a floor with friction: it stays under mu m g and slides at "
    .. "(F - mu m g) / m above (2D and 3D contact strategies)", function()
    -- the acceleration is measured from 0.5 to 1 s, once the contact has settled (the 2D
    -- engine lifts a resting contact to half its distance tolerance in the first 0.2 s)
    local g, mu, m = 9.81, 0.4, 2
    local function accel(w, b)
      w:run { until_time = 0.5 }
      local v0 = b.velocity[1]
      w:run { until_time = 1 }
      return (b.velocity[1] - v0) / 0.5
    end
    for _, push in ipairs { 0.5, 1.5 } do  -- times mu m g
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 240 }
      w:add_body { shape = shape3d.box { size = { 20, 20, 1 } }, fixed = true,
                   position = { 0, 0, -0.5 }, friction = mu, elasticity = 0 }
      local b = w:add_body { shape = shape3d.box { size = { 0.5, 0.5, 0.5 } }, mass = m,
                             position = { 0, 0, 0.25 }, friction = mu, elasticity = 0 }
      w:add_load { body = b, force = { push * mu * m * g, 0, 0 } }
      local a = accel(w, b)
      if push < 1 then
        assert.is_true(math.abs(b.position[1]) < 1e-3, "3D creep " .. b.position[1])
      else
        assert.near(0.5 * mu * g, a, 0.01 * 0.5 * mu * g)
      end
    end
    local w = impact.world2d { strategy = "contact", gravity = { 0, -g }, dt = 1 / 240 }
    w:add_body { shape = shape2d.block { width = 20, height = 1 }, fixed = true,
                 position = { 0, -0.5 }, friction = mu, elasticity = 0 }
    local b = block2d(w, { mass = m, position = { 0, 0.25 }, friction = mu })
    w:add_load { body = b, force = { 1.5 * mu * m * g, 0 } }
    assert.near(0.5 * mu * g, accel(w, b), 0.01 * 0.5 * mu * g)
    -- and under the soft step (its forces once per step, as its gravity)
    local ws = impact.world2d { strategy = "contact", contact_solver = "soft", gravity = { 0, -g },
                                dt = 1 / 240 }
    ws:add_body { shape = shape2d.block { width = 20, height = 1 }, fixed = true,
                  position = { 0, -0.5 }, friction = mu, elasticity = 0 }
    local bs = block2d(ws, { mass = m, position = { 0, 0.25 }, friction = mu })
    ws:add_load { body = bs, force = { 1.5 * mu * m * g, 0 } }
    assert.near(0.5 * mu * g, accel(ws, bs), 0.01 * 0.5 * mu * g)
  end)

  it("reads and takes new values between steps; removing it or its body ends it", function()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
    local b = block2d(w)
    local l = w:add_load { body = b, force = { 1, 0 }, point = { 0.1, 0 }, frame = "body" }
    assert.same({ 1, 0 }, l.force)
    assert.same({ 0.1, 0 }, l.point)
    assert.equal(0, l.torque)
    assert.equal("body", l.frame)
    assert.equal(b, l.body)
    l.force, l.torque, l.frame = { 0, 0 }, 0, "world"
    w:run { until_time = 1 }
    assert.same({ 0, 0 }, b.velocity)
    l.force = { 2, 0 }
    w:run { until_time = 2 }
    assert.near(1, b.velocity[1], 1e-12)
    assert.equal(1, #w:loads())
    assert.equal(1, w:stats().loads)
    w:remove_load(l)
    assert.equal(0, #w:loads())
    assert.equal(0, w:stats().loads)
    local gone = "this load was removed from its world (or its body was)"
    assert.has_error(function() return l.force end, gone)
    local l2 = w:add_load { body = b, torque = 1 }
    w:remove_body(b)
    assert.has_error(function() return l2.torque end, gone)
    assert.equal(0, #w:loads())
  end)

  it("refuses what it cannot honour, naming the option", function()
    local w = impact.world2d { gravity = { 0, 0 } }
    local b = block2d(w)
    local wall = w:add_body { shape = shape2d.block { width = 1, height = 1 }, fixed = true,
                              position = { 5, 0 } }
    local function err(opts) local ok, e = pcall(w.add_load, w, opts); assert.is_false(ok); return e end
    assert.matches("give option 'force' or 'torque'", err { body = b })
    assert.matches("unknown option \"forse\"", err { body = b, forse = { 1, 0 } })
    assert.matches("option 'frame' must be one of \"world\", \"body\"",
      err { body = b, force = { 1, 0 }, frame = "local" })
    assert.matches("option 'force' must be an array of 2 finite numbers",
      err { body = b, force = { 0 / 0, 0 } })
    assert.matches("option 'body' must be a body that moves", err { body = wall, force = { 1, 0 } })
    assert.matches("option 'body' must be a body that moves", err { body = w.background, force = { 1, 0 } })
    assert.matches("a 2D torque", err { body = b, torque = { 0, 0, 1 } })
    local l = w:add_load { body = b, force = { 1, 0 } }
    assert.has_error(function() l.frame = "local" end,
      "Load.frame must be \"world\" or \"body\", got \"local\"")
    assert.has_error(function() l.size = 1 end,
      "Load: 'size' cannot be set (settable: force, torque, point, frame)")
    local w4 = impact.world2d {}
    local l4 = w4:add_load { body = block2d(w4), torque = 1 }
    w4:close()
    assert.has_error(function() l4.frame = "body" end, "this load's world is closed")
    local w2 = impact.world2d {}
    local other = block2d(w2)
    assert.matches("belongs to another world", select(2, pcall(w2.remove_load, w2, l)))
    assert.is_not_nil(other)
  end)

  it("a loaded body does not fall asleep, and a saved world keeps its loads", function()
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, 0 }, dt = 0.01,
                               sleep = true }
    local b = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1 }
    local l = w:add_load { body = b, force = { 0, 0, 0 } }
    w:run { until_time = 2 }
    assert.is_true(b:is_awake())
    w:remove_load(l)
    w:run { until_time = 4 }
    assert.is_false(b:is_awake())
    local w2 = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
    local c = block2d(w2)
    w2:add_load { body = c, force = { 1, 0 }, frame = "body", torque = 0.5 }
    w2:run { until_time = 0.5 }
    local w3 = files.reloaded(w2)
    assert.equal(1, #w3:loads())
    assert.equal("body", w3:loads()[1].frame)
    w2:run { until_time = 1 }
    w3:run { until_time = 1 }
    assert.same(w2:bodies()[1].position, w3:bodies()[1].position)
  end)

  it("under dem: applied forces last one step (Yade's addF), loads every step (setPermF), on "
    .. "spheres and clumps; a spring is refused", function()
    local dem = require("impact.dem")
    local function world()
      local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 }, dt = 1e-4 }
      w:set_engines { dem.force_resetter(), dem.collider(),
                      dem.interaction_loop { physics = { dem.frict { young = 1e7 } },
                                             law = { "cundall_strack" } },
                      dem.newton { damping = 0 } }
      return w
    end
    local w = world()
    local a = w:add_body { shape = shape3d.sphere { radius = 0.1 }, density = 1000 }
    a:apply_force({ 1, 0, 0 })
    w:step(10)
    assert.near(1e-4 / a.mass, a.velocity[1], 1e-12 / a.mass)  -- one step only
    -- a thruster at the centre of a sphere spinning about z: v = F / (m w) (sin w t, 1 - cos w t)
    -- to the leapfrog's order: its velocities are half a step from its angles, so the phase is
    -- off by about w dt / 2 (1e-3 here); checked to 2 w dt
    local om = 20
    a.velocity, a.angular_velocity = { 0, 0, 0 }, { 0, 0, om }
    w:add_load { body = a, force = { 2, 0, 0 }, frame = "body" }
    local t0 = w.time
    w:step(1000)
    local t = w.time - t0
    local q = 2 / (a.mass * om)
    assert.near(q * math.sin(om * t), a.velocity[1], 2 * om * 1e-4 * q)
    assert.near(q * (1 - math.cos(om * t)), a.velocity[2], 2 * om * 1e-4 * q)
    -- a clump pushed at its centre of mass in the world's frame: no turn, a = F / m
    local w2 = world()
    local c = w2:add_clump { spheres = { { center = { 0, 0, 0 }, radius = 0.02 },
                                         { center = { 0.05, 0, 0 }, radius = 0.01 } },
                             density = 2600 }
    w2:add_load { body = c, force = { 0, 0.5, 0 } }
    w2:step(100)
    assert.near(0.5 / c.mass * w2.time, c.velocity[2], 1e-9 * 0.5 / c.mass)
    assert.near(0, c.angular_velocity[3], 1e-9)
    local w3 = world()
    local s1 = w3:add_body { shape = shape3d.sphere { radius = 0.1 }, density = 1000 }
    local s2 = w3:add_body { shape = shape3d.sphere { radius = 0.1 }, density = 1000,
                             position = { 1, 0, 0 } }
    w3:add_spring { body1 = s1, body2 = s2, stiffness = 10 }
    assert.has_error(function() w3:step() end)
    local ok, e = pcall(w3.step, w3)
    assert.is_false(ok)
    assert.matches("the world has a spring, which the dem does not model", e)
  end)
end)
