-- The dem strategy on several MPI ranks (impact.dem_mpi, src/dem/dem_domain.c): the gravity
-- deposition of bench/bench_dem.c with 2000 spheres (spec/support/dem_mpi_deposit.lua) on one
-- rank and under mpirun -np 2, a sphere flying across the cut between the ranks
-- (spec/support/dem_mpi_flight.lua), save and load per rank. Skipped with a message when
-- mpirun or the module impact.mpi (build/impact/mpi.so) is missing, and under valgrind and the
-- sanitizers (too slow for 2000 spheres in two processes).
local spec_files = require("spec.support.files")
local soak = require("spec.support.soak")
local dem_mpi = require("impact.dem_mpi")
local impact = require("impact")

local have_mpirun = os.execute("command -v mpirun >/dev/null 2>&1")
-- found, not loaded: the MPI library stays out of this process
local have_module = package.searchpath("impact.mpi", package.cpath) ~= nil
local skip_why = not have_mpirun and "mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)"
  or not have_module and "impact.mpi not built (make, with Open MPI installed)"
  or soak.valgrind() and "too slow under valgrind"
  or soak.sanitized() and "two ranks of 2000 spheres under ASan take half a minute of the CI "
    .. "run's 10; make test runs it (and it passed under make sanitize when written)"

