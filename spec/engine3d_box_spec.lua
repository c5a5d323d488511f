-- Boxes under the 3D contact strategy: flat contacts with a multi-point manifold and exact,
-- isotropic Coulomb friction. Expected values are closed forms of rigid-body statics and
-- dynamics (/work/shared/reference/contact3d.md section 2); tolerances say what they allow.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function world(opts)
  opts = opts or {}
  return impact.world3d { strategy = opts.strategy or "contact", gravity = { 0, 0, -g },
                          dt = opts.dt or 1 / 240, contact_solver = opts.solver }
end

-- a fixed slab whose top face passes through the origin, tilted by theta about y; returns
-- the slope's unit normal and its unit down-slope direction
local function slope(w, theta, mu)
  local n = { -math.sin(theta), 0, math.cos(theta) }
  w:add_body { shape = shape3d.box { size = { 400, 40, 1 } }, fixed = true, friction = mu,
               position = { -0.5 * n[1], 0, -0.5 * n[3] },
               orientation = { math.cos(-theta / 2), 0, math.sin(-theta / 2), 0 } }
  return n, { -math.cos(theta), 0, -math.sin(theta) }
end

local function on_slope(n, s, height)  -- a point at height above the slope's origin
  return { n[1] * height, n[2] * height, n[3] * height }, s
end

local scenes3d = require("spec.support.scenes3d")

local function tilt_quat(theta) return { math.cos(-theta / 2), 0, math.sin(-theta / 2), 0 } end

