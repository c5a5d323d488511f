-- Soak runs (#slow: `make check-all`, or busted -r all): 10^6 steps of a small conservative
-- scene for each strategy, checking at every checkpoint (each 1000 steps) that no number of the
-- state is NaN or infinite and that the energy keeps within a bound stated from theory, and
-- that the memory (process RSS and peak, Lua heap) stays flat after a warm-up of 10^5 steps:
-- growth below 1 MiB and below 1 % of its value per 10^5 steps.
-- IMPACT_SOAK_STEPS=n runs n steps instead (see spec/support/soak.lua).
local impact = require("impact")
local shape2d, shape3d, dem = impact.shape2d, impact.shape3d, impact.dem
local soak = require("spec.support.soak")

local STEPS = soak.steps()

-- the memory after the warm-up: flat within 1 MiB and 1 % per 10^5 steps
local function assert_memory_flat(name, report)
  print(soak.describe(name, report))
  local growth = soak.growth(report)
  for _, k in ipairs { "rss", "hwm", "lua" } do
    local g = growth[k]
    if g and not (soak.sanitized() and k ~= "lua") then
      assert.is_true(g.kib < 1024, string.format("%s: %s grew by %.0f KiB after the warm-up (from %.0f KiB)",
        name, k, g.kib, g.base))
      assert.is_true(g.rate < 0.01, string.format("%s: %s grew by %.3g %% per 10^5 steps after the warm-up",
        name, k, 100 * g.rate))
    end
  end
end

-- worst |f(w)| over the checkpoints, with the step where it was largest
local function tracker(f)
  local t = { worst = 0, at = 0 }
  function t.check(w, n)
    local v = f(w, n)
    -- written so that a NaN counts as the worst
    if not (math.abs(v) <= t.worst) then t.worst, t.at = math.abs(v), n end  -- luacheck: ignore 581
  end
  return t
end

-- |R(i theta)|^2 for RK4's stability polynomial R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24: on a
-- linear oscillator RK4 multiplies the oscillation's energy by exactly this each step
local function rk4_energy_factor(theta)
  local t2 = theta * theta
  local re, im = 1 - t2 / 2 + t2 * t2 / 24, theta - theta * t2 / 6
  return re * re + im * im
end

describe("soak #slow", function()
  -- strategy "none", RK4: two bodies joined by an undamped spring moving along its line. The
  -- relative motion is a linear oscillator, omega^2 = k (1/m1 + 1/m2), and RK4 is a linear map
  -- whose matrix is |R(i omega h)| times a rotation in the energy norm, so after n steps the
  -- oscillation's energy is exactly E0 |R(i omega h)|^(2n) = E0 (1 - theta^6/72 + theta^8/576)^n,
  -- theta = omega h (RK4's h^4 global error shows as this h^5-per-step decay, no other drift):
  -- here theta = 0.1, a loss of 1.4 % over 10^6 steps. Checked within 1e-9 of E0 (rounding).
  -- The centre of mass is at rest; in 3D the spheres also spin, torque-free, at constant rate.
  local function spring_pair(dim)
    local k, m, h, L = 50, 1, 0.01, 1
    local u = dim == 2 and { 1, 0 } or { 1 / 3, 2 / 3, 2 / 3 }
    local function vec(s) return dim == 2 and { s * u[1], s * u[2] } or { s * u[1], s * u[2], s * u[3] } end
    local w, a, b
    if dim == 2 then
      w = impact.world2d { strategy = "none", dt = h, gravity = { 0, 0 }, integrator = "rk4" }
      local ball = shape2d.ball { radius = 0.1 }
      a = w:add_body { shape = ball, mass = m, position = vec(-L / 2 - 0.1), velocity = vec(-1) }
      b = w:add_body { shape = ball, mass = m, position = vec(L / 2 + 0.1), velocity = vec(1) }
    else
      w = impact.world3d { strategy = "none", dt = h, gravity = { 0, 0, 0 }, integrator = "rk4" }
      local ball = shape3d.sphere { radius = 0.1 }
      a = w:add_body { shape = ball, mass = m, position = vec(-L / 2 - 0.1), velocity = vec(-1),
                       angular_velocity = { 1, 2, 3 } }
      b = w:add_body { shape = ball, mass = m, position = vec(L / 2 + 0.1), velocity = vec(1),
                       angular_velocity = { -2, 0.5, 1 } }
    end
    w:add_spring { body1 = a, point1 = vec(0), body2 = b, point2 = vec(0), rest_length = L, stiffness = k }
    local theta = math.sqrt(k * (1 / m + 1 / m)) * h
    local e = w:energy()
    local e_spin = e.rotational
    local e_osc = e.total - e_spin
    local factor = rk4_energy_factor(theta)
    local err = tracker(function(ww, n)
      return (ww:energy().total - (e_spin + e_osc * factor ^ n)) / e.total
    end)
    local report = soak.run(w, { check = err.check })
    -- the loss itself is RK4's: 1 - factor^(10^6) = 1.38 %
    assert.near(e_spin + e_osc * factor ^ STEPS, w:energy().total, { rel = 1e-9 })
    assert.is_true(err.worst < 1e-9, string.format("energy off RK4's exact decay by %.3g at step %d",
      err.worst, err.at))
    assert.near({ 0, 0, 0 }, dim == 2 and { w:momentum()[1], w:momentum()[2], 0 } or w:momentum(), 1e-9)
    assert_memory_flat("none " .. dim .. "D", report)
  end

  it("2D none: an RK4 spring pair loses exactly RK4's energy factor", function()
    spring_pair(2)
  end)

  it("3D none: an RK4 spring pair of spinning spheres loses exactly RK4's energy factor", function()
    spring_pair(3)
  end)

  -- the 2D engine's box: four fixed walls (elasticity 1, no friction) around [-L/2, L/2]^2
  local function box2d(w, L)
    local t = 1
    local function wall(x, y, wd, ht)
      w:add_body { shape = shape2d.block { width = wd, height = ht }, position = { x, y },
                   fixed = true, elasticity = 1, friction = 0 }
    end
    wall(0, -L / 2 - t / 2, L + 2 * t, t)
    wall(0, L / 2 + t / 2, L + 2 * t, t)
    wall(-L / 2 - t / 2, 0, t, L)
    wall(L / 2 + t / 2, 0, t, L)
  end

  -- strategy "impulse", hybrid handling: three balls of masses 1, 2, 3 (elasticity 1, no
  -- friction) in a box of fixed walls, no gravity. Between collisions the motion is uniform,
  -- which RK4 integrates exactly; a frictionless impulse with e = 1 along the normal conserves
  -- kinetic energy exactly (two bodies: the relative normal velocity is reversed; several at
  -- once under hybrid handling: each pairwise elastic impulse conserves it). So the energy
  -- changes by rounding only: about 1e-16 per collision, thousands of collisions: bound 1e-10
  -- of the energy. Momentum is not conserved (the walls), but the walls keep the balls in.
  it("2D impulse: elastic balls in a box keep their energy to rounding", function()
    local L = 4
    local w = impact.world2d { strategy = "impulse", dt = 0.01, gravity = { 0, 0 },
                               collision_handling = "hybrid", seed = 3 }
    box2d(w, L)
    local vs = { { 1.3, 0.7 }, { -0.9, 1.1 }, { 0.4, -1.5 } }
    local balls = {}
    for i = 1, 3 do
      balls[i] = w:add_body { shape = shape2d.ball { radius = 0.3 }, mass = i,
                              position = { -1.2 + 1.2 * (i - 1), 0.3 * i - 0.6 }, velocity = vs[i],
                              elasticity = 1, friction = 0 }
    end
    local e0 = w:energy().total
    local err = tracker(function(ww) return (ww:energy().total - e0) / e0 end)
    local report = soak.run(w, { check = function(ww, n)
      err.check(ww, n)
      for i, b in ipairs(balls) do
        local x, y = b.position[1], b.position[2]
        assert(math.abs(x) < L / 2 and math.abs(y) < L / 2,
          string.format("ball %d left the box after %d steps: (%g, %g)", i, n, x, y))
      end
    end })
    assert.is_true(err.worst < 1e-10, string.format("energy drifted by %.3g at step %d", err.worst, err.at))
    local s = w:stats()
    assert.is_true(s.collisions > STEPS / 100, "collisions: " .. s.collisions)
    assert.equal(0, s.lcp_failures)
    print(string.format("impulse: %d collisions, energy within %.3g", s.collisions, err.worst))
    assert_memory_flat("impulse 2D", report)
  end)

  -- strategy "contact", hybrid handling, gravity: a ball (elasticity 1) bouncing on the floor
  -- of the box and a block resting on it, held by the LCP's contact force at every evaluation.
  -- The ball's flight is a parabola, which RK4 integrates exactly; it meets the floor at
  -- sqrt(2 g h) = 6 m/s, far above velocity_tol (0.5 m/s), so each impact is an elastic
  -- collision whose impulse reverses the normal velocity exactly; the block does not move.
  -- So the energy changes by rounding only: bound 1e-10 of the energy (measured from the floor).
  -- (A ball approaching a wall slower than velocity_tol is a contact, not a collision, and loses
  -- its approach speed: that is the model, so the scene keeps every approach fast.)
  it("2D contact: a ball bouncing elastically beside a resting block keeps its energy", function()
    local L = 4
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 },
                               collision_handling = "hybrid", seed = 3 }
    box2d(w, L)
    local floor = -L / 2
    local ball = w:add_body { shape = shape2d.ball { radius = 0.3 }, mass = 1,
                              position = { -1, floor + 0.3 + 1.8 }, elasticity = 1, friction = 0 }
    -- resting at the half gap (distance_tol / 2 = 0.005) on the floor
    local block = w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = 2,
                               position = { 1, floor + 0.25 + 0.005 }, elasticity = 1, friction = 0 }
    local function energy(ww)  -- measured from the floor, so it is the scene's scale
      return ww:energy().total - (ball.mass + block.mass) * 10 * floor
    end
    local e0 = energy(w)
    local err = tracker(function(ww) return (energy(ww) - e0) / e0 end)
    local report = soak.run(w, { check = err.check })
    assert.is_true(err.worst < 1e-10, string.format("energy drifted by %.3g at step %d", err.worst, err.at))
    assert.near({ 1, floor + 0.255 }, block.position, 1e-6)
    assert.near(-1, ball.position[1], 1e-9)
    local s = w:stats()
    assert.is_true(s.collisions > STEPS / 200, "collisions: " .. s.collisions)
    assert.is_true(s.lcp_solves > STEPS, "lcp solves: " .. s.lcp_solves)
    assert.equal(0, s.lcp_failures)
    print(string.format("contact: %d collisions, %d LCP solves, energy within %.3g", s.collisions,
      s.lcp_solves, err.worst))
    assert_memory_flat("contact 2D", report)
  end)

  -- strategy "compliant": a ball dropped on a plate, both of a steel whose pair has cor = 1 and
  -- no friction or rolling resistance. The law is then exactly conservative: cor_reg = 1 +
  -- (cor_min - 1) 0.01^(|v|/vsmall) is 1 in double precision for impact speeds above 162 vsmall
  -- (here 2 m/s against vsmall = 1e-3), so the calibrated damping d is 0 and the force is the
  -- Hertz spring c_res c_geo delta^1.5, of energy c_res c_geo delta^2.5 / 2.5 (added below while
  -- in contact). The energy changes only by the integrator's errors: in flight the motion is a
  -- parabola, which rk8pd integrates exactly; during contacts GSL's control keeps each accepted
  -- substep's error below rtol |y| + atol in each component, which moves the energy (quadratic
  -- in the velocity, linear in the height) by at most about 2 rtol of its scale. Bound: 2 rtol E0
  -- times the substeps beyond one per step plus the event location's re-integration steps.
  impact.material.define("soak_steel", { E = 2.0e11, nu = 0.3, density = 7800 })
  impact.contact_pair.define("soak_steel", "soak_steel", { cor = 1, mu_k = 0, mu_r = 0, vsmall = 1e-3 })

  local function compliant_bounce(dim)
    local g, r, h = 9.81, 0.05, 0.2
    local rtol = 1e-8
    local opts = { strategy = "compliant", dt = 0.001,
                   integrator = { method = "rk8pd", rtol = rtol, atol = 1e-10 } }
    local w, ball, up
    if dim == 2 then
      opts.gravity = { 0, -g }
      w = impact.world2d(opts)
      w:add_body { shape = shape2d.block { width = 4, height = 0.2 }, fixed = true,
                   material = "soak_steel", position = { 0, -0.1 } }
      ball = w:add_body { shape = shape2d.ball { radius = r }, mass = 2, material = "soak_steel",
                          position = { 0, r + h } }
      up = 2
    else
      opts.gravity = { 0, 0, -g }
      w = impact.world3d(opts)
      w:add_body { shape = shape3d.box { size = { 4, 4, 0.2 } }, fixed = true,
                   material = "soak_steel", position = { 0, 0, -0.1 } }
      ball = w:add_body { shape = shape3d.sphere { radius = r }, material = "soak_steel",
                          position = { 0, 0, r + h } }
      up = 3
    end
    -- Hertz: c_res = 1 / (2 (1 - nu^2) / E), c_geo = 4/3 sqrt(r) (sphere or disc on a flat)
    local k = 1 / (2 * (1 - 0.3 * 0.3) / 2.0e11) * 4 / 3 * math.sqrt(r)
    local function energy(ww)
      local e = ww:energy().total
      for _, c in ipairs(ww:contacts()) do
        local delta = math.max(0, -c.distance)
        e = e + k * delta ^ 2.5 / 2.5
      end
      return e
    end
    local e0 = energy(w)  -- m g (r + h): measured from the plate's top
    local err = tracker(function(ww) return (energy(ww) - e0) / e0 end)
    local report = soak.run(w, { check = err.check })
    local s = w:stats()
    local extra = s.substeps - s.steps + s.location_steps
    local bound = 2 * rtol * extra + 1e-10
    print(string.format("compliant %dD: %d contacts, %d substeps, %d location steps; energy within "
      .. "%.3g (bound %.3g)", dim, s.contacts_begun, s.substeps, s.location_steps, err.worst, bound))
    assert.is_true(err.worst < bound, string.format("energy drifted by %.3g at step %d (bound %.3g)",
      err.worst, err.at, bound))
    assert.is_true(s.contacts_begun > STEPS * 0.001 / 0.5, "contacts: " .. s.contacts_begun)
    assert.equal(0, s.failures)
    -- still bouncing to its height: the apex energy is potential
    assert.is_true(ball.position[up] < r + h + 1e-3)
    assert_memory_flat("compliant " .. dim .. "D", report)
  end

  it("2D compliant: a disc bouncing on a plate with a conservative Hertz law", function()
    compliant_bounce(2)
  end)

  it("3D compliant: a sphere bouncing on a plate with a conservative Hertz law", function()
    compliant_bounce(3)
  end)

  -- strategy "dem": five spheres in a closed box of six walls under gravity, frictionless
  -- (friction angle 0, so no torque either), undamped (damping 0), the linear law kn = E r
  -- (Cundall-Strack): a conservative system. The energy books (track_energy) hold B = kinetic
  -- (velocities of the half step) + the springs moved to the half step, 1/2 kn x_n^2 - F.v h/2,
  -- minus gravity's work; per unit mass and contact that is B = 1/2 v_{n+1/2}^2 +
  -- 1/2 w^2 x_n x_{n+1} + g z: the leapfrog's exactly conserved modified energy (w^2 = kn/m_eff),
  -- so a step changes B only by rounding, except where a contact closes (x_n <= 0 < x_{n+1}: B
  -- changes by 1/2 kn x_n x_{n+1}) or opens (by -1/2 kn x_n x_{n+1}) within it, each at most
  -- 1/8 kn (x_{n+1} - x_n)^2 = (w h)^2/4 1/2 m_eff v_n^2 <= (w h)^2/4 KE, w^2 <= 2 E r / m (two
  -- spheres). Checked after every step: |change of B| <= 2 (w h)^2/4 max(KE before, after) (two
  -- events in one step) + 1e-12 of the scale. Those errors have random signs (the phase of the
  -- crossing within the step), so the gap wanders without a drift; its largest value is printed.
  it("3D dem: undamped frictionless spheres in a box, the energy books close", function()
    local L, r, rho, E = 0.1, 0.01, 2600, 1e7
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
    for _, p in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 0, 0, -1 }, { 0, 0, L } },
                         { { 1, 0, 0 }, { 0, 0, 0 } }, { { -1, 0, 0 }, { L, 0, 0 } },
                         { { 0, 1, 0 }, { 0, 0, 0 } }, { { 0, -1, 0 }, { 0, L, 0 } } } do
      w:add_body { shape = shape3d.wall { normal = p[1] }, fixed = true, position = p[2] }
    end
    local start = { { 0.03, 0.03, 0.03 }, { 0.07, 0.03, 0.05 }, { 0.03, 0.07, 0.07 },
                    { 0.07, 0.07, 0.04 }, { 0.05, 0.05, 0.08 } }
    local vs = { { 0.3, 0.1, -0.2 }, { -0.2, 0.25, 0.1 }, { 0.1, -0.3, 0.2 }, { -0.15, -0.1, -0.3 },
                 { 0.05, 0.2, 0.1 } }
    local spheres = {}
    for i = 1, 5 do
      spheres[i] = w:add_body { shape = shape3d.sphere { radius = r }, density = rho,
                                position = start[i], velocity = vs[i] }
    end
    w:set_engines {
      dem.force_resetter(),
      dem.collider { verlet_distance = -0.1 },
      dem.interaction_loop { physics = { dem.frict { young = E, ks_ratio = 0.3, friction_angle = 0 } },
                             law = { "cundall_strack" } },
      dem.newton { damping = 0, track_energy = true },
    }
    w.dt = 0.25 * w:p_wave_dt()
    local m = spheres[1].mass
    local wh2 = 2 * E * r / m * w.dt * w.dt  -- (w h)^2 = 0.03
    local function books(ww)
      local e = ww:dem_energy()
      return e.kinetic + e.elastic + e.damping + e.plastic + e.viscous - e.gravity_work, e.kinetic
    end
    local b0, ke0 = books(w)
    local scale = ke0  -- the kinetic energy plus gravity's work down to the floor
    for i = 1, 5 do scale = scale + m * 9.81 * (start[i][3] - r) end
    local done, worst_step, worst_at, gap = 0, 0, 0, 0
    local b_prev, ke_prev = b0, ke0
    local report = soak.run(w, {
      each_step = function(ww)
        done = done + 1
        local b, ke = books(ww)
        local ratio = math.abs(b - b_prev) / (2 * wh2 / 4 * math.max(ke, ke_prev) + 1e-12 * scale)
        if not (ratio <= worst_step) then worst_step, worst_at = ratio, done end  -- luacheck: ignore 581
        gap = math.max(gap, math.abs(b - b0) / scale)
        b_prev, ke_prev = b, ke
      end })
    local e = w:dem_energy()
    assert.equal(0, e.damping)
    assert.equal(0, e.plastic)
    print(string.format("dem: (w h)^2 = %.3g; a step's change of the books at most %.3g of its bound "
      .. "(step %d); the books' gap at most %.3g %% of their scale %.3g J", wh2, worst_step, worst_at,
      100 * gap, scale))
    assert.is_true(worst_step <= 1, string.format("the books changed by %.3g times the bound at step %d",
      worst_step, worst_at))
    for i, b in ipairs(spheres) do
      for j = 1, 3 do
        local x = b.position[j]
        assert(x > 0 and x < L, string.format("sphere %d left the box: %s = %g", i, ("xyz"):sub(j, j), x))
      end
    end
    assert_memory_flat("dem 3D", report)
  end)
end)
