-- Cubes poured into a container (after Solfec's boxdrop and the peers' `pile` scene): N unit
-- cubes, each tilted by up to 0.15 rad about each axis, fall from a 6 x 6 grid of 1.5 m
-- spacing into an open 10 m x 10 m box, and come to rest under the 3D contact strategy
-- (friction 0.6, restitution 0; projected Gauss-Seidel sweeps, as for any large pile).
-- Prints where they settled, the deepest penetration and the cost per step.
-- Run: make run SCRIPT=examples/box_pile_3d.lua; with arguments (paths set as in README):
-- lua5.4 examples/box_pile_3d.lua 300 [vtk folder]
local impact = require("impact")

local M = {}

--- Builds the scene: returns the world and the cubes.
function M.build(n, opts)
  opts = opts or {}
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 1 / 60,
                             contact_solver = opts.solver or "pgs", pgs_iterations = opts.sweeps or 20,
                             collision_handling = opts.handling, max_backups = opts.max_backups,
                             seed = 12345 }
  local mu = 0.6
  w:add_body { shape = impact.shape3d.box { size = { 12, 12, 1 } }, fixed = true, position = { 0, 0, -0.5 },
               friction = mu }
  for _, wall in ipairs { { 5.5, 0, 1, 12 }, { -5.5, 0, 1, 12 }, { 0, 5.5, 12, 1 }, { 0, -5.5, 12, 1 } } do
    w:add_body { shape = impact.shape3d.box { size = { wall[3], wall[4], 20 } }, fixed = true,
                 position = { wall[1], wall[2], 10 }, friction = mu }
  end
  local rng = impact.rng and impact.rng(12345) or nil
  local state = 12345
  local function uniform()  -- a small LCG of our own when the library has none
    if rng then return rng:uniform() end
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  end
  local cubes = {}
  for i = 0, n - 1 do
    local layer, k = i // 36, i % 36
    local x, y = -3.75 + 1.5 * (k % 6), -3.75 + 1.5 * (k // 6)
    local ax, ay, az = (uniform() - 0.5) * 0.3, (uniform() - 0.5) * 0.3, (uniform() - 0.5) * 0.3
    -- q = qz qy qx
    local function q_axis(a, axis)
      local q = { math.cos(a / 2), 0, 0, 0 }
      q[axis + 1] = math.sin(a / 2)
      return q
    end
    local function mul(p, q)
      return { p[1] * q[1] - p[2] * q[2] - p[3] * q[3] - p[4] * q[4],
               p[1] * q[2] + p[2] * q[1] + p[3] * q[4] - p[4] * q[3],
               p[1] * q[3] - p[2] * q[4] + p[3] * q[1] + p[4] * q[2],
               p[1] * q[4] + p[2] * q[3] - p[3] * q[2] + p[4] * q[1] }
    end
    local q = mul(q_axis(az, 3), mul(q_axis(ay, 2), q_axis(ax, 1)))
    cubes[#cubes + 1] = w:add_body { shape = impact.shape3d.box { size = { 1, 1, 1 } }, density = 1,
                                     position = { x, y, 1 + 1.5 * layer }, orientation = q, friction = mu,
                                     elasticity = 0 }
  end
  return w, cubes
end

--- Where the cubes are: mean and highest centre, how many left the container.
function M.summary(cubes)
  local sum, top, out = 0, -math.huge, 0
  for _, c in ipairs(cubes) do
    local p = c.position
    sum, top = sum + p[3], math.max(top, p[3])
    if math.abs(p[1]) > 5 or math.abs(p[2]) > 5 or p[3] < 0 then out = out + 1 end
  end
  return { mean_z = sum / #cubes, max_z = top, escaped = out }
end

if arg and arg[0] and arg[0]:match("box_pile_3d%.lua$") then
  local n = tonumber(arg[1]) or 100
  local w, cubes = M.build(n)
  local vtk = arg[2] and impact.vtk.series { w, every = 0.25, dir = arg[2], name = "pile" } or nil
  local t0 = os.clock()
  local deepest = 0
  w:run { duration = 8, every = 1 / 60, fn = function()
    deepest = math.max(deepest, w:stats().max_penetration)
  end }
  if vtk then vtk:stop() end
  local s = M.summary(cubes)
  local ke = 0
  for _, c in ipairs(cubes) do ke = ke + c:kinetic_energy() end
  print(string.format("%d cubes poured for %.1f s: mean z %.3f m, highest %.3f m, %d escaped, "
    .. "kinetic energy %.2e J, deepest penetration %.4f m, %.2f ms/step", n, w.time, s.mean_z,
    s.max_z, s.escaped, ke, deepest, (os.clock() - t0) / w:stats().steps * 1000))
end

return M
