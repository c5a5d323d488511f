-- The tennis racket theorem (Dzhanibekov effect): a box spun about its intermediate axis
-- flips over and over, while spins about its largest and smallest axes stay steady.
-- Run: make demo   (or: make run SCRIPT=examples/tennis_racket.lua)
local impact = require("impact")

-- body-frame angular velocity of body b (rotate the world vector by the inverse orientation)
local function body_omega(b)
  local q, v = b.orientation, b.angular_velocity
  local w, x, y, z = q[1], -q[2], -q[3], -q[4]
  local tx, ty, tz = 2 * (y * v[3] - z * v[2]), 2 * (z * v[1] - x * v[3]), 2 * (x * v[2] - y * v[1])
  return { v[1] + w * tx + y * tz - z * ty, v[2] + w * ty + z * tx - x * tz,
           v[3] + w * tz + x * ty - y * tx }
end

local function norm(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end

print("A 0.1 x 0.2 x 0.3 m box of 1 kg, spinning at 10 rad/s, no gravity, 20 s, rk8pd.")
print(string.format("%-12s %6s %12s %14s %14s", "spin axis", "flips", "first flip/s",
  "energy drift", "|L| drift"))
for _, case in ipairs {
  { "x (largest)", { 10, 0.01, 0.01 } },
  { "y (middle)", { 0.01, 10, 0.01 } },
  { "z (smallest)", { 0.01, 0.01, 10 } },
} do
  local w = impact.world3d { gravity = { 0, 0, 0 }, dt = 0.001,
    integrator = { method = "rk8pd", rtol = 1e-12, atol = 1e-14 } }
  local box = w:add_body { shape = impact.shape3d.box { size = { 0.1, 0.2, 0.3 } }, mass = 1,
    angular_velocity = case[2] }
  local e0, l0 = w:energy().total, norm(w:angular_momentum())
  local axis = case[1]:sub(1, 1) == "x" and 1 or (case[1]:sub(1, 1) == "y" and 2 or 3)
  local sign, flips, first = 1, 0, nil
  w:run { duration = 20, every = 0, fn = function(ww)
    local s = body_omega(box)[axis] >= 0 and 1 or -1
    if s ~= sign then
      flips, sign = flips + 1, s
      first = first or ww.time
    end
  end }
  print(string.format("%-12s %6d %12s %14.2e %14.2e", case[1], flips,
    first and string.format("%.3f", first) or "-", math.abs(w:energy().total - e0) / e0,
    math.abs(norm(w:angular_momentum()) - l0) / l0))
end
