-- Cohesive bonds that break (Yade's CohFrictMat / CohFrictPhys) and twisting resistance against
-- closed forms: a bonded pair pulled apart holds below its normal adhesion and separates above
-- it, a bonded pair sheared holds below its shear adhesion, a bonded chain clamped at one end
-- deflects as its joint springs say, a sphere spinning about the normal of its contact stops at
-- the rate the twisting limit eta_t r fn gives, and the AVX2 and portable paths agree bit for bit.
local impact = require("impact")
local dem = impact.dem

local E, r, rho = 1e7, 0.01, 2600
local mass = rho * 4 / 3 * math.pi * r ^ 3
local inertia = 0.4 * mass * r * r
local kn = E * r  -- 2 E r E r / (E r + E r) for equal spheres

local function world(g)
  return impact.world3d { strategy = "dem", gravity = g or { 0, 0, 0 } }
end

local function sphere(w, p, fixed)
  return w:add_body { shape = impact.shape3d.sphere { radius = r }, density = rho, position = p,
                      fixed = fixed }
end

local function engines(w, phys, damping, f)
  w.engines = { dem.force_resetter(), dem.collider { interaction_radius = f },
                dem.interaction_loop { physics = { phys }, interaction_radius = f },
                dem.newton { damping = damping or 0 } }
  w.dt = 0.2 * w:p_wave_dt()
end

describe("dem cohesive bonds", function()
  -- a fixed sphere and a free one in contact along z, bonded; the free one pulled along +z by
  -- a gravity g (force m g): it holds while m g < normal adhesion = cn pi r^2 (the bond's
  -- tension kn |un| balances m g at un = -m g / kn), and separates when m g exceeds it
  local function pull(g, cn)
    local w = world { 0, 0, g }
    sphere(w, { 0, 0, 0 }, true)
    local b = sphere(w, { 0, 0, 2 * r }, false)
    engines(w, dem.frict { young = E, cohesion = { normal = cn, shear = cn },
                           set_cohesion_now = true }, 0.3)
    w:run { steps = 1 }
    assert.are.equal(1, w:bond_count())
    w:run { steps = 3000 }
    return w, b
  end

  it("holds a tension below the normal adhesion and separates above it", function()
    local adhesion = 200 * math.pi * r * r  -- cn = 200 Pa: 0.0628 N
    -- 0.4 of it: the load comes at once, so the first stretch overshoots the static one
    -- (below twice it, the undamped bound)
    local g_below = 0.4 * adhesion / mass
    local w, b = pull(g_below, 200)
    assert.are.equal(1, w:bond_count())
    -- the gap of the force balance kn |un| = m g (to 1 %)
    local gap = b.position[3] - 2 * r
    assert.is_true(math.abs(gap - mass * g_below / kn) < 0.01 * mass * g_below / kn)
    local f = w:force_on(b)
    assert.is_true(math.abs(f[3] + mass * g_below) < 0.01 * mass * g_below)
    local w2, b2 = pull(1.2 * adhesion / mass, 200)
    assert.are.equal(0, w2:bond_count())
    assert.is_true(b2.position[3] > 2 * r + 10 * adhesion / kn)  -- gone
  end)

  it("holds a shear below the shear adhesion plus friction and slides above it", function()
    -- the free sphere beside the fixed one along z, pulled along x: no normal force, the shear
    -- limit is the shear adhesion alone
    local function shear(g)
      local w = world { g, 0, 0 }
      sphere(w, { 0, 0, 0 }, true)
      local b = sphere(w, { 0, 0, 2 * r }, false)
      engines(w, dem.frict { young = E, cohesion = { normal = 1e6, shear = 100 },
                             set_cohesion_now = true }, 0.3)
      w:run { steps = 3000 }
      return w, b
    end
    local limit = 100 * math.pi * r * r
    local w = shear(0.4 * limit / mass)  -- below half: the sudden load's overshoot
    assert.are.equal(1, w:bond_count())
    local w2 = shear(1.3 * limit / mass)
    assert.are.equal(0, w2:bond_count())
  end)

  it("a bonded chain clamped at one end deflects as its joint springs give", function()
    -- n spheres along x, the first fixed, gravity g along -z. Each joint j (between spheres j
    -- and j + 1, contact point c_j) carries the shear V_j = (spheres beyond it) m g and the
    -- moment M_j = sum over spheres k beyond it of m g (x_k - c_j); the joint turns by
    -- M_j / kr (kr = 2 ks r^2) and shears by V_j / ks, so the tip sinks by
    -- sum_j (M_j / kr) (x_tip - c_j) + V_j / ks (small deflections).
    local n, g = 5, 0.5
    local w = world { 0, 0, -g }
    local bodies = {}
    for i = 1, n do bodies[i] = sphere(w, { 2 * r * (i - 1), 0, 0 }, i == 1) end
    local ks_ratio = 0.5
    engines(w, dem.frict { young = E, ks_ratio = ks_ratio, cohesion = { normal = 1e9, shear = 1e9 },
                           set_cohesion_now = true }, 0.5, 1.01)  -- spheres touching within rounding
    w:run { steps = 20000 }
    assert.are.equal(n - 1, w:bond_count())
    local ks = ks_ratio * kn
    local kr = 2 * ks * r * r
    local x_tip = 2 * r * (n - 1)
    local expected = 0
    for j = 1, n - 1 do
      local c = 2 * r * (j - 1) + r
      local V, M = 0, 0
      for k = j + 1, n do
        V = V + mass * g
        M = M + mass * g * (2 * r * (k - 1) - c)
      end
      expected = expected + M / kr * (x_tip - c) + V / ks
    end
    local sink = -bodies[n].position[3]
    assert.is_true(expected > 1e-4 * r and expected < 0.05 * r)  -- small, as assumed
    assert.is_true(math.abs(sink - expected) < 0.03 * expected,
      string.format("tip deflection %g, joint springs give %g", sink, expected))
  end)

  it("w:bond_all bonds the real interactions, and refuses bad values", function()
    local w = world()
    sphere(w, { 0, 0, 0 }, true)
    sphere(w, { 0, 0, 1.999 * r }, false)
    sphere(w, { 0.5, 0, 0 }, false)
    engines(w, dem.frict { young = E })
    w:run { steps = 1 }
    assert.are.equal(1, w:bond_all { normal = 10, shear = 10 })
    assert.are.equal(1, w:bond_count())
    local I = w:interactions()[1]
    assert.is_true(I.bonded)
    assert.has_error(function() w:bond_all { normal = -1, shear = 1 } end)
    assert.has_error(function() w:bond_all { normal = 1 } end)
    assert.has_error(function() w:bond_all { normal = 1, shear = 1, tensile = 2 } end)
    assert.has_error(function() dem.frict { cohesion = { normal = 1 } } end)
    assert.has_error(function() dem.frict { cohesion = { normal = 1, shear = 0 / 0 } } end)
    assert.has_error(function() dem.frict { set_cohesion_now = true } end)
    assert.has_error(function() dem.frict { twisting = -1 } end)
    local ok, err = pcall(dem.frict, { cohesion = { normal = 1, shaer = 2 } })
    assert.is_false(ok)
    assert.truthy(err:find("cohesion", 1, true) and err:find("shaer", 1, true))
    -- erasing a bond from outside counts it out
    w:erase_interaction(w:interactions()[1].body1, w:interactions()[1].body2)
    assert.are.equal(0, w:bond_count())
  end)
end)

describe("dem twisting resistance", function()
  -- a sphere resting on a fixed sphere below it (along z, under gravity, no damping), spun
  -- about z: its spin has no tangential velocity at the contact, so only the twisting moment
  -- acts; once it slides the moment is eta_t r fn = eta_t r m g and the spin decreases at
  -- eta_t r m g / I
  local function spin(eta)
    local g = 9.81
    local w = world { 0, 0, -g }
    sphere(w, { 0, 0, 0 }, true)
    local b = sphere(w, { 0, 0, 2 * r - mass * g / kn }, false)  -- at its equilibrium overlap
    engines(w, dem.frict { young = E, twisting = eta })
    local w0 = 20
    b.angular_velocity = { 0, 0, w0 }
    w:run { steps = 50 }  -- the elastic part and the start of sliding
    local t0, s0 = w.time, b.angular_velocity[3]
    w:run { steps = 400 }
    return (s0 - b.angular_velocity[3]) / (w.time - t0), w, b, g
  end

  it("the moment plateaus at eta_t fn r (the spin's deceleration)", function()
    for _, eta in ipairs { 0.1, 0.3 } do
      local decel, w, _, g = spin(eta)
      local expected = eta * r * mass * g / inertia
      assert.is_true(math.abs(decel - expected) < 0.01 * expected,
        string.format("eta %g: deceleration %g, eta r m g / I = %g", eta, decel, expected))
      local I = w:interactions()[1]
      local mt = I.twisting_moment
      assert.is_true(math.abs(math.abs(mt[3]) - eta * r * mass * g) < 0.01 * eta * r * mass * g)
    end
  end)

  it("without twisting resistance the spin stays", function()
    local decel = spin(0)
    assert.are.equal(0, decel)
  end)
end)

describe("dem bonds and twisting on both law paths", function()
  -- a bonded, twisting layer on a wall, run in fresh interpreters: AVX2 law (when the
  -- processor has it) against IMPACT_DEM_SIMD=0 (portable), and 2 threads against 1
  local scene = [[
local impact = require("impact")
local dem = impact.dem
local r = 0.01
local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
for i = 0, 5 do
  for j = 0, 5 do
    w:add_body { shape = impact.shape3d.sphere { radius = r }, density = 2600,
                 position = { 2 * r * i, 2 * r * j, r + 1e-4 * ((i * 7 + j * 3) % 5) } }
  end
end
w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
             position = { 0, 0, 0 } }
w.engines = { dem.force_resetter(), dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = 1e7, twisting = 0.2,
    cohesion = { normal = 20, shear = 20 }, set_cohesion_now = true } } },
  dem.newton { damping = 0.2 } }
