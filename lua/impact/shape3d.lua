--- impact.shape3d: constructors of 3D shapes. Each returns an impact.Shape with volume(),
--- centroid(), inertia(density) (a 3x3 table), mass(density), bounds(pose), kind and dim.
local core = require("impact.core")

local shape3d = {}

--- A ball: sphere{radius = 0.5}.
function shape3d.sphere(opts) return core.shape3d_sphere(opts or {}) end
--- A box centred on its centroid: box{size = {sx, sy, sz}} or box{size = s} for a cube.
function shape3d.box(opts) return core.shape3d_box(opts or {}) end

return shape3d
