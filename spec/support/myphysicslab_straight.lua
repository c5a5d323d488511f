-- myPhysicsLab's StraightStraightTest setups shared by its specs
-- (myphysicslab_straight_spec, myphysicslab_six_blocks_spec).
local impact = require("impact")
local shape2d = impact.shape2d
local M = {}

-- its commonSetup1 (gravity g, or mutual gravitation G)
function M.world(opts)
  local d = opts.damping or 0
  return impact.world2d { strategy = "contact", dt = opts.dt or 0.025, gravity = { 0, -(opts.g or 0) },
    collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
    collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity",
    joint_small_impacts = true, seed = 99999, damping = { linear = d, angular = 0.15 * d },
    gravitation = opts.G and { G = opts.G, softening = 0 } or nil, conventions = opts.conventions }
end

-- its Walls.make(sim, 12, 12, 1): bottom, right, top, left (elasticity 0.8 unless given)
local function walls(w, elasticity)
  for _, wall in ipairs { { 14, 1, 0, -6.5 }, { 1, 14, 6.5, 0 }, { 14, 1, 0, 6.5 }, { 1, 14, -6.5, 0 } } do
    w:add_body { shape = shape2d.block { width = wall[1], height = wall[2] }, fixed = true,
                 position = { wall[3], wall[4] }, elasticity = elasticity or 0.8 }
  end
end
M.walls = walls

-- the box and six blocks from v (36 numbers: x, vx, y, vy, angle, spin of each block); the
-- walls first unless walls_last
function M.six_blocks(v, damping, walls_last, conventions)
  local w = M.world { g = 3, damping = damping, conventions = conventions }
  if not walls_last then walls(w) end
  local blocks = {}
  for i = 0, 5 do
    local o = 6 * i
    blocks[i + 1] = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
      elasticity = 0.8, position = { v[o + 1], v[o + 3] }, velocity = { v[o + 2], v[o + 4] },
      angle = v[o + 5], spin = v[o + 6] }
  end
  if walls_last then walls(w) end
  return w, blocks
end

return M