local dir = spec_files.tmpdir()
-- Open MPI's own allocations are not ours to check; yield rather than spin when waiting (the
-- two ranks may share a core); a hung run is stopped after 600 s
local env = string.format("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
  .. "OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=1 "
  .. "LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)

-- runs script with args on np ranks (0: without mpirun); the table rank 0 wrote
local runs = 0
local function run(np, script, args)
  runs = runs + 1
  local out = string.format("%s/r%d.lua", dir, runs)
  local launcher = np == 0 and "" or string.format("mpirun -np %d --oversubscribe", np)
  local cmd = string.format("%s timeout 600 %s lua5.4 spec/support/%s %s out=%s 2>&1", env,
    launcher, script, args, out)
  local p = assert(io.popen(cmd))
  local text = p:read("a")
  local ok = p:close()
  assert(ok, cmd .. "\n" .. text)
  local f = io.open(out, "r")
  assert(f, "no results from " .. cmd .. "\n" .. text)
  f:close()
  return dofile(out)
end

local function gap(r)  -- gravity's work less what the books say it became
  return r.gravity_work - (r.kinetic + r.elastic + r.damping + r.plastic)
end

describe("dem on several ranks (impact.dem_mpi)", function()
  local one, two
  local function results()
    if not one then
      one = run(0, "dem_mpi_deposit.lua", "steps=6000")
      two = run(2, "dem_mpi_deposit.lua", "steps=6000")
    end
  end

  it("a deposition of 2000 spheres on 2 ranks: the same spheres, packing height within 0.5 %, "
    .. "energy books as on one rank", function()
    if skip_why then pending(skip_why .. ": the mpirun runs are skipped") return end
    results()
    assert.equal(2000, one.count)
    assert.equal(2000, two.count)
    assert.equal(2, two.ranks)
    assert.is_true(two.ghosts > 0 and two.migrated > 0 and two.updates > 1)
    assert.near(one.mean_z, two.mean_z, { rel = 0.005 })
    assert.is_true(two.mean_z < 0.5 * 0.026 * 5)  -- settled well below its start
    for _, r in ipairs { one, two } do
      -- gravity's work is m g times the fall of the centres of mass (leapfrog: to O(dt v / z))
      assert.near(9.81 * (r.mz0 - r.mz), r.gravity_work, { rel = 1e-3 })
      -- and the books (kinetic + springs + damping + sliding) hold it within 1 %
      assert.is_true(math.abs(gap(r)) < 0.01 * r.gravity_work)
    end
    -- the two ranks book as one: the same leftover within 0.1 % of the work, each sum within 1 %
    assert.near(gap(one), gap(two), { abs = 1e-3 * one.gravity_work })
    for _, k in ipairs { "gravity_work", "damping" } do
      assert.near(one[k], two[k], { rel = 0.005 })
    end
    assert.near(one.plastic, two.plastic, { rel = 0.05 })
  end)

  it("the same deposition on 4 ranks (two to a core here): packing height within 0.5 % of one "
    .. "rank, energy books within 1 % #slow", function()
    if skip_why then pending(skip_why .. ": the mpirun runs are skipped") return end
    results()
    local four = run(4, "dem_mpi_deposit.lua", "steps=6000")
    assert.equal(2000, four.count)
    assert.equal(4, four.ranks)
    assert.is_true(four.ghosts > 0 and four.migrated > 0)
    assert.near(one.mean_z, four.mean_z, { rel = 0.005 })
    assert.near(9.81 * (four.mz0 - four.mz), four.gravity_work, { rel = 1e-3 })
    assert.is_true(math.abs(gap(four)) < 0.01 * four.gravity_work)
    assert.near(gap(one), gap(four), { abs = 1e-3 * one.gravity_work })
    assert.near(one.gravity_work, four.gravity_work, { rel = 0.005 })
  end)

  it("reruns on 2 ranks are bit-identical; save and load per rank continue bit-identically",
    function()
    if skip_why then pending(skip_why .. ": the mpirun runs are skipped") return end
    results()
    local again = run(2, "dem_mpi_deposit.lua", "steps=6000")
    -- dem.save restarts the collider's sweep (in the saving world as in the loaded one), so
    -- the saving run is the reference of the loaded one
    local saved = run(2, "dem_mpi_deposit.lua",
      string.format("steps=3000 save_at=1500 save=%s/scene.lua", dir))
    local loaded = run(2, "dem_mpi_deposit.lua", string.format("steps=1500 load=%s/scene.lua", dir))
    for _, k in ipairs { "fingerprint", "mean_z", "top", "gravity_work", "kinetic", "elastic",
                         "damping", "plastic" } do
      assert.equal(string.format("%a", two[k]), string.format("%a", again[k]), k)
      assert.equal(string.format("%a", saved[k]), string.format("%a", loaded[k]), k)
    end
    assert.equal(saved.updates, loaded.updates)
    assert.equal(saved.migrated, loaded.migrated)
    assert.is_true(io.open(dir .. "/scene.rank1.lua") ~= nil)
    assert.is_true(io.open(dir .. "/scene.rank0.lua.domain") ~= nil)
  end)

  it("one rank decomposed (mpirun -np 1) gives the bits of no decomposition", function()
    if skip_why then pending(skip_why .. ": the mpirun runs are skipped") return end
    local plain = run(0, "dem_mpi_deposit.lua", "steps=1500")
    local split = run(1, "dem_mpi_deposit.lua", "steps=1500 mpi=1")
    assert.equal(1, split.ranks)
    for _, k in ipairs { "fingerprint", "mean_z", "gravity_work", "kinetic", "elastic", "damping",
                         "plastic" } do
      assert.equal(string.format("%a", plain[k]), string.format("%a", split[k]), k)
    end
  end)

  it("a sphere flying across the cut migrates and follows the leapfrog's parabola to 1e-12",
    function()
    if skip_why then pending(skip_why .. ": the mpirun runs are skipped") return end
    local r = run(2, "dem_mpi_flight.lua", "steps=1000")
    assert.equal(1, r.owners)  -- exactly one rank steps it
    assert.equal(1, r.owner)   -- it started on rank 0 (x = 0.3 < 0.4) and ends on rank 1
    assert.equal(1, r.migrated)
    local n, h, g = r.steps, r.dt, -9.81
    -- leapfrog from rest of the acceleration: x_n = x0 + n h v + a h^2 n (n + 1) / 2
    assert.near(r.x0 + n * h * r.vx, r.x, { abs = 1e-12 })
    assert.near(0.2, r.y, { abs = 1e-15 })
    assert.near(r.z0 + n * h * r.vz + g * h * h * n * (n + 1) / 2, r.z, { abs = 1e-12 })
  end)
end)

describe("impact.dem_mpi on one process", function()
  local function small()
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
    w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true }
    for i = 0, 3 do
      w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                   position = { 0.03 * i, 0, 0.05 } }
    end
    return w
  end

  it("refuses bad options naming them, the value and what is accepted", function()
    local w = small()
    local function err(opts) return select(2, pcall(dem_mpi.decompose, w, opts)) end
    assert.matches('axis must be "x", "y" or "z", got "w"', err { axis = "w" }, 1, true)
    assert.matches("skin must be a finite number >= 0 %(m%), got %-1", err { skin = -1 })
    assert.matches('unknown option "ranks" %(accepted: axis, skin, mpi%)', err { ranks = 2 })
    assert.matches("mpi must be a boolean, got 1", err { mpi = 1 })
    assert.matches("w must be a world, got 3", select(2, pcall(dem_mpi.decompose, 3)))
    local w2 = impact.world3d {}
    assert.matches('the world\'s strategy is "none", not "dem"', select(2, pcall(dem_mpi.packing, w2)))
    assert.matches("x must be a number or a list of numbers, got \"a\"",
      select(2, pcall(dem_mpi.reduce_sum, w, "a")))
    assert.matches("path must be a string, got nil", select(2, pcall(dem_mpi.file, nil, w)))
  end)

  it("without mpirun: the whole scene on this rank, the helpers over it", function()
    local w = small()
    local info = dem_mpi.decompose(w)
    assert.same({ rank = 0, size = 1 }, info)
    w.dt = 1e-5
    w:run { steps = 10 }
    local p = dem_mpi.packing(w)
    assert.equal(4, p.count)
    -- free fall at (1 - 0.2) g (the default damping): z = z0 + a dt^2 n (n + 1) / 2
    assert.near(0.05 - 0.8 * 9.81 * 1e-10 * 55, p.mean_z, { abs = 1e-15 })
    assert.near(0.05 - 0.8 * 9.81 * 1e-10 * 55 + 0.01, p.top, { abs = 1e-15 })
    assert.equal(5, #dem_mpi.bodies(w))  -- the spheres and the wall (rank 0 owns fixed bodies)
    assert.equal(7, dem_mpi.reduce_sum(w, 7))
    assert.same({ 1, 2 }, dem_mpi.reduce_max(w, { 1, 2 }))
    assert.equal("out.csv", dem_mpi.file("out.csv", w))
    local e, e1 = dem_mpi.energy(w), w:dem_energy()
    assert.equal(e1.kinetic, e.kinetic)
    assert.equal(1, dem_mpi.stats(w).size)
    assert.matches("already decomposed", select(2, pcall(dem_mpi.decompose, w)))
  end)
end)
