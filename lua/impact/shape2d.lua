--- impact.shape2d: 2D shapes, polygons whose edges are straight segments or circular arcs
--- (convex or concave), with one or more closed paths. Each constructor returns an
--- impact.Shape with area(), centroid(), inertia(density), mass(density), bounds(pose),
--- kind and dim. Every path keeps the material on its left: outer boundaries run
--- counter-clockwise, holes clockwise.
-- @module impact.shape2d
local core = require("impact.core")

local shape2d = {}

--- A disc: ball{radius = 0.5} (decorated vertices every 0.3 along the rim, at most 1024 a turn;
--- for another spacing build it as a path: path():move_to(r, 0):arc_to(r, 0, {center = {0, 0}}):close()).
--- Every length option (radius, width, height, corner_radius, thickness, spacing, ...) must be
--- in [1e-60, 1e60], and sizes must exceed 2e-9 of the largest (the builder's tolerance).
function shape2d.ball(opts) return core.shape2d_ball(opts or {}) end
--- A rectangle centred on its centroid: block{width = 1, height = 1}.
function shape2d.block(opts) return core.shape2d_block(opts or {}) end
--- A regular polygon with a horizontal bottom edge: ngon{sides = 6, radius = 0.5} (circumradius).
function shape2d.ngon(opts) return core.shape2d_ngon(opts or {}) end
--- A rectangle with quarter-circle corners: rounded_block{width, height, corner_radius, spacing}.
function shape2d.rounded_block(opts) return core.shape2d_rounded_block(opts or {}) end
--- A rectangular frame (two paths): frame{outer_width, outer_height, thickness}.
function shape2d.frame(opts) return core.shape2d_frame(opts or {}) end
--- A block [-w/2, w/2] x [0, height] whose top is an arc of the given radius (>= width / 2)
--- through the top corners, bulging up: convex_top_block{width, height, radius, spacing}.
function shape2d.convex_top_block(opts) return core.shape2d_convex_top_block(opts or {}) end
--- The same with the top dipping down (concave): concave_top_block{width, height, radius, spacing}.
function shape2d.concave_top_block(opts) return core.shape2d_concave_top_block(opts or {}) end

local function finite(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge end

local options = require("impact.options")
local describe = options.shown

local function check_xy(fname, x, y)
  if not finite(x) then
    error(string.format("impact.shape2d.path:%s: argument x must be a finite number, got %s",
      fname, describe(x)), 3)
  end
  if not finite(y) then
    error(string.format("impact.shape2d.path:%s: argument y must be a finite number, got %s",
      fname, describe(y)), 3)
  end
end

local function check_opts(fname, opts, accepted)
  local what = "impact.shape2d.path:" .. fname
  if opts ~= nil and type(opts) ~= "table" then
    error(string.format("%s: options must be a table, got %s", what, describe(opts)), 3)
  end
  opts = options.check_keys(what, opts, accepted,
    { optional = true, accepted_text = table.concat(accepted, ", "), level = 3 })
  options.boolean(what, opts, "collide", nil, { text = "true or false", level = 3 })
  return opts
end

local Path = {}
Path.__index = Path

--- The general builder:
---   impact.shape2d.path():move_to(x, y):line_to(x, y, {collide = true})
---     :arc_to(x, y, {center = {cx, cy}, outside = true}):close():path():move_to(...)...
---     :build{spacing = 0.3}
--- spacing: the greatest distance between decorated vertices along arcs (also one every 45
--- degrees, and at most 1024 pieces per full turn whatever the arc's size). Coordinates and arc
--- radii must be at most 1e60 in size, a shape must span at least 1e-60, at most 10000 paths.
--- arc_to draws an arc about `center` to (x, y), which must be on the same circle; outside =
--- true (the default) bulges away from the material (convex), false into it (concave). An arc
--- back to its start point is a full circle. collide = false marks an edge that never collides.
function shape2d.path() return setmetatable({ cmds = {} }, Path) end

function Path:move_to(x, y)
  check_xy("move_to", x, y)
  self.cmds[#self.cmds + 1] = { op = "move", x = x, y = y }
  return self
end

function Path:line_to(x, y, opts)
  check_xy("line_to", x, y)
  opts = check_opts("line_to", opts, { "collide" })
  self.cmds[#self.cmds + 1] = { op = "line", x = x, y = y, collide = opts.collide }
  return self
end

function Path:arc_to(x, y, opts)
  check_xy("arc_to", x, y)
  opts = check_opts("arc_to", opts, { "center", "outside", "collide" })
  local c = opts.center
  if type(c) ~= "table" or not finite(c[1]) or not finite(c[2]) or #c ~= 2 then
    error("impact.shape2d.path:arc_to: option 'center' must be an array of 2 finite numbers, got "
      .. describe(c), 2)
  end
  if opts.outside ~= nil and type(opts.outside) ~= "boolean" then
    error("impact.shape2d.path:arc_to: option 'outside' must be true or false, got "
      .. describe(opts.outside), 2)
  end
  self.cmds[#self.cmds + 1] = { op = "arc", x = x, y = y, cx = c[1], cy = c[2],
    outside = opts.outside ~= false, collide = opts.collide }
  return self
end

--- Ends the current path with a straight edge back to its start (unless already there).
function Path:close(opts)
  opts = check_opts("close", opts, { "collide" })
  self.cmds[#self.cmds + 1] = { op = "close", collide = opts.collide }
  return self
end

--- Starts another path (a hole or a separate part); the next call must be move_to.
function Path:path() return self end

--- Validates and builds the shape (errors name the path and edge at fault).
function Path:build(opts) return core.shape2d_polygon(self.cmds, opts) end

--- The edges in shape coordinates: { kind = "line"|"arc", path, from, to, length, curvature,
--- collide, normal (lines), center, radius, sweep, convex (arcs) }.
function shape2d.edges(s) return core.shape2d_edges(s) end
--- The vertices { point, corner, decorated, edge }; decorated ones too when opts.decorated.
function shape2d.vertices(s, opts)
  return core.shape2d_vertices(s, opts ~= nil and opts.decorated == true)
end
--- Signed distance from a point (shape coordinates) to edge i (> 0 outside), the closest point
--- of the edge, the outward normal there and the edge's signed curvature.
function shape2d.edge_distance(s, i, point) return core.shape2d_edge_distance(s, i, point) end
--- Whether a point (shape coordinates) is in the material.
function shape2d.contains(s, point) return core.shape2d_contains(s, point) end
--- Shape coordinates -> world at pose {position = {x, y}, angle = a} (position = centroid).
function shape2d.to_world(s, pose, point) return core.shape2d_to_world(s, pose, point) end
--- World -> shape coordinates.
function shape2d.to_body(s, pose, point) return core.shape2d_to_body(s, pose, point) end
--- Signed distance between two posed shapes (< 0: penetration depth), the unit normal from a
--- toward b, the nearest (or deepest) point of each, and whether the value is exact.
function shape2d.distance(shape_a, pose_a, shape_b, pose_b)
  return core.shape2d_distance(shape_a, pose_a or {}, shape_b, pose_b or {})
end
--- Collision and contact detection between two bodies
---   { shape, position, angle, previous = {position, angle}, velocity, spin, id }
--- with options { distance_tol = 0.01, velocity_tol = 0.5 }. Returns a list of
--- { kind = "collision"|"contact"|"imminent", type = "vertex_edge"|"edge_edge"|"vertex_vertex",
---   body, normal_body, vertex, edge, normal_edge, normal_vertex, decorated, swept,
---   point, point_primary, normal, distance, normal_velocity, curvature, normal_curvature }.
function shape2d.detect(body_a, body_b, opts) return core.shape2d_detect(body_a, body_b, opts) end

-- the same as methods of every shape: s:edges(), s:vertices{decorated = true}, s:contains(p),
-- s:edge_distance(i, p), s:to_world(pose, p), s:to_body(pose, p) (a 3D shape raises, naming it)
do
  local methods = getmetatable(core.shape2d_block { width = 1, height = 1 }).methods
  for _, name in ipairs { "edges", "vertices", "contains", "edge_distance", "to_world", "to_body" } do
    methods[name] = shape2d[name]
  end
end

return shape2d
