-- 2D pins whose two directions are fixed in body 2's frame (w:add_joint{frame = "body"}),
-- myPhysicsLab's CoordType.BODY joints: the rows turn with body 2 (the same constraint as a
-- pin along the world's axes; the drift between corrections enters differently). Its DoNothingTest
-- grinder, JointTest's spinning weld and MiscellanyTest's three pinned blocks use them (their
-- states in myphysicslab_do_nothing_spec, _joint_spec and _misc_spec).
local impact = require("impact")
local files = require("spec.support.files")
local shape2d = impact.shape2d

local function world()
  return impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, 0 },
                          collision_handling = "serial", integrator = "rk4",
                          extra_accel = "velocity", joint_small_impacts = true }
end

describe("2D joints in body 2's frame", function()
  it("a pin turns with body 2 only in name: two blocks welded by two pins spin as one body "
    .. "at the rate their angular momentum gives", function()
    for _, frame in ipairs { "world", "body" } do
      local w = world()
      local a = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 0.6,
                             position = { 0, 0 }, spin = 6 }
      local b = w:add_body { shape = shape2d.block { width = 0.9, height = 1.1 }, mass = 0.6,
                             position = { 0.4, -0.4 } }
      a:no_collide(b)
      w:add_joint { body1 = a, point1 = { 0.4, 0 }, body2 = b, point2 = { 0, 0.4 }, frame = frame }
      w:add_joint { body1 = a, point1 = { 0, -0.4 }, body2 = b, point2 = { -0.4, 0 }, frame = frame }
      w:step()
      -- L = I_a w0 about the weld's centre of mass (0.2, -0.2) (a's centre is 0.08^0.5 from it)
      local inertia = 0.6 * 2 / 12 + 0.6 * (0.81 + 1.21) / 12 + 2 * 0.6 * 0.08
      local omega = 0.6 / inertia
      assert.near(omega, a.spin, 1e-9)
      w:run { until_time = 2 }
      assert.near(omega, a.spin, 1e-6)
      assert.near(a.spin, b.spin, 1e-6)
      assert.near(omega * 2, a.angle, 1e-5)  -- turned by w t
    end
  end)

  it("a pin on the background is the same in either frame (the background does not turn): "
    .. "a pendulum swings bit for bit alike", function()
    local states = {}
    for _, frame in ipairs { "world", "body" } do
      local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 },
                                 integrator = "rk4", joint_small_impacts = true }
      local p = w:add_body { shape = shape2d.block { width = 0.2, height = 2 }, mass = 1,
                             position = { 0.7, -0.7 }, angle = math.pi / 4 }
      w:add_joint { body1 = p, point1 = { 0, 1 }, body2 = w.background, point2 = { 0, 0 },
                    frame = frame }
      w:run { until_time = 2 }
      states[frame] = { p.position[1], p.position[2], p.angle, p.spin }
    end
    assert.same(states.world, states.body)
  end)

  it("refuses another frame, and a single direction in body 2's frame, naming the option, "
    .. "the value and what is accepted", function()
    local w = world()
    local a = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1 }
    local ok, err = pcall(w.add_joint, w, { body1 = a, point1 = { 0, 0 }, frame = "bodies" })
    assert.is_false(ok)
    assert.matches("option 'frame' must be \"world\" or \"body\"", err, 1, true)
    assert.matches("bodies", err, 1, true)
    -- (its rows take the points' relative motion only, exact for points held together, not
    -- for a slider whose points move apart along a turning body)
    ok, err = pcall(w.add_joint, w, { body1 = a, point1 = { 0, 0 }, normal = "y", frame = "body" })
    assert.is_false(ok)
    assert.matches("option 'frame' = \"body\" is for pins (normal = \"both\")", err, 1, true)
    assert.matches('"y"', err, 1, true)
  end)

  it("survives w:save and impact.load: the loaded world steps bit for bit the same", function()
    local w = world()
    local a = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1, spin = 3 }
    local b = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
                           position = { 0, 3 } }
    a:no_collide(b)
    w:add_joint { body1 = a, point1 = { 0, 1.5 }, body2 = b, point2 = { 0, -1.5 }, frame = "body" }
    w:step(3)
    local w2 = files.reloaded(w)
    w:step(40)
    w2:step(40)
    local b1, b2 = w:bodies(), w2:bodies()
    for i = 1, #b1 do
      assert.same(b1[i].position, b2[i].position)
      assert.same({ b1[i].angle, b1[i].spin }, { b2[i].angle, b2[i].spin })
    end
  end)
end)
