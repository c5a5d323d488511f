-- impact.shape3d.distance: signed distances, normals and points against hand-worked answers.
local impact = require("impact")
local shape3d = impact.shape3d

local function at(x, y, z, q) return { position = { x, y, z }, orientation = q } end

describe("impact.shape3d.distance", function()
  it("two spheres: centre distance minus the radii", function()
    local a, b = shape3d.sphere { radius = 0.5 }, shape3d.sphere { radius = 0.25 }
    local d, n, pa, pb, info = shape3d.distance(a, at(0, 0, 0), b, at(0.6, 0.8, 0))
    assert.near(0.25, d, 1e-15)
    assert.near({ 0.6, 0.8, 0 }, n, 1e-15)
    assert.near({ 0.3, 0.4, 0 }, pa, 1e-15)
    assert.near({ 0.45, 0.6, 0 }, pb, 1e-15)
    assert.are.equal("analytic", info.method)
    assert.is_true(info.converged)
    -- concentric: depth r1 + r2 and a unit normal
    d, n = shape3d.distance(a, at(1, 1, 1), b, at(1, 1, 1))
    assert.near(-0.75, d, 1e-15)
    assert.near(1, math.sqrt(n[1] ^ 2 + n[2] ^ 2 + n[3] ^ 2), 1e-15)
  end)

  it("sphere and box: face, edge and corner regions", function()
    local box = shape3d.box { size = { 2, 2, 2 } }
    local s = shape3d.sphere { radius = 0.1 }
    local d, n = shape3d.distance(s, at(1.5, 0.2, -0.3), box, at(0, 0, 0))
    assert.near(0.4, d, 1e-12)
    assert.near({ -1, 0, 0 }, n, 1e-12)
    d = shape3d.distance(s, at(1.3, 1.4, 0), box, at(0, 0, 0))
    assert.near(0.5 - 0.1, d, 1e-12)
    d = shape3d.distance(s, at(1.1, 1.2, 1.2), box, at(0, 0, 0))
    assert.near(0.3 - 0.1, d, 1e-12)
    -- penetrating by 0.05 through the top face
    d, n = shape3d.distance(box, at(0, 0, 0), s, at(0.3, 0.2, 1.05))
    assert.near(-0.05, d, 1e-12)
    assert.near({ 0, 0, 1 }, n, 1e-12)
  end)

  it("rounded boxes face to face and edge to edge", function()
    local r = 0.1
    local a = shape3d.box { size = 2, smoothing = r }
    local q45x = { math.cos(math.pi / 8), math.sin(math.pi / 8), 0, 0 }
    local q45y = { math.cos(math.pi / 8), 0, math.sin(math.pi / 8), 0 }
    local d, n = shape3d.distance(a, at(0, 0, 0), a, at(0.2, 0.1, 2.3))
    assert.near(0.3, d, 1e-9)
    assert.near({ 0, 0, 1 }, n, 1e-9)
    local e = math.sqrt(2) * (1 - r) + r
    d, n = shape3d.distance(a, at(0, 0, 0, q45x), a, at(0, 0, 2 * e + 0.2, q45y))
    assert.near(0.2, d, 1e-9)
    assert.near({ 0, 0, 1 }, n, 1e-9)
    d = shape3d.distance(a, at(0, 0, 0, q45x), a, at(0, 0, 2 * e - 0.1, q45y))
    assert.near(-0.1, d, 1e-9)
  end)

  it("capsules and a tilted cylinder on a wall", function()
    local c1, c2 = shape3d.capsule { radius = 0.2, length = 2 }, shape3d.capsule { radius = 0.1, length = 1 }
    local qx = { math.cos(math.pi / 4), math.sin(math.pi / 4), 0, 0 }
    local d, n = shape3d.distance(c1, at(0, 0, 0), c2, at(0.5, 0, 0.3, qx))
    assert.near(0.2, d, 1e-12)
    assert.near({ 1, 0, 0 }, n, 1e-12)
    local cyl, wall = shape3d.cylinder { radius = 0.4, length = 1.2 }, shape3d.wall {}
    local t = 0.3
    local low = 0.6 * math.cos(t) + 0.4 * math.sin(t)
    local tilt = { math.cos(t / 2), math.sin(t / 2), 0, 0 }
    d, n = shape3d.distance(wall, at(0, 0, 0), cyl, at(0, 0, low + 0.05, tilt))
    assert.near(0.05, d, 1e-12)
    assert.near({ 0, 0, 1 }, n, 1e-15)
    -- a wall facing +x through x = 1, and a ball 0.2 in front of it
    local side = shape3d.wall { normal = { 2, 0, 0 } }
    d, n = shape3d.distance(shape3d.sphere { radius = 0.5 }, at(1.7, 3, -2), side, at(1, 0, 0))
    assert.near(0.2, d, 1e-15)
    assert.near({ -1, 0, 0 }, n, 1e-15)
  end)

  it("rejects non-3D shapes and two walls", function()
    local s = shape3d.sphere { radius = 1 }
    assert.error_matches(function() shape3d.distance(impact.shape2d.ball {}, at(0, 0, 0), s, at(0, 0, 0)) end,
      "argument #1 %(shape_a%) must be a 3D shape")
    assert.error_matches(function() shape3d.distance(s, at(0, 0, 0), 42, at(0, 0, 0)) end,
      "argument #3 %(shape_b%) must be a 3D shape")
    local w = shape3d.wall {}
    assert.error_matches(function() shape3d.distance(w, at(0, 0, 0), w, at(0, 0, 0)) end, "two walls")
    assert.error_matches(function() shape3d.distance(s, { position = { 0, 0 } }, s, at(0, 0, 0)) end,
      "option 'position' must be an array of 3 numbers")
  end)
end)
