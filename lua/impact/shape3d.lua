--- impact.shape3d: constructors of 3D shapes and the distance query between two of them.
--- Each constructor returns an impact.Shape with volume(), centroid(), inertia(density)
--- (a 3x3 table about the centroid), mass(density), bounds(pose), kind and dim.
---
--- Every 3D shape is a convex core swept by a sphere. `smoothing = r` rounds edges and
--- corners with radius r: a box, cylinder or cone keeps the outer size it was given (its core
--- shrinks by r); a convex hull grows by r. Shapes are centred on their centroid except the
--- cone (base centre at the origin, apex at z = length) and the convex hull (the coordinates
--- of its points); the axis of cylinders, capsules and cones is z.
-- @module impact.shape3d
local core = require("impact.core")

local shape3d = {}

--- A ball: sphere{radius = 0.5}.
function shape3d.sphere(opts) return core.shape3d_sphere(opts or {}) end
--- A box centred on its centroid: box{size = {sx, sy, sz}} or box{size = s} for a cube;
--- smoothing <= min(size) / 2.
function shape3d.box(opts) return core.shape3d_box(opts or {}) end
--- An ellipsoid with semi-axes radii = {a, b, c} (or one number for a sphere).
function shape3d.ellipsoid(opts) return core.shape3d_ellipsoid(opts or {}) end
--- A cylinder along z: cylinder{radius = 0.5, length = 1, smoothing = 0}; smoothing is at
--- most the radius and half the length.
function shape3d.cylinder(opts) return core.shape3d_cylinder(opts or {}) end
--- A capsule along z: the segment of the given length swept by a sphere of the radius
--- (total length: length + 2 radius): capsule{radius = 0.5, length = 1}.
function shape3d.capsule(opts) return core.shape3d_capsule(opts or {}) end
--- A cone along z with its base circle at z = 0 and apex at z = length:
--- cone{radius = 0.5, length = 1, smoothing = 0}; the rounded cone stays inside the sharp one.
function shape3d.cone(opts) return core.shape3d_cone(opts or {}) end
--- The convex hull of points = {{x, y, z}, ...} (at least 4, not coplanar), grown by smoothing.
function shape3d.convex(opts) return core.shape3d_convex(opts or {}) end
--- An infinite wall: the half-space below the plane through the body's position with the
--- outward normal (default {0, 0, 1}); for fixed bodies (its volume is infinite).
function shape3d.wall(opts) return core.shape3d_wall(opts or {}) end

--- The parameters a 3D shape was built with: {kind = "box", size = {...}, smoothing = r}, ...
function shape3d.parameters(shape) return core.shape3d_parameters(shape) end

--- Signed distance between two posed shapes (poses {position = {x, y, z}, orientation =
--- {w, x, y, z}} of their centroids): distance (negative when penetrating: minus the
--- penetration depth), the unit normal from a to b, the closest (or deepest) point of each
--- in world coordinates (point_b = point_a + distance * normal), and an info table
--- {method = "analytic" | "gjk" | "mpr_epa" | "flat", iterations, converged}.
function shape3d.distance(shape_a, pose_a, shape_b, pose_b)
  return core.shape3d_distance(shape_a, pose_a, shape_b, pose_b)
end

--- A convex polyhedron: polyhedron{vertices = {{x, y, z}, ...}, faces = {{i, j, k, ...}, ...}}
--- with 1-based vertex indices, each face counter-clockwise seen from outside; optional
--- surfaces = {id per face} (default: the face numbers). The input is checked (closed, convex,
--- planar faces, outward orientation) and errors name the face or vertex at fault.
--- polyhedron{points = {...}} is the convex hull of the points, with its planar faces.
--- Coordinates are kept: the centroid is where the vertices put it.
function shape3d.polyhedron(opts) return core.shape3d_polyhedron(opts or {}) end

--- The faces of a polyhedron or unsmoothed hull: faces {{i, j, ...}, ...} (indices into
--- parameters(shape).vertices), planes {{nx, ny, nz, d}, ...} (shape coordinates, n.x <= d
--- inside), surfaces {id, ...}.
function shape3d.faces(shape) return core.shape3d_faces(shape) end

--- The volumetric intersection and the Solfec contact of two posed polyhedra (polyhedra,
--- unsmoothed hulls or boxes): intersection(a, pose_a, b, pose_b, {epsilon = e}) returns
--- {status = "contact" | "separated" | "rejected", contact = bool, epsilon, distance (GJK),
---  volume, centroid, vertices, faces (each {i, j, ...; body = "a" | "b", surface, area,
---  shared: flush with a face of the other body, attributed to a, left out of the normal}),
---  point, normal (unit, out of a), area (half the intersection's surface), gap (<= 0),
---  surfaces = {surface_a, surface_b}, normal_fallback}; when "rejected" (a soft failure,
---  like Solfec's: no contact this time) a message says why.
--- Touching within epsilon (default 1e-6 times the sum of the bounding radii) is a contact
--- with gap 0.
function shape3d.intersection(shape_a, pose_a, shape_b, pose_b, opts)
  return core.shape3d_intersection(shape_a, pose_a, shape_b, pose_b, opts)
end

--- Solfec's sparsification of contact points (contact_sparsify.h): sparsify(contacts, opts)
--- with contacts[i] = {point = {x, y, z}, area = a, bodies = {b1, b2}, objects = {o1, o2},
--- new = true} (bodies and objects: integers >= 0; old contacts are never removed) and opts
--- {threshold = 0.01, minarea = 0, mindist = 1e-6, adjacent = {{body, o1, o2}, ...}} (pairs of
--- topologically adjacent objects of a body). Returns {kept (boolean) per contact}; the result
--- does not depend on the order of the contacts.
function shape3d.sparsify(contacts, opts) return core.shape3d_sparsify(contacts, opts) end

return shape3d
