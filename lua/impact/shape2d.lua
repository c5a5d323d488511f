--- impact.shape2d: constructors of 2D shapes. Each returns an impact.Shape with area(),
--- centroid(), inertia(density), mass(density), bounds(pose), kind and dim.
local core = require("impact.core")

local shape2d = {}

--- A disc: ball{radius = 0.5}.
function shape2d.ball(opts) return core.shape2d_ball(opts or {}) end
--- A rectangle centred on its centroid: block{width = 1, height = 1}.
function shape2d.block(opts) return core.shape2d_block(opts or {}) end

return shape2d
