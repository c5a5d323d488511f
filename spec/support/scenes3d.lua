-- Scenes and checks shared by the 3D engine specs (built through the public Lua API only).
local assert = require("luassert")

local M = {}

function M.dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
local dot = M.dot

--- The 8 corners of a cuboid of sides sx, sy, sz centred at the origin (for shape3d.convex).
function M.cuboid_points(sx, sy, sz)
  local pts = {}
  for _, x in ipairs { -sx / 2, sx / 2 } do
    for _, y in ipairs { -sy / 2, sy / 2 } do
      for _, z in ipairs { -sz / 2, sz / 2 } do pts[#pts + 1] = { x, y, z } end
    end
  end
  return pts
end

--- After a run of w.time seconds from rest at p0 on a slope of angle th (unit normal n, unit
--- downhill direction down) with friction mu and gravity g: a box slides at g (sin th - mu cos th)
--- when mu < tan th (to 1 %), else stays put without creep (1e-3 m); either way on the slope.
function M.assert_slope_outcome(w, box, p0, th, mu, g, n, down)
  local d = { box.position[1] - p0[1], box.position[2] - p0[2], box.position[3] - p0[3] }
  if mu < math.tan(th) then
    local a = g * (math.sin(th) - mu * math.cos(th))
    assert.near(a * w.time, dot(box.velocity, down), 0.01 * a * w.time)
    assert.near(0.5 * a * w.time ^ 2, dot(d, down), 0.01 * 0.5 * a * w.time ^ 2)
  else  -- static friction holds without creep
    assert.is_true(math.sqrt(dot(d, d)) < 1e-3, "drift " .. math.sqrt(dot(d, d)))
  end
  assert.is_true(math.abs(dot(d, n)) < 1e-3)  -- on the slope
end

--- A hexagonal prism of circumradius r and height h along z (its faces' centres on the axes).
function M.hexagonal_prism(r, h)
  local shape3d = require("impact").shape3d
  local pts = {}
  for k = 0, 5 do
    local a = math.pi / 3 * k
    pts[#pts + 1] = { r * math.cos(a), r * math.sin(a), -h / 2 }
    pts[#pts + 1] = { r * math.cos(a), r * math.sin(a), h / 2 }
  end
  return shape3d.convex { points = pts }
end

--- Bodies symmetric about the face they rest on (the flat-landing and resting-tilt specs):
--- name, a function making the shape, half height (rest height of the centre above its
--- support), size (its largest extent).
function M.flat_bodies()
  local shape3d = require("impact").shape3d
  return {
    { "cube", function() return shape3d.box { size = { 1, 1, 1 } } end, 0.5, 1 },
    { "box 1 x 0.6 x 0.4", function() return shape3d.box { size = { 1, 0.6, 0.4 } } end, 0.2, 1 },
    { "box 2 x 0.5 x 0.3", function() return shape3d.box { size = { 2, 0.5, 0.3 } } end, 0.15, 2 },
    { "cylinder on its end", function() return shape3d.cylinder { radius = 0.4, length = 0.5 } end,
      0.25, 0.8 },
    { "hexagonal prism on a face", function() return M.hexagonal_prism(0.5, 0.3) end, 0.15, 1 },
  }
end

--- The rotation matrix (rows) of unit quaternion q = {w, x, y, z}: body frame to world.
function M.rotation(q)
  local qw, qx, qy, qz = q[1], q[2], q[3], q[4]
  return {
    { 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy) },
    { 2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx) },
    { 2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy) } }
end

--- The angle between a body's axis z and the vertical (its orientation (w, x, y, z)).
function M.tilt(body)
  local q = body.orientation
  return 2 * math.asin(math.min(1, math.sqrt(q[2] ^ 2 + q[3] ^ 2)))
end

return M
