-- Mass properties of the first shapes against their closed forms.
local impact = require("impact")

describe("basic shapes", function()
  it("a ball has area pi r^2 and polar moment pi r^4 / 2 per unit density", function()
    local s = impact.shape2d.ball { radius = 0.3 }
    assert.near(math.pi * 0.09, s:area(), { rel = 1e-15 })
    assert.near(2 * math.pi * 0.3 ^ 4 / 2, s:inertia(2), { rel = 1e-15 })
    assert.near({ 0, 0 }, s:centroid(), 0)
    assert.are.equal("circle", s.kind)
    assert.are.equal(2, s.dim)
  end)

  it("a block has area w h and polar moment m (w^2 + h^2) / 12", function()
    local s = impact.shape2d.block { width = 2, height = 0.5 }
    assert.near(1, s:area(), 1e-15)
    assert.near(3 * 1 * (4 + 0.25) / 12, s:inertia(3), { rel = 1e-15 })
    local lo, hi = s:bounds { position = { 1, 1 }, angle = math.pi / 2 }
    assert.near({ 0.75, 0 }, lo, 1e-15)
    assert.near({ 1.25, 2 }, hi, 1e-15)
  end)

  it("a sphere has volume 4/3 pi r^3 and inertia 2/5 m r^2", function()
    local s = impact.shape3d.sphere { radius = 2 }
    local v = 4 / 3 * math.pi * 8
    assert.near(v, s:volume(), { rel = 1e-15 })
    local i = 0.4 * v * 4
    assert.near({ { i, 0, 0 }, { 0, i, 0 }, { 0, 0, i } }, s:inertia(), { rel = 1e-15 })
  end)

  it("a box has Ixx = m (b^2 + c^2) / 12", function()
    local s = impact.shape3d.box { size = { 1, 2, 3 } }
    assert.near(6, s:volume(), 1e-15)
    local I = s:inertia(1)
    assert.near({ 6 * 13 / 12, 6 * 10 / 12, 6 * 5 / 12 }, { I[1][1], I[2][2], I[3][3] }, { rel = 1e-15 })
    local lo, hi = s:bounds { position = { 0, 0, 1 },
      orientation = { math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4) } }
    assert.near({ -1, -0.5, -0.5 }, lo, 1e-15)
    assert.near({ 1, 0.5, 2.5 }, hi, 1e-15)
  end)

  it("rejects bad dimensions with the option, value and what is accepted", function()
    assert.has_error(function() impact.shape2d.ball { radius = -1 } end,
      "impact.shape2d.ball: option 'radius' must be a positive finite number, got -1")
    assert.has_error(function() impact.shape2d.block { width = 0 / 0 } end,
      "impact.shape2d.block: option 'width' must be a positive finite number, got nan")
    assert.error_matches(function() impact.shape2d.ball { radus = 1 } end,
      "unknown option \"radus\" %(accepted: radius%)")
    assert.error_matches(function() impact.shape3d.box { size = { 1, 0, 1 } } end,
      "option 'size' must be positive, element 2 is 0")
    assert.error_matches(function() impact.shape2d.ball { radius = 1 }:volume() end,
      "volume%(%) is for 3D shapes")
  end)
end)
