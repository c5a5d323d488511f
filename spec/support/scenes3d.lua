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

return M
