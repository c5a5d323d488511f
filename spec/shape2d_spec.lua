-- 2D polygons with straight and circular edges: mass properties against closed forms (circle,
-- rectangle, n-gon, frame, sector, circular segment tops), the path builder's validation,
-- points on each side of each edge type, transforms.
local impact = require("impact")
local s2 = impact.shape2d

local function segment(R, al) -- circular segment: area, centroid distance from centre, J about centre
  local A = R * R * (al - math.sin(al) * math.cos(al))
  local d = 4 * R * math.sin(al) ^ 3 / (3 * (2 * al - math.sin(2 * al)))
  local tri = R * R * math.sin(al) * math.cos(al)
  return A, d, R ^ 4 * al / 2 - tri * R * R * (2 + math.cos(2 * al)) / 6
end

describe("shape2d mass properties", function()
  it("a circle built as a path off the origin: pi r^2, pi r^4 / 2", function()
    local r = 0.7
    local s = s2.path():move_to(3 + r, -2):arc_to(3 + r, -2, { center = { 3, -2 } }):close():build()
    assert.near(math.pi * r * r, s:area(), { rel = 1e-12 })
    assert.near({ 3, -2 }, s:centroid(), 1e-12)
    assert.near(math.pi * r ^ 4 / 2, s:inertia(), { rel = 1e-12 })
  end)

  it("a rectangle path: w h (w^2 + h^2) / 12", function()
    local s = s2.path():move_to(1, 1):line_to(4, 1):line_to(4, 2.5):line_to(1, 2.5):close():build()
    assert.near(4.5, s:area(), 1e-12)
    assert.near({ 2.5, 1.75 }, s:centroid(), 1e-12)
    assert.near(4.5 * (9 + 2.25) / 12, s:inertia(), { rel = 1e-12 })
    assert.are.equal("polygon", s.kind)
  end)

  it("an n-gon: n triangles of the circumradius", function()
    for n = 3, 9 do
      local R = 0.8
      local s = s2.ngon { sides = n, radius = R }
      local t = 0.5 * R * R * math.sin(2 * math.pi / n)
      assert.near(n * t, s:area(), { rel = 1e-12 })
      assert.near(n * t * R * R * (2 + math.cos(2 * math.pi / n)) / 6, s:inertia(), { rel = 1e-12 })
      assert.near({ 0, 0 }, s:centroid(), 1e-15)
    end
  end)

  it("a frame: outer rectangle less inner, holes subtracted", function()
    local W, H, t = 3, 2, 0.2
    local w, h = W - 2 * t, H - 2 * t
    local s = s2.frame { outer_width = W, outer_height = H, thickness = t }
    assert.near(W * H - w * h, s:area(), { rel = 1e-12 })
    assert.near((W * H * (W * W + H * H) - w * h * (w * w + h * h)) / 12, s:inertia(), { rel = 1e-12 })
    assert.is_false(s2.contains(s, { 0, 0 }))
    assert.is_true(s2.contains(s, { W / 2 - t / 2, 0 }))
  end)

  it("a doughnut of two circular paths", function()
    local s = s2.path():move_to(2, 0):arc_to(2, 0, { center = { 0, 0 } }):close()
      :path():move_to(1, 0):arc_to(1, 0, { center = { 0, 0 }, outside = false }):close():build()
    assert.near(math.pi * 3, s:area(), { rel = 1e-12 })
    assert.near(math.pi * (16 - 1) / 2, s:inertia(), { rel = 1e-12 })
  end)

  it("the builder of API.md: a convex bulge and a hole", function()
    local s = s2.path()
      :move_to(-1, 0):line_to(1, 0)
      :arc_to(1, 1, { center = { 1, 0.5 }, outside = true })
      :line_to(-1, 1):close()
      :path()
      :move_to(-0.5, 0.25):line_to(-0.5, 0.75):line_to(0, 0.75):line_to(0, 0.25):close()
      :build { spacing = 0.3 }
    local half_disc, hole = math.pi * 0.25 / 2, 0.25
    assert.near(2 + half_disc - hole, s:area(), { rel = 1e-12 })
    -- first moments: rectangle at (0, 0.5), half disc at (1 + 2 / (3 pi), 0.5), hole at (-0.25, 0.5)
    local cx = (half_disc * (1 + 4 * 0.5 / (3 * math.pi)) + hole * 0.25) / (2 + half_disc - hole)
    assert.near({ cx, 0.5 }, s:centroid(), 1e-12)
    local lo, hi = s:bounds {}
    assert.near({ -1 - cx, -0.5 }, lo, 1e-12)
    assert.near({ 1.5 - cx, 0.5 }, hi, 1e-12)
    local e = s2.edges(s)
    assert.are.equal(8, #e)
    assert.are.same({ 1, 1, 2 }, { e[1].path, e[4].path, e[5].path })
  end)

  it("a sector: R^2 phi / 2, centroid 4 R sin(phi/2) / (3 phi), J_apex = R^4 phi / 4", function()
    local R, phi = 1.5, 1.1
    local s = s2.path():move_to(0, 0):line_to(R, 0)
      :arc_to(R * math.cos(phi), R * math.sin(phi), { center = { 0, 0 } }):close():build()
    local A, d = R * R * phi / 2, 4 * R * math.sin(phi / 2) / (3 * phi)
    assert.near(A, s:area(), { rel = 1e-12 })
    assert.near({ d * math.cos(phi / 2), d * math.sin(phi / 2) }, s:centroid(), 1e-12)
    assert.near(R ^ 4 * phi / 4 - A * d * d, s:inertia(), { rel = 1e-12 })
  end)

  for _, convex in ipairs { true, false } do
    local name = convex and "convex" or "concave"
    it("a block with a " .. name .. " circular top (segment formulas)", function()
      local w, h, R = 1, 0.7, 0.8
      local s = (convex and s2.convex_top_block or s2.concave_top_block) { width = w, height = h, radius = R }
      local al = math.asin(w / (2 * R))
      local k = R * math.cos(al)
      local As, ds, J0 = segment(R, al)
      local sg = convex and 1 or -1
      local ys = convex and (h - k + ds) or (h + k - ds)
      local A = w * h + sg * As
      local y = (w * h * h / 2 + sg * As * ys) / A
      local J = w * h * (w * w + h * h) / 12 + w * h * (h / 2 - y) ^ 2
        + sg * ((J0 - As * ds * ds) + As * (ys - y) ^ 2)
      assert.near(A, s:area(), { rel = 1e-12 })
      assert.near({ 0, y }, s:centroid(), 1e-12)
      assert.near(J, s:inertia(), { rel = 1e-12 })
      assert.near(3 * J, s:inertia(3), { rel = 1e-12 })
    end)
  end

  it("a rounded block: rectangle less corners plus quarter discs", function()
    local w, h, r = 2, 1, 0.25
    local s = s2.rounded_block { width = w, height = h, corner_radius = r }
    assert.near(w * h - (4 - math.pi) * r * r, s:area(), { rel = 1e-12 })
    local Aq, dq = math.pi * r * r / 4, 4 * r / (3 * math.pi)
    local qx, qy = w / 2 - r, h / 2 - r
    local J = w * h * (w * w + h * h) / 12
      - 4 * (r ^ 4 / 6 + r * r * ((qx + r / 2) ^ 2 + (qy + r / 2) ^ 2))
      + 4 * ((math.pi * r ^ 4 / 8 - Aq * 2 * dq * dq) + Aq * ((qx + dq) ^ 2 + (qy + dq) ^ 2))
    assert.near(J, s:inertia(), { rel = 1e-12 })
  end)
end)

describe("shape2d path validation", function()
  local function raises(pattern, fn)
    local ok, err = pcall(fn)
    assert.is_false(ok)
    assert.matches(pattern, err)
  end

  it("an open path", function()
    raises("path 1 is open", function() s2.path():move_to(0, 0):line_to(1, 0):line_to(1, 1):build() end)
    raises("path 1 is open", function()
      s2.path():move_to(0, 0):line_to(1, 0):line_to(1, 1):path():move_to(5, 5):build()
    end)
  end)

  it("a zero-length edge", function()
    raises("zero length", function()
      s2.path():move_to(0, 0):line_to(1, 0):line_to(1, 0):line_to(1, 1):close():build()
    end)
  end)

  it("crossing or self-intersecting paths", function()
    raises("crosses or touches itself", function()
      s2.path():move_to(0, 0):line_to(1, 1):line_to(1, 0):line_to(0, 1):close():build()
    end)
    raises("paths cross or touch", function()
      s2.path():move_to(0, 0):line_to(2, 0):line_to(2, 2):line_to(0, 2):close()
        :path():move_to(1, 1):line_to(3, 1):line_to(3, 3):line_to(1, 3):close():build()
    end)
    raises("doubles back", function() s2.path():move_to(0, 0):line_to(1, 0):close():build() end)
  end)

  it("an arc whose end points are not on its circle", function()
    raises("not on one circle", function()
      s2.path():move_to(0, 0):line_to(1, 0):arc_to(0, 1.1, { center = { 0, 0 } }):close():build()
    end)
  end)

  it("inconsistent orientation", function()
    raises("runs clockwise", function()
      s2.path():move_to(0, 0):line_to(0, 1):line_to(1, 1):line_to(1, 0):close():build()
    end)
    raises("hole.*counter%-clockwise", function()
      s2.path():move_to(-2, -2):line_to(2, -2):line_to(2, 2):line_to(-2, 2):close()
        :path():move_to(-1, -1):line_to(1, -1):line_to(1, 1):line_to(-1, 1):close():build()
    end)
  end)

  it("zero area", function()
    raises("no paths", function() s2.path():build() end)
  end)

  it("bad arguments name the value", function()
    raises("argument x must be a finite number, got nil", function() s2.path():move_to(nil, 1) end)
    raises("option 'center' must be an array of 2 finite numbers", function()
      s2.path():move_to(0, 0):arc_to(1, 1, {})
    end)
    raises("unknown option \"centre\"", function()
      s2.path():move_to(0, 0):arc_to(1, 1, { centre = { 0, 1 } })
    end)
    raises("corner_radius", function() s2.rounded_block { width = 1, height = 1, corner_radius = 0.6 } end)
    raises("thickness", function() s2.frame { outer_width = 1, outer_height = 1, thickness = 0.5 } end)
    raises("option 'sides' must be an integer from 3", function() s2.ngon { sides = 2 } end)
    raises("option 'radius' must be at least width / 2", function()
      s2.convex_top_block { width = 2, radius = 0.5 }
    end)
  end)
end)

describe("shape2d edges", function()
  it("points on each side of a straight edge, a convex and a concave arc", function()
    local vex = s2.convex_top_block { width = 1, height = 1, radius = 0.5 }
    -- a half-circle dip would meet the sides in cusps; a narrower dip keeps proper corners
    local cave = s2.concave_top_block { width = 0.9, height = 1, radius = 0.5 }
    local kc = 1 + math.sqrt(0.25 - 0.45 ^ 2)
    local cy = vex:centroid()[2]
    -- straight bottom edge (edge 1): outside is below
    local d, q, n = s2.edge_distance(vex, 1, { 0.1, -0.2 })
    assert.near(0.2, d, 1e-15)
    assert.near({ 0.1, 0 }, q, 1e-15)
    assert.near({ 0, -1 }, n, 1e-15)
    assert.near(-0.3, (s2.edge_distance(vex, 1, { 0.1, 0.3 })), 1e-15)
    -- convex half-disc top (edge 3) of radius 0.5 about (0, 1)
    for _, a in ipairs { 0.6, 1.2, 2.5 } do
      local u = { math.cos(a), math.sin(a) }
      local dd, qq, nn, curv = s2.edge_distance(vex, 3, { 0.7 * u[1], 1 + 0.7 * u[2] })
      assert.near(0.2, dd, 1e-14)
      assert.near({ 0.5 * u[1], 1 + 0.5 * u[2] }, qq, 1e-14)
      assert.near(u, nn, 1e-14)
      assert.near(2, curv, 1e-14)
      assert.near(-0.1, (s2.edge_distance(vex, 3, { 0.4 * u[1], 1 + 0.4 * u[2] })), 1e-14)
      -- concave dip: the same points are on the other sides
      local u2 = { math.cos(-a), math.sin(-a) }
      local cd, _, cn, ccurv = s2.edge_distance(cave, 3, { 0.4 * u2[1], kc + 0.4 * u2[2] })
      assert.near(0.1, cd, 1e-14)
      assert.near({ -u2[1], -u2[2] }, cn, 1e-14)
      assert.near(-2, ccurv, 1e-14)
      assert.near(-0.2, (s2.edge_distance(cave, 3, { 0.7 * u2[1], kc + 0.7 * u2[2] })), 1e-14)
    end
    assert.is_true(cy > 0.5)
  end)

  it("lists edges and decorated vertices at the chosen spacing", function()
    local b = s2.path():move_to(1, 0):arc_to(1, 0, { center = { 0, 0 } }):close():build { spacing = 0.1 }
    local e = s2.edges(b)
    assert.are.equal(1, #e)
    assert.are.equal("arc", e[1].kind)
    assert.is_true(e[1].convex)
    assert.near(2 * math.pi, e[1].sweep, 1e-15)
    local v = s2.vertices(b, { decorated = true })
    assert.are.equal(math.ceil(2 * math.pi / 0.1), #v)
    assert.are.equal(1, #s2.vertices(b))
    local blk = s2.block { width = 2, height = 1 }
    local es = s2.edges(blk)
    assert.are.equal(4, #es)
    assert.near({ 0, -1 }, es[1].normal, 1e-15)
    local no = s2.path():move_to(0, 0):line_to(1, 0):line_to(1, 1, { collide = false }):close():build()
    assert.is_false(s2.edges(no)[2].collide)
  end)

  it("transforms body <-> world about the centroid", function()
    local s = s2.convex_top_block { width = 1, height = 1, radius = 0.5 }
    local c = s:centroid()
    local pose = { position = { 2, 3 }, angle = math.pi / 2 }
    local w = s2.to_world(s, pose, { 0.5, 0 })
    assert.near({ 2 + c[2], 3 + 0.5 }, w, 1e-15)
    assert.near({ 0.5, 0 }, s2.to_body(s, pose, w), 1e-15)
    local lo, hi = s:bounds(pose)
    assert.near({ 2 - (1.5 - c[2]), 2.5 }, lo, 1e-14)
    assert.near({ 2 + c[2], 3.5 }, hi, 1e-14)
  end)
end)
