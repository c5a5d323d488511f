--- impact.dem_triax: stress-controlled loading of dem samples (Yade's PeriTriaxController and
--- TriaxialStressController), moving walls and cohesive bonds, installed into impact.dem.
---
---   dem.peri_triax{goal = {sx, sy, sz}, stress_mask = 7, strain_rate, max_unbalanced = 0.01,
---                  tolerance = 1e-3, gain = 0.1, growth_damping = 0.25, done = fn, label}
---       an engine for a periodic cell (w:set_cell): each axis k whose bit 2^(k-1) is set in
---       stress_mask is driven toward the stress goal[k] (Pa, tension > 0: a compression goal is
---       negative, as w:stress() reads), the others toward the strain goal[k] (the cell's
---       w:cell().strain); it sets the diagonal of the cell's velocity gradient.
---   dem.triax{walls = {x_lo, x_hi, y_lo, y_hi, z_lo, z_hi}, goal = {g1, g2, g3},
---             stress_mask = 7, strain_rate, max_unbalanced = 0.01, tolerance = 1e-3,
---             gain = 0.8, done = fn, label}
---       an engine moving six walls of a box (dem.aabb_walls): axes in stress_mask are servoed
---       to the stress goal[k] (Pa, compression < 0), the others strained at the rate goal[k]
---       (1/s, compression < 0) by both walls moving at goal[k] L / 2.
---   dem.aabb_walls(w, {lo = {..}, hi = {..}, material}) the six walls of a box (Yade's
---       aabbWalls), normals inward, in the order dem.triax takes them.
---   w:set_velocity(b, {vx, vy, vz})  a fixed body (wall, facet, sphere) moves with it
---   w:force_on(b)                    the force {fx, fy, fz} and torque of the last
---                                    interaction loop on b (Yade's O.forces.f, .t)
---   w:bond_all{normal = Pa, shear = Pa}  cohesive bonds on every real interaction
---   w:bond_count()                   the intact bonds
---
--- The controllers (see doc/manual/05-dem.md for the formulas): a stress-controlled axis k
--- moves at the rate gain (goal - s) / (K dt), bounded by strain_rate, where K is the stiffness
--- the contacts give that axis (the cell: sum kn (l_k n_k)^2 / V over the contacts; a wall:
--- the sum of its contacts' kn over the face's area); the stress s is the Love-Weber one (the
--- cell) or the wall's force over the face's area (the mean of the axis's two walls). When every
--- stress axis is within tolerance |goal| of its goal (strain axes of the cell too) and
--- w:unbalanced_force() < max_unbalanced, done(w, e) is called, at every step while that holds
--- (Yade's doneHook: change the goal or set e.dead = true in it). Each engine reports, after
--- each run, e.stress = {s1, s2, s3}, e.strain = {e1, e2, e3} (extension > 0) and e.unbalanced;
--- dem.triax also e.volume (the box between the walls) and e.size.
-- @module impact.dem_triax
local core = require("impact.core")
local options = require("impact.options")

local World = core.World
local M = {}

local function det(m)
  return m[1] * (m[5] * m[9] - m[6] * m[8]) - m[2] * (m[4] * m[9] - m[6] * m[7])
    + m[3] * (m[4] * m[8] - m[5] * m[7])
end

-- the diagonal of a b^-1 (3x3 row-major): the cell's trsf = H H0^-1
local function diag_ratio(a, b)
  local d = det(b)
  local inv = {
    (b[5] * b[9] - b[6] * b[8]) / d, (b[3] * b[8] - b[2] * b[9]) / d,
    (b[2] * b[6] - b[3] * b[5]) / d,
    (b[6] * b[7] - b[4] * b[9]) / d, (b[1] * b[9] - b[3] * b[7]) / d,
    (b[3] * b[4] - b[1] * b[6]) / d,
    (b[4] * b[8] - b[5] * b[7]) / d, (b[2] * b[7] - b[1] * b[8]) / d,
    (b[1] * b[5] - b[2] * b[4]) / d,
  }
  local out = {}
  for i = 0, 2 do
    out[i + 1] = a[3 * i + 1] * inv[i + 1] + a[3 * i + 2] * inv[3 + i + 1]
      + a[3 * i + 3] * inv[6 + i + 1]
  end
  return out
end

local function clamp(x, lim)
  if x > lim then return lim elseif x < -lim then return -lim end
  return x
end

local function masked(mask, k) return (mask >> (k - 1)) & 1 == 1 end

function M.install(dem)
  local c = dem._checks
  local finite, optional = c.finite, c.optional

  local function three(v)
    local what = "a list of 3 finite numbers {g1, g2, g3}"
    if type(v) ~= "table" or #v ~= 3 then return what end
    for k = 1, 3 do if finite(v[k]) then return what end end
    for k in pairs(v) do
      if math.type(k) ~= "integer" or k < 1 or k > 3 then return what end
    end
  end
  local function mask_check(v)
    if math.type(v) ~= "integer" or v < 0 or v > 7 then
      return "an integer in [0, 7] (bits 1, 2, 4: the x, y, z axes under stress control)"
    end
  end
  local function positive(v) return finite(v, 0) or (v <= 0 and "a finite number > 0") or nil end
  local function gain_check(v)
    if finite(v, 0, 1) or v <= 0 then return "a finite number in (0, 1]" end
  end

  local common = {
    goal = three, stress_mask = mask_check, strain_rate = positive,
    max_unbalanced = positive, tolerance = positive, gain = gain_check,
    done = optional(c.callable),
  }
  local function checks_with(extra)
    local t = {}
    for k, v in pairs(common) do t[k] = v end
    for k, v in pairs(extra) do t[k] = v end
    return t
  end

  -- the options of a constructor into the engine (every value through the engine's checks)
  local function build(what, make, opts, accepted, defaults)
    opts = c.check_keys(what, opts, accepted)
    for _, k in ipairs { "goal", "strain_rate" } do
      if opts[k] == nil then error(string.format("%s: option '%s' is required", what, k), 3) end
    end
    local e = make(opts.label)
    local ok, err = pcall(function()
      for k, v in pairs(defaults) do e[k] = v end
      for k, v in pairs(opts) do
        if k == "goal" then v = { v[1], v[2], v[3] } end
        if k ~= "label" then e[k] = v end
      end
    end)
    if not ok then
      error(options.without_position(tostring(err)), 3)
    end
    return e
  end

  local function finish(e, w, st, all_ok)
    local unb = w:unbalanced_force()
    st.unbalanced = unb
    if all_ok and unb < e.max_unbalanced and e.done then
      e.done(w, e)
      core.dem_sync(w)  -- the function may have edited bodies
    end
  end

  -- ---- dem.peri_triax -----------------------------------------------------------------

  local function peri_run(e, w, st)
    local cell = core.dem_cell(w)
    if cell == nil then
      error("impact.dem.peri_triax: the world has no periodic cell (w:set_cell{size = ...})", 0)
    end
    local m = core.dem_measure(w)
    local h, L = cell.h, cell.vel_grad
    local v, dt = det(h), w.dt
    local trsf = diag_ratio(h, cell.h0)
    local goal, max_rate, tol = e.goal, e.strain_rate, e.tolerance
    local scale = 0
    for k = 1, 3 do
      if masked(e.stress_mask, k) then scale = math.max(scale, math.abs(goal[k])) end
    end
    local stress, strain, newL, all_ok = {}, {}, {}, true
    for k = 1, 9 do newL[k] = L[k] end
    for k = 1, 3 do
      local ii = 4 * k - 3
      stress[k] = m.stress_sum[ii] / v
      strain[k] = trsf[k] - 1
      local rate
      if masked(e.stress_mask, k) then
        local err, stiff = goal[k] - stress[k], m.stiff[k] / v
        if stiff > 0 then
          rate = e.gain * err / (stiff * dt)
        else  -- no contacts: at the bound, toward the goal
          rate = err > 0 and max_rate or (err < 0 and -max_rate or 0)
        end
        all_ok = all_ok and math.abs(err) <= tol * scale
      else
        local err = goal[k] - strain[k]
        rate = err / dt
        all_ok = all_ok and math.abs(err) <= tol * math.max(math.abs(goal[k]), 1e-6)
      end
      rate = clamp(rate, max_rate)
      newL[ii] = e.growth_damping * L[ii] + (1 - e.growth_damping) * rate
    end
    core.dem_set_cell(w, h, newL)
    st.stress, st.strain = stress, strain
    finish(e, w, st, all_ok)
  end

  local peri_make = dem._define_engine("peri_triax",
    checks_with { growth_damping = function(x) return finite(x, 0, nil, 1) end },
    peri_run,
    { "goal", "stress_mask", "strain_rate", "max_unbalanced", "tolerance", "gain",
      "growth_damping" },
    { goal = true, stress_mask = true, strain_rate = true, max_unbalanced = true,
      tolerance = true, gain = true, growth_damping = true })

  --- dem.peri_triax{goal, stress_mask = 7, strain_rate, max_unbalanced = 0.01, tolerance =
  --- 1e-3, gain = 0.1, growth_damping = 0.25, done, label}: see the module's text.
  function dem.peri_triax(opts)
    return build("impact.dem.peri_triax", peri_make, opts,
      { goal = true, stress_mask = true, strain_rate = true, max_unbalanced = true,
        tolerance = true, gain = true, growth_damping = true, done = true, label = true },
      { stress_mask = 7, max_unbalanced = 0.01, tolerance = 1e-3, gain = 0.1,
        growth_damping = 0.25 })
  end

  -- ---- dem.triax ----------------------------------------------------------------------

  local normals = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 },
                    { 0, 0, -1 } }

  local function walls_check(v)
    local what = "a list of 6 fixed wall bodies {x_lo, x_hi, y_lo, y_hi, z_lo, z_hi} "
      .. "(dem.aabb_walls)"
    if type(v) ~= "table" or #v ~= 6 then return what end
    for j = 1, 6 do
      local b = v[j]
      local ok = pcall(function() return b.shape.kind == "wall" and b.fixed end)
      if not ok or b.shape.kind ~= "wall" or not b.fixed then
        return what .. string.format(" (entry %d is not)", j)
      end
    end
  end

  local function triax_run(e, w, st)
    local walls, goal, mask = e.walls, e.goal, e.stress_mask
    local pos = {}
    for j = 1, 6 do pos[j] = walls[j].position[(j + 1) // 2] end
    local size = { pos[2] - pos[1], pos[4] - pos[3], pos[6] - pos[5] }
    for k = 1, 3 do
      if size[k] <= 0 or size[k] ~= size[k] then
        error(string.format("impact.dem.triax: the walls of axis %d crossed (length %s)", k,
          c.shown(size[k])), 0)
      end
    end
    st.size0 = st.size0 or size
    local dt = w.dt
    local stress, strain, all_ok = {}, {}, true
    local scale = 0
    for k = 1, 3 do if masked(mask, k) then scale = math.max(scale, math.abs(goal[k])) end end
    for k = 1, 3 do
      local area = size[k % 3 + 1] * size[(k + 1) % 3 + 1]
      local vmax = e.strain_rate * size[k] / 2
      local sum = 0
      for j = 2 * k - 1, 2 * k do
        local fx, fy, fz, _, _, _, kn = core.dem_force_on(w, walls[j])
        local f = ({ fx, fy, fz })[k] * normals[j][k]
        local s = f / area  -- compression < 0
        sum = sum + s
        local speed  -- along the wall's inward normal
        if masked(mask, k) then
          local err = s - goal[k]  -- > 0: less compressed than the goal: move in
          if kn > 0 then
            speed = clamp(e.gain * err * area / (kn * dt), vmax)
          else
            speed = err > 0 and vmax or (err < 0 and -vmax or 0)
          end
        else
          speed = -goal[k] * size[k] / 2
        end
        local n = normals[j]
        core.dem_set_velocity(w, walls[j], speed * n[1], speed * n[2], speed * n[3])
      end
      stress[k] = sum / 2
      strain[k] = size[k] / st.size0[k] - 1
      if masked(mask, k) then
        all_ok = all_ok and math.abs(stress[k] - goal[k]) <= e.tolerance * scale
      end
    end
    core.dem_sync(w)
    st.stress, st.strain, st.size = stress, strain, size
    st.volume = size[1] * size[2] * size[3]
    finish(e, w, st, all_ok)
  end

  local triax_make = dem._define_engine("triax", checks_with { walls = walls_check },
    triax_run, { "walls", "goal" },
    { unsaved = "its walls are bodies (build the engine again after dem.load)" })

  --- dem.triax{walls, goal, stress_mask = 7, strain_rate, max_unbalanced = 0.01, tolerance =
  --- 1e-3, gain = 0.8, done, label}: see the module's text.
  function dem.triax(opts)
    if type(opts) == "table" and opts.walls == nil then
      error("impact.dem.triax: option 'walls' is required (dem.aabb_walls(w, {lo, hi}))", 2)
    end
    return build("impact.dem.triax", triax_make, opts,
      { walls = true, goal = true, stress_mask = true, strain_rate = true,
        max_unbalanced = true, tolerance = true, gain = true, done = true, label = true },
      { stress_mask = 7, max_unbalanced = 0.01, tolerance = 1e-3, gain = 0.8 })
  end

  --- dem.aabb_walls(w, {lo = {x, y, z}, hi = {x, y, z}, material}): six fixed walls on the
  --- faces of the box, normals inward, {x_lo, x_hi, y_lo, y_hi, z_lo, z_hi} (Yade's aabbWalls).
  function dem.aabb_walls(w, opts)
    local what = "impact.dem.aabb_walls"
    opts = c.check_keys(what, opts, { lo = true, hi = true, material = true })
    local lo = options.vector(what, opts, "lo", nil, 3, { required = true, level = 3 })
    local hi = options.vector(what, opts, "hi", nil, 3, { required = true, level = 3 })
    for k = 1, 3 do
      if hi[k] <= lo[k] then
        error(string.format("%s: option 'hi' must be above 'lo' on every axis, got lo[%d] = %s, "
          .. "hi[%d] = %s", what, k, c.shown(lo[k]), k, c.shown(hi[k])), 2)
      end
    end
    local shape3d = require("impact.shape3d")
    local walls = {}
    for j = 1, 6 do
      local k = (j + 1) // 2
      local p = { (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2, (lo[3] + hi[3]) / 2 }
      p[k] = j % 2 == 1 and lo[k] or hi[k]
      walls[j] = w:add_body { shape = shape3d.wall { normal = normals[j] }, fixed = true,
                              position = p, material = opts.material }
    end
    return walls
  end

  --- w:set_velocity(b, {vx, vy, vz}): the velocity a fixed body of a dem world moves with (a
  --- wall, a facet, a fixed sphere; Yade's non-dynamic bodies). b.velocity reads it back.
  function World:set_velocity(b, v)
    local vv = options.vector("World:set_velocity", { velocity = v }, "velocity", nil, 3,
      { required = true, level = 3 })
    core.dem_set_velocity(self, b, vv[1], vv[2], vv[3])
  end

  --- w:force_on(b): the force {fx, fy, fz} and the torque {tx, ty, tz} the last interaction
  --- loop put on body b (Yade's O.forces.f(id), .t(id)); a wall's is what the spheres push it
  --- with.
  function World:force_on(b)
    local fx, fy, fz, tx, ty, tz = core.dem_force_on(self, b)
    return { fx, fy, fz }, { tx, ty, tz }
  end

  --- w:bond_all{normal = Pa, shear = Pa}: a cohesive bond on every real interaction now (see
  --- dem.frict's cohesion); returns the count of bonds made.
  function World:bond_all(opts)
    local what = "World:bond_all"
    opts = c.check_keys(what, opts, { normal = true, shear = true })
    local n = options.number(what, opts, "normal", nil, { min = 0, required = true, level = 3 })
    local s = options.number(what, opts, "shear", nil, { min = 0, required = true, level = 3 })
    return core.dem_bond_all(self, n, s)
  end

  --- w:bond_count(): the intact cohesive bonds.
  function World:bond_count() return core.dem_bond_count(self) end
end

return M
