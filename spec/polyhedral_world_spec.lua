-- Polyhedral contacts between the bodies of a world: the world's geometric epsilon and
-- Solfec's sparsification options.
local impact = require("impact")

local corners = { { -.5, -.5, -.5 }, { .5, -.5, -.5 }, { -.5, .5, -.5 }, { .5, .5, -.5 },
                  { -.5, -.5, .5 }, { .5, -.5, .5 }, { -.5, .5, .5 }, { .5, .5, .5 } }

local function straddling(opts)
  local w = impact.world3d { gravity = { 0, 0, 0 }, polyhedra = opts }
  w:add_body { shape = impact.shape3d.box { size = { 1, 2, 0.2 } }, fixed = true,
    position = { -0.5, 0, -0.1 }, name = "left" }
  w:add_body { shape = impact.shape3d.box { size = { 1, 2, 0.2 } }, fixed = true,
    position = { 0.5, 0, -0.1 }, name = "right" }
  -- a unit cube 1 mm deep in the floor, 0.2 over the left piece and 0.8 over the right one
  w:add_body { shape = impact.shape3d.polyhedron { points = corners }, mass = 1,
    position = { 0.3, 0, 0.499 }, name = "cube" }
  return w
end

describe("w:polyhedral_contacts", function()
  it("finds a contact with each piece of a floor, with Solfec's area and gap", function()
    local contacts = straddling(nil):polyhedral_contacts()
    assert.are.equal(2, #contacts)
    table.sort(contacts, function(a, b) return a.area < b.area end)
    -- overlaps 0.2 x 1 x 0.001 and 0.8 x 1 x 0.001: area is half the surface
    assert.near(0.2 * 1 + 0.2 * 0.001 + 1 * 0.001, contacts[1].area, 1e-12)
    assert.near(0.8 * 1 + 0.8 * 0.001 + 1 * 0.001, contacts[2].area, 1e-12)
    assert.are.equal("left", contacts[1].body1.name)
    assert.are.equal("cube", contacts[1].body2.name)
    -- the normal weights each face of the intersection by its area squared (A's faces along
    -- their normals, B's against theirs): top and bottom (a^2 along z each) and the two
    -- 1 x 0.001 sides, which both push along +x for the left overlap and -x for the right one
    local function normal(top, side_sign)
      local n = { side_sign * 2 * 0.001 ^ 2, 0, 2 * top ^ 2 }
      local len = math.sqrt(n[1] ^ 2 + n[3] ^ 2)
      return { n[1] / len, 0, n[3] / len }
    end
    assert.near(normal(0.2, 1), contacts[1].normal, 1e-12)
    assert.near(normal(0.8, -1), contacts[2].normal, 1e-12)
    for _, c in ipairs(contacts) do assert.near(-0.001, c.gap, 1e-12) end
  end)

  it("drops new contacts smaller than the world's minarea", function()
    local contacts = straddling { minarea = 0.5 }:polyhedral_contacts()
    assert.are.equal(1, #contacts)
    assert.are.equal("right", contacts[1].body1.name)
  end)

  it("uses the world's epsilon: bodies within it touch with gap 0", function()
    for _, case in ipairs { { 1e-6, true }, { 1e-9, false } } do
      local w = impact.world3d { gravity = { 0, 0, 0 }, polyhedra = { epsilon = case[1] } }
      local a = w:add_body { shape = impact.shape3d.box { size = 1 }, mass = 1 }
      local b = w:add_body { shape = impact.shape3d.box { size = 1 }, mass = 1,
        position = { 1 + 1e-7, 0, 0 } }
      local r, distance = w:intersection(a, b)
      if case[2] then
        assert.near(0, r.gap, 0)
      else
        assert.is_nil(r)
        assert.near(1e-7, distance, 1e-12)
      end
    end
  end)

  it("rejects bad settings", function()
    assert.error_matches(function() impact.world3d { polyhedra = { eps = 1 } } end,
      "unknown option polyhedra.eps")
    assert.error_matches(function() impact.world3d { polyhedra = { minarea = -1 } } end,
      "option 'polyhedra.minarea' must be a finite number >= 0, got %-1")
    assert.error_matches(function() impact.world2d { polyhedra = {} } end,
      "option 'polyhedra' is for 3D worlds")
  end)
end)