w.dt = 0.2 * w:p_wave_dt()
w:run { steps = 10 }
w:bodies()[3].angular_velocity = { 0, 0, 50 }
w:run { steps = 600 }
io.write(w:bond_count(), " ", w:state_hash())
]]
  local function run(env, threads)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(scene)
    f:close()
    local p = assert(io.popen(string.format("%s OMP_NUM_THREADS=%d OMP_WAIT_POLICY=passive "
      .. "LUA_PATH_5_4=%q LUA_CPATH_5_4=%q lua5.4 %s 2>&1", env, threads, package.path,
      package.cpath, path)))
    local out = p:read("a")
    local ok = p:close()
    os.remove(path)
    assert.is_true(ok, out)
    return out
  end

  it("gives the same bits with and without AVX2, with 1 and 2 threads", function()
    local a = run("", 1)
    assert.matches("^%d+ %x+$", a)
    assert.equal(a, run("IMPACT_DEM_SIMD=0", 1))
    assert.equal(a, run("", 2))
  end)
end)

describe("dem bonds: saving", function()
  it("dem.save keeps bonds, their adhesions and the moments: the loaded world continues bit for bit",
    function()
      local function build()
        local w = world { 0, 0, -9.81 }
        for i = 0, 3 do
          for j = 0, 3 do
            sphere(w, { 2 * r * i, 2 * r * j, r + 1e-4 * ((i * 7 + j * 3) % 5) }, false)
          end
        end
        w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
                     position = { 0, 0, 0 } }
        engines(w, dem.frict { young = E, twisting = 0.2, rolling = 0.1,
                               cohesion = { normal = 20, shear = 20 }, set_cohesion_now = true }, 0.2)
        return w
      end
      local w = build()
      w:run { steps = 100 }
      w:bodies()[3].angular_velocity = { 0, 0, 50 }
      w:run { steps = 100 }
      local path = os.tmpname()
      dem.save(w, path)
      local w2 = dem.load(path)
      os.remove(path)
      w:run { steps = 300 }
      w2:run { steps = 300 }
      assert.is_true(w:bond_count() > 0)
      assert.are.equal(w:bond_count(), w2:bond_count())
      assert.are.equal(w:state_hash(), w2:state_hash())
    end)
end)
