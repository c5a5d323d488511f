-- World:on and World:off turn a world's contact events on and off (World:_contact_events,
-- imp_world_set_contact_events): a world builds them while it has a contact_begin, contact_end
-- or collision handler, and steps to the same state either way. Expected events from the
-- scene's motion: a unit cube resting on a fixed slab touches it (no contact_begin for a handler
-- added then: it touched in the step before too); thrown up at 3 m/s it leaves (contact_end)
-- and comes back after 2 v / g = 0.61 s (contact_begin, then a collision).
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function scene()
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                             contact_solver = "soft" }
  w:add_body { shape = shape3d.box { size = { 12, 12, 1 } }, fixed = true, position = { 0, 0, -0.5 } }
  local b = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 0.5 },
                         friction = 0.5, elasticity = 0 }
  return w, b
end

local function contact_kinds(w)
  local n = 0
  for _, e in ipairs(w:_events()) do
    if e.kind ~= "sleep" and e.kind ~= "wake" then n = n + 1 end
  end
  return n
end

describe("contact events on demand", function()
  it("a handler added to a resting pair sees its end and its next landing, the state unchanged", function()
    local w, b = scene()
    local quiet, qb = scene()
    w:step(30)
    quiet:step(30)
    local seen = {}
    local function note(e) seen[#seen + 1] = e.kind end
    w:on("contact_begin", note)
    w:on("contact_end", note)
    w:on("collision", note)
    w:step(1)
    quiet:step(1)
    assert.are.same({}, seen)  -- touching now and before
    for _, body in ipairs({ b, qb }) do body.velocity = { 0, 0, 3 } end
    local built = 0
    for _ = 1, 60 do
      w:step()
      quiet:step()
      built = built + contact_kinds(quiet)
    end
    assert.are.same({ "contact_end", "contact_begin", "collision" }, seen)
    assert.are.equal(0, built)  -- no handler: none built
    assert.are.equal(quiet:state_hash(), w:state_hash())
  end)

  it("removing the last contact handler stops the events", function()
    local w, b = scene()
    local seen = 0
    local function note() seen = seen + 1 end
    w:on("contact_end", note)
    w:on("step", function() end)
    w:step(10)
    assert.is_true(w:off("contact_end", note))
    b.velocity = { 0, 0, 3 }
    local built = 0
    for _ = 1, 60 do
      w:step()
      built = built + contact_kinds(w)
    end
    assert.are.equal(0, seen)
    assert.are.equal(0, built)
  end)
end)
