-- Convex polyhedra: construction, volumetric intersection and the Solfec contact, against
-- answers worked out by hand (the intersection's shape is known in each case; its volume,
-- surface centroid, half surface area and area^2-weighted normal follow in closed form).
local impact = require("impact")
local shape3d = impact.shape3d

local sqrt = math.sqrt
local function at(x, y, z, q) return { position = { x, y, z }, orientation = q } end
local function unit(v)
  local l = sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2)
  return { v[1] / l, v[2] / l, v[3] / l }
end
local function qaxis(axis, angle)
  local u, s = unit(axis), math.sin(angle / 2)
  return { math.cos(angle / 2), u[1] * s, u[2] * s, u[3] * s }
end
local function rotate(q, v) -- q v q*
  local w, x, y, z = q[1], q[2], q[3], q[4]
  local tx = 2 * (y * v[3] - z * v[2])
  local ty = 2 * (z * v[1] - x * v[3])
  local tz = 2 * (x * v[2] - y * v[1])
  return {
    v[1] + w * tx + (y * tz - z * ty), v[2] + w * ty + (z * tx - x * tz), v[3] + w * tz + (x * ty - y * tx),
  }
end

local cube_vertices = {
  { -0.5, -0.5, -0.5 }, { 0.5, -0.5, -0.5 }, { 0.5, 0.5, -0.5 }, { -0.5, 0.5, -0.5 },
  { -0.5, -0.5, 0.5 }, { 0.5, -0.5, 0.5 }, { 0.5, 0.5, 0.5 }, { -0.5, 0.5, 0.5 },
}
local cube_faces = {
  { 1, 4, 3, 2 }, { 5, 6, 7, 8 }, { 1, 2, 6, 5 }, { 3, 4, 8, 7 }, { 2, 3, 7, 6 }, { 4, 1, 5, 8 },
}

-- the Solfec gap for two axis-aligned unit cubes with centre offset o (B - A) and normal n:
-- thickness delta of the intersection box along n, then the box distance after moving them
-- 2 delta apart along n
local function cube_gap(o, size, n)
  local delta = 0
  for i = 1, 3 do delta = delta + size[i] * math.abs(n[i]) end
  local d2 = 0
  for i = 1, 3 do
    local s = math.abs(o[i] + 2 * delta * n[i]) - 1
    if s > 0 then d2 = d2 + s * s end
  end
  return math.min(sqrt(d2) - 2 * delta, 0)
end

