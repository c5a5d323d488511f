-- The billiard break of Modia3D's Billiard16Balls test, on the compliant strategy: a table top
-- 2.24 x 1.12 m with cushions, 16 balls of diameter 0.06 m, the cue ball at (-0.8, -0.1)
-- moving at (3.0, 0.1) m/s into a racked triangle of 15 balls (rows of 1 to 5, 0.1 mm gaps,
-- the apex ball at x = 0.3733). Ball/ball cor 1, ball/cushion cor 0.98, ball/table cor 0 with
-- mu_k 0.8 and mu_r 0.01. 5 s simulated at rtol 1e-5 (Modia3D's authors report about 20
-- minutes for it).
local impact = require("impact")

local function billiard(opts)
  opts = opts or {}
  local w = impact.world3d { strategy = "compliant", gravity = { 0, 0, -9.81 }, dt = 0.01,
    integrator = { method = opts.method or "rk8pd", rtol = opts.rtol or 1e-5,
                   atol = opts.atol or 1e-7, hmax = 0.01 } }
  local r, gap = 0.03, 1e-4
  w:add_body { shape = impact.shape3d.box { size = { 2.44, 1.32, 0.05 } }, fixed = true,
    material = "billiard_table", position = { 0, 0, -0.025 }, name = "table" }
  local cushion = { { 0, 0.61, 2.44, 0.1 }, { 0, -0.61, 2.44, 0.1 },
                    { 1.17, 0, 0.1, 1.12 }, { -1.17, 0, 0.1, 1.12 } }
  for i, c in ipairs(cushion) do
    w:add_body { shape = impact.shape3d.box { size = { c[3], c[4], 0.04 } }, fixed = true,
      material = "billiard_cushion", position = { c[1], c[2], 0.02 }, name = "cushion" .. i }
  end
  local balls = {}
  balls[1] = w:add_body { shape = impact.shape3d.sphere { radius = r }, material = "billiard_ball",
    position = { -0.8, -0.1, r }, velocity = { 3.0, 0.1, 0 }, name = "cue" }
  local dx, dy = math.sqrt(3) / 2 * (2 * r + gap), 2 * r + gap
  for row = 0, 4 do
    for j = 0, row do
      balls[#balls + 1] = w:add_body { shape = impact.shape3d.sphere { radius = r },
        material = "billiard_ball", position = { 0.3733 + row * dx, (j - row / 2) * dy, r },
        name = "ball" .. #balls }
    end
  end
  return w, balls
end

local M = { billiard = billiard }

if ... == nil then  -- run as a script: the benchmark
  local w, balls = billiard()
  local t0 = os.clock()
  w:run { until_time = 5 }
  local wall = os.clock() - t0
  local s = w:stats()
  local moving, energy = 0, 0
  for _, b in ipairs(balls) do
    local v = b.velocity
    if math.sqrt(v[1] ^ 2 + v[2] ^ 2) > 1e-3 then moving = moving + 1 end
    energy = energy + b:kinetic_energy()
  end
  print("compliant billiard break (16 balls, table, 4 cushions), 5 s at rtol 1e-5, rk8pd")
  print(string.format("  wall %.2f s (target < 10 s; Modia3D's authors: about 1200 s)", wall))
  print(string.format("  %d internal steps, %d rejected, %d evaluations, %d events located, "
    .. "%d contacts begun", s.substeps, s.rejected_substeps, s.rhs_evaluations, s.events,
    s.contacts_begun))
  print(string.format("  after 5 s: %d balls still moving, kinetic energy %.4f J (from %.4f J)",
    moving, energy, 0.5 * balls[1].mass * (9 + 0.01)))
end
return M
