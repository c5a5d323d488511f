-- Worlds and bodies are safe whatever the order of removal, closing and collection.
local impact = require("impact")

local function ball() return impact.shape2d.ball { radius = 0.5 } end

describe("lifetimes", function()
  it("a removed body raises a clear error and its slot is reused safely", function()
    local w = impact.world2d {}
    local a = w:add_body { shape = ball(), mass = 1, name = "a" }
    local b = w:add_body { shape = ball(), mass = 1, position = { 3, 0 } }
    w:remove_body(a)
    assert.is_false(a:is_valid())
    assert.has_error(function() return a.position end, "body 'a' (#1) was removed from its world")
    assert.has_error(function() a:apply_impulse({ 1, 0 }) end,
      "body 'a' (#1) was removed from its world")
    assert.has_error(function() w:remove_body(a) end, "body 'a' (#1) was removed from its world")
    local c = w:add_body { shape = ball(), mass = 2, position = { -3, 0 } }
    assert.are.equal(1, c.id)          -- the freed slot
    assert.is_false(a:is_valid())      -- the old handle still does not see the new body
    assert.near({ -3, 0 }, c.position, 0)
    assert.are.equal(2, #w)
    assert.are.same({ c, b }, w:bodies())
    assert.are.equal("a", a.name)      -- Lua-side fields stay readable
  end)

  it("a closed world makes its bodies raise", function()
    local w = impact.world3d {}
    local b = w:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1 }
    w:close()
    assert.has_error(function() return b.position end, "this body's world is closed")
    assert.has_error(function() w:step() end, "the world is closed")
    assert.has_error(function() return w.time end, "the world is closed (reading 'time')")
    w:close()  -- closing twice is harmless
    assert.are.equal("impact.World(closed)", tostring(w))
  end)

  it("<close> closes a world at the end of a scope", function()
    local b
    do
      local w <close> = impact.world2d {}
      b = w:add_body { shape = ball(), mass = 1 }
    end
    assert.has_error(function() return b.velocity end, "this body's world is closed")
  end)

  it("a body keeps its world alive; both are collected when dropped", function()
    local weak = setmetatable({}, { __mode = "v" })
    local b
    do
      local w = impact.world2d {}
      b = w:add_body { shape = ball(), mass = 1 }
      weak.w = w
    end
    collectgarbage()
    collectgarbage()
    assert.is_not_nil(weak.w)
    b.world:step(3)
    assert.near(0.03, b.world.time, 1e-15)
    b = nil  -- luacheck: ignore 311
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak.w)
  end)

  it("survives collection in any order of many worlds, bodies, springs and shapes", function()
    local keep = {}
    local w0 = impact.world2d { seed = 3 }
    for i = 1, 200 do
      local w = impact.world2d { gravity = { 0, -1 } }
      local s = ball()
      local a = w:add_body { shape = s, mass = 1 }
      local b = w:add_body { shape = s, mass = 2, position = { 1, 0 } }
      local sp = w:add_spring { body1 = a, body2 = b, stiffness = 3 }
      if w0:random() < 0.3 then w:remove_body(a) end
      if w0:random() < 0.3 then w:close() end
      local pick = w0:random(4)
      keep[i] = ({ a, b, sp, s })[pick]
      if i % 50 == 0 then collectgarbage() end
    end
    collectgarbage()
    for _, x in ipairs(keep) do
      -- each kept object answers or raises cleanly
      pcall(function() return x.position or x.length or x:area() end)
    end
  end)

  it("springs go with a removed body", function()
    local w = impact.world2d {}
    local a = w:add_body { shape = ball(), mass = 1 }
    local b = w:add_body { shape = ball(), mass = 1, position = { 2, 0 } }
    local s = w:add_spring { body1 = a, body2 = b, stiffness = 1 }
    assert.near(2, s.length, 1e-15)
    assert.near(2, s.rest_length, 1e-15)  -- default: relaxed at the current distance
    w:remove_body(b)
    assert.has_error(function() return s.length end, "this spring was removed from its world")
    assert.are.equal(0, w:stats().springs)
  end)

  it("the background is a fixed body that cannot be moved or removed", function()
    local w = impact.world2d {}
    local bg = w.background
    assert.is_true(bg.fixed and bg.is_background)
    assert.are.equal(bg, w.background)
    assert.has_error(function() w:remove_body(bg) end,
      "World:remove_body: the background cannot be removed")
    assert.has_error(function() bg.position = { 1, 1 } end,
      "Body.position: the background cannot be moved")
  end)
end)
