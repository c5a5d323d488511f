-- Stress-controlled loading of dem samples (Yade's PeriTriaxController and
-- TriaxialStressController) against physics: an HCP lattice compressed isotropically in a
-- periodic cell has the bulk modulus of its contacts (affine by symmetry), a random periodic
-- sample reaches its stress goal and then a strain goal, a walled sample servoed to a confining
-- pressure has wall stresses equal to its Love-Weber stress and keeps the confining pressure
-- on its lateral walls while it is compressed axially, a wall moved with a prescribed velocity
-- goes where v t says, and bad options are refused with messages naming them.
local impact = require("impact")
local dem = impact.dem

local E = 1e8

local function engines(w, controller, damping, wall_friction)
  w.engines = { dem.force_resetter(), dem.collider {},
                dem.interaction_loop { physics = { dem.frict {
                  young = E, friction_angle = 0.5, wall_friction_angle = wall_friction } } },
                controller, dem.newton { damping = damping } }
  w.dt = 0.5 * w:p_wave_dt()
end

local function mean_pressure(s) return -(s[1][1] + s[2][2] + s[3][3]) / 3 end

describe("dem.peri_triax", function()
  it("compresses an HCP lattice to the goal with the contacts' bulk modulus", function()
    -- HCP of spheres of radius r: every sphere has Z = 12 contacts, packing fraction
    -- phi = pi / (3 sqrt 2). Its neighbours sit in opposite pairs about the in-plane ones and
    -- mirror pairs above and below, so a uniform scaling keeps every sphere in equilibrium: the
    -- response to isotropic compression is affine. The Love-Weber stress of an affine strain
    -- eps_v (each contact of branch l = 2r shortened by l eps_v / 3, force kn l eps_v / 3) is
    -- p = N_c kn l^2 eps_v / (9 V); with N_c = Z N / 2 and V = N (4/3) pi r^3 / phi this is
    -- K = p / eps_v = Z phi kn / (6 pi r), kn = E r (two equal spheres). Tolerance: the
    -- controller's 1e-3 of the goal plus the finite strain (eps_v ~ 2e-4): 0.5 %.
    local r, nx, ny, nz = 0.005, 6, 6, 6
    local ax, ay, az = 2 * r, math.sqrt(3) * r, 2 * math.sqrt(2 / 3) * r
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    for k = 0, nz - 1 do
      for j = 0, ny - 1 do
        for i = 0, nx - 1 do
          w:add_body { shape = impact.shape3d.sphere { radius = r }, density = 2600,
                       position = { ax * i + (j % 2) * r + (k % 2) * r + r / 2,
                                    ay * j + (k % 2) * r / math.sqrt(3) + r / 2,
                                    az * k + r / 2 } }
        end
      end
    end
    w:set_cell { size = { ax * nx, ay * ny, az * nz } }
    local p, met = 1e4, nil
    local tri = dem.peri_triax { goal = { -p, -p, -p }, strain_rate = 1, max_unbalanced = 1e-3,
                                 tolerance = 1e-3, done = function(wd) met = met or wd.steps end }
    engines(w, tri, 0.6)
    local v0 = w:cell().volume
    while not met and w.steps < 5000 do w:run { steps = 10 } end
    assert.is_truthy(met)
    local s = w:stress()
    for k = 1, 3 do
      assert.is_true(math.abs(s[k][k] + p) <= 1e-3 * p, string.format("s%d%d = %g", k, k, s[k][k]))
    end
    assert.are.equal(12, w:coordination())
    local eps_v = -math.log(w:cell().volume / v0)
    local phi = math.pi / (3 * math.sqrt(2))
    local K = 12 * phi * (E * r) / (6 * math.pi * r)
    local measured = mean_pressure(s) / eps_v
    assert.is_true(math.abs(measured - K) < 0.005 * K,
      string.format("K measured %g, Z phi kn / (6 pi r) = %g", measured, K))
    assert.is_true(tri.unbalanced < 1e-3)
  end)

  it("brings a random periodic sample to a stress goal, then to a strain goal", function()
    local L = 0.1
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    local spheres = dem.cloud { box = { { 0, 0, 0 }, { L, L, L } },
                                psd = { mean = 0.017, spread = 0.1 }, porosity = 0.55, seed = 4 }
    dem.add_spheres(w, spheres, { density = 2600 })
    w:set_cell { size = { L, L, L } }
    local p, met = 1e4, false
    local tri = dem.peri_triax { goal = { -p, -p, -p }, strain_rate = 10, max_unbalanced = 0.01,
                                 tolerance = 0.01, done = function() met = true end }
    engines(w, tri, 0.6)
    while not met and w.steps < 30000 do w:run { steps = 50 } end
    assert.is_true(met)
    local s = w:stress()  -- the Love-Weber stress over the cell
    for k = 1, 3 do assert.is_true(math.abs(s[k][k] + p) <= 0.01 * p) end
    assert.is_true(w:unbalanced_force() < 0.01)
    -- z under strain control: 1 % more compression, x and y still at the stress goal
    local ez = w:cell().strain[3][3] - 0.01
    tri.stress_mask = 3
    tri.goal = { -p, -p, ez }
    met = false
    while not met and w.steps < 60000 do w:run { steps = 50 } end
    assert.is_true(met)
    assert.is_true(math.abs(w:cell().strain[3][3] - ez) <= 0.01 * math.abs(ez))
    s = w:stress()
    for k = 1, 2 do assert.is_true(math.abs(s[k][k] + p) <= 0.01 * p) end
    assert.is_true(-s[3][3] > p)  -- the axial compression carries more
  end)
end)

