-- 3D shapes from Lua: mass properties against closed forms, hulls, parameters, errors.
local impact = require("impact")
local shape3d = impact.shape3d
local pi = math.pi

local function diag(a, b, c) return { { a, 0, 0 }, { 0, b, 0 }, { 0, 0, c } } end

describe("impact.shape3d", function()
  it("ellipsoid: V = 4/3 pi a b c, Ixx = V (b^2 + c^2) / 5", function()
    local s = shape3d.ellipsoid { radii = { 1, 2, 3 } }
    local v = 4 / 3 * pi * 6
    assert.near(v, s:volume(), { rel = 1e-14 })
    assert.near(diag(v * 13 / 5, v * 10 / 5, v * 5 / 5), s:inertia(), { rel = 1e-13 })
    assert.are.equal("ellipsoid", s.kind)
  end)

  it("cylinder: V = pi R^2 L, Izz = m R^2 / 2, Ixx = m (3 R^2 + L^2) / 12", function()
    local R, L = 0.3, 2.0
    local s = shape3d.cylinder { radius = R, length = L }
    local m = pi * R * R * L
    assert.near(m, s:volume(), { rel = 1e-14 })
    local ixx = m * (3 * R * R + L * L) / 12
    assert.near(diag(ixx, ixx, m * R * R / 2), s:inertia(), { rel = 1e-13 })
  end)

  it("cone: V = pi R^2 L / 3, centroid at L / 4, Izz = 3/10 m R^2", function()
    local R, L = 0.5, 1.2
    local s = shape3d.cone { radius = R, length = L }
    local m = pi * R * R * L / 3
    assert.near(m, s:volume(), { rel = 1e-14 })
    assert.near({ 0, 0, L / 4 }, s:centroid(), 1e-15)
    local ixx = 3 / 20 * m * R * R + 3 / 80 * m * L * L
    assert.near(diag(ixx, ixx, 0.3 * m * R * R), s:inertia(), { rel = 1e-13 })
  end)

  it("capsule: a cylinder and two hemispheres", function()
    local a, L = 0.25, 1.0
    local s = shape3d.capsule { radius = a, length = L }
    local mc, mh, h = pi * a * a * L, 2 / 3 * pi * a ^ 3, L / 2
    assert.near(mc + 2 * mh, s:volume(), { rel = 1e-14 })
    local izz = mc * a * a / 2 + 2 * 0.4 * mh * a * a
    local ixx = mc * (3 * a * a + L * L) / 12 + 2 * (mh * a * a / 5 + mh * (h * h + 0.75 * a * h + a * a / 5))
    assert.near(diag(ixx, ixx, izz), s:inertia(), { rel = 1e-13 })
  end)

  it("a smoothed box: core + slabs + quarter cylinders + octants", function()
    local r, sx, sy, sz = 0.1, 1.0, 0.6, 0.8
    local s = shape3d.box { size = { sx, sy, sz }, smoothing = r }
    local a, b, c = sx / 2 - r, sy / 2 - r, sz / 2 - r
    local v = 8 * a * b * c + 8 * r * (a * b + b * c + a * c) + 2 * pi * r * r * (a + b + c)
      + 4 / 3 * pi * r ^ 3
    assert.near(v, s:volume(), { rel = 1e-14 })
    -- the smoothed hull of the core's corners is the same solid
    local pts = {}
    for i = 0, 7 do
      pts[#pts + 1] = { (i & 1 == 1) and a or -a, (i & 2 == 2) and b or -b, (i & 4 == 4) and c or -c }
    end
    local h = shape3d.convex { points = pts, smoothing = r }
    assert.near(s:volume(), h:volume(), { rel = 1e-13 })
    assert.near(s:inertia(), h:inertia(), { abs = 1e-15, rel = 1e-12 })
    -- the sharp box keeps its closed form
    local sharp = shape3d.box { size = { sx, sy, sz } }
    assert.near(sx * sy * sz, sharp:volume(), 1e-15)
  end)

  it("the hull of a cube's corners ignores interior, duplicate and coplanar points", function()
    local pts = {}
    for i = 0, 7 do
      local p = { (i & 1 == 1) and 1 or -1, (i & 2 == 2) and 1 or -1, (i & 4 == 4) and 1 or -1 }
      pts[#pts + 1] = p
      pts[#pts + 1] = { p[1], p[2], p[3] }
    end
    for _, p in ipairs { { 0, 0, 0 }, { 0.5, -0.2, 0.1 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, -1, 0.3 } } do
      pts[#pts + 1] = p
    end
    local s = shape3d.convex { points = pts }
    assert.are.equal(8, #shape3d.parameters(s).vertices)
    assert.near(8, s:volume(), 1e-14)
    assert.near(diag(8 * 8 / 12, 8 * 8 / 12, 8 * 8 / 12), s:inertia(), { abs = 1e-14, rel = 1e-13 })
  end)

  it("reports parameters", function()
    local p = shape3d.parameters(shape3d.cylinder { radius = 0.2, length = 1, smoothing = 0.05 })
    assert.are.same({ kind = "cylinder", radius = 0.2, length = 1, smoothing = 0.05 }, p)
    assert.are.same({ kind = "wall", normal = { 0, 0, 1 } }, shape3d.parameters(shape3d.wall {}))
  end)

  it("rejects bad input with the option, value and what is accepted", function()
    assert.error_matches(function() shape3d.box { size = 1, smoothing = 0.75 } end,
      "impact.shape3d.box: option 'smoothing' must be at most half the smallest size, got 0.75")
    assert.error_matches(function() shape3d.cylinder { radius = 0.1, smoothing = -1 } end,
      "option 'smoothing' must be a finite number >= 0, got %-1")
    assert.error_matches(function() shape3d.cone { radius = 1, length = 1, smoothing = 0.5 } end,
      "at most the inradius")
    local flat = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } }
    assert.error_matches(function() shape3d.convex { points = flat } end, "the points span no volume")
    assert.error_matches(function() shape3d.convex { points = { { 0, 0, 0 }, { 1, 0 } } } end,
      "option 'points' must hold from 4")
    local bad = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, "x" } }
    assert.error_matches(function() shape3d.convex { points = bad } end,
      "points%[4%] must be an array of 3 finite numbers, element 3 is \"x\"")
    assert.error_matches(function() shape3d.ellipsoid { radii = { 1, 0, 1 } } end,
      "option 'radii' must be positive, element 2 is 0")
    assert.error_matches(function() shape3d.wall { normal = { 0, 0, 0 } } end, "must be a nonzero vector")
    assert.error_matches(function() shape3d.capsule { radius = 1, lenght = 2 } end, "unknown option")
  end)
end)
