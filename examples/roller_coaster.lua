-- A roller coaster car on a W-shaped track (myPhysicsLab's HumpPath): the car's centre is held
-- on the track by a path joint, a stop near the right end sends it back at half its speed.
-- Frictionless: its speed at the bottom of the first valley is sqrt(2 g h) for the height h it
-- fell, whatever the track's shape; the energy changes only at the stop's strikes.
local impact = require("impact")

local g = 9.81
local function track(t) return t, 3 + t * t * (t * t - 7) / 6 end  -- t in [-3, 3]
local w = impact.world2d { strategy = "contact", dt = 0.005, gravity = { 0, -g },
                           integrator = "rk4", extra_accel = "velocity_joints" }
local x0, y0 = track(-2.9)
local car = w:add_body { shape = impact.shape2d.rounded_block { width = 0.6, height = 0.3,
                                                                 corner_radius = 0.05 },
                         mass = 1, position = { x0, y0 }, elasticity = 0.5, name = "car" }
local rail = w:add_path_joint { body1 = car, path = { fn = track, range = { -3, 3 } } }
local stop = w:add_path_end { body1 = car, joint = rail, at = { track(2.5) }, upper = true }

local fastest, fastest_y, strikes, e_before = 0, 0, {}, nil
local e0 = w:energy().total
w:on("collision", function(e) strikes[#strikes + 1] = { e.time, e.normal_velocity } end)
w:on("step", function()  -- the energy up to the first strike
  if #strikes == 0 then e_before = w:energy().total end
end)
w:run { duration = 4, every = 0.005, fn = function()
  local v = math.sqrt(car.velocity[1] ^ 2 + car.velocity[2] ^ 2)
  if car.position[1] < 0 and v > fastest then fastest, fastest_y = v, car.position[2] end
end }
print(string.format("fastest in the first valley: %.5f m/s at y = %.4f (sqrt(2 g h) = %.5f)",
  fastest, fastest_y, math.sqrt(2 * g * (y0 - fastest_y))))
for i, s in ipairs(strikes) do
  print(string.format("strike %d on the stop at t = %.3f s, arriving at %.3f m/s", i, s[1], -s[2]))
end
print(string.format("energy change before the first strike: %.3g J; over 4 s: %.3g J (the strikes, "
  .. "elasticity 0.5); the car %.2g m off the track, %.2g m past the stop",
  (e_before or w:energy().total) - e0, w:energy().total - e0, (w:connector_error(rail)),
  (w:connector_error(stop))))
