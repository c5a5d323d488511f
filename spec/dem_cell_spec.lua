-- The periodic cell of the dem strategy (Yade's O.periodic) against physics: a collision across
-- a face is the same collision as inside (translation invariance), an elastic lattice compressed
-- through the velocity gradient has the stress of the contact law by hand and stays on the
-- affine field, a periodic shear conserves the fluctuation momentum (no walls, no damping), runs
-- repeat bit for bit, and bad input is refused with a message naming it.
local impact = require("impact")
local dem = impact.dem
local overlaps = require("spec.support.dem_overlaps")

local E, r = 1e8, 0.01

local function world()
  return impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
end

local function sphere(w, p, v, rad)
  return w:add_body { shape = impact.shape3d.sphere { radius = rad or r }, density = 2600,
                      position = p, velocity = v or { 0, 0, 0 } }
end

local function engines(w, damping)
  w.engines = { dem.force_resetter(), dem.collider {},
                dem.interaction_loop { physics = { dem.frict { young = E } } },
                dem.newton { damping = damping or 0 } }
  w.dt = 0.1 * w:p_wave_dt()
end

-- b's displacement from a with the nearest image (cell of size L along each axis)
local function sep(a, b, L)
  local d = {}
  for k = 1, 3 do
    local x = b.position[k] - a.position[k]
    if L then x = x - L * math.floor(x / L + 0.5) end
    d[k] = x
  end
  return d
end

describe("dem periodic cell", function()
  it("a collision across a face (or a corner) is the collision inside", function()
    local L, v = 0.1, 2.0
    local dir = { 1 / math.sqrt(3), 1 / math.sqrt(3), 1 / math.sqrt(3) }
    for _, case in ipairs {
      { axis = { 1, 0, 0 }, shift = { 0.05, 0, 0 } },
      { axis = { 0, 0, 1 }, shift = { 0, 0, 0.05 } },
      { axis = dir, shift = { 0.05, 0.05, 0.05 } },
    } do
      local runs = {}
      for pass = 1, 2 do
        local w = world()
        local c = { 0.05, 0.05, 0.05 }
        if pass == 2 then
          for k = 1, 3 do c[k] = c[k] + case.shift[k] end  -- the centre on the face or corner
        end
        local h = r + 0.002
        local pa, pb = {}, {}
        for k = 1, 3 do
          pa[k] = c[k] - h * case.axis[k]
          pb[k] = c[k] + h * case.axis[k]
          pb[k] = pb[k] - L * math.floor(pb[k] / L)  -- inside the cell
        end
        local va, vb = {}, {}
        for k = 1, 3 do va[k], vb[k] = v * case.axis[k], -v * case.axis[k] end
        local a, b = sphere(w, pa, va), sphere(w, pb, vb)
        w:set_cell { size = { L, L, L } }
        engines(w)
        local dmin, shifted = math.huge, false
        for _ = 1, 600 do
          w:step(1)
          local d = sep(a, b, L)
          dmin = math.min(dmin, math.sqrt(d[1] ^ 2 + d[2] ^ 2 + d[3] ^ 2))
          for _, I in ipairs(w:interactions()) do
            local s = I.cell_shift
            shifted = shifted or s[1] ~= 0 or s[2] ~= 0 or s[3] ~= 0
          end
        end
        runs[pass] = { d = sep(a, b, L), va = a.velocity, vb = b.velocity, dmin = dmin,
                       shifted = shifted }
      end
      local inside, across = runs[1], runs[2]
      assert.is_false(inside.shifted)
      assert.is_true(across.shifted)
      assert.is_true(inside.dmin < 2 * r)  -- they collided
      assert.near(inside.dmin, across.dmin, 1e-12)
      for k = 1, 3 do
        assert.near(inside.d[k], across.d[k], 1e-12)
        assert.near(inside.va[k], across.va[k], 1e-9)
        assert.near(inside.vb[k], across.vb[k], 1e-9)
        -- elastic, head on: the velocities are exchanged (to the leapfrog's O(dt^2))
        assert.near(-v * case.axis[k], inside.va[k], 1e-3 * v)
      end
    end
  end)

  it("a lattice compressed through vel_grad: affine motion, cell strain and stress by hand",
    function()
      local n, a0, rate = 4, 2 * r, 2.0
      local w = world()
      local balls = {}
      for i = 0, n - 1 do
        for j = 0, n - 1 do
          for k = 0, n - 1 do
            balls[#balls + 1] = sphere(w, { (i + 0.5) * a0, (j + 0.5) * a0, (k + 0.5) * a0 })
          end
        end
      end
      w:set_cell { size = { n * a0, n * a0, n * a0 },
                   vel_grad = { { -rate, 0, 0 }, { 0, -rate, 0 }, { 0, 0, -rate } } }
      -- the affine field: v = L x from the start
      assert.near(-rate * 0.5 * a0, balls[1].velocity[1], 1e-15)
      engines(w)
      local steps = 300
      w:step(steps)
      w:set_cell { vel_grad = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } } }
      w:step(1)  -- forces at the compressed positions, the cell at rest
      local c = w:cell()
      local shrink = (1 - rate * w.dt) ^ steps
      assert.near(n * a0 * shrink, c.size[1], 1e-12 * a0)
      assert.near(shrink - 1, c.strain[2][2], 1e-10)
      assert.near(0, c.strain[1][2], 1e-15)
      assert.near((n * a0 * shrink) ^ 3, c.volume, 1e-9 * c.volume)
      local a = c.size[1] / n
      for idx, b in ipairs(balls) do  -- still on their lattice sites (fractional coordinates)
        local k = (idx - 1) % n
        assert.near((k + 0.5) * a, b.position[3], 1e-9 * a)
      end
      -- n^3 contacts per axis, fn = kn (2r - a), kn = E r, branch a: sigma = -kn (2r - a) / a^2
      local s = w:stress()
      local expect = -E * r * (2 * r - a) / a ^ 2
      assert.is_true(expect < 0)
      for i = 1, 3 do
        assert.near(expect, s[i][i], 1e-6 * math.abs(expect))
        for j = 1, 3 do
          if i ~= j then assert.near(0, s[i][j], 1e-6 * math.abs(expect)) end
        end
      end
      assert.near(6, w:coordination(), 1e-12)
    end)

  local function shear_run()
    local w = world()
    local L, m = 0.1, 4
    local rng = 12345
    local function rand()
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng / 2147483648
    end
    local balls = {}
    for i = 0, m - 1 do
      for j = 0, m - 1 do
        for k = 0, m - 1 do
          local p = { (i + 0.5) * L / m + 0.004 * (rand() - 0.5),
                      (j + 0.5) * L / m + 0.004 * (rand() - 0.5),
                      (k + 0.5) * L / m + 0.004 * (rand() - 0.5) }
          local v = { rand() - 0.5, rand() - 0.5, rand() - 0.5 }
          balls[#balls + 1] = sphere(w, p, v, 0.0125 * (0.9 + 0.2 * rand()))
        end
      end
    end
    w:set_cell { size = { L, L, L }, vel_grad = { { 0, 5, 0 }, { 0, 0, 0 }, { 0, 0, 0 } } }
    engines(w)
    return w, balls
  end

  local function momentum(w, balls)
    local L = w:cell().vel_grad
    local p = { 0, 0, 0 }
    for _, b in ipairs(balls) do
      local x, v, mass = b.position, b.velocity, b.mass
      for k = 1, 3 do
        local lx = L[k][1] * x[1] + L[k][2] * x[2] + L[k][3] * x[3]
        p[k] = p[k] + mass * (v[k] - lx)  -- the fluctuation velocity
      end
    end
    return p
  end

  it("a periodic shear conserves the fluctuation momentum; the cell shears", function()
    local w, balls = shear_run()
    local p0 = momentum(w, balls)
    local scale = 0
    for _, b in ipairs(balls) do scale = scale + b.mass * 0.5 end
    local contacts, across = 0, 0
    for _ = 1, 40 do
      w:step(10)
      for _, I in ipairs(w:interactions()) do
        contacts = contacts + 1
        local s = I.cell_shift
        if s[1] ~= 0 or s[2] ~= 0 or s[3] ~= 0 then across = across + 1 end
      end
    end
    assert.is_true(contacts > 100 and across > 10)
    local p1 = momentum(w, balls)
    for k = 1, 3 do assert.near(p0[k], p1[k], 1e-12 * scale) end
    local c = w:cell()
    assert.near(5 * 400 * w.dt * 0.1, c.hsize[1][2], 1e-12)
    for _, b in ipairs(balls) do  -- wrapped into the cell
      local u = b.position[1] - c.hsize[1][2] / c.hsize[2][2] * b.position[2]
      assert.is_true(u >= -1e-12 and u < 0.1 + 1e-12)
      assert.is_true(b.position[2] >= 0 and b.position[2] < 0.1)
      assert.is_true(b.position[3] >= 0 and b.position[3] < 0.1)
    end
  end)

  -- The collider's Verlet skip (dem_cell.c, run_still_holds): it runs only when a sphere or the
  -- cell's deformation may have brought a pair it did not find within the interaction
  -- distance; it must never miss a contact. The sheared cloud of random velocities above: at
  -- every step every pair overlapping (through its nearest image) by more than a thousandth of
  -- a radius has an interaction, while the collider ran fewer times than half the steps.
  it("the collider's Verlet skip misses no contact in a sheared cell", function()
    local w, L, m, rng = world(), 0.1, 4, 54321
    local function rand()
      rng = (rng * 1103515245 + 12345) % 2147483648
      return rng / 2147483648
    end
    local balls, radius = {}, {}
    for i = 0, m - 1 do  -- no pair overlaps at the start: spacing 0.025 +- 0.001, radii below 0.0119
      for j = 0, m - 1 do
        for k = 0, m - 1 do
          local p = { (i + 0.5) * L / m + 0.001 * (rand() - 0.5), (j + 0.5) * L / m + 0.001 * (rand() - 0.5),
                      (k + 0.5) * L / m + 0.001 * (rand() - 0.5) }
          radius[#balls + 1] = 0.0125 * (0.8 + 0.15 * rand())
          balls[#balls + 1] = sphere(w, p, { 2 * (rand() - 0.5), 2 * (rand() - 0.5), 2 * (rand() - 0.5) },
                                     radius[#balls + 1])
        end
      end
    end
    w:set_cell { size = { L, L, L }, vel_grad = { { 0, 5, 0 }, { 0, 0, 0 }, { 0, 0, 0 } } }
    engines(w)
    local inv = function(q)  -- 3 x 3 inverse by cofactors
      local a, b, c = q[1][1], q[1][2], q[1][3]
      local d, e, f = q[2][1], q[2][2], q[2][3]
      local g, h, i = q[3][1], q[3][2], q[3][3]
      local det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
      return { { (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det },
               { (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det },
               { (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det } }
    end
    local steps, checked, runs0 = 400, 0, w:dem_stats().collider_runs
    for _ = 1, steps do
      w:step(1)
      local H = w:cell().hsize
      local Hi = inv(H)
      local function distance(a, b)  -- through the nearest image
        local dx = { b.position[1] - a.position[1], b.position[2] - a.position[2],
                     b.position[3] - a.position[3] }
        local u = {}
        for k = 1, 3 do
          u[k] = Hi[k][1] * dx[1] + Hi[k][2] * dx[2] + Hi[k][3] * dx[3]
          u[k] = u[k] - math.floor(u[k] + 0.5)
        end
        local best = 0  -- the rounded image is the nearest: the cell shears by 0.004 at most
        for k = 1, 3 do
          local x = H[k][1] * u[1] + H[k][2] * u[2] + H[k][3] * u[3]
          best = best + x * x
        end
        return math.sqrt(best)
      end
      local n, missing = overlaps.check(balls, function(i) return radius[i] end, distance,
                                        overlaps.keys(w:interactions()))
      checked = checked + n
      assert.is_nil(missing)
    end
    local runs = w:dem_stats().collider_runs - runs0
    assert.is_true(checked > 100, "the cloud must collide enough to test: " .. checked)
    assert.is_true(runs < steps / 2, ("the collider ran %d times in %d steps"):format(runs, steps))
  end)

  it("is deterministic: two runs give the same bits", function()
    local out = {}
    for run = 1, 2 do
      local w, balls = shear_run()
      w:step(200)
      local t = {}
      for _, b in ipairs(balls) do
        for k = 1, 3 do t[#t + 1] = string.format("%a %a", b.position[k], b.velocity[k]) end
      end
      out[run] = table.concat(t, ";")
    end
    assert.equal(out[1], out[2])
  end)

  it("refuses bad input with a message naming it", function()
    local w = world()
    sphere(w, { 0.05, 0.05, 0.05 })
    assert.has_error(function() w:set_cell { size = { 0.1, 0, 0.1 } } end,
      "World:set_cell: option 'size' must hold three positive lengths, got size[2] = 0")
    assert.has_error(function() w:set_cell { size = { 0.1, 0.1 } } end)
    assert.has_error(function() w:set_cell { vel_grad = { { 0, 0, 0 } } } end)
    assert.has_error(function() w:set_cell { size = { 0.1, 0.1, 0.1 }, hsize = {} } end,
      "World:set_cell: give 'size' or 'hsize', not both")
    assert.has_error(function()
      w:set_cell { hsize = { { -1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } }
    end, "World:set_cell: option 'hsize' must have a positive determinant (right-handed base "
      .. "vectors as columns), got determinant -1")
    local ok, err = pcall(w.set_cell, w, { size = { 0.1, 0.03, 0.1 } })
    assert.is_false(ok)
    assert.matches("diameter 0.02 .* not smaller than half the periodic cell's thinnest width 0.03",
      err)
    assert.is_nil(w:cell())
    local ww = world()
    sphere(ww, { 0.05, 0.05, 0.05 })
    ww:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
                  position = { 0, 0, 0 } }
    ok, err = pcall(ww.set_cell, ww, { size = { 1, 1, 1 } })
    assert.is_false(ok)
    assert.matches("a periodic cell holds free spheres only %(body %d+ is a wall%)", err)
    -- a sphere added later, too large: the collider refuses it at the next step
    w:set_cell { size = { 0.1, 0.1, 0.1 } }
    sphere(w, { 0.02, 0.02, 0.02 }, nil, 0.03)
    engines(w)
    assert.has_error(function() w:step(1) end)
    w:set_cell(false)
    assert.is_nil(w:cell())
  end)
end)
