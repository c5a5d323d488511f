-- The round-off study of myPhysicsLab figures (issue #18 item 4, session 19): how far
-- six_blocks_9's energy change to 12 s and ball_vs_circle_0's state at 10 s (and for
-- comparison six_blocks_4, 10 and 12's energy changes, which are met) move when the run
-- is changed at the level of round-off, which no faithful model can fix: one coordinate of the
-- initial state moved by one unit in the last place (up, down; a zero to the smallest
-- subnormal; for ball_vs_circle_0 also 2 and 4 units), a non-zero coordinate scaled by
-- 1 +- 1e-15, the time step's last bit. Each run
-- of the ensemble gives the asserted quantity and its trajectory; the separation from the
-- unperturbed run is measured at every step. Used by tools/mpl_roundoff.lua (which adds runs
-- of other builds: fma contraction, a reordered sum) and spec/myphysicslab_roundoff_spec.lua.
local straight = require("spec.support.myphysicslab_straight")
local speed = require("spec.support.myphysicslab_speed")
local M = {}

local SMALLEST = string.unpack("<d", string.pack("<i8", 1))

-- the double next to x towards +inf (dir = 1) or -inf (dir = -1)
function M.next_double(x, dir)
  if x == 0 then return dir * SMALLEST end
  local bits = string.unpack("<i8", string.pack("<d", x))
  local away = (x > 0) == (dir > 0)
  return (string.unpack("<d", string.pack("<i8", away and bits + 1 or bits - 1)))
end

-- myPhysicsLab's figures (for the six-blocks scenes: below, with each scene)
M.CIRCLE_FIGURE = { chrome = { -5.6805659, 5.6022192, -0.1123115, 0.2347565 },
                    other = { 4.2864427, 5.7947777, 0.1090598, -0.0042925 }, tol = 1e-5 }

local function run_to(w, t, each)
  while w.time < t - 1e-9 do
    w:step()
    if each then each() end
  end
end

local function body_state(bodies, out)
  for i, b in ipairs(bodies) do
    local o = 6 * (i - 1)
    out[o + 1], out[o + 2], out[o + 3] = b.position[1], b.velocity[1], b.position[2]
    out[o + 4], out[o + 5], out[o + 6] = b.velocity[2], b.angle, b.spin
  end
  return out
end

-- The scenes: each takes its initial state (x, vx, y, vy, angle, spin per moving body), a time
-- step and conventions, and returns the measured quantities and the trajectory (the state
-- after every step).
M.scenes = {}

-- StraightStraightTest's six-blocks scenes: the energy change and the collisions to t_end
-- (after its setup's initial handling where it has one), then to t_rest (if any) at rest;
-- figures: its test's, and where measured Chrome's and its code's under node (tol: its)
local function six_blocks(v, t_end, t_rest, o)
  return {
    state = v, dt = 0.025, figures = o.figures, tol = o.tol, t_end = t_end, t_rest = t_rest,
    run = function(state, dt, conventions, seed)
      local w, blocks = straight.six_blocks(state, 0.05, o.walls_last, conventions, dt, seed)
      if o.handled then w:handle_collisions() end
      local traj = {}
      local e0, c0 = w:energy().total, w:stats().collisions
      run_to(w, t_end, function() traj[#traj + 1] = body_state(blocks, {}) end)
      local e1, c1 = w:energy().total, w:stats().collisions
      if t_rest then run_to(w, t_rest) end
      return { de = e1 - e0, n = c1 - c0, rest_de = w:energy().total - e1,
               rest_n = w:stats().collisions - c1 }, traj
    end,
  }
end

M.scenes.six_blocks_9 = six_blocks(straight.SIX_9, 12, 20, { tol = 1e-3,
  figures = { { "its figure", -0.319376774 }, { "Chrome", -0.318193758 },
              { "its code under node", -0.313721 } } })
M.scenes.six_blocks_4 = six_blocks(straight.SIX_4, 8, 12, { handled = true, tol = 0.1,
  figures = { { "its figure", -1.7 }, { "its code under node", -1.751934748 } } })
M.scenes.six_blocks_10 = six_blocks(straight.SIX_10, 20, nil, { handled = true, tol = 0.01,
  figures = { { "its figure", -3.386498527 }, { "its code under node", -3.386816 } } })
M.scenes.six_blocks_12 = six_blocks(straight.SIX_12, 2, nil, { handled = true,
  walls_last = true, tol = 1e-3, figures = { { "its figure", -0.160986774 } } })

M.scenes.ball_vs_circle_0 = {
  state = { -5, 200, 0, 153, 0, 0 }, dt = 0.025, more_ulps = { 2, 4 },
  run = function(v, dt, conventions)
    local w, ball, side = speed.ball_vs_circle { conventions = conventions, dt = dt,
      position = { v[1], v[3] }, velocity = { v[2], v[4] }, angle = v[5], spin = v[6] }
    local traj, min_wall, min_disk, rise = {}, math.huge, math.huge, 0
    local e = w:energy().total
    run_to(w, 10, function()
      local s = body_state({ ball }, {})
      traj[#traj + 1] = s
      local x, y = s[1], s[3]
      min_wall = math.min(min_wall, side / 2 - 0.2 - math.max(math.abs(x), math.abs(y)))
      min_disk = math.min(min_disk, math.sqrt(x * x + y * y) - 4.2)
      rise = math.max(rise, w:energy().total - e)
      e = w:energy().total
    end)
    local s = traj[#traj]
    local function away(f)
      return math.sqrt((s[1] - f[1]) ^ 2 + (s[3] - f[2]) ^ 2 + (s[2] - f[3]) ^ 2
                       + (s[4] - f[4]) ^ 2)
    end
    return { x = s[1], y = s[3], vx = s[2], vy = s[4], n = w:stats().collisions,
             chrome = away(M.CIRCLE_FIGURE.chrome), other = away(M.CIRCLE_FIGURE.other),
             min_wall = min_wall, min_disk = min_disk, rise = rise }, traj
  end,
}

-- the perturbed runs: { name, state, dt }
function M.perturbations(scene)
  local list = { { name = "base", state = scene.state, dt = scene.dt } }
  for k, x in ipairs(scene.state) do
    for _, dir in ipairs { 1, -1 } do
      local v = { table.unpack(scene.state) }
      v[k] = M.next_double(x, dir)
      list[#list + 1] = { name = ("ulp%+d[%d]"):format(dir, k), state = v, dt = scene.dt }
    end
  end
  for _, m in ipairs(scene.more_ulps or {}) do  -- m units in the last place, non-zero ones
    for k, x in ipairs(scene.state) do
      for _, dir in ipairs { 1, -1 } do
        if x ~= 0 then
          local v = { table.unpack(scene.state) }
          for _ = 1, m do v[k] = M.next_double(v[k], dir) end
          list[#list + 1] = { name = ("ulp%+d[%d]"):format(dir * m, k), state = v, dt = scene.dt }
        end
      end
    end
  end
  for k, x in ipairs(scene.state) do
    if x ~= 0 then
      for _, f in ipairs { 1e-15, -1e-15 } do
        local v = { table.unpack(scene.state) }
        v[k] = x * (1 + f)
        list[#list + 1] = { name = ("rel%+.0e[%d]"):format(f, k), state = v, dt = scene.dt }
      end
    end
  end
  for _, dir in ipairs { 1, -1 } do
    list[#list + 1] = { name = ("dt ulp%+d"):format(dir), state = scene.state,
                        dt = M.next_double(scene.dt, dir) }
  end
  return list
end

-- the separation (Euclidean, all coordinates) of trajectory b from a at each step
function M.separation(a, b)
  local out = {}
  for i = 1, math.min(#a, #b) do
    local s = 0
    for k = 1, #a[i] do s = s + (a[i][k] - b[i][k]) ^ 2 end
    out[i] = math.sqrt(s)
  end
  return out
end

-- the growth of a separation: the least-squares slope of ln(separation) against time over the
-- steps where it lies between lo and hi (the largest Lyapunov exponent's estimate, 1/s), and
-- the first time it exceeds tol
function M.growth(sep, dt, lo, hi, tol)
  local n, st, sy, stt, sty, first = 0, 0, 0, 0, 0, nil
  for i, s in ipairs(sep) do
    local t = i * dt
    if not first and s > tol then first = t end
    if s > lo and s < hi then
      local y = math.log(s)
      n, st, sy, stt, sty = n + 1, st + t, sy + y, stt + t * t, sty + t * y
    end
  end
  local slope = n > 2 and (n * sty - st * sy) / (n * stt - st * st) or nil
  return slope, first
end

-- min, max, mean and standard deviation of the field key of a list of measures
function M.spread(measures, key)
  local lo, hi, sum, n = math.huge, -math.huge, 0, #measures
  for _, m in ipairs(measures) do
    lo, hi, sum = math.min(lo, m[key]), math.max(hi, m[key]), sum + m[key]
  end
  local mean, ss = sum / n, 0
  for _, m in ipairs(measures) do ss = ss + (m[key] - mean) ^ 2 end
  return { min = lo, max = hi, mean = mean, std = math.sqrt(ss / math.max(n - 1, 1)), n = n }
end

-- for comparison, the unperturbed run under seeds 1 to n (the generator's seed, which under
-- myPhysicsLab's conventions orders its serial handling's focus and its contact solve's rows):
-- the list of { name, measure, traj }
function M.seeds(scene, conventions, n)
  local out = {}
  for seed = 1, n do
    local m, traj = scene.run(scene.state, scene.dt, conventions, seed)
    out[#out + 1] = { name = ("seed %d"):format(seed), measure = m, traj = traj }
  end
  return out
end

-- runs the ensemble of one scene: returns the list of { name, measure, traj }
function M.ensemble(scene, conventions, limit)
  local out = {}
  for i, p in ipairs(M.perturbations(scene)) do
    if limit and i > limit then break end
    local m, traj = scene.run(p.state, p.dt, conventions)
    out[#out + 1] = { name = p.name, measure = m, traj = traj }
  end
  return out
end

return M