describe("dem.triax (servo-controlled walls)", function()
  it("servoes six walls to a confining pressure, then holds it under axial strain", function()
    local L, p = 0.1, 1e4
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    dem.add_spheres(w, dem.cloud { box = { { 0, 0, 0 }, { L, L, L } },
                                   psd = { mean = 0.014, spread = 0.1 }, porosity = 0.6, seed = 4 },
                    { density = 2600 })
    local walls = dem.aabb_walls(w, { lo = { 0, 0, 0 }, hi = { L, L, L } })
    local met = false
    local tri = dem.triax { walls = walls, goal = { -p, -p, -p }, strain_rate = 5,
                            max_unbalanced = 0.01, tolerance = 0.01,
                            done = function() met = true end }
    engines(w, tri, 0.4, 0)  -- frictionless platens, as in Yade's triaxial tutorial
    while not met and w.steps < 40000 do w:run { steps = 50 } end
    assert.is_true(met)
    -- in equilibrium the mean stress in the volume is the boundary traction: with frictionless
    -- walls, the Love-Weber stress of the spheres between them equals the walls' normal force
    -- over their area (2 %: the packing is not quite static, unbalanced force < 0.01)
    local s = w:stress { volume = tri.volume }
    for k = 1, 3 do
      assert.is_true(math.abs(s[k][k] - tri.stress[k]) < 0.02 * p,
        string.format("axis %d: Love-Weber %g, walls %g", k, s[k][k], tri.stress[k]))
      assert.is_true(math.abs(tri.stress[k] + p) <= 0.01 * p)
    end
    -- the force on a wall is the force the spheres push it with (w:force_on)
    local f = w:force_on(walls[1])
    assert.is_true(math.abs(f[1] / (tri.size[2] * tri.size[3]) - tri.stress[1]) < 0.05 * p)
    -- deviatoric loading: z strained at -0.2 / s, x and y kept at the confining pressure (5 %)
    tri.stress_mask = 3
    tri.goal = { -p, -p, -0.2 }
    local z0, worst = tri.size[3], 0
    for _ = 1, 40 do
      w:run { steps = 100 }
      for k = 1, 2 do worst = math.max(worst, math.abs(tri.stress[k] + p) / p) end
    end
    assert.is_true(worst < 0.05, "lateral stress off by " .. worst)
    -- the axial walls moved at 0.2 L / 2 each (strain rate goal, closed form)
    local expected = z0 * (1 - 0.2 * 4000 * w.dt)
    assert.is_true(math.abs(tri.size[3] - expected) < 1e-3 * z0)
    assert.is_true(-tri.stress[3] > 1.2 * p)  -- a deviator builds up
  end)

  it("moves a fixed wall with its prescribed velocity", function()
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    local wall = w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
                              position = { 0, 0, 0 } }
    local ball = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                              position = { 0, 0, 0.05 } }
    engines(w, dem.force_resetter(), 0)
    w:set_velocity(wall, { 0, 0, 0.5 })
    assert.are.same({ 0, 0, 0.5 }, wall.velocity)
    local n = 1000
    w:run { steps = n }
    assert.is_true(math.abs(wall.position[3] - 0.5 * n * w.dt) < 1e-12)
    -- the wall reached the ball (at 0.04 m of travel) and pushes it ahead
    if 0.5 * n * w.dt > 0.045 then assert.is_true(ball.velocity[3] > 0.4) end
    assert.has_error(function() w:set_velocity(ball, { 0, 0, 1 }) end,
      "World:set_velocity: the body is free (set b.velocity); only fixed bodies are moved with a "
      .. "prescribed velocity")
    assert.has_error(function() w:set_velocity(wall, { 0, 0 }) end)
  end)
end)

