-- World queries (issue #17 item 5): w:ray_cast, w:query_box, w:query_point in 2D and 3D,
-- against closed-form hit points and normals.
local impact = require("impact")
local s2, s3 = impact.shape2d, impact.shape3d

local sqrt, cos, sin, pi = math.sqrt, math.cos, math.sin, math.pi

local function world2(strategy) return impact.world2d { gravity = { 0, 0 }, strategy = strategy } end
local function world3(strategy) return impact.world3d { gravity = { 0, 0, 0 }, strategy = strategy } end

-- the segment from a to b hits `body` at point p with outward normal n
local function expect_hit(w, a, b, body, p, n, tol)
  local hit = w:ray_cast(a, b)
  assert.is_table(hit)
  assert.equal(body, hit.body)
  assert.near(p, hit.point, tol)
  assert.near(n, hit.normal, tol)
  local len2, f = 0, 0
  for i = 1, #a do len2 = len2 + (b[i] - a[i]) ^ 2 end
  for i = 1, #a do f = f + (p[i] - a[i]) * (b[i] - a[i]) / len2 end
  assert.near(f, hit.fraction, tol)
  return hit
end

describe("w:ray_cast in 2D", function()
  it("hits a circle where the chord enters, normal radial", function()
    local w = world2()
    local b = w:add_body { shape = s2.ball { radius = 1 }, mass = 1, position = { 2, 3 } }
    for _, y0 in ipairs { 0, 0.3, -0.6, 0.99 } do
      local x = -sqrt(1 - y0 * y0)
      expect_hit(w, { -5, 3 + y0 }, { 5, 3 + y0 }, b, { 2 + x, 3 + y0 }, { x, y0 }, 1e-12)
    end
    assert.is_nil(w:ray_cast({ -5, 4.01 }, { 5, 4.01 }))  -- passes above
    assert.is_nil(w:ray_cast({ -5, 3 }, { 0.9, 3 }))      -- stops short
  end)

  it("hits a rotated rectangle's face at its centre, normal along the face normal", function()
    local w = world2()
    local th = pi / 6
    local b = w:add_body { shape = s2.block { width = 2, height = 1 }, mass = 1, position = { 1, 1 },
      angle = th }
    local u, v = { cos(th), sin(th) }, { -sin(th), cos(th) }
    expect_hit(w, { 1 + 5 * u[1], 1 + 5 * u[2] }, { 1 - 5 * u[1], 1 - 5 * u[2] }, b,
      { 1 + u[1], 1 + u[2] }, u, 1e-12)
    expect_hit(w, { 1 - 4 * v[1], 1 - 4 * v[2] }, { 1, 1 }, b,
      { 1 - 0.5 * v[1], 1 - 0.5 * v[2] }, { -v[1], -v[2] }, 1e-12)
  end)

  it("hits convex and concave circular edges where the circle is, normal radial", function()
    local R, a = 2, 0.4
    for _, convex in ipairs { true, false } do
      local w = world2()
      local make = convex and s2.convex_top_block or s2.concave_top_block
      local shape = make { width = 2, height = 1, radius = R }
      local c = shape:centroid()
      local b = w:add_body { shape = shape, mass = 1, position = { 0, 0 } }
      -- the arc passes through the top corners (+-1, 1): its centre is on x = 0
      local yc = convex and 1 - sqrt(R * R - 1) or 1 + sqrt(R * R - 1)
      local y = convex and yc + sqrt(R * R - a * a) or yc - sqrt(R * R - a * a)
      local n = convex and { a / R, (y - yc) / R } or { -a / R, (yc - y) / R }
      expect_hit(w, { a - c[1], 5 }, { a - c[1], -5 }, b, { a - c[1], y - c[2] }, n, 1e-12)
    end
  end)

  it("starts inside a body at fraction 0, the normal against the ray", function()
    local w = world2()
    local b = w:add_body { shape = s2.ball { radius = 1 }, mass = 1, position = { 0, 0 } }
    local hit = w:ray_cast({ 0.2, 0 }, { 0.2, 5 })
    assert.equal(b, hit.body)
    assert.equal(0, hit.fraction)
    assert.same({ 0.2, 0 }, hit.point)
    assert.near({ 0, -1 }, hit.normal, 1e-15)
  end)

  it("finds the hole of a frame: a ray through it hits the inner edge", function()
    local w = world2()
    local b = w:add_body { shape = s2.frame { outer_width = 4, outer_height = 4, thickness = 1 }, mass = 1 }
    -- from the middle of the hole (outside the material) towards +x: the inner edge at x = 1
    expect_hit(w, { 0, 0.5 }, { 5, 0.5 }, b, { 1, 0.5 }, { -1, 0 }, 1e-12)
  end)

  it("lists every body hit, sorted by fraction, one hit each", function()
    local w = world2()
    local bodies = {}
    for i = 4, 1, -1 do  -- inserted far to near
      bodies[i] = w:add_body { shape = s2.ball { radius = 0.5 }, mass = 1, position = { 3 * i, 0 } }
    end
    w:add_body { shape = s2.ball { radius = 0.5 }, mass = 1, position = { 6, 2 } }  -- off the ray
    local hits = w:ray_cast({ 0, 0 }, { 20, 0 }, { all = true })
    assert.equal(4, #hits)
    for i = 1, 4 do
      assert.equal(bodies[i], hits[i].body)
      assert.near((3 * i - 0.5) / 20, hits[i].fraction, 1e-14)
    end
    assert.equal(bodies[1], w:ray_cast({ 0, 0 }, { 20, 0 }).body)
    assert.same({}, w:ray_cast({ 0, 5 }, { 20, 5 }, { all = true }))
  end)
end)

describe("w:ray_cast in 3D", function()
  local function along(w, body, centre, u, depth, n, tol)
    -- a ray from centre + 5u to centre - 5u enters at centre + depth u
    local a = { centre[1] + 5 * u[1], centre[2] + 5 * u[2], centre[3] + 5 * u[3] }
    local b = { centre[1] - 5 * u[1], centre[2] - 5 * u[2], centre[3] - 5 * u[3] }
    local p = { centre[1] + depth * u[1], centre[2] + depth * u[2], centre[3] + depth * u[3] }
    return expect_hit(w, a, b, body, p, n or u, tol)
  end
  local d3 = { 1 / sqrt(3), 1 / sqrt(3), 1 / sqrt(3) }

  it("hits spheres exactly at any angle", function()
    local w = world3()
    local b = w:add_body { shape = s3.sphere { radius = 0.7 }, mass = 1, position = { 1, 2, 3 } }
    for k = 0, 5 do
      local t, p = k * pi / 5, k * 0.7
      local u = { sin(t) * cos(p), sin(t) * sin(p), cos(t) }
      along(w, b, { 1, 2, 3 }, u, 0.7, nil, 1e-12)
    end
    assert.is_nil(w:ray_cast({ 1, 2, 3.71 }, { 1, 2 + 0.01, 9 }))
  end)

  it("hits boxes (sharp and rounded), their faces and corners", function()
    local w = world3()
    local th = pi / 6
    local q = { cos(th / 2), 0, 0, sin(th / 2) }  -- 30 degrees about z
    local sharp = w:add_body { shape = s3.box { size = { 2, 2, 2 } }, mass = 1, orientation = q }
    along(w, sharp, { 0, 0, 0 }, { cos(th), sin(th), 0 }, 1, nil, 1e-12)
    local r = 0.2
    local round = w:add_body { shape = s3.box { size = { 2, 2, 2 }, smoothing = r }, mass = 1,
      position = { 10, 0, 0 } }
    along(w, round, { 10, 0, 0 }, { 0, 0, 1 }, 1, nil, 1e-9)
    -- the diagonal meets the corner's sphere (centre (1 - r)(1, 1, 1)) on the diagonal
    along(w, round, { 10, 0, 0 }, d3, sqrt(3) * (1 - r) + r, nil, 1e-9)
  end)

  it("hits ellipsoids where the quadric is, normal along its gradient", function()
    local w = world3()
    local b = w:add_body { shape = s3.ellipsoid { radii = { 1, 2, 3 } }, mass = 1, position = { 0, 0, 0 } }
    local x, y = 0.5, 0.4
    local z = 3 * sqrt(1 - x * x - y * y / 4)
    local g = { x, y / 4, z / 9 }
    local l = sqrt(g[1] ^ 2 + g[2] ^ 2 + g[3] ^ 2)
    expect_hit(w, { x, y, 10 }, { x, y, -10 }, b, { x, y, z }, { g[1] / l, g[2] / l, g[3] / l }, 1e-9)
    along(w, b, { 0, 0, 0 }, { 0, 1, 0 }, 2, nil, 1e-9)
    -- a grazing segment, 1e-6 below the top: the entry x = -sqrt(1 - (z/3)^2) exactly
    local zg = 3 - 1e-6
    local xg = -sqrt(1 - (zg / 3) ^ 2)
    assert.near(xg, w:ray_cast({ -5, 0, zg }, { 5, 0, zg }).point[1], 1e-12)
  end)

  it("hits cylinders, capsules and cones on their sides and caps", function()
    local w = world3()
    local cyl = w:add_body { shape = s3.cylinder { radius = 1, length = 2 }, mass = 1 }
    expect_hit(w, { -5, 0, 0.3 }, { 5, 0, 0.3 }, cyl, { -1, 0, 0.3 }, { -1, 0, 0 }, 1e-9)
    expect_hit(w, { 0.5, 0, 5 }, { 0.5, 0, -5 }, cyl, { 0.5, 0, 1 }, { 0, 0, 1 }, 1e-9)
    local cap = w:add_body { shape = s3.capsule { radius = 0.5, length = 2 }, mass = 1,
      position = { 10, 0, 0 } }
    expect_hit(w, { 10, 0, 5 }, { 10, 0, -5 }, cap, { 10, 0, 1.5 }, { 0, 0, 1 }, 1e-9)
    local x = -sqrt(0.25 - 0.04)
    expect_hit(w, { 5, 0, 1.2 }, { 15, 0, 1.2 }, cap, { 10 + x, 0, 1.2 }, { x / 0.5, 0, 0.2 / 0.5 }, 1e-9)
    local cone_shape = s3.cone { radius = 1, length = 2 }
    local c = cone_shape:centroid()  -- the body's position is the centroid
    local cone = w:add_body { shape = cone_shape, mass = 1, position = { 20, 0, 0 } }
    -- at height 1 above the base the radius is 1/2; the side's outward normal is (-2, 0, 1)/sqrt 5
    local z = 1 - c[3]
    expect_hit(w, { 15, 0, z }, { 25, 0, z }, cone, { 19.5, 0, z }, { -2 / sqrt(5), 0, 1 / sqrt(5) }, 1e-9)
    expect_hit(w, { 20.3, 0.2, -5 }, { 20.3, 0.2, 5 }, cone, { 20.3, 0.2, -c[3] }, { 0, 0, -1 }, 1e-9)
  end)

  it("hits convex hulls (sharp and smoothed) and polyhedra", function()
    local w = world3()
    local cube = {}
    for i = 0, 7 do
      cube[#cube + 1] = { (i & 1) * 2 - 1, ((i >> 1) & 1) * 2 - 1, ((i >> 2) & 1) * 2 - 1 }
    end
    local hull = w:add_body { shape = s3.convex { points = cube }, mass = 1 }
    along(w, hull, { 0, 0, 0 }, { 0, 1, 0 }, 1, nil, 1e-12)
    local soft = w:add_body { shape = s3.convex { points = cube, smoothing = 0.1 }, mass = 1,
      position = { 10, 0, 0 } }
    along(w, soft, { 10, 0, 0 }, { 0, 0, 1 }, 1.1, nil, 1e-9)
    along(w, soft, { 10, 0, 0 }, d3, sqrt(3) + 0.1, nil, 1e-9)
    -- a tetrahedron x, y, z >= 0, x + y + z <= 1: the slanted face's normal (1, 1, 1)/sqrt 3
    local tet = s3.polyhedron { vertices = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
      faces = { { 1, 3, 2 }, { 1, 2, 4 }, { 1, 4, 3 }, { 2, 3, 4 } } }
    local c = tet:centroid()
    local poly = w:add_body { shape = tet, mass = 1, position = { 20 + c[1], c[2], c[3] } }
    expect_hit(w, { 20.1, 0.1, 5 }, { 20.1, 0.1, -5 }, poly, { 20.1, 0.1, 0.8 }, d3, 1e-12)
    expect_hit(w, { 20.2, -3, 0.1 }, { 20.2, 3, 0.1 }, poly, { 20.2, 0, 0.1 }, { 0, -1, 0 }, 1e-12)
  end)

  it("hits walls (tilted too) and starts inside them at fraction 0", function()
    local w = world3()
    local floor = w:add_body { shape = s3.wall {}, fixed = true, position = { 0, 0, -1 } }
    expect_hit(w, { 1, 2, 5 }, { 1, 2, -5 }, floor, { 1, 2, -1 }, { 0, 0, 1 }, 1e-14)
    local n = { 1 / sqrt(2), 0, 1 / sqrt(2) }
    local w2 = world3()
    local tilted = w2:add_body { shape = s3.wall { normal = n }, fixed = true, position = { 0, 0, 0 } }
    -- along -n from (2, 0, 2): the plane x + z = 0 at the origin
    expect_hit(w2, { 2, 0, 2 }, { -2, 0, -2 }, tilted, { 0, 0, 0 }, n, 1e-14)
    local inside = w:ray_cast({ 0, 0, -3 }, { 0, 0, 3 })
    assert.equal(floor, inside.body)
    assert.equal(0, inside.fraction)
    assert.same({ 0, 0, -3 }, inside.point)
    assert.near({ 0, 0, -1 }, inside.normal, 1e-15)
  end)

  it("starts inside a smooth shape at fraction 0 and misses rays that pass it", function()
    local w = world3()
    local b = w:add_body { shape = s3.ellipsoid { radii = { 1, 2, 3 } }, mass = 1 }
    local hit = w:ray_cast({ 0.1, 0.1, 0.1 }, { 5, 0, 0 })
    assert.equal(b, hit.body)
    assert.equal(0, hit.fraction)
    assert.is_nil(w:ray_cast({ -5, 0, 3.01 }, { 5, 0, 3.01 }))
    assert.is_nil(w:ray_cast({ -5, 2.5, 0 }, { 5, 2.5, 0 }))
    assert.is_nil(w:ray_cast({ 5, 0, 0 }, { 1.5, 0, 0 }))  -- stops short
  end)

  it("orders all hits by fraction across shapes and strategies, deterministically", function()
    for _, strategy in ipairs { "none", "compliant", "impulse", "contact", "dem" } do
      local w = world3(strategy)
      local far = w:add_body { shape = s3.sphere { radius = 1 }, mass = 1, position = { 9, 0, 0 } }
      local near = w:add_body { shape = s3.sphere { radius = 0.5 }, mass = 1, position = { 3, 0, 0 } }
      local hits = w:ray_cast({ 0, 0, 0 }, { 20, 0, 0 }, { all = true })
      assert.equal(2, #hits)
      assert.equal(near, hits[1].body)
      assert.equal(far, hits[2].body)
      assert.near(2.5 / 20, hits[1].fraction, 1e-15)
      assert.near(8 / 20, hits[2].fraction, 1e-15)
      assert.same(hits, w:ray_cast({ 0, 0, 0 }, { 20, 0, 0 }, { all = true }))
    end
  end)
end)

describe("w:query_box and w:query_point", function()
  it("finds the bodies whose boxes overlap, and those containing a point (2D)", function()
    for _, strategy in ipairs { "none", "compliant", "impulse", "contact" } do
      local w = world2(strategy)
      local a = w:add_body { shape = s2.ball { radius = 1 }, mass = 1, position = { 0, 0 } }
      local b = w:add_body { shape = s2.block { width = 2, height = 2 }, mass = 1, position = { 3, 0 } }
      local c = w:add_body { shape = s2.ball { radius = 1 }, mass = 1, position = { 10, 10 } }
      assert.same({ a, b }, w:query_box({ 0.9, -0.1 }, { 2.1, 0.1 }))
      assert.same({ c }, w:query_box({ 10.5, 10.5 }, { 20, 20 }))
      assert.same({}, w:query_box({ 5, 5 }, { 6, 6 }))
      -- the corner (0.8, 0.8) is in a's box but outside the disc
      assert.same({}, w:query_point({ 0.8, 0.8 }))
      assert.same({ a }, w:query_point({ 0.6, 0.6 }))
      assert.same({ b }, w:query_point({ 3.9, 0.9 }))
    end
  end)

  it("finds the bodies whose boxes overlap, and those containing a point (3D)", function()
    local w = world3()
    local e = w:add_body { shape = s3.ellipsoid { radii = { 1, 2, 3 } }, mass = 1 }
    local s = w:add_body { shape = s3.sphere { radius = 1 }, mass = 1, position = { 5, 0, 0 } }
    local floor = w:add_body { shape = s3.wall {}, fixed = true, position = { 0, 0, -10 } }
    assert.same({ e, floor }, w:query_box({ -1, -1, -20 }, { 1, 1, 1 }))
    assert.same({ e, s }, w:query_box({ 0.5, -0.5, -0.5 }, { 4.5, 0.5, 0.5 }))
    assert.same({ e }, w:query_point({ 0, 1.9, 0 }))
    assert.same({}, w:query_point({ 0, 2.1, 0 }))
    assert.same({}, w:query_point({ 0.9, 1.9, 0 }))  -- inside the box, outside the ellipsoid
    assert.same({ s }, w:query_point({ 5.5, 0.5, 0.5 }))
    assert.same({ floor }, w:query_point({ 0, 0, -11 }))
  end)

  it("builds its tree once per state and again when bodies move or are added", function()
    local w = impact.world3d { gravity = { 0, 0, -10 } }
    local b = w:add_body { shape = s3.sphere { radius = 1 }, mass = 1 }
    assert.equal(0, w:query_tree_builds())
    w:ray_cast({ 0, 0, 5 }, { 0, 0, -5 })
    w:query_box({ -1, -1, -1 }, { 1, 1, 1 })
    w:query_point({ 0, 0, 0 })
    assert.equal(1, w:query_tree_builds())
    w:step(10)
    local hit = w:ray_cast({ 0, 0, 5 }, { 0, 0, -5 })
    assert.equal(2, w:query_tree_builds())
    assert.near(b.position[3] + 1, hit.point[3], 1e-12)  -- the body fell: found where it is
    b.position = { 0, 0, 3 }
    assert.same({ b }, w:query_point({ 0, 0, 3.5 }))
    assert.equal(3, w:query_tree_builds())
    w:add_body { shape = s3.sphere { radius = 1 }, mass = 1, position = { 0, 0, -3 } }
    assert.equal(2, #w:ray_cast({ 0, 0, 5 }, { 0, 0, -5 }, { all = true }))
    assert.equal(4, w:query_tree_builds())
  end)

  it("finds the right bodies among many (the tree against a scan)", function()
    local w = world3()
    local bodies, rng = {}, 12345
    local function rand() rng = (rng * 1103515245 + 12345) % 2147483648 return rng / 2147483648 end
    for i = 1, 300 do
      bodies[i] = w:add_body { shape = s3.sphere { radius = 0.3 }, mass = 1,
        position = { 20 * rand(), 20 * rand(), 20 * rand() } }
    end
    for _ = 1, 20 do
      local lo = { 20 * rand(), 20 * rand(), 20 * rand() }
      local hi = { lo[1] + 3, lo[2] + 3, lo[3] + 3 }
      local expect = {}
      for _, b in ipairs(bodies) do
        local p, ok = b.position, true
        for k = 1, 3 do ok = ok and p[k] + 0.3 >= lo[k] and p[k] - 0.3 <= hi[k] end
        if ok then expect[#expect + 1] = b end
      end
      assert.same(expect, w:query_box(lo, hi))
    end
    assert.equal(1, w:query_tree_builds())
  end)
end)

describe("query arguments", function()
  it("are checked with clear errors", function()
    local w = world3()
    w:add_body { shape = s3.sphere { radius = 1 }, mass = 1 }
    local function err(f, ...) return select(2, pcall(f, w, ...)) end
    assert.matches("World:ray_cast: the segment has no length", err(w.ray_cast, { 1, 2, 3 }, { 1, 2, 3 }))
    assert.matches("World:ray_cast: argument #1 must have 3 numbers in a 3D world, got 2",
      err(w.ray_cast, { 1, 2 }, { 1, 2, 3 }))
    assert.matches("World:ray_cast: argument #2 .*nan", err(w.ray_cast, { 1, 2, 3 }, { 0 / 0, 2, 3 }))
    assert.matches("World:ray_cast: argument #2 must be a point", err(w.ray_cast, { 1, 2, 3 }, "up"))
    assert.matches("World:ray_cast: .*unknown option \"first\"",
      err(w.ray_cast, { 0, 0, 0 }, { 1, 0, 0 }, { first = true }))
    assert.matches("World:ray_cast: argument #3 must be an options table",
      err(w.ray_cast, { 0, 0, 0 }, { 1, 0, 0 }, true))
    assert.matches("World:query_box: lo must not exceed hi: lo%[2%] = 1 > hi%[2%] = 0",
      err(w.query_box, { 0, 1, 0 }, { 1, 0, 1 }))
    assert.matches("World:query_point: argument #1 .*inf", err(w.query_point, { 1 / 0, 0, 0 }))
    local w2 = world2()
    assert.matches("World:query_point: argument #1 must have 2 numbers in a 2D world, got 3",
      select(2, pcall(w2.query_point, w2, { 0, 0, 0 })))
  end)
end)
