-- The dem strategy and its engine list against physics: closed forms for collisions, rest,
-- rolling and sliding; the energy balance of a deposition; the interaction lifecycle.
local impact = require("impact")
local dem = impact.dem

local rho, E = 2600, 1e7

local function sphere_mass(r) return 4 / 3 * math.pi * r ^ 3 * rho end

local function new_world(gravity)
  return impact.world3d { strategy = "dem", gravity = gravity or { 0, 0, -9.81 } }
end

local function add_sphere(w, r, pos, vel)
  return w:add_body { shape = impact.shape3d.sphere { radius = r }, density = rho,
                      position = pos, velocity = vel or { 0, 0, 0 } }
end

local function add_wall(w, normal, pos)
  return w:add_body { shape = impact.shape3d.wall { normal = normal }, fixed = true,
                      position = pos or { 0, 0, 0 } }
end

local function engines(opts)
  opts = opts or {}
  return {
    dem.force_resetter(),
    dem.collider { verlet_distance = opts.verlet_distance, interaction_radius = opts.radius },
    dem.interaction_loop { physics = { opts.physics or dem.frict { young = E, ks_ratio = 0.3,
                                                                   friction_angle = 0.5 } },
                           law = { opts.law or "cundall_strack" },
                           never_erase = opts.never_erase, interaction_radius = opts.radius },
    dem.newton { damping = opts.damping or 0, label = "newton", track_energy = opts.track_energy },
  }
end

-- two equal spheres approaching at 1 m/s (yade.md scenario B); returns e, contact time, max
-- overlap
local function head_on(opts, dt_factor)
  local R = 0.01
  local w = new_world { 0, 0, 0 }
  local b1 = add_sphere(w, R, { -(R + 0.0005), 0, 0 }, { 0.5, 0, 0 })
  local b2 = add_sphere(w, R, { R + 0.0005, 0, 0 }, { -0.5, 0, 0 })
  w:set_engines(engines(opts))
  w.dt = dt_factor * w:p_wave_dt()
  local steps, dmax = 0, 0
  for _ = 1, 100000 do
    w:step()
    local un = 2 * R - (b2.position[1] - b1.position[1])
    if un > 0 then
      steps = steps + 1
      dmax = math.max(dmax, un)
    elseif steps > 0 then
      break
    end
  end
  return (b2.velocity[1] - b1.velocity[1]) / 1.0, steps * w.dt, dmax, w.dt
end

