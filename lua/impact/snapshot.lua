--- impact.snapshot: what a world looks like at one moment, as plain data that pictures, the VTK
--- export and the viewer read: { dim, time, steps, bodies = { { id, name, fixed, shape,
--- position, velocity, angle and spin | orientation and angular_velocity }, ... } }. A snapshot can stand
--- in for a world
--- wherever a picture or an export takes one.
-- @module impact.snapshot
local M = {}

--- A snapshot of world w (a snapshot is returned as it is).
function M.take(w)
  if type(w) == "table" and w.bodies and w.dim then return w end
  if type(w) ~= "userdata" or type(w.bodies) ~= "function" then
    error("impact: expected a world or a snapshot, got " .. type(w), 3)
  end
  local dim = w.dim
  local bodies = {}
  for i, b in ipairs(w:bodies()) do
    local entry = { id = b.id, name = b.name, fixed = b.fixed, shape = b.shape,
      position = b.position, velocity = b.velocity }
    if dim == 2 then
      entry.angle, entry.spin = b.angle, b.spin
    else
      entry.orientation, entry.angular_velocity = b.orientation, b.angular_velocity
    end
    bodies[i] = entry
  end
  return { dim = dim, time = w.time, steps = w.steps, bodies = bodies }
end

--- The smallest box {xmin, ymin, [zmin,] xmax, ymax, [zmax]} holding every body (by its
--- shape's bounds; a body without a shape counts as its position); nil when there are none.
function M.bounds(snap)
  local dim = snap.dim
  local lo, hi = {}, {}
  for k = 1, dim do lo[k], hi[k] = math.huge, -math.huge end
  for _, b in ipairs(snap.bodies) do
    local l, h = b.position, b.position
    if b.shape then
      l, h = b.shape:bounds(dim == 2 and { position = b.position, angle = b.angle }
        or { position = b.position, orientation = b.orientation })
    end
    for k = 1, dim do
      lo[k] = math.min(lo[k], l[k])
      hi[k] = math.max(hi[k], h[k])
    end
  end
  if lo[1] > hi[1] then return nil end
  local box = {}
  for k = 1, dim do box[k], box[dim + k] = lo[k], hi[k] end
  return box
end

--- p (shape coordinates, 2D) placed at a 2D pose: position + R(angle) (p - centroid).
function M.place2(p, centroid, position, angle)
  local c, s = math.cos(angle), math.sin(angle)
  local x, y = p[1] - centroid[1], p[2] - centroid[2]
  return position[1] + c * x - s * y, position[2] + s * x + c * y
end

--- p (shape coordinates, 3D) placed at a 3D pose: position + R(q) (p - centroid).
function M.place3(p, centroid, position, q)
  local x, y, z = p[1] - centroid[1], p[2] - centroid[2], p[3] - centroid[3]
  local qw, qx, qy, qz = q[1], q[2], q[3], q[4]
  -- v + 2 w (u x v) + 2 u x (u x v), u = (qx, qy, qz)
  local tx = 2 * (qy * z - qz * y)
  local ty = 2 * (qz * x - qx * z)
  local tz = 2 * (qx * y - qy * x)
  return position[1] + x + qw * tx + (qy * tz - qz * ty),
    position[2] + y + qw * ty + (qz * tx - qx * tz),
    position[3] + z + qw * tz + (qx * ty - qy * tx)
end

return M