describe("impact.shape3d.polyhedron", function()
  it("a unit cube from vertices and faces: volume, inertia, faces and planes", function()
    local c = shape3d.polyhedron { vertices = cube_vertices, faces = cube_faces }
    assert.near(1, c:volume(), 1e-14)
    assert.near({ 0, 0, 0 }, c:centroid(), 1e-15)
    local i = c:inertia(1)
    assert.near({ { 1 / 6, 0, 0 }, { 0, 1 / 6, 0 }, { 0, 0, 1 / 6 } }, i, 1e-14)
    local faces, planes, surfaces = shape3d.faces(c)
    assert.are.equal(6, #faces)
    assert.near({ 0, 0, -1, 0.5 }, planes[1], 1e-15)
    assert.near({ 1, 0, 0, 0.5 }, planes[5], 1e-15)
    assert.are.same({ 1, 2, 3, 4, 5, 6 }, surfaces)
  end)

  it("a regular tetrahedron: volume a^3 / (6 sqrt 2), centroid, inertia m a^2 / 20", function()
    local t = shape3d.polyhedron {
      vertices = { { 1, 1, 1 }, { 1, -1, -1 }, { -1, 1, -1 }, { -1, -1, 1 } },
      faces = { { 1, 2, 3 }, { 1, 4, 2 }, { 1, 3, 4 }, { 2, 4, 3 } },
      surfaces = { 10, 20, 30, 40 },
    }
    local a = 2 * sqrt(2)
    assert.near(a ^ 3 / (6 * sqrt(2)), t:volume(), 1e-14)
    assert.near({ 0, 0, 0 }, t:centroid(), 1e-15)
    -- a regular tetrahedron's inertia about its centroid is isotropic: m a^2 / 20
    local j = a ^ 3 / (6 * sqrt(2)) * a ^ 2 / 20
    assert.near({ { j, 0, 0 }, { 0, j, 0 }, { 0, 0, j } }, t:inertia(1), 1e-13)
    local _, _, surfaces = shape3d.faces(t)
    assert.are.same({ 10, 20, 30, 40 }, surfaces)
  end)

  it("a convex hull's faces: coplanar triangles merged into 6 squares", function()
    local h = shape3d.polyhedron { points = cube_vertices }
    local faces, planes = shape3d.faces(h)
    assert.are.equal(6, #faces)
    for f = 1, 6 do
      assert.are.equal(4, #faces[f])
      assert.near(0.5, planes[f][4], 1e-15)
    end
    assert.near(1, h:volume(), 1e-14)
  end)

  it("rejects bad input with errors naming the fault", function()
    local function err(opts, pattern)
      local ok, msg = pcall(shape3d.polyhedron, opts)
      assert.is_false(ok)
      assert.matches(pattern, msg)
    end
    local open = { table.unpack(cube_faces, 1, 5) }
    err({ vertices = cube_vertices, faces = open }, "not closed")
    local inward = {}
    for f, face in ipairs(cube_faces) do inward[f] = { face[4], face[3], face[2], face[1] } end
    err({ vertices = cube_vertices, faces = inward }, "clockwise")
    local dented = { table.unpack(cube_vertices) }
    dented[7] = { 0.3, 0.3, 0.3 } -- pushes a corner in: faces no longer planar
    err({ vertices = dented, faces = cube_faces }, "not planar")
    err({ vertices = cube_vertices, faces = { { 1, 2, 9 }, {}, {}, {} } }, "faces%[1%]%[3%]")
    local short = { { 1, 2 }, { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } }
    err({ vertices = cube_vertices, faces = short }, "faces%[1%]")
    err({ vertices = cube_vertices }, "option 'faces'")
    err({ vertices = cube_vertices, faces = cube_faces, surfaces = { 1 } }, "surfaces")
    -- a non-convex solid: the cube with its top face's centre pulled down (a pyramid dent)
    local v = { table.unpack(cube_vertices) }
    v[9] = { 0, 0, 0.2 }
    local f = { { 1, 4, 3, 2 }, { 1, 2, 6, 5 }, { 3, 4, 8, 7 }, { 2, 3, 7, 6 }, { 4, 1, 5, 8 },
      { 5, 6, 9 }, { 6, 7, 9 }, { 7, 8, 9 }, { 8, 5, 9 } }
    err({ vertices = v, faces = f }, "not convex")
    err({ points = cube_vertices, faces = cube_faces }, "either 'points'")
  end)
end)

describe("impact.shape3d.intersection", function()
  local cube = shape3d.box { size = 1 }
  local pcube = shape3d.polyhedron { vertices = cube_vertices, faces = cube_faces }

  it("two unit cubes offset along x: a 0.1 x 1 x 1 box", function()
    for _, b in ipairs({ cube, pcube }) do
      local r = shape3d.intersection(cube, at(0, 0, 0), b, at(0.9, 0, 0))
      assert.is_true(r.contact)
      assert.near(0.1, r.volume, 1e-14)
      assert.are.equal(8, #r.vertices)
      for _, v in ipairs(r.vertices) do
        assert.is_true(math.abs(math.abs(v[1] - 0.45) - 0.05) < 1e-14)
        assert.near(0.5, math.abs(v[2]), 1e-14)
        assert.near(0.5, math.abs(v[3]), 1e-14)
      end
      assert.near({ 0.45, 0, 0 }, r.point, 1e-14)
      assert.near({ 1, 0, 0 }, r.normal, 1e-14)
      assert.near(0.5 * (2 * 1 + 4 * 0.1), r.area, 1e-14)
      assert.near(-0.1, r.gap, 1e-12)
      -- the flush side faces are attributed to a (ties go to the first body)
      local on_b = 0
      for _, f in ipairs(r.faces) do if f.body == "b" then on_b = on_b + 1 end end
      assert.are.equal(1, on_b)
    end
  end)

  it("an oblique offset: a 0.1 x 0.7 x 0.8 box, area^2-weighted normal per face", function()
    local o = { 0.9, 0.3, 0.2 }
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(o[1], o[2], o[3]))
    local sx, sy, sz = 0.1, 0.7, 0.8
    assert.near(sx * sy * sz, r.volume, 1e-14)
    assert.near({ 0.45, 0.15, 0.1 }, r.point, 1e-14)
    assert.near(sx * sy + sy * sz + sx * sz, r.area, 1e-14)
    -- each axis: a's face and b's opposite face, both of area (product of the other sizes)
    local n = unit({ 2 * (sy * sz) ^ 2, 2 * (sx * sz) ^ 2, 2 * (sx * sy) ^ 2 })
    assert.near(n, r.normal, 1e-14)
    assert.near(cube_gap(o, { sx, sy, sz }, n), r.gap, 1e-12)
    assert.are.same({ 2, 1 }, r.surfaces) -- a's +x face, b's -x face nearest the point
  end)

  it("a cube rotated 45 degrees about the normal: an octagonal prism", function()
    local q = qaxis({ 0, 0, 1 }, math.pi / 4)
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(0, 0, 0.9, q))
    local oct = 8 * 0.25 * math.tan(math.pi / 8) -- regular octagon of inradius 1/2
    local side = math.tan(math.pi / 8)
    assert.near(oct * 0.1, r.volume, 1e-13)
    assert.are.equal(16, #r.vertices)
    assert.near({ 0, 0, 0.45 }, r.point, 1e-13)
    assert.near(oct + 4 * side * 0.1, r.area, 1e-13)
    assert.near({ 0, 0, 1 }, r.normal, 1e-13)
    assert.near(-0.1, r.gap, 1e-12)
  end)

  it("a cube rotated 45 degrees about y, its edge 0.1 into a face: a triangular prism", function()
    local q = qaxis({ 0, 1, 0 }, math.pi / 4)
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(0, 0, 0.5 + sqrt(0.5) - 0.1, q))
    assert.near(0.5 * 0.2 * 0.1, r.volume, 1e-13)
    local top, slant, tri = 0.2, 0.1 * sqrt(2), 0.01 -- areas: a's face, b's two faces, the ends
    local z = (top * 0.5 + 2 * slant * 0.45 + 2 * tri * (0.5 - 0.1 / 3)) / (top + 2 * slant + 2 * tri)
    assert.near({ 0, 0, z }, r.point, 1e-13)
    assert.near(0.5 * (top + 2 * slant + 2 * tri), r.area, 1e-13)
    assert.near({ 0, 0, 1 }, r.normal, 1e-13)
    assert.near(-0.1, r.gap, 1e-12)
  end)

  it("a tetrahedron's apex 0.1 into a cube: a similar tetrahedron", function()
    local h3 = sqrt(3) / 2
    local tet = shape3d.polyhedron {
      vertices = { { 0, 0, 0 }, { 1, 0, 1 }, { -0.5, h3, 1 }, { -0.5, -h3, 1 } },
      faces = { { 1, 3, 2 }, { 1, 4, 3 }, { 1, 2, 4 }, { 2, 3, 4 } },
    }
    assert.near({ 0, 0, 0.75 }, tet:centroid(), 1e-15)
    local r = shape3d.intersection(cube, at(0, 0, 0), tet, at(0, 0, 0.4 + 0.75))
    local base = 3 * sqrt(3) / 4 * 0.1 ^ 2 -- the equilateral section of circumradius 0.1
    assert.near(base * 0.1 / 3, r.volume, 1e-15)
    assert.are.equal(4, #r.vertices)
    -- slanted faces: apex (0, 0, 0.4) and two section corners at z = 0.5
    local p1, p2 = { 0.1, 0, 0.1 }, { -0.05, 0.1 * h3, 0.1 }
    local cx = { p1[2] * p2[3] - p1[3] * p2[2], p1[3] * p2[1] - p1[1] * p2[3], p1[1] * p2[2] - p1[2] * p2[1] }
    local slant = 0.5 * sqrt(cx[1] ^ 2 + cx[2] ^ 2 + cx[3] ^ 2)
    local z = (base * 0.5 + 3 * slant * (0.4 + 1 / 3 * 0.2)) / (base + 3 * slant)
    assert.near({ 0, 0, z }, r.point, 1e-13)
    assert.near(0.5 * (base + 3 * slant), r.area, 1e-14)
    assert.near({ 0, 0, 1 }, r.normal, 1e-12)
    assert.near(-0.1, r.gap, 1e-12)
  end)

  it("a cube 1e-3 deep in a slab", function()
    local slab = shape3d.box { size = { 10, 10, 1 } }
    local r = shape3d.intersection(slab, at(0, 0, 0), cube, at(0, 0, 1 - 1e-3))
    assert.near(1e-3, r.volume, 1e-15)
    assert.near({ 0, 0, 0.5 - 0.5e-3 }, r.point, 1e-14)
    assert.near({ 0, 0, 1 }, r.normal, 1e-14)
    assert.near(0.5 * (2 + 4 * 1e-3), r.area, 1e-14)
    assert.near(-1e-3, r.gap, 1e-12)
    assert.are.same({ 6, 5 }, r.surfaces)
  end)

  it("touching cubes, and cubes apart by less than epsilon: a contact with gap 0", function()
    local eps = 1e-6 * 2 * sqrt(0.75)
    for _, dx in ipairs({ 0, 0.5 * eps }) do
      local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(1 + dx, 0.3, 0.2))
      assert.is_true(r.contact)
      assert.near(eps, r.epsilon, 1e-20)
      assert.are.equal(0, r.gap)
      assert.near({ 1, 0, 0 }, r.normal, 1e-9)
      assert.near({ 0.5 + dx / 2, 0.15, 0.1 }, r.point, 1e-9)
      assert.near(0.56, r.area, 1e-5) -- the 0.7 x 0.8 patch (a 2 eps slab)
      assert.is_true(r.volume > 0 and r.volume <= 0.56 * (2 * eps + 1e-12))
    end
  end)

  it("a per-query epsilon: cubes 0.005 apart touch within epsilon = 0.01", function()
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(1.005, 0, 0), { epsilon = 0.01 })
    assert.is_true(r.contact)
    assert.are.equal(0, r.gap)
    assert.near({ 1, 0, 0 }, r.normal, 1e-12)
    assert.near(0.5025, r.point[1], 1e-12)
    r = shape3d.intersection(cube, at(0, 0, 0), cube, at(1.005, 0, 0))
    assert.are.equal("separated", r.status)
    assert.near(0.005, r.distance, 1e-12)
  end)

  it("convex hulls from shape3d.convex and shape3d.polyhedron{points} act as polyhedra", function()
    local hull = shape3d.convex { points = cube_vertices }
    local hp = shape3d.polyhedron { points = cube_vertices }
    for _, h in ipairs({ hull, hp }) do
      local r = shape3d.intersection(h, at(0, 0, 0), cube, at(0.9, 0.3, 0.2))
      assert.near(0.056, r.volume, 1e-14)
      assert.near({ 0.45, 0.15, 0.1 }, r.point, 1e-14)
      assert.near(0.71, r.area, 1e-14)
    end
    local ok, msg = pcall(shape3d.intersection, shape3d.convex { points = cube_vertices, smoothing = 0.1 },
      at(0, 0, 0), cube, at(1, 0, 0))
    assert.is_false(ok)
    assert.matches("polyhedron", msg)
  end)

  it("separated cubes: no contact, the GJK distance", function()
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(1.5, 1.3, 0))
    assert.is_false(r.contact)
    assert.are.equal("separated", r.status)
    assert.near(sqrt(0.5 ^ 2 + 0.3 ^ 2), r.distance, 1e-12)
    assert.is_nil(r.volume)
    local e = 1e-6 * 2 * sqrt(0.75)
    r = shape3d.intersection(cube, at(0, 0, 0), cube, at(1 + 10 * e, 0, 0))
    assert.are.equal("separated", r.status)
    assert.near(10 * e, r.distance, 1e-15)
  end)

  it("an octahedron's apex into a face: a square pyramid (four planes through the apex)", function()
    local oct = shape3d.polyhedron {
      vertices = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } },
      faces = { { 1, 3, 5 }, { 3, 2, 5 }, { 2, 4, 5 }, { 4, 1, 5 }, { 3, 1, 6 }, { 2, 3, 6 }, { 4, 2, 6 },
        { 1, 4, 6 } },
    }
    local r = shape3d.intersection(cube, at(0, 0, 0), oct, at(0, 0, 1.4))
    local base = 2 * 0.1 ^ 2 -- the square with corners (+-0.1, 0), (0, +-0.1)
    assert.near(base * 0.1 / 3, r.volume, 1e-15)
    assert.are.equal(5, #r.vertices)
    assert.are.equal(5, #r.faces)
    -- each side: base edge 0.1 sqrt 2 times the slant height sqrt(0.1^2 + (0.1 / sqrt 2)^2), halved
    local slant = 0.5 * (0.1 * sqrt(2)) * sqrt(0.1 ^ 2 + (0.1 / sqrt(2)) ^ 2)
    local z = (base * 0.5 + 4 * slant * (0.4 + 0.2 / 3)) / (base + 4 * slant)
    assert.near({ 0, 0, z }, r.point, 1e-13)
    assert.near(0.5 * (base + 4 * slant), r.area, 1e-14)
    assert.near({ 0, 0, 1 }, r.normal, 1e-12)
  end)

  it("nearly coplanar faces: offsets and tilts of 1e-9 change the answer by O(1e-9)", function()
    local q = qaxis({ 1, 0, 0 }, 1e-9)
    local r = shape3d.intersection(cube, at(0, 0, 0), cube, at(0.9, 1e-9, -1e-9, q))
    assert.is_true(r.contact)
    assert.near(0.1, r.volume, 1e-9)
    assert.near({ 0.45, 0, 0 }, r.point, 1e-9)
    assert.near({ 1, 0, 0 }, r.normal, 1e-9)
    assert.near(1.2, r.area, 1e-8)
    assert.near(-0.1, r.gap, 1e-9)
  end)

  it("flush faces (same plane, same side): a's, shared, no weight in the normal, any order", function()
    -- offset 0.5 along x: the y and z faces of both lie in the same planes. By hand: the box
    -- [0, 0.5] x [-0.5, 0.5]^2, volume 0.5, half surface (2 + 4 * 0.5) / 2 = 2, the surface
    -- centroid (0.25, 0, 0); the normal from the two x faces only (area 1 each): (1, 0, 0)
    local faces_reordered = {
      cube_faces[6], cube_faces[3], cube_faces[1], cube_faces[5], cube_faces[2], cube_faces[4],
    }
    local other = shape3d.polyhedron { vertices = cube_vertices, faces = faces_reordered }
    for _, a in ipairs({ cube, other }) do
      for swap = 0, 1 do
        local r
        if swap == 0 then
          r = shape3d.intersection(a, at(0, 0, 0), cube, at(0.5, 0, 0))
        else
          r = shape3d.intersection(cube, at(0.5, 0, 0), a, at(0, 0, 0))
        end
        assert.is_true(r.contact)
        assert.near(0.5, r.volume, 1e-14)
        assert.near(2, r.area, 1e-14)
        assert.near({ 0.25, 0, 0 }, r.point, 1e-14)
        assert.near({ swap == 0 and 1 or -1, 0, 0 }, r.normal, 1e-15)
        local shared = 0
        for _, f in ipairs(r.faces) do
          if f.shared then
            shared = shared + 1
            assert.are.equal("a", f.body)
            assert.near(0.5, f.area, 1e-14)
          end
        end
        assert.are.equal(4, shared)
      end
    end
  end)

  it("a pyramid on its mirror image, base to base: touching, then pressed by delta", function()
    -- square base [-0.5, 0.5]^2 at z = 0, apex (0, 0, 1) (a, above) or (0, 0, -1) (b, below):
    -- the side planes of both meet on the base's edges (the ties of the dual hull). Pressed by
    -- delta (a lowered): between z = -delta and 0 the half-widths are 0.5 (1 - z - delta)
    -- (a) and 0.5 (1 + z) (b), equal at z = -delta / 2, so by hand: volume
    -- 2 int_{-delta}^{-delta/2} (1 + z)^2 dz = (2/3) ((1 - delta/2)^3 - (1 - delta)^3);
    -- two bases of side 1 - delta and eight side strips of slant factor sqrt(1.25), each
    -- sqrt(1.25) (delta / 2) (1 - 3 delta / 4): half the surface (1 - delta)^2 +
    -- 2 sqrt(1.25) delta (1 - 3 delta / 4); the point (0, 0, -delta / 2) and the normal
    -- (0, 0, -1) by the symmetry z -> -delta - z that swaps a and b; the gap -delta.
    local base = { { -0.5, -0.5, 0 }, { 0.5, -0.5, 0 }, { 0.5, 0.5, 0 }, { -0.5, 0.5, 0 } }
    local function pyramid(apex)
      local v = { base[1], base[2], base[3], base[4], { 0, 0, apex } }
      local f
      if apex > 0 then
        f = { { 1, 4, 3, 2 }, { 1, 2, 5 }, { 2, 3, 5 }, { 3, 4, 5 }, { 4, 1, 5 } }
      else
        f = { { 1, 2, 3, 4 }, { 2, 1, 5 }, { 3, 2, 5 }, { 4, 3, 5 }, { 1, 4, 5 } }
      end
      return shape3d.polyhedron { vertices = v, faces = f }
    end
    local up, down = pyramid(1), pyramid(-1)
    assert.near({ 0, 0, 0.25 }, up:centroid(), 1e-15)
    local r = shape3d.intersection(up, at(0, 0, 0.25), down, at(0, 0, -0.25))
    assert.is_true(r.contact)
    assert.are.equal(0, r.gap)
    assert.near({ 0, 0, -1 }, r.normal, 1e-12)
    assert.near({ 0, 0, 0 }, r.point, 1e-9)
    assert.near(1, r.area, 1e-4) -- the 2 epsilon slab over the unit square
    for _, delta in ipairs({ 1e-3, 0.1 }) do
      r = shape3d.intersection(up, at(0, 0, 0.25 - delta), down, at(0, 0, -0.25))
      assert.is_true(r.contact)
      assert.near(2 / 3 * ((1 - delta / 2) ^ 3 - (1 - delta) ^ 3), r.volume, 1e-14)
      assert.near((1 - delta) ^ 2 + 2 * sqrt(1.25) * delta * (1 - 0.75 * delta), r.area, 1e-13)
      assert.near({ 0, 0, -delta / 2 }, r.point, 1e-13)
      assert.near({ 0, 0, -1 }, r.normal, 1e-13)
      assert.near(-delta, r.gap, 1e-12)
    end
  end)

  it("a small cube inside a large one: finite, with the narrow phase's normal", function()
    local small = shape3d.box { size = 0.2 }
    local c = { 0.1, -0.05, 0.02 }
    local r = shape3d.intersection(cube, at(0, 0, 0), small, at(c[1], c[2], c[3]))
    assert.is_true(r.contact)
    assert.is_true(r.normal_fallback)
    assert.near(0.008, r.volume, 1e-15)
    assert.near(c, r.point, 1e-14)
    assert.near(3 * 0.04, r.area, 1e-14)
    local n = r.normal
    assert.near(1, sqrt(n[1] ^ 2 + n[2] ^ 2 + n[3] ^ 2), 1e-12)
    -- the exact overlap along n: min over b of n.y minus max over a of n.x
    local l1 = math.abs(n[1]) + math.abs(n[2]) + math.abs(n[3])
    local nc = n[1] * c[1] + n[2] * c[2] + n[3] * c[3]
    assert.near(nc - 0.1 * l1 - 0.5 * l1, r.gap, 1e-12)
    -- concentric: still finite
    r = shape3d.intersection(cube, at(0, 0, 0), small, at(0, 0, 0))
    assert.is_true(r.contact)
    assert.near(0.008, r.volume, 1e-15)
    assert.near(-0.6, r.gap, 1e-12)
  end)

  it("is invariant under a rigid motion of the pair", function()
    local q = qaxis({ 1, 2, 3 }, 0.7)
    local t = { 0.3, -1.2, 2.5 }
    local o = rotate(q, { 0.9, 0.3, 0.2 })
    local pose_b = at(t[1] + o[1], t[2] + o[2], t[3] + o[3], q)
    local r = shape3d.intersection(cube, at(t[1], t[2], t[3], q), cube, pose_b)
    assert.near(0.056, r.volume, 1e-13)
    local p = rotate(q, { 0.45, 0.15, 0.1 })
    assert.near({ t[1] + p[1], t[2] + p[2], t[3] + p[3] }, r.point, 1e-13)
    assert.near(rotate(q, unit({ 2 * 0.56 ^ 2, 2 * 0.08 ^ 2, 2 * 0.07 ^ 2 })), r.normal, 1e-13)
  end)

  it("rejects shapes that are not polyhedra and bad options", function()
    local ball = shape3d.sphere { radius = 1 }
    local ok, msg = pcall(shape3d.intersection, cube, at(0, 0, 0), ball, at(1, 0, 0))
    assert.is_false(ok)
    assert.matches("argument #3", msg)
    ok, msg = pcall(shape3d.intersection, cube, at(0, 0, 0), cube, at(1, 0, 0), { epsilon = -1 })
    assert.is_false(ok)
    assert.matches("epsilon", msg)
    local rounded = shape3d.box { size = 1, smoothing = 0.1 }
    ok = pcall(shape3d.intersection, rounded, at(0, 0, 0), cube, at(1, 0, 0))
    assert.is_false(ok)
  end)
end)