describe("dem.peri_triax and dem.triax options", function()
  it("refuses bad options, naming them", function()
    local function msg(f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      return tostring(err)
    end
    local m = msg(dem.peri_triax, { goal = { -1, -1, -1 }, strain_rate = 1, gaol = 3 })
    assert.truthy(m:find("impact.dem.peri_triax", 1, true) and m:find("gaol", 1, true), m)
    m = msg(dem.peri_triax, { goal = { -1, -1 }, strain_rate = 1 })
    assert.truthy(m:find("goal", 1, true) and m:find("3 finite numbers", 1, true), m)
    m = msg(dem.peri_triax, { goal = { -1, -1, -1 }, strain_rate = 0 })
    assert.truthy(m:find("strain_rate", 1, true), m)
    m = msg(dem.peri_triax, { goal = { -1, -1, -1 }, strain_rate = 1, stress_mask = 8 })
    assert.truthy(m:find("stress_mask", 1, true), m)
    m = msg(dem.peri_triax, { goal = { -1, -1, -1 } })
    assert.truthy(m:find("strain_rate", 1, true) and m:find("required", 1, true), m)
    m = msg(dem.peri_triax, { goal = { -1, -1, -1 }, strain_rate = 1, done = 3 })
    assert.truthy(m:find("done", 1, true), m)
    local e = dem.peri_triax { goal = { -1, -1, -1 }, strain_rate = 1 }
    m = msg(function() e.gain = 2 end)
    assert.truthy(m:find("gain", 1, true), m)
    m = msg(function() e.stress = 2 end)
    assert.truthy(m:find("unknown field", 1, true), m)
    m = msg(dem.triax, { goal = { -1, -1, -1 }, strain_rate = 1 })
    assert.truthy(m:find("walls", 1, true), m)
    m = msg(dem.triax, { walls = { 1, 2 }, goal = { -1, -1, -1 }, strain_rate = 1 })
    assert.truthy(m:find("walls", 1, true) and m:find("6 fixed wall bodies", 1, true), m)
    -- a peri_triax without a periodic cell
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600 }
    engines(w, dem.peri_triax { goal = { -1, -1, -1 }, strain_rate = 1 }, 0.2)
    m = msg(w.run, w, { steps = 1 })
    assert.truthy(m:find("periodic cell", 1, true), m)
    m = msg(dem.aabb_walls, w, { lo = { 0, 0, 0 }, hi = { 1, 0, 1 } })
    assert.truthy(m:find("'hi'", 1, true), m)
  end)
end)

describe("examples/triaxial_test.lua", function()
  it("confines, loads axially with the lateral stress held, and writes its plot", function()
    local files = require("spec.support.files")
    local dir = files.tmpdir()
    local script = files.read("examples/triaxial_test.lua")
    local out, ok = files.run_script(script, { dir = dir, name = "triaxial_test.lua" })
    assert.is_true(ok, out)
    assert.matches("confined at 10000 Pa", out)
    local lx, ly = out:match("lateral ([-%d.e+]+) ([-%d.e+]+) Pa")
    assert.is_true(math.abs(tonumber(lx) + 1e4) < 500 and math.abs(tonumber(ly) + 1e4) < 500, out)
    local q = tonumber(out:match("deviator q = ([%d.e+]+) Pa"))
    assert.is_true(q > 0, out)
    assert.matches("<svg", files.read(dir .. "/triaxial_test.svg"))
    assert.matches("axial_strain", files.read(dir .. "/triaxial_test.csv"))
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)

describe("dem.peri_triax: saving", function()
  it("dem.save keeps the engine and dem.load gives its done function back by label", function()
    local L = 0.1
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    dem.add_spheres(w, dem.cloud { box = { { 0, 0, 0 }, { L, L, L } },
                                   psd = { mean = 0.017, spread = 0.1 }, porosity = 0.55, seed = 4 },
                    { density = 2600 })
    w:set_cell { size = { L, L, L } }
    engines(w, dem.peri_triax { goal = { -1e4, -1e4, -1e4 }, strain_rate = 10, label = "triax",
                                done = function() end }, 0.6)
    w:run { steps = 300 }
    local path = os.tmpname()
    dem.save(w, path)
    local calls = 0
    local w2 = dem.load(path, { functions = { triax = function() calls = calls + 1 end } })
    os.remove(path)
    assert.is_true(w2:engine("triax").done ~= nil)
    w:run { steps = 200 }
    w2:run { steps = 200 }
    assert.are.equal(w:state_hash(), w2:state_hash())
    assert.are.same(w:engine("triax").stress, w2:engine("triax").stress)
    -- a dem.triax holds bodies: refused, with the reason
    local w3 = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    local walls = dem.aabb_walls(w3, { lo = { 0, 0, 0 }, hi = { L, L, L } })
    w3.engines = { dem.triax { walls = walls, goal = { -1, -1, -1 }, strain_rate = 1 } }
    local ok, err = pcall(dem.save, w3, os.tmpname())
    assert.is_false(ok)
    assert.truthy(tostring(err):find("cannot be saved", 1, true), err)
  end)
end)
