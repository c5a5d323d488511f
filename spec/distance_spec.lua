-- w:distance(a, b) between bodies, against closed forms.
local impact = require("impact")

describe("w:distance", function()
  it("gives the gap, normal and closest points of two balls (2D)", function()
    local w = impact.world2d { gravity = { 0, 0 } }
    local a = w:add_body { shape = impact.shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 0 } }
    local b = w:add_body { shape = impact.shape2d.ball { radius = 0.25 }, mass = 1, position = { 3, 4 } }
    local d, n, pa, pb = w:distance(a, b)
    assert.near(5 - 0.75, d, 1e-12)
    assert.near({ 0.6, 0.8 }, n, 1e-12)
    assert.near({ 0.3, 0.4 }, pa, 1e-12)
    assert.near({ 3 - 0.15, 4 - 0.2 }, pb, 1e-12)
  end)

  it("gives the depth of a box sunk into a rotated block (2D)", function()
    local w = impact.world2d { gravity = { 0, 0 } }
    local floor = w:add_body { shape = impact.shape2d.block { width = 4, height = 1 }, fixed = true,
      position = { 0, -0.5 } }
    local box = w:add_body { shape = impact.shape2d.block { width = 1, height = 1 }, mass = 1,
      position = { 0.3, 0.4 } }
    local d, n = w:distance(floor, box)
    assert.near(-0.1, d, 1e-12)  -- the box's bottom is at y = -0.1
    assert.near({ 0, 1 }, n, 1e-12)
  end)

  it("gives the distance between a sphere and a rotated box (3D)", function()
    local w = impact.world3d { gravity = { 0, 0, 0 } }
    local c, s = math.cos(math.pi / 8), math.sin(math.pi / 8)
    local box = w:add_body { shape = impact.shape3d.box { size = { 2, 2, 2 } }, mass = 1,
      orientation = { c, 0, 0, s } }  -- 45 degrees about z
    local ball = w:add_body { shape = impact.shape3d.sphere { radius = 0.5 }, mass = 1,
      position = { 0, 0, 3 } }
    local d, n, pa, pb = w:distance(box, ball)
    assert.near(3 - 1 - 0.5, d, 1e-9)
    assert.near({ 0, 0, 1 }, n, 1e-9)
    assert.near(1, pa[3], 1e-9)
    assert.near(2.5, pb[3], 1e-9)
  end)

  it("w:intersection gives the volumetric intersection of two cubes and Solfec's contact", function()
    local w = impact.world3d { gravity = { 0, 0, 0 } }
    local a = w:add_body { shape = impact.shape3d.box { size = 1 }, mass = 1 }
    local b = w:add_body { shape = impact.shape3d.box { size = 1 }, mass = 1, position = { 0.5, 0, 0 } }
    local r = w:intersection(a, b)
    -- the overlap is the box [0, 0.5] x [-0.5, 0.5]^2: volume 0.5, surface 4, half of it 2
    assert.near(0.5, r.volume, 1e-12)
    assert.near(2, r.area, 1e-12)
    assert.near({ 1, 0, 0 }, r.normal, 1e-12)
    assert.near({ 0.25, 0, 0 }, r.point, 1e-12)
    assert.near(-0.5, r.gap, 1e-12)
    b.position = { 2, 0, 0 }
    local none, distance = w:intersection(a, b)
    assert.is_nil(none)
    assert.near(1, distance, 1e-12)
    local s = w:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1 }
    assert.error_matches(function() w:intersection(a, s) end,
      "World:intersection: body b's shape must be a polyhedron")
  end)

  it("refuses bodies of another world or without a shape", function()
    local w1, w2 = impact.world2d {}, impact.world2d {}
    local a = w1:add_body { shape = impact.shape2d.ball {}, mass = 1 }
    local b = w2:add_body { shape = impact.shape2d.ball {}, mass = 1 }
    assert.error_matches(function() w1:distance(a, b) end, "argument #2 is a body of another world")
    assert.error_matches(function() w1:distance(a, w1.background) end, "both bodies need a shape")
  end)
end)
