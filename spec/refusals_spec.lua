-- Clear errors instead of silence (issue #17 item 2): what a world cannot honour is refused
-- when it is asked for, with a message that says so.
local impact = require("impact")
local s2 = impact.shape2d

local function err(f, ...) local ok, e = pcall(f, ...) assert.is_false(ok) return e end

describe("refusals", function()
  it("refuses joints, ropes and rods under strategies that would ignore them (2D)", function()
    for _, strategy in ipairs { "none", "compliant" } do
      local w = impact.world2d { strategy = strategy }
      local b = w:add_body { shape = s2.ball { radius = 0.1 }, mass = 1, position = { 1, 0 } }
      assert.matches("World:add_joint: joints, ropes and rods act only under the strategies "
        .. "\"contact\" and \"impulse\".*strategy is \"" .. strategy .. "\"",
        err(w.add_joint, w, { body1 = b, point1 = { -1, 0 } }))
      assert.matches("World:add_rope: .*strategy is \"" .. strategy .. "\"",
        err(w.add_rope, w, { body1 = b, length = 1 }))
      assert.matches("World:add_rope: .*strategy is \"" .. strategy .. "\"",
        err(w.add_rope, w, { body1 = b, length = 1, rod = true }))
    end
  end)

  it("refuses joints and rods under impulse without joint_small_impacts, and holds them with it", function()
    -- without the small impacts after each step nothing holds a joint under impulse: a ball on
    -- a 1 m rod would fall 4.9 m in 1 s; with them it stays on its circle
    local w = impact.world2d { strategy = "impulse", gravity = { 0, -9.81 } }
    local b = w:add_body { shape = s2.ball { radius = 0.05 }, mass = 1, position = { 1, 0 } }
    assert.matches("World:add_joint: under the strategy \"impulse\" a joint or rod "
      .. ".*joint_small_impacts = true",
      err(w.add_joint, w, { body1 = b, point1 = { -1, 0 } }))
    assert.matches("World:add_rope: under the strategy \"impulse\" a joint or rod",
      err(w.add_rope, w, { body1 = b, length = 1, rod = true }))
    w = impact.world2d { strategy = "impulse", gravity = { 0, -9.81 }, dt = 0.001,
                         joint_small_impacts = true }
    b = w:add_body { shape = s2.ball { radius = 0.05 }, mass = 1, position = { 1, 0 } }
    w:add_rope { body1 = b, length = 1, rod = true }
    w:run { until_time = 1 }
    assert.near(1, math.sqrt(b.position[1] ^ 2 + b.position[2] ^ 2), 0.02)
    -- and a contact world holding a joint cannot switch to impulse without them
    w = impact.world2d { strategy = "contact" }
    b = w:add_body { shape = s2.ball { radius = 0.1 }, mass = 1, position = { 1, 0 } }
    w:add_joint { body1 = b, point1 = { -1, 0 } }
    assert.matches("strategy \"impulse\" would ignore with joint_small_impacts = false",
      err(function() w.strategy = "impulse" end))
  end)

  it("keeps joints honoured: a pinned bar under contact stays on its pin", function()
    local w = impact.world2d { strategy = "contact", gravity = { 0, -9.81 } }
    local b = w:add_body { shape = s2.block { width = 0.1, height = 2 }, mass = 1, position = { 0, -1 } }
    local j = w:add_joint { body1 = b, point1 = { 0, 1 }, point2 = { 0, 0 } }
    w:run { duration = 0.5 }
    assert.is_true(w:connector_error(j) < 1e-6)
  end)

  it("refuses to switch a world holding connectors to a strategy that would ignore them", function()
    local w = impact.world2d { strategy = "contact" }
    local b = w:add_body { shape = s2.ball { radius = 0.1 }, mass = 1, position = { 1, 0 } }
    w:add_joint { body1 = b, point1 = { -1, 0 } }
    for _, strategy in ipairs { "none", "compliant" } do
      assert.matches("strategy \"" .. strategy .. "\" would ignore",
        err(function() w.strategy = strategy end))
    end
    assert.equal("contact", w.strategy)
  end)

  it("refuses the dem strategy on a 2D world, at construction and later", function()
    assert.matches("impact.world2d: strategy \"dem\" is for 3D worlds",
      err(impact.world2d, { strategy = "dem" }))
    local w = impact.world2d {}
    assert.matches("strategy \"dem\" is for 3D worlds %(this world is 2D%)",
      err(function() w.strategy = "dem" end))
  end)

  it("refuses the 2D-only joint option on 3D worlds of every strategy, and the 2D joint form", function()
    for _, strategy in ipairs { "none", "compliant", "dem", "impulse", "contact" } do
      assert.matches("impact.world3d: option 'joint_small_impacts'",
        err(impact.world3d, { strategy = strategy, joint_small_impacts = true }))
    end
    local w = impact.world3d {}
    local b = w:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1 }
    -- 3D joints exist now (engine3d_joints_spec.lua): the 2D form, without a kind, is refused
    -- by name (it was refused as "this world is 3D" before them)
    assert.matches("World:add_joint: joints, ropes and rods act only under the strategies",
      err(w.add_joint, w, { body1 = b }))
    w = impact.world3d { strategy = "contact" }
    b = w:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1 }
    assert.matches("World:add_joint: option 'kind' is required in a 3D world",
      err(w.add_joint, w, { body1 = b }))
  end)

  it("refuses a run whose end time has already passed", function()
    local w = impact.world2d { dt = 0.01 }
    w:run { until_time = 0.2 }
    assert.matches("World:run: until_time = 0.1 has already passed %(the world's time is 0.2",
      err(w.run, w, { until_time = 0.1 }))
    local t = w.time
    w:run { until_time = t }  -- already there: nothing to do, no error
    assert.equal(t, w.time)
  end)
end)