describe("impact.shape3d.sparsify", function()
  -- a unit cube 0.01 deep in a floor made of two adjacent pieces, overlapping the second by 0.01
  local cube = shape3d.box { size = 1 }
  local piece = shape3d.box { size = { 2, 2, 1 } }
  local function contacts()
    local list = {}
    for k, x in ipairs({ -1, 1 }) do
      local r = shape3d.intersection(piece, at(x, 0, 0), cube, at(-0.49, 0, 0.99))
      assert.is_true(r.contact)
      list[k] = { point = r.point, area = r.area, bodies = { 0, 1 }, objects = { k - 1, 0 } }
    end
    return list
  end

  it("the contact areas are half the intersections' surfaces (side walls included)", function()
    local c = contacts()
    assert.near(0.99 * 1 + 0.99 * 0.01 + 1 * 0.01, c[1].area, 1e-12)
    assert.near(0.01 * 1 + 0.01 * 0.01 + 0.01 * 1, c[2].area, 1e-12)
  end)

  it("removes the sliver on an adjacent piece below the threshold only", function()
    local c = contacts()
    local adjacent = { { 0, 0, 1 } }
    assert.are.same({ true, true }, shape3d.sparsify(c, { adjacent = adjacent })) -- ratio 0.0199 > 0.01
    assert.are.same({ true, false }, shape3d.sparsify(c, { threshold = 0.05, adjacent = adjacent }))
    local reversed = { c[2], c[1] }
    assert.are.same({ false, true }, shape3d.sparsify(reversed, { threshold = 0.05, adjacent = adjacent }))
    assert.are.same({ true, true }, shape3d.sparsify(c, { threshold = 0.05 })) -- pieces not adjacent
    c[2].new = false -- an existing contact is never removed
    assert.are.same({ true, true }, shape3d.sparsify(c, { threshold = 0.05, adjacent = adjacent }))
    assert.are.same({ false, true }, shape3d.sparsify(c, { minarea = 1.01 }))
  end)

  it("keeps one of two coincident contacts, the same one in any order", function()
    local a = { point = { 0, 0, 0 }, area = 1, bodies = { 0, 1 }, objects = { 2, 0 } }
    local b = { point = { 1e-7, 0, 0 }, area = 1, bodies = { 1, 0 }, objects = { 0, 3 } }
    assert.are.same({ true, false }, shape3d.sparsify({ a, b }))
    assert.are.same({ false, true }, shape3d.sparsify({ b, a }))
    local ok, msg = pcall(shape3d.sparsify, { a }, { threshold = 2 })
    assert.is_false(ok)
    assert.matches("threshold", msg)
  end)
end)