describe("3D contact: boxes", function()
  it("a box on a 30 degree slope with mu = 0.3 slides at g (sin - mu cos); with mu = 0.6 it stays", function()
    local th = math.rad(30)
    for _, mu in ipairs { 0.3, 0.6 } do
      local w = world {}
      local n, down = slope(w, th, mu)
      local p0 = on_slope(n, down, 0.25)
      local box = w:add_body { shape = shape3d.box { size = { 0.5, 0.5, 0.5 } }, mass = 1, position = p0,
                               orientation = tilt_quat(th), friction = mu }
      w:run { duration = 2 }
      -- mu = 0.3: 2.35629 m/s^2 down the slope; mu = 0.6 > tan 30 = 0.577: it stays
      scenes3d.assert_slope_outcome(w, box, p0, th, mu, g, n, down)
    end
  end)

  it("a cube fired at 20 m/s stops after v0^2 / (2 mu g) = 24.027 m, in any direction (isotropy)", function()
    -- Jolt's TestFriction: 2 m cube, mu = sqrt(0.9 * 0.8); a pyramid cone would stop at 45
    -- degrees after 16.8 m (ODE); the exact cone decelerates at mu g in every direction
    local mu = math.sqrt(0.9 * 0.8)
    local stops = {}
    for _, deg in ipairs { 0, 45, 30 } do
      local w = world { dt = 1 / 60 }
      w:add_body { shape = shape3d.box { size = { 400, 400, 1 } }, fixed = true, friction = mu,
                   position = { 0, 0, -0.5 } }
      local c, s = math.cos(math.rad(deg)), math.sin(math.rad(deg))
      local box = w:add_body { shape = shape3d.box { size = { 2, 2, 2 } }, mass = 8, position = { 0, 0, 1 },
                               velocity = { 20 * c, 20 * s, 0 }, friction = mu }
      w:run { duration = 3 }
      local p = box.position
      stops[deg] = math.sqrt(p[1] ^ 2 + p[2] ^ 2)
      assert.near(deg, math.deg(math.atan(p[2], p[1])), 0.01)
      -- semi-implicit Euler with dt = 1/60 stops within one step's travel of the exact 24.027
      assert.near(20 ^ 2 / (2 * mu * g), stops[deg], 0.01 * 24.027)
      assert.near(0, math.sqrt(box.velocity[1] ^ 2 + box.velocity[2] ^ 2), 1e-9)
    end
    assert.near(stops[0], stops[45], 1e-6 * stops[0])
    assert.near(stops[0], stops[30], 1e-6 * stops[0])
  end)

  it("a 1 x 2 box pushed at its top tips at F = m g b / H = 2.4525 N (mu = 0.8), slides first "
     .. "with mu = 0.2", function()
    -- tipping about the front edge: F H = m g (width / 2), H = 2, width 1, m = 1
    -- sliding: F > mu m g (0.8: 7.848 N; 0.2: 1.962 N)
    local function push(force, mu)
      local w = world {}
      w:add_body { shape = shape3d.box { size = { 100, 100, 1 } }, fixed = true, friction = mu,
                   position = { 0, 0, -0.5 } }
      local box = w:add_body { shape = shape3d.box { size = { 1, 1, 2 } }, mass = 1, position = { 0, 0, 1 },
                               friction = mu }
      for _ = 1, 240 do  -- 1 s
        box:apply_force({ force, 0, 0 }, box:to_world { -0.5, 0, 1 })
        w:step()
      end
      return box
    end
    local still = push(2.3, 0.8)
    assert.is_true(math.abs(still.angular_velocity[2]) < 1e-6 and math.abs(still.position[1]) < 1e-4)
    -- tipping: (2.6 * 2 - 4.905) / (m (1 + 4) / 3) = 0.177 rad/s^2 at first, more as it leans
    local tipping = push(2.6, 0.8)
    assert.is_true(tipping.angular_velocity[2] > 0.177, "tips about the front edge")
    -- 2.3 > 1.962: slides at a = (2.3 - 1.962) / m; it does not tip: about the centre, the push
    -- and the friction turn it by (2.3 + 1.962) * 1 = 4.26 N m < m g b = 4.905 N m
    local sliding = push(2.3, 0.2)
    assert.near(2.3 - 0.2 * g, sliding.velocity[1], 1e-6)
    assert.is_true(math.abs(sliding.angular_velocity[2]) < 1e-6)
  end)

  it("a 1 x 2 box on a slope tips past atan(1/2) = 26.565 deg (mu = 0.8), slides past atan(mu) first "
     .. "when mu = 0.4", function()
    -- statics: it tips when the weight's line leaves the base (tan theta > b / h = 0.5), it
    -- slides when tan theta > mu; the one reached first wins
    local function run(deg, mu)
      local th = math.rad(deg)
      local w = world {}
      local n = slope(w, th, mu)
      local box = w:add_body { shape = shape3d.box { size = { 1, 1, 2 } }, mass = 1, friction = mu,
                               position = { n[1], 0, n[3] }, orientation = tilt_quat(th) }
      w:run { duration = 1.5 }
      local v = box.velocity
      return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2), math.abs(box.angular_velocity[2]), w.time
    end
    local speed, spin = run(25, 0.8)
    assert.is_true(speed < 1e-6 and spin < 1e-6)   -- below both limits: stays
    local _, tip_spin = run(28, 0.8)
    assert.is_true(tip_spin > 0.5)                   -- past 26.565 deg, below atan 0.8 = 38.7: tips
    speed, spin = run(20, 0.4)
    assert.is_true(speed < 1e-6 and spin < 1e-6)   -- below atan 0.4 = 21.8 deg: stays
    local t
    speed, spin, t = run(23, 0.4)                    -- slides, does not tip
    local th = math.rad(23)
    assert.near(g * (math.sin(th) - 0.4 * math.cos(th)) * t, speed, 1e-3)
    assert.is_true(spin < 1e-6)
  end)

  it("Housner's rocking block keeps 1 - 1.5 sin^2(alpha) of its angular velocity at an impact", function()
    -- rectangular block, half-width b, half-height h, alpha = atan(b / h); inelastic impact
    -- on the other edge, no slip (Housner 1963)
    local b, h = 0.2, 0.8
    local alpha = math.atan(b / h)
    local expected = 1 - 1.5 * math.sin(alpha) ^ 2
    local w = world { dt = 1 / 4000 }
    w:add_body { shape = shape3d.box { size = { 100, 100, 1 } }, fixed = true, friction = 2,
                 position = { 0, 0, -0.5 } }
    -- start leaning on the edge x = +b by theta0 = alpha / 2, at rest
    local th0 = alpha / 2
    local R = math.sqrt(b * b + h * h)
    local cx = b - R * math.sin(alpha - th0)
    local cz = R * math.cos(alpha - th0)
    local block = w:add_body { shape = shape3d.box { size = { 2 * b, 1, 2 * h } }, mass = 1,
                               position = { cx, 0, cz }, friction = 2, elasticity = 0,
                               orientation = { math.cos(-th0 / 2), 0, math.sin(-th0 / 2), 0 } }
    local before, after
    local last = 0
    while w.time < 2 and not after do
      local wy = block.angular_velocity[2]
      w:step()
      local now = block.angular_velocity[2]
      if wy > 0.05 and now < wy * 0.97 and not before then
        before = wy
        w:step()
        after = block.angular_velocity[2]
      end
      last = now
    end
    assert.is_not_nil(before, "no impact seen (last w " .. last .. ")")
    assert.near(expected, after / before, 0.01)
  end)

  local function stack_world(solver, layers, mu)
    local w = world { dt = 1 / 60, solver = solver }
    w:add_body { shape = shape3d.box { size = { 40, 40, 1 } }, fixed = true, friction = mu,
                 position = { 0, 0, -0.5 } }
    local cubes, start = {}, {}
    for k = 0, #layers - 1 do
      local m = layers[k + 1]
      for i = 0, m - 1 do
        for j = 0, m - 1 do
          local p = { i - (m - 1) / 2, j - (m - 1) / 2, 0.5 + k }
          cubes[#cubes + 1] = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, density = 1,
                                           position = p, friction = mu }
          start[#start + 1] = p
        end
      end
    end
    return w, cubes, start
  end

  local function moved(cubes, start)
    local worst = 0
    for i, c in ipairs(cubes) do
      local p = c.position
      worst = math.max(worst, math.sqrt((p[1] - start[i][1]) ^ 2 + (p[2] - start[i][2]) ^ 2
                                        + (p[3] - start[i][3]) ^ 2))
    end
    return worst
  end

  it("a tower of 4 cubes stands on exact forces: each face carries the weight above it", function()
    -- statics: the face under cube k (from the top, k = 1..4) carries k m g, shared by its
    -- four corners (the sum is exact; the split among redundant corners is not unique)
    local w, cubes, start = stack_world("lcp", { 1, 1, 1, 1 }, 0.6)
    w:run { duration = 2 }
    assert.is_true(moved(cubes, start) < 1e-6)
    local load = {}
    for _, c in ipairs(w:contacts()) do
      local top = c.body2.position[3] > c.body1.position[3] and c.body2 or c.body1
      load[top] = (load[top] or 0) + c.normal_force
    end
    for k, cube in ipairs(cubes) do
      assert.near((#cubes - k + 1) * g, load[cube], 1e-6 * g)
    end
  end)

  it("a pyramid of 14 cubes stands (max displacement < 1 mm over 2 s)", function()
    local w, cubes, start = stack_world("pgs", { 3, 2, 1 }, 0.6)
    w:run { duration = 2 }
    local worst = moved(cubes, start)
    assert.is_true(worst < 1e-3, "moved " .. worst)
    -- the sweeps' answer measured as the exact solver's is (Siconos' error): near complementary
    assert.is_true(w:stats().solver_error < 1e-6, "error " .. w:stats().solver_error)
  end)

  it("100 cubes poured into a container lose energy at every step and come to rest inside", function()
    -- dissipative contact (restitution 0, friction): the total energy (kinetic + potential)
    -- may only fall; penetrations are pushed apart on pseudo-velocities (split impulse), which
    -- move positions and add no kinetic energy
    local pile = dofile("examples/box_pile_3d.lua")
    local w, cubes = pile.build(100)
    local e0 = w:energy().total
    local rise = -math.huge
    for _ = 1, 600 do
      w:step()
      rise = math.max(rise, w:energy().total - e0)
    end
    assert.is_true(rise <= 0, "energy rose by " .. rise .. " J")
    local ke = 0
    for _, c in ipairs(cubes) do ke = ke + c:kinetic_energy() end
    assert.is_true(ke < 1e-6, "kinetic energy " .. ke)
    local where = pile.summary(cubes)
    assert.equal(0, where.escaped)
    assert.is_true(w:stats().max_penetration < 0.01)  -- within distance_tol
  end)

  it("sub-steps settle a tall wall that few sweeps per step let sag", function()
    -- a one-cube-thick pyramid wall 15 high (120 cubes), 4 sweeps per solve: with one solve per
    -- step the weights reach the ground only over several steps and the wall sags by ~9 cm;
    -- four sub-steps (Box3D's remedy) hold it within 5 mm
    local function wall(substeps)
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                                 contact_solver = "pgs", pgs_iterations = 4, substeps = substeps }
      w:add_body { shape = shape3d.box { size = { 100, 100, 1 } }, fixed = true, friction = 0.6,
                   position = { 0, 0, -0.5 } }
      local cubes, start = {}, {}
      for i = 0, 14 do
        for j = 0, 14 - i do
          local p = { j - (14 - i) / 2, 0, 0.5 + i }
          cubes[#cubes + 1] = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, density = 1,
                                           position = p, friction = 0.6 }
          start[#start + 1] = p
        end
      end
      w:run { duration = 3 }
      return moved(cubes, start)
    end
    local sub, one = wall(4), wall(1)
    assert.is_true(sub < 5e-3, "moved " .. sub)
    assert.is_true(one > 2 * sub, "moved " .. one .. " without sub-steps")
    assert.has_error(function() impact.world2d { substeps = 2 } end,
      "impact.world2d: option 'substeps' belongs to the 3D impulse and contact strategies (this world: 2D, "
      .. "strategy \"none\")")
  end)

  it("Solfec's stick-slip block under F = 8 cos t (mu = 0.8) follows the closed form", function()
    -- m = 1, friction limit L = mu m g = 7.848 N: sticks while |F| <= L; slides from ts in
    -- the direction s of F with v(t) = 8 (sin t - sin ts) - s L (t - ts) until v = 0 (found by
    -- bisection). Potra, Anitescu, Gavrea & Trinkle (2006); Solfec's tests/block-sliding.py
    local A, L = 8, 0.8 * g
    local function closed_form(T)
      local t, x = 0, 0
      while true do
        local function excess(s) return math.abs(A * math.cos(s)) - L end
        if excess(t) <= 0 then
          local s = t
          while s < T and excess(s) <= 0 do s = s + 1e-3 end
          if s >= T then return x end
          local lo, hi = s - 1e-3, s
          for _ = 1, 60 do
            local mid = (lo + hi) / 2
            if excess(mid) > 0 then hi = mid else lo = mid end
          end
          t = hi
        end
        local ts, dir = t, A * math.cos(t) > 0 and 1 or -1
        local function v(s) return A * (math.sin(s) - math.sin(ts)) - dir * L * (s - ts) end
        local function dx(s)
          return A * (math.cos(ts) - math.cos(s)) - A * math.sin(ts) * (s - ts) - dir * L / 2 * (s - ts) ^ 2
        end
        local s = ts + 1e-3
        while s < T and v(s) * dir > 0 do s = s + 1e-3 end
        if s >= T then return x + dx(T) end
        local lo, hi = s - 1e-3, s
        for _ = 1, 60 do
          local mid = (lo + hi) / 2
          if v(mid) * dir > 0 then lo = mid else hi = mid end
        end
        x, t = x + dx(hi), hi
      end
    end
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1e-3 }
    w:add_body { shape = shape3d.box { size = { 4, 4, 0.2 } }, fixed = true, friction = 0.8,
                 position = { 0, 0, -0.1 } }
    local block = w:add_body { shape = shape3d.box { size = { 0.3, 0.3, 0.1 } }, mass = 1,
                               position = { 0, 0, 0.05 }, friction = 0.8 }
    for _, T in ipairs { 1, 3.2, 5, 10 } do
      while w.time < T - 1e-9 do
        block:apply_force { A * math.cos(w.time), 0, 0 }
        w:step()
      end
      -- first order in h = 1 ms: each slip episode ends within a few steps of the exact time
      assert.near(closed_form(T), block.position[1], 1e-4)
    end
    assert.near(0, block.position[2], 1e-12)
  end)
end)
