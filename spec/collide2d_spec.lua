-- Distances, normals and detection between 2D shapes, checked against hand-worked geometry;
-- every scene is also turned rigidly about the origin (distances stay, normals turn).
local impact = require("impact")
local s2 = impact.shape2d

local function turned(phi, x, y)
  return { math.cos(phi) * x - math.sin(phi) * y, math.sin(phi) * x + math.cos(phi) * y }
end

local function pose(phi, x, y, a) return { position = turned(phi, x, y), angle = (a or 0) + phi } end

local function check(sa, pa, sb, pb, d, n, phi)
  local dist, normal, qa, qb = s2.distance(sa, pa, sb, pb)
  assert.near(d, dist, 1e-12)
  assert.near(turned(phi, n[1], n[2]), normal, 1e-12)
  assert.near(d, (qb[1] - qa[1]) * normal[1] + (qb[2] - qa[2]) * normal[2], 1e-12)
end

describe("shape2d.distance", function()
  local phis = { 0, 0.7, 2.1, -1.3 }

  it("ball/ball", function()
    local a, b = s2.ball { radius = 0.5 }, s2.ball { radius = 0.25 }
    for _, phi in ipairs(phis) do
      check(a, pose(phi, 1, 2, 0.3), b, pose(phi, 1.6, 2.8, 1), 0.25, { 0.6, 0.8 }, phi)
      check(a, pose(phi, 1, 2), b, pose(phi, 1.3, 2.4), -0.25, { 0.6, 0.8 }, phi)
    end
    local d, n = s2.distance(a, {}, b, {})
    assert.near(-0.75, d, 1e-15)
    assert.is_true(n[1] == n[1] and n[2] == n[2])
  end)

  it("block/block: corner to face, corner to corner, penetration", function()
    local a, b = s2.block { width = 2, height = 1 }, s2.block { width = 1, height = 1 }
    local h = math.sqrt(0.5)
    for _, phi in ipairs(phis) do
      check(a, pose(phi, 0, 0), b, pose(phi, 0.3, 0.6 + h, math.pi / 4), 0.1, { 0, 1 }, phi)
      check(a, pose(phi, 0, 0), b, pose(phi, 1.8, 1.4), 0.5, { 0.6, 0.8 }, phi)
      check(a, pose(phi, 0, 0), b, pose(phi, 0.3, 0.45 + h, math.pi / 4), -0.05, { 0, 1 }, phi)
    end
  end)

  it("ball/block (straight/circular)", function()
    local a, b = s2.block { width = 2, height = 1 }, s2.ball { radius = 0.3 }
    for _, phi in ipairs(phis) do
      check(a, pose(phi, 0, 0), b, pose(phi, -0.4, 0.82, 1), 0.02, { 0, 1 }, phi)
      check(a, pose(phi, 0, 0), b, pose(phi, 1.3, 0.9), 0.2, { 0.6, 0.8 }, phi)
      check(a, pose(phi, 0, 0), b, pose(phi, 0.1, 0.73), -0.07, { 0, 1 }, phi)
    end
  end)

  it("convex arc/straight, convex/convex arcs, concave/convex arcs", function()
    local w, h, R = 1.2, 0.8, 0.9
    local vex = s2.convex_top_block { width = w, height = h, radius = R }
    local cave = s2.concave_top_block { width = w, height = h, radius = R }
    local slab, ball = s2.block { width = 3, height = 0.5 }, s2.ball { radius = 0.2 }
    local k = math.sqrt(R * R - w * w / 4)
    local apex = h - k + R - vex:centroid()[2]
    local cy = h + k - cave:centroid()[2]
    for _, phi in ipairs(phis) do
      check(vex, pose(phi, 0, 0), slab, pose(phi, 0.2, apex + 0.28), 0.03, { 0, 1 }, phi)
      check(vex, pose(phi, 0, 0), slab, pose(phi, 0.2, apex + 0.24), -0.01, { 0, 1 }, phi)
      check(vex, pose(phi, 0, 0), vex, pose(phi, 0, 2 * apex + 0.04, math.pi), 0.04, { 0, 1 }, phi)
      check(cave, pose(phi, 0, 0), ball, pose(phi, 0, cy - 0.7 + 0.006, 0.4), 0.006, { 0, 1 }, phi)
      check(cave, pose(phi, 0, 0), ball, pose(phi, 0, cy - 0.7 - 0.004), -0.004, { 0, 1 }, phi)
      local a = -math.pi / 2 + 0.2
      local rr = R - 0.2 - 0.01
      check(cave, pose(phi, 0, 0), ball, pose(phi, rr * math.cos(a), cy + rr * math.sin(a)), 0.01,
        { -math.cos(a), -math.sin(a) }, phi)
      -- a square's corner in the concave dip (vertex/concave arc)
      local sq, hd = s2.block { width = 0.2, height = 0.2 }, math.sqrt(0.02)
      check(cave, pose(phi, 0, 0), sq, pose(phi, 0, cy - R + 0.004 + hd, math.pi / 4), 0.004, { 0, 1 }, phi)
      check(cave, pose(phi, 0, 0), sq, pose(phi, 0, cy - R - 0.003 + hd, math.pi / 4), -0.003, { 0, 1 }, phi)
    end
  end)
end)