describe("dem strategy", function()
  local R = 0.01
  local ms = sphere_mass(R) / 2
  local kn = E * R

  it("free fall follows the damped leapfrog exactly (yade.md A: a = -(1 - d) g)", function()
    local w = new_world()
    local b = add_sphere(w, 0.01, { 0, 0, 1 })
    w:set_engines(engines { damping = 0.2 })
    w.dt = 1e-4
    w:step(500)
    local a = -0.8 * 9.81
    assert.near(1 + a * w.dt ^ 2 * 500 * 501 / 2, b.position[3], 1e-12)
    assert.near(a * w.dt * 500, b.velocity[3], 1e-12)
  end)

  it("head-on linear collisions rebound with e = sqrt((1-d)/(1+d)) over pi/omega", function()
    for _, d in ipairs { 0, 0.2, 0.5 } do
      local e, tc, dmax, dt = head_on({ damping = d }, 0.01)
      local e_th = math.sqrt((1 - d) / (1 + d))
      local tc_th = math.pi / 2 * math.sqrt(ms / kn) * (1 / math.sqrt(1 + d) + 1 / math.sqrt(1 - d))
      assert.near(e_th, e, { rel = 2e-3 })
      assert.near(tc_th, tc, 1.01 * dt)
      assert.near(math.sqrt(ms / (kn * (1 + d))), dmax, { rel = 2e-3 })
    end
  end)

  it("Hertz-Mindlin head-on: e = 1 and Hertz's maximum overlap and contact time", function()
    local nu = 0.3
    local estar = E / (2 * (1 - nu * nu))
    local kno = 4 / 3 * estar * math.sqrt(R / 2)
    local e, tc, dmax, dt = head_on({ physics = dem.mindlin { young = E, poisson = nu },
                                      law = "hertz_mindlin" }, 0.01)
    local dmax_th = (5 * ms * 1 ^ 2 / (4 * kno)) ^ 0.4
    assert.near(1, e, 1e-3)
    assert.near(dmax_th, dmax, { rel = 1e-3 })
    assert.near(2.9432 * dmax_th / 1, tc, 1.01 * dt + 1e-4 * tc)
  end)

  it("Hertz-Mindlin with Tsuji's damping rebounds with about its en (Yade: 0.49996)", function()
    local e = head_on({ physics = dem.mindlin { young = E, poisson = 0.3, en = 0.5 },
                        law = "hertz_mindlin" }, 0.005)
    assert.near(0.5, e, 2e-3)
  end)

  it("a sphere resting on a wall overlaps by m g / kn (kn = E r)", function()
    local w = new_world()
    add_wall(w, { 0, 0, 1 })
    local b = add_sphere(w, R, { 0.1, 0.2, R })
    w:set_engines(engines { damping = 0.3 })
    w.dt = 0.3 * w:p_wave_dt()
    w:run { steps = 20000 }
    local overlap = R - b.position[3]
    assert.near(sphere_mass(R) * 9.81 / kn, overlap, { rel = 1e-4 })
    local list = w:interactions()
    assert.equal(1, #list)
    assert.near(overlap, list[1].overlap, 1e-15)
    assert.near({ 0, 0, sphere_mass(R) * 9.81 }, list[1].normal_force, { rel = 1e-4 })
  end)

  it("takes E and density from a body's material", function()
    local w = new_world()
    w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
                 material = "rubber" }
    local b = w:add_body { shape = impact.shape3d.sphere { radius = R }, material = "rubber",
                           position = { 0, 0, R } }
    -- the functor's young (5e8) is for bodies without a material
    w:set_engines(engines { damping = 0.3, physics = dem.frict { young = 5e8 } })
    local rubber_E, rubber_rho = 1.0e7, 1100  -- the palette's rubber
    assert.near(R / math.sqrt(rubber_E / rubber_rho), w:p_wave_dt(), { rel = 1e-12 })
    w.dt = 0.3 * w:p_wave_dt()
    w:run { steps = 20000 }
    local m = 4 / 3 * math.pi * R ^ 3 * rubber_rho
    assert.near(m * 9.81 / (rubber_E * R), R - b.position[3], { rel = 1e-4 })
  end)

  it("a sphere resting on a facet overlaps by m g / kn; an edge pushes along the edge normal",
    function()
      local w = new_world()
      dem.add_facet(w, { vertices = { { -1, -1, 0 }, { 1, -1, 0 }, { 0, 1, 0 } } })
      local b = add_sphere(w, R, { 0.1, 0.2, R })
      w:set_engines(engines { damping = 0.3 })
      w.dt = 0.3 * w:p_wave_dt()
      w:run { steps = 20000 }
      assert.near(sphere_mass(R) * 9.81 / kn, R - b.position[3], { rel = 1e-4 })
      -- a sphere beside the edge y = -1 (no gravity) is pushed away from it, along -y
      local w2 = new_world { 0, 0, 0 }
      dem.add_facet(w2, { vertices = { { -1, -1, 0 }, { 1, -1, 0 }, { 0, 1, 0 } } })
      local s = add_sphere(w2, R, { 0.2, -1 - 0.5 * R, 0 })
      w2:set_engines(engines())
      w2.dt = 0.1 * w2:p_wave_dt()
      w2:step()
      local l = w2:interactions()
      assert.equal(1, #l)
      assert.near({ 0, -1, 0 }, l[1].normal, 1e-12)
      assert.near(0.5 * R, l[1].overlap, 1e-12)
      w2:step(2000)
      assert.is_true(s.velocity[2] < 0)
      assert.near(0, s.velocity[1], 1e-9)
      assert.near(0, s.velocity[3], 1e-9)
    end)

  it("a facet box holds spheres like the box of walls", function()
    local w = new_world()
    dem.add_facet_box(w, { lo = { 0, 0, 0 }, hi = { 0.1, 0.1, 0.2 }, open_top = true })
    local balls = {}
    for i = 0, 7 do
      balls[#balls + 1] = add_sphere(w, 0.01, { 0.025 + 0.05 * (i % 2), 0.025 + 0.05 * ((i // 2) % 2),
                                                0.02 + 0.03 * (i // 4) })
    end
    w:set_engines(engines { damping = 0.4 })
    w.dt = 0.5 * w:p_wave_dt()
    w:run { steps = 20000 }
    for _, b in ipairs(balls) do
      local p = b.position
      assert.is_true(p[1] > 0.009 and p[1] < 0.091 and p[2] > 0.009 and p[2] < 0.091)
      assert.is_true(p[3] > 0.009 and p[3] < 0.05)
    end
  end)

  -- On a slope of angle t with friction mu, a sphere rolls without slipping (a = 5/7 g sin t)
  -- while tan t < 7/2 mu, and slides (a = g (sin t - mu cos t)) above. The slope is the
  -- floor under tilted gravity.
  local function slope(theta, mu)
    local g = 9.81
    local w = new_world { g * math.sin(theta), 0, -g * math.cos(theta) }
    add_wall(w, { 0, 0, 1 })
    local rest = sphere_mass(R) * g * math.cos(theta) / kn
    local b = add_sphere(w, R, { 0, 0, R - rest })
    w:set_engines(engines { physics = dem.frict { young = E, ks_ratio = 0.3,
                                                  friction_angle = math.atan(mu) } })
    w.dt = 0.05 * w:p_wave_dt()
    local T = 0.1
    w:run { until_time = T }
    return b.position[1], 0.5 * T * T, b.angular_velocity[2] * R, b.velocity[1], w.time
  end

  it("on a slope a sphere rolls without slipping below tan t = 7/2 mu", function()
    local theta, mu = 0.4, 0.5  -- tan 0.4 = 0.42 < 1.75
    local x, half_t2, spin_speed, v = slope(theta, mu)
    assert.near(5 / 7 * 9.81 * math.sin(theta) * half_t2, x, { rel = 5e-3 })
    assert.near(v, spin_speed, { rel = 5e-3 })  -- rolling: v = w r
  end)

  it("on a steeper slope it slides: a = g (sin t - mu cos t)", function()
    local theta, mu = 1.2, 0.2  -- tan 1.2 = 2.57 > 0.7
    local x, half_t2, spin_speed, v = slope(theta, mu)
    assert.near(9.81 * (math.sin(theta) - mu * math.cos(theta)) * half_t2, x, { rel = 5e-3 })
    assert.is_true(spin_speed < 0.9 * v)  -- slipping
    -- the friction torque spins it up: w r = 5/2 mu g cos t * t
    assert.near(2.5 * mu * 9.81 * math.cos(theta) * 0.1, spin_speed, { rel = 5e-3 })
  end)

  -- a small version of the gravity deposition of yade.md (scenario A)
  local function deposition(nx, ny, nz, damping, track_energy)
    local D = 0.026
    local w = new_world()
    local LX, LY = nx * D, ny * D
    add_wall(w, { 0, 0, 1 }, { 0, 0, 0 })
    add_wall(w, { 1, 0, 0 }, { 0, 0, 0 })
    add_wall(w, { -1, 0, 0 }, { LX, 0, 0 })
    add_wall(w, { 0, 1, 0 }, { 0, 0, 0 })
    add_wall(w, { 0, -1, 0 }, { 0, LY, 0 })
    local spheres = {}
    for i = 0, nx * ny * nz - 1 do
      local ix, iy, iz = i % nx, (i // nx) % ny, i // (nx * ny)
      local r = 0.008 + 0.004 * ((i * 37) % 101) / 100.0
      local jx = 0.0008 * (((i * 53) % 17) - 8) / 8.0
      local jy = 0.0008 * (((i * 71) % 19) - 9) / 9.0
      spheres[#spheres + 1] = add_sphere(w, r, { (ix + 0.5) * D + jx, (iy + 0.5) * D + jy,
                                                 (iz + 1.0) * D })
    end
    w:set_engines(engines { damping = damping, verlet_distance = -0.5, track_energy = track_energy })
    w.dt = 0.5 * w:p_wave_dt()
    return w, spheres
  end

  it("in a deposition the work of gravity = kinetic + elastic + dissipated energy", function()
    local w = deposition(4, 4, 4, 0.2, true)
    local checked = 0
    w:run { steps = 8000, every = 1000 * w.dt, fn = function()
      local e = w:dem_energy()
      local sum = e.kinetic + e.elastic + e.damping + e.plastic
      if e.gravity_work > 0 then
        assert.near(e.gravity_work, sum, { rel = 0.01 })
        checked = checked + 1
      end
    end }
    local e = w:dem_energy()
    assert.is_true(e.plastic > 0 and e.damping > 0)
    assert.is_true(w:dem_stats().real > 64)
    assert.is_true(checked >= 8)
  end)

  -- The settling of a packing is chaotic: the step at which the ratio first drops below 0.01
  -- depends on the rounding of the force sums (measured 30000 to 70000 steps), and a first drop
  -- is not the end (it can climb back to 0.06 while the packing rearranges, then fall to 1e-12,
  -- where Cundall's damping freezes it). So: run until the ratio has stayed below 0.01 for
  -- 20000 steps (checked every 500), with a generous cap, then check it stays there.
  it("a settled packing's unbalanced-force ratio falls below 0.01 and stays there", function()
    local w = deposition(4, 4, 3, 0.4, true)
    local list = w:engines()
    local below_since, settled_at
    list[#list + 1] = dem.every { iterations = 500, fn = function(s)
      local u = s:unbalanced_force()
      if u == u and u < 0.01 then
        below_since = below_since or s.steps
        if s.steps - below_since >= 20000 then
          settled_at = s.steps
          s:pause()
        end
      else
        below_since = nil
      end
    end }
    w:set_engines(list)
    -- measured: settled (20000 steps below) at 55000 to 98500 steps when one radius is moved
    -- by 1e-15 to 1e-12 m, which changes the rounding as other code orders would
    w:run { steps = 300000 }
    assert.is_not_nil(settled_at)
    assert.equal(settled_at + 1, w.steps)  -- paused after the step it ran in
    local worst = 0
    w:run { steps = 20000, every = 500 * w.dt, fn = function(s)
      worst = math.max(worst, s:unbalanced_force())
    end }
    assert.is_true(worst < 0.01, worst)
    local e = w:dem_energy()
    assert.is_true(e.kinetic < 1e-3 * e.gravity_work)  -- at rest, compared with what it fell
    assert.is_true(w:dem_stats().real > 48)  -- resting on each other and on the walls
  end)
end)

describe("dem strategy: a step that overflows", function()
  -- dt = 1e155 s: one step of free fall takes positions past the largest double (-inf); the
  -- step fails naming the cause, and the bodies keep their last finite state
  for _, custom in ipairs { false, true } do
    it("fails with a clear error and keeps the state" .. (custom and " (engine list)" or ""), function()
      local w = new_world()
      add_wall(w, { 0, 0, 1 })
      local b = add_sphere(w, 0.01, { 0, 0, 0.0099 })
      local c = add_sphere(w, 0.01, { 0, 0, 0.0298 })
      if custom then w:set_engines(engines()) end
      w.dt = 1e155
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      assert.matches("non%-finite", err)
      assert.matches("P%-wave", err)
      if not custom then assert.matches("#2", err) end  -- the first sphere
      assert.same({ 0, 0, 0.0099 }, b.position)
      assert.same({ 0, 0, 0.0298 }, c.position)
    end)
  end
end)

describe("dem engine list and interaction lifecycle", function()
  it("keeps potential interactions while boxes overlap and erases them after", function()
    local w = new_world { 0, 0, 0 }
    local a = add_sphere(w, 0.01, { 0, 0, 0 })
    local b = add_sphere(w, 0.01, { 0.0203, 0, 0 }, { -0.3, 0, 0 })
    w:set_engines(engines { verlet_distance = 0.001 })
    w.dt = 1e-5
    w:step()
    local all = w:interactions { all = true }
    assert.equal(1, #all)
    assert.is_false(all[1].real)
    assert.equal(0, #w:interactions())  -- real ones by default
    local seen_real, seen_potential_after = false, false
    for _ = 1, 3000 do
      w:step()
      local l = w:interactions { all = true }
      if #l == 1 and l[1].real then
        seen_real = true
        assert.equal(a, l[1].body1)
        assert.equal(b, l[1].body2)
        assert.is_true(l[1].overlap >= 0)
      elseif seen_real and #l == 1 then
        seen_potential_after = true
      end
      if seen_real and #l == 0 then break end
    end
    assert.is_true(seen_real and seen_potential_after)
    assert.equal(0, #w:interactions { all = true })
    assert.is_true(b.velocity[1] > 0)
  end)

  it("makes distant interactions with an interaction-radius factor > 1", function()
    local w = new_world { 0, 0, 0 }
    add_sphere(w, 0.01, { 0, 0, 0 })
    add_sphere(w, 0.01, { 0.024, 0, 0 })  -- gap 4 mm < (1.5 - 1) * 0.02
    w:set_engines(engines { radius = 1.5, never_erase = true })
    w.dt = 1e-5
    w:step()
    local l = w:interactions()
    assert.equal(1, #l)
    assert.near(-0.004, l[1].overlap, 1e-12)
    assert.near({ 0, 0, 0 }, l[1].normal_force, 0)
    -- without never_erase the law requests the erase: potential again
    local w2 = new_world { 0, 0, 0 }
    add_sphere(w2, 0.01, { 0, 0, 0 })
    add_sphere(w2, 0.01, { 0.024, 0, 0 })
    w2:set_engines(engines { radius = 1.5 })
    w2.dt = 1e-5
    w2:step()
    assert.equal(0, #w2:interactions())
    assert.equal(1, #w2:interactions { all = true })
  end)

  it("runs Lua engines where they stand and 'every' runners by iterations and time", function()
    local w = new_world()
    local b = add_sphere(w, 0.01, { 0, 0, 1 })
    local seen = {}
    local list = engines { damping = 0 }
    table.insert(list, 1, function(s) seen[#seen + 1] = { s.steps, b.position[3] } end)
    list[#list + 1] = dem.every { iterations = 3, fn = function(s) seen.every = (seen.every or 0) + 1
                                                                    seen.last = s.steps end }
    list[#list + 1] = dem.every { time = 0.0025, fn = function() seen.timed = (seen.timed or 0) + 1 end }
    w:set_engines(list)
    w.dt = 1e-3
    w:step(10)
    assert.equal(10, #seen)
    assert.equal(0, seen[1][1])
    assert.equal(1, seen[1][2])          -- placed first: the state before the step
    assert.equal(3, seen.every)          -- at iterations 3, 6, 9
    assert.equal(9, seen.last)
    assert.equal(3, seen.timed)          -- time from 0 to 0.009 at step starts
    w:engine("newton").dead = true       -- engines are data
    local z = b.position[3]
    w:step(2)
    assert.equal(z, b.position[3])
  end)

  it("keeps the world's bodies consistent both ways", function()
    local w = new_world()
    local b = add_sphere(w, 0.01, { 0, 0, 1 })
    w:set_engines(engines())
    w.dt = 1e-3
    w:step(10)
    b.position = { 0, 0, 2 }
    b.velocity = { 0, 0, 0 }
    w:step(1)
    assert.near(2 - 9.81 * 1e-6, b.position[3], 1e-12)
    -- an edit of the spin and orientation alone (reading in between edits nothing): one step
    -- turns the given orientation by w dt about z
    local spin = b.angular_velocity
    assert.near({ 0, 0, 0 }, spin, 0)
    b.orientation = { 0, 1, 0, 0 }  -- a half turn about x
    b.angular_velocity = { 0, 0, 3 }
    w:step(1)
    local h = 0.5 * 3 * 1e-3  -- q' = (cos h, 0, 0, sin h) * (0, 1, 0, 0)
    assert.near({ 0, math.cos(h), math.sin(h), 0 }, b.orientation, 1e-15)
    -- the default list in C agrees with the same list in Lua
    local w1, w2 = new_world(), new_world()
    for _, s in ipairs { w1, w2 } do
      add_wall(s, { 0, 0, 1 })
      add_sphere(s, 0.01, { 0, 0, 0.02 }, { 0.1, 0, -0.5 })
      add_sphere(s, 0.01, { 0.005, 0.001, 0.045 })
      s.dt = 5e-5
    end
    w2:set_engines(dem.default_engines())
    w1:step(3000)
    w2:step(3000)
    assert.equal(w1:state_hash(), w2:state_hash())
  end)

  it("sees spheres and walls moved between steps at once (the collider skips only idle steps)",
     function()
    -- two resting spheres far apart (the collider then finds nothing to do), one moved onto
    -- the other: the next step has their contact and pushes them apart
    local w = new_world { 0, 0, 0 }
    local b1 = add_sphere(w, 0.01, { 0, 0, 0 })
    local b2 = add_sphere(w, 0.01, { 0.1, 0, 0 })
    w:set_engines(engines())
    w.dt = 1e-5
    w:step(20)
    local idle = w:dem_stats().collider_runs
    w:step(20)
    assert.equal(idle, w:dem_stats().collider_runs)  -- nothing moved: no sweep
    b2.position = { 0.019, 0, 0 }  -- 1 mm overlap
    w:step(1)
    assert.equal(1, w:dem_stats().real)
    assert.is_true(b2.velocity[1] > 0 and b1.velocity[1] < 0)
    -- a wall moved under a resting sphere: the sphere feels it in the next step
    local w2 = new_world { 0, 0, 0 }
    local wall = add_wall(w2, { 0, 0, 1 }, { 0, 0, -1 })
    local s = add_sphere(w2, 0.01, { 0, 0, 0 })
    w2:set_engines(engines())
    w2.dt = 1e-5
    w2:step(40)
    wall.position = { 0, 0, -0.0095 }  -- 0.5 mm overlap
    w2:step(1)
    assert.equal(1, w2:dem_stats().real)
    assert.is_true(s.velocity[3] > 0)
  end)

  it("keeps contacts and their history when another body is removed", function()
    local w = new_world()
    add_wall(w, { 0, 0, 1 })
    local gone = add_sphere(w, 0.01, { 0.5, 0, 0.01 })
    local b = add_sphere(w, 0.01, { 0, 0, 0.01 }, { 0.05, 0, 0 })
    w:set_engines(engines { damping = 0 })
    w.dt = 1e-5
    w:step(200)
    local before = w:interactions()
    assert.equal(2, #before)
    w:remove_body(gone)
    w:step()
    local after = w:interactions()
    assert.equal(1, #after)
    assert.equal(b, after[1].body2)
    assert.is_true(after[1].created < w.steps - 1)  -- the same contact, not a new one
  end)

  it("a sphere on an inclined wall rolls down it at 5/7 g sin t", function()
    local theta, g = 0.3, 9.81
    local w = new_world { 0, 0, -g }
    local n = { -math.sin(theta), 0, math.cos(theta) }  -- the slope goes down towards -x
    add_wall(w, n, { 0, 0, 0 })
    local R = 0.01
    local rest = sphere_mass(R) * g * math.cos(theta) / (E * R)
    local c0 = { n[1] * (R - rest), 0, n[3] * (R - rest) }
    local b = add_sphere(w, R, c0)
    w:set_engines(engines())
    w.dt = 0.05 * w:p_wave_dt()
    w:run { until_time = 0.05 }
    -- displacement along the tangent (cos t, 0, sin t), which points uphill
    local along = (b.position[1] - c0[1]) * math.cos(theta) + (b.position[3] - c0[3]) * math.sin(theta)
    assert.near(5 / 7 * g * math.sin(theta) * 0.5 * w.time ^ 2, -along, { rel = 5e-3 })
  end)

  it("runs the deposition example (yade.md scenario A, 4x4x4 spheres)", function()
    local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
    local p = assert(io.popen(env .. " lua5.4 examples/dem_deposition.lua 4x4x4 1000 0.2 2>&1"))
    local out = p:read("a")
    assert.is_true(p:close(), out)
    local z, z_th = out:match("free fall: mean z ([%d.]+), leapfrog closed form ([%d.]+)")
    assert.near(tonumber(z_th), tonumber(z), 1e-10)
    assert.matches("final: step 1000", out)
  end)

  it("pushes concentric spheres apart without NaN", function()
    local w = new_world { 0, 0, 0 }
    local a = add_sphere(w, 0.01, { 0, 0, 0 })
    local b = add_sphere(w, 0.01, { 0, 0, 0 })
    w:set_engines(engines())
    w.dt = 0.05 * w:p_wave_dt()
    w:step(2000)
    assert.is_true(b.position[3] - a.position[3] > 0.02)  -- along z, the fallback normal
    assert.near(0, a.position[3] + b.position[3], 1e-12)   -- momentum conserved
  end)

  it("rejects what it cannot do with clear errors", function()
    local w = new_world()
    w:add_body { shape = impact.shape3d.box { size = { 1, 1, 1 } }, density = 1 }
    assert.has_error(function() w:step() end)
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("only spheres, walls and facets", err)
    assert.matches("impact.dem.newton: option 'damping' must be a finite number in %[0, 1%)",
      select(2, pcall(dem.newton, { damping = 2 })))
    assert.matches("unknown option \"verlet\"", select(2, pcall(dem.collider, { verlet = 1 })))
    assert.matches("unknown functor \"box_sphere\"",
      select(2, pcall(dem.interaction_loop, { geometry = { "box_sphere" } })))
    assert.matches("needs the \"mindlin\" physics",
      select(2, pcall(dem.interaction_loop, { law = { "hertz_mindlin" }, physics = { "frict" } })))
    local w2 = impact.world3d {}
    assert.matches("not \"dem\"", select(2, pcall(w2.set_engines, w2, {})))
    -- a 2D dem world is refused when it is made (issue #17), no longer at its first step
    assert.matches("strategy \"dem\" is for 3D worlds",
      select(2, pcall(impact.world2d, { strategy = "dem" })))
  end)
end)

describe("impact.batch", function()
  it("runs a script over parameter sets in parallel and reports a failing job", function()
    local dir = os.tmpname()
    os.remove(dir)
    local jobs = impact.batch { script = "spec/data/batch_job.lua", jobs = 2, dir = dir,
      params = { { steps = 10, tag = "a" }, { fail = true }, { steps = 20, tag = "b" } } }
    assert.equal(3, #jobs)
    for _, i in ipairs { 1, 3 } do
      local j = jobs[i]
      assert.is_true(j.ok, j.error)
      local n = j.params.steps
      -- undamped leapfrog free fall: z = 1 - g dt^2 n (n + 1) / 2
      assert.near(1 - 9.81 * 1e-6 * n * (n + 1) / 2, j.result.z, 1e-12)
      assert.equal(n, j.result.steps)
      assert.equal(j.params.tag, j.result.tag)
    end
    assert.is_false(jobs[2].ok)
    assert.is_true(jobs[2].exit_code ~= 0)
    assert.matches("job failed on purpose", jobs[2].error)
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("checks its options", function()
    assert.matches("option 'script' must name a readable file",
      select(2, pcall(impact.batch, { script = "nope.lua", params = { {} } })))
    assert.matches("unknown option \"job\"",
      select(2, pcall(impact.batch, { script = "spec/data/batch_job.lua", params = { {} }, job = 2 })))
    assert.same({}, impact.batch.params())
  end)
end)

describe("dem save and load", function()
  local function scene()
    local D = 0.026
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
    for _, wall in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } },
                            { { -1, 0, 0 }, { 3 * D, 0, 0 } }, { { 0, 1, 0 }, { 0, 0, 0 } },
                            { { 0, -1, 0 }, { 0, 3 * D, 0 } } } do
      w:add_body { shape = impact.shape3d.wall { normal = wall[1] }, fixed = true, position = wall[2] }
    end
    dem.add_facet(w, { vertices = { { 0, 0, 0.05 }, { 0.03, 0, 0.05 }, { 0, 0.03, 0.05 } } })
    for i = 0, 26 do
      local r = 0.008 + 0.004 * ((i * 37) % 101) / 100.0
      w:add_body { shape = impact.shape3d.sphere { radius = r }, density = 2600, name = "s" .. i,
        position = { (i % 3 + 0.5) * D, ((i // 3) % 3 + 0.5) * D, (i // 9 + 1) * D } }
    end
    return w
  end

  it("continues bit-identically after save and load", function()
    local w = scene()
    local calls = 0
    w:set_engines { dem.force_resetter(), dem.collider {},
      dem.interaction_loop { physics = { dem.frict { young = 1e7 } } },
      dem.newton { damping = 0.2, track_energy = true, label = "newton" },
      dem.every { iterations = 100, label = "counter", fn = function() calls = calls + 1 end } }
    w.dt = 0.5 * w:p_wave_dt()
    w:step(3000)
    local path = os.tmpname()
    dem.save(w, path)
    local loaded_calls = 0
    local w2 = dem.load(path, { functions = { counter = function() loaded_calls = loaded_calls + 1 end } })
    os.remove(path)
    assert.equal(w:state_hash(), w2:state_hash())
    assert.equal(0.2, w2:engine("newton").damping)
    assert.equal("s5", w2:body("s5").name)
    w:step(3000)
    w2:step(3000)
    assert.equal(w:state_hash(), w2:state_hash())
    assert.equal(30, loaded_calls)
    assert.same(w:dem_energy(), w2:dem_energy())
    assert.is_true(#w2:interactions() > 20)
  end)

  it("says what is missing", function()
    local w = scene()
    w:set_engines { dem.force_resetter(), function() end }
    assert.matches("has no label", select(2, pcall(dem.save, w, os.tmpname())))
    w:set_engines { dem.force_resetter(), dem.lua_engine { label = "probe", fn = function() end } }
    local path = os.tmpname()
    dem.save(w, path)
    assert.matches("needs its function: opts.functions%[\"probe\"%]", select(2, pcall(dem.load, path)))
    os.remove(path)
    assert.matches("not a saved dem scene", select(2, pcall(dem.load, "spec/data/batch_job.lua")))
  end)
end)

describe("recording a dem world", function()
  it("impact.recorder samples it like any world; rec:sample() from an engine adds rows", function()
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
    local b = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                           position = { 0, 0, 1 } }
    w:set_engines(dem.default_engines { damping = 0 })
    w.dt = 1e-3
    local rec = impact.recorder { w, every = 0.01,
                                  columns = { { "t", "time" }, { "z", { b, "position", 3 } } } }
    local extra = impact.recorder { w, every = 1e9, columns = { { "iter", "steps" } } }
    local list = w:engines()
    list[#list + 1] = dem.every { iterations = 25, fn = function() extra:sample() end }
    w:set_engines(list)
    w:run { steps = 100 }
    assert.equal(11, rec:count())  -- t = 0, 0.01, ..., 0.1
    local z = rec:series("z")
    local n = 100
    assert.near(1 - 9.81 * 1e-6 * n * (n + 1) / 2, z[#z], 1e-12)
    assert.same({ 0, 25, 50, 75 }, extra:series("iter"))  -- the runner sees iterations 25..75
    local path = os.tmpname()
    rec:write_csv(path)
    local f = assert(io.open(path))
    assert.equal("t,z", f:read("l"))
    f:close()
    os.remove(path)
  end)
end)
