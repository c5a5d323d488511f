-- myPhysicsLab's pendulum clock with gears (its PendulumClockConfig.makeClockWithGears, with
-- GearsConfig's gear), rebuilt from its description with impact's path builder: the anchor
-- (its escapement, a 7-edge polygon, and its pendulum, a rod and round bob, in one body), the
-- escape wheel (24 sharp teeth, with a 36-tooth gear inside as a second path) and a second
-- 36-tooth gear meshing with that gear. Edge ranges as its EdgeRange.fromEdge: a whole path.
local M = {}

local function rotate(a, x, y)
  local c, s = math.cos(a), math.sin(a)
  return x * c - y * s, x * s + y * c
end

-- a gear's path added to p: inner radius r1, teeth of depth, n teeth; of each tooth the
-- outer and inner flats take out_pct and in_pct percent, the two slopes the rest
-- (GearsConfig.addGear's tooth). Returns the number of edges (4 n).
function M.add_gear(p, r1, depth, n, out_pct, in_pct)
  local whole = 2 * math.pi / n
  local up = whole * (100 - out_pct - in_pct) / 200
  local out_flat = whole * out_pct / 100
  p:move_to(r1, 0)
  for i = 0, n - 1 do
    local a = i * whole
    p:line_to(rotate(a + up, r1 + depth, 0))
    p:line_to(rotate(a + up + out_flat, r1 + depth, 0))
    p:line_to(rotate(a + up + out_flat + up, r1, 0))
    if i < n - 1 then p:line_to(rotate(a + whole, r1, 0)) end
  end
  p:close()
  return 4 * n
end

-- the anchor at scale s: its escapement polygon and its pendulum (rod 2 wd = 0.1 wide, round
-- bob) as one path, their union: the rod's top end lies inside the polygon (crossing its edge
-- from (73, 141) s to (159, 127) s), and impact's paths may not cross, so the outline follows
-- that edge to the rod, down the rod, round the bob, up the rod and on along the edge (the rod's
-- parts inside the polygon, which no other body can reach, are left out). Returns the shape, the
-- pendulum's edge range (the rod's sides and the bob), the centre of mass (the bob's centre),
-- the joint point, and the radius whose square / 2 is its moment per unit mass.
function M.anchor(shape2d, s, rod_length, bob_radius)
  local wd = 0.05
  local joint = { 109 * s, 166 * s }
  local xo, yo = joint[1], joint[2] - rod_length - bob_radius
  local ax, ay, bx, by = 73 * s, 141 * s, 159 * s, 127 * s
  local function cross_y(x) return ay + (x - ax) * (by - ay) / (bx - ax) end
  local shape = shape2d.path():move_to(61 * s, 104 * s):line_to(ax, ay)
    :line_to(xo - wd, cross_y(xo - wd)):line_to(xo - wd, yo + bob_radius)
    :arc_to(xo + wd, yo + bob_radius, { center = { xo, yo } })
    :line_to(xo + wd, cross_y(xo + wd)):line_to(bx, by)
    :line_to(155 * s, 103 * s):line_to(221 * s, 146 * s):line_to(109 * s, 197 * s)
    :line_to(8 * s, 162 * s):close():build()
  return shape, { 3, 5 }, { xo, yo }, joint, math.sqrt(wd * wd + bob_radius * bob_radius)
end

-- the escape wheel at scale s: 24 teeth from radius 90 s, 14 s deep, and its gear (inner
-- radius 0.8 of the wheel's, teeth 0.3 deep, 36 teeth, 30 % out, 30 % in). Its gear lies
-- inside the wheel's disc, and the second gear reaches into that disc through the wheel's
-- teeth (each ignores the other's edges, as its EdgeRanges say); impact's paths may not nest
-- one solid in another, so the teeth are a ring (a clockwise 72-gon hole of radius hole_r,
-- between the gear's tips and the teeth's roots, no body's contact) around the gear, a separate
-- part. Returns the shape, the ring's edge range (teeth and hole), the gear's, and the radius
-- whose square / 2 is its moment per unit mass.
function M.escape_wheel(shape2d, s, hole_r)
  local radius, depth, n = 90 * s, 14 * s, 24
  local p = shape2d.path():move_to(radius, 0)
  for i = 1, n do
    p:line_to(rotate(2 * math.pi * (i - 1) / n, radius + depth, 0))
    if i < n then p:line_to(rotate(2 * math.pi * i / n, radius, 0)) end
  end
  p:close():path():move_to(hole_r, 0)
  for i = 71, 1, -1 do p:line_to(rotate(2 * math.pi * i / 72, hole_r, 0)) end
  p:close()
  local ring = 2 * n + 72
  local gear = M.add_gear(p:path(), radius * 0.8, 0.3, 36, 30, 30)
  return p:build(), { 1, ring }, { ring + 1, ring + gear }, radius + depth / 2
end

-- the whole clock in world w (its makeClockWithGears with pendulum length 4 at the origin,
-- its clock_with_gears_setup's masses, elasticity 0.3, the escape wheel's turning force
-- (0, -1) at (2, 0) in its frame: a torque -2). Returns the bodies in its order (anchor,
-- second gear, escape wheel) and their pins.
function M.clock(w, shape2d)
  local s = 0.03
  local ashape, pendulum_edges, acm, joint, rr = M.anchor(shape2d, s, 4, 0.6)
  local a0 = 0.13
  local dx, dy = rotate(a0, acm[1] - joint[1], acm[2] - joint[2])
  local anchor = w:add_body { shape = ashape, mass = 10, inertia = 10 * rr * rr / 2,
    center_of_mass = acm, position = { dx, 4.6 + dy }, angle = a0, elasticity = 0.3 }
  local joints = {}
  joints[1] = w:add_joint { body1 = anchor, point1 = { joint[1] - acm[1], joint[2] - acm[2] },
    body2 = w.background, point2 = { 0, 4.6 } }
  local r = s * 90 * 0.8
  local gp = shape2d.path()
  M.add_gear(gp, r, 0.3, 36, 30, 30)
  local tooth = 2 * math.pi / 36
  local gear2 = w:add_body { shape = gp:build(), mass = 0.5, inertia = 0.5 * r * r / 2,
    center_of_mass = { 0, 0 }, position = { 2 * r + 0.008 + 0.40, 0 },
    angle = -tooth / 5 - 0.002, elasticity = 0.3 }
  joints[2] = w:add_joint { body1 = gear2, point1 = { 0, 0 }, body2 = w.background,
    point2 = { 2 * r + 0.008 + 0.40, 0 } }
  local eshape, teeth, gear, er = M.escape_wheel(shape2d, s, 2.58)
  local escape = w:add_body { shape = eshape, mass = 1, inertia = er * er / 2,
    center_of_mass = { 0, 0 }, position = { 0, 0 }, elasticity = 0.3 }
  joints[3] = w:add_joint { body1 = escape, point1 = { 0, 0 }, body2 = w.background, point2 = { 0, 0 } }
  gear2:no_collide(anchor)
  escape:no_collide(anchor, { edges = pendulum_edges })
  gear2:no_collide(escape, { edges = teeth })
  anchor:no_collide(escape, { edges = gear })
  w:add_load { body = escape, force = { 0, -1 }, point = { 2, 0 }, frame = "body" }
  return { anchor, gear2, escape }, joints
end

return M