describe("shape2d.detect", function()
  it("catches a ball at 1000 m/s crossing a 0.01-thick wall in one step", function()
    local wall, ball = s2.block { width = 0.01, height = 2 }, s2.ball { radius = 0.1 }
    for _, phi in ipairs { 0, 0.5, 1.9 } do
      local hits = s2.detect(
        { shape = wall, position = { 0, 0 }, angle = phi, id = 7 },
        { shape = ball, id = 9, position = turned(phi, 20, 0.3),
          previous = { position = turned(phi, -5, 0.3) },
          velocity = turned(phi, 1000, 0) })
      assert.is_true(#hits >= 1)
      for _, hit in ipairs(hits) do
        assert.are.equal("collision", hit.kind)
        assert.is_true(hit.swept)
        assert.is_true(hit.normal_velocity < 0)
      end
      -- without the previous pose the ball is simply beyond the wall
      assert.are.equal(0, #s2.detect({ shape = wall, angle = phi },
        { shape = ball, position = turned(phi, 20, 0.3) }))
    end
  end)

  it("contact, imminent and collision from the tolerances", function()
    local floor, blk = s2.block { width = 10, height = 1 }, s2.block { width = 1, height = 1 }
    local f = { shape = floor, position = { 0, -0.5 }, id = 1 }
    local function at(y, vy) return { shape = blk, position = { 0.2, y }, velocity = { 0, vy }, id = 2 } end
    local hits = s2.detect(f, at(0.504, 0))
    assert.are.equal(2, #hits)
    assert.are.equal("contact", hits[1].kind)
    assert.are.equal("vertex_edge", hits[1].type)
    assert.are.equal(2, hits[1].body)
    assert.are.equal(1, hits[1].normal_body)
    assert.near(0.004, hits[1].distance, 1e-12)
    assert.near({ 0, 1 }, hits[1].normal, 1e-15)
    assert.are.equal("imminent", s2.detect(f, at(0.504, -1))[1].kind)
    assert.are.equal(0, #s2.detect(f, at(0.504, 1)))
    assert.are.equal(0, #s2.detect(f, at(0.504, 1), { velocity_tol = 2 }) - 2)
    assert.are.equal("collision", s2.detect(f, at(0.498, 0))[1].kind)
    assert.are.equal(0, #s2.detect(f, at(0.52, 0)))
    assert.are.equal(2, #s2.detect(f, at(0.52, 0), { distance_tol = 0.03 }))
  end)

  it("an edge/edge result wins over decorated vertices between the same edges", function()
    local floor = s2.block { width = 10, height = 1 }
    local ball = s2.path():move_to(0.5, 0):arc_to(0.5, 0, { center = { 0, 0 } }):close()
      :build { spacing = 0.05 }
    local hits = s2.detect({ shape = floor, position = { 0, -0.5 } },
      { shape = ball, position = { 0.123, 0.497 }, previous = { position = { 0.123, 0.504 } },
        velocity = { 0, -0.28 } })
    assert.are.equal(1, #hits)
    assert.are.equal("edge_edge", hits[1].type)
    assert.near(-0.003, hits[1].distance, 1e-12)
    assert.near({ 0.123, 0 }, hits[1].point, 1e-12)
    assert.near(2, hits[1].curvature, 1e-12)
  end)

  it("a ball in a doughnut's hole meets only the hole's concave edge", function()
    local ring = s2.path():move_to(2, 0):arc_to(2, 0, { center = { 0, 0 } }):close()
      :path():move_to(1, 0):arc_to(1, 0, { center = { 0, 0 }, outside = false }):close():build()
    local ball = s2.ball { radius = 0.3 }
    for _, phi in ipairs { 0, 1, 2.5 } do
      local u = { math.cos(phi), math.sin(phi) }
      local hits = s2.detect({ shape = ring, angle = 0.3 },
        { shape = ball, position = { 0.695 * u[1], 0.695 * u[2] } })
      assert.are.equal(1, #hits)
      assert.are.equal("contact", hits[1].kind)
      assert.are.equal("edge_edge", hits[1].type)
      assert.near(0.005, hits[1].distance, 1e-12)
      assert.near({ -u[1], -u[2] }, hits[1].normal, 1e-12)
      assert.near(-1, hits[1].normal_curvature, 1e-12)
      assert.near(0.2, (s2.distance(ring, {}, ball, { position = { 0.5 * u[1], 0.5 * u[2] } })), 1e-12)
      assert.near(-0.1, (s2.distance(ring, {}, ball, { position = { 0.8 * u[1], 0.8 * u[2] } })), 1e-12)
      -- poking out of the outer rim: the way out is outward
      assert.near(-0.4, (s2.distance(ring, {}, ball, { position = { 1.9 * u[1], 1.9 * u[2] } })), 1e-12)
    end
  end)

  it("edges marked collide = false are ignored", function()
    local s = s2.path():move_to(-1, -0.5):line_to(1, -0.5):line_to(1, 0.5)
      :line_to(-1, 0.5, { collide = false }):close():build()
    local blk = s2.block { width = 0.4, height = 0.4 }
    assert.are.equal(0, #s2.detect({ shape = s }, { shape = blk, position = { 0, 0.705 } }))
    assert.are.equal(2, #s2.detect({ shape = s, angle = math.pi }, { shape = blk, position = { 0, 0.705 } }))
  end)

  it("equal boxes aligned and sunk into each other side-on: a penetration through the side faces",
     function()
    -- each box's corners lie on the lines of the other's top and bottom faces, with its material
    -- below the top line (above the bottom one): not touching those faces, but sunk through
    -- the side face by the overlap (such boxes meeting head-on had passed through each other)
    local box = s2.block { width = 1, height = 1 }
    for _, overlap in ipairs { 0.1, 0.5 } do
      local hits = s2.detect({ shape = box, position = { -(1 - overlap), 0 } }, { shape = box })
      assert.is_true(#hits > 0)
      for _, h in ipairs(hits) do
        assert.near(-overlap, h.distance, 1e-12)
        assert.near(0, h.normal[2], 1e-12)
        assert.near(1, math.abs(h.normal[1]), 1e-12)
      end
    end
  end)

  it("keeps a corner slightly tilted against a face on that face (a settling pyramid)", function()
    -- a box resting on the one below, the two turned by +-5.4e-4 rad (a relative tilt of about
    -- 1.1e-3, a little beyond the corners' cone slack): the lower box's top corner, 0.0003
    -- inside the upper box's bottom face, touches that face; it is not sunk through the upper
    -- box's far side face (half a box deep), which had stopped the 1275-box pyramid
    local box = s2.block { width = 1, height = 1 }
    local lower = { shape = box, position = { 2.501161357, 0.499796643 }, angle = -5.446e-4, id = 1 }
    local upper = { shape = box, position = { 3.002897774, 1.499453275 }, angle = 5.262e-4, id = 2 }
    local hits = s2.detect(lower, upper)
    assert.is_true(#hits > 0)
    for _, h in ipairs(hits) do
      assert.is_true(math.abs(h.distance) < 1e-3, tostring(h.distance))
      assert.near(1, math.abs(h.normal[2]), 1e-5)
    end
  end)

  it("rejects bad bodies", function()
    assert.has_error(function() s2.detect({ shape = 1 }, {}) end,
      "impact.shape2d.detect: option 'shape' must be a 2D shape, got 1")
    local b = { shape = s2.ball {} }
    assert.has_error(function() s2.detect(b, b, { distance_tol = 0 }) end,
      "impact.shape2d.detect: option 'distance_tol' must be a positive finite number, got 0")
  end)
end)
