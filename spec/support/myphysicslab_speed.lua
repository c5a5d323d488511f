-- myPhysicsLab's SpeedTest ball_vs_circle setup, shared by engine2d_speed_spec and the
-- round-off study (spec/support/myphysicslab_roundoff.lua, tools/mpl_roundoff.lua).
local impact = require("impact")
local shape2d = impact.shape2d
local M = {}

-- its ball_vs_circle_setup: the ball (elasticity 0.95 for every body: its setElasticity) in a
-- box of walls 0.01 thick around a fixed disk of radius 4 at the centre, its ContactSim with
-- extra acceleration "velocity_and_distance". opts (all optional): conventions, dt, and the
-- ball's position, velocity, angle, spin (default: its (-5, 0), (200, 153), 0, 0). Returns the
-- world, the ball and the box's inner side.
function M.ball_vs_circle(opts)
  opts = opts or {}
  local w = impact.world2d { strategy = "contact", dt = opts.dt or 0.025, gravity = { 0, 0 },
    collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
    collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity_and_distance",
    joint_small_impacts = true, damping = { linear = 0.05, angular = 0.05 * 0.15 },
    conventions = opts.conventions }
  local th, side = 0.01, 12
  local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 0.1,
    position = opts.position or { -5, 0 }, velocity = opts.velocity or { 200, 153 },
    angle = opts.angle or 0, spin = opts.spin or 0, elasticity = 0.95 }
  for _, wall in ipairs { { 0, -1, side + 2 * th, th }, { 1, 0, th, side + 2 * th },
                          { 0, 1, side + 2 * th, th }, { -1, 0, th, side + 2 * th } } do
    w:add_body { shape = shape2d.block { width = wall[3], height = wall[4] }, fixed = true,
      position = { wall[1] * (side + th) / 2, wall[2] * (side + th) / 2 }, elasticity = 0.95 }
  end
  w:add_body { shape = shape2d.ball { radius = 4 }, fixed = true, position = { 0, 0 },
               elasticity = 0.95 }
  return w, ball, side
end

return M
