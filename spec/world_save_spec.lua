-- World:save(path) and impact.load(path) (lua/impact/world_file.lua): for every world kind,
-- strategy and mode, a world run N steps, saved, run M more steps ends exactly where a world
-- loaded from the file and run M steps ends (every body's pose and velocity and the time, as
-- %a strings); damaged files give a clear error and no world.
local impact = require("impact")
local files = require("spec.support.files")

local dir = os.getenv("TMPDIR") or "/tmp"
local counter = 0
local function tmp()
  counter = counter + 1
  return string.format("%s/impact_world_save_%d_%d.lua", dir, math.random(1 << 30), counter)
end

-- work counters (not results): an integrator started from a saved step size evaluates the
-- equations once more; the 3D engine's recycled manifolds are computed again after a save
local work = { rhs_evaluations = true, manifolds = true, manifolds_recycled = true,
               pairs_apart = true }

-- every body's state, the time and the counters of w:stats() (but the timings, and the work
-- counters when skip_work), exactly
local function exact(w, skip_work)
  local out = { string.format("t=%a steps=%d", w.time, w.steps) }
  local stats, keys = w.strategy ~= "dem" and w:stats() or {}, {}
  for k in pairs(stats) do
    if k ~= "step_seconds" and k ~= "profile" and not (skip_work and work[k]) then
      keys[#keys + 1] = k
    end
  end
  table.sort(keys)
  for _, k in ipairs(keys) do out[#out + 1] = string.format("%s=%s", k, tostring(stats[k])) end
  local fields = w.dim == 2 and { "position", "velocity" }
    or { "position", "orientation", "velocity", "angular_velocity" }
  for _, b in ipairs(w:bodies()) do
    local s = { tostring(b.name or b.id) }
    for _, k in ipairs(fields) do
      for _, v in ipairs(b[k]) do s[#s + 1] = string.format("%a", v) end
    end
    if w.dim == 2 then s[#s + 1] = string.format("%a %a", b.angle, b.spin) end
    out[#out + 1] = table.concat(s, " ")
  end
  return table.concat(out, "\n")
end

-- run n steps, save, run m more (A); load, run m (B): A == B, and the world moved; unless
-- disturbed = true, A is also where a world never saved ends (saving keeps the caches that
-- change the next results: the run goes on as if nothing happened)
local function continues(make, n, m, disturbed)
  local w = make()
  w:step(n)
  local path = tmp()
  w:save(path)
  local saved_at = exact(w)
  w:step(m)
  local a = exact(w)
  local w2 = impact.load(path)
  assert.are.equal(saved_at, exact(w2))
  w2:step(m)
  assert.are.equal(a, exact(w2))
  assert.are_not.equal(saved_at, a)
  if not disturbed then
    local never = make()
    never:step(n + m)
    assert.are.equal(exact(never, true), exact(w, true))
  end
  os.remove(path)
  return w, w2
end

local s2, s3 = impact.shape2d, impact.shape3d

-- a 2D scene: ground, a ball, a box (filtered), a pendulum on a joint, a rope, a spring, a
-- kinematic paddle, per-pair coefficients and a no_collide pair
local function scene2d(opts, connectors)
  return function()
    local w = impact.world2d(opts)
    w:add_body { shape = s2.block { width = 20, height = 1 }, fixed = true, position = { 0, -0.5 },
                 name = "ground" }
    local ball = w:add_body { shape = s2.ball { radius = 0.3 }, position = { -1, 1.2 },
                              velocity = { 0.5, 0 }, elasticity = 0.6, friction = 0.3, name = "ball" }
    local box = w:add_body { shape = s2.block { width = 0.5, height = 0.4 }, position = { 1, 0.6 },
                             angle = 0.3, friction = 0.5, name = "box",
                             filter = { category = 2, mask = 0xFFFD } }
    w:add_body { shape = s2.rounded_block { width = 0.6, height = 0.3, corner_radius = 0.1 },
                 position = { 1.1, 1.5 }, name = "rounded", filter = { category = 2 } }
    w:add_body { shape = s2.ngon { sides = 5, radius = 0.3 }, kinematic = true, position = { -3, 0.4 },
                 velocity = { 0.4, 0 }, name = "paddle" }
    if opts.strategy ~= "none" then
      w:set_pair { body1 = ball, body2 = w:body("ground"), elasticity = 0.9 }
    end
    ball:no_collide(box)
    if connectors then
      local bar = w:add_body { shape = s2.block { width = 0.1, height = 1 }, position = { 3, 2.5 },
                               angle = 0.4, name = "bar" }
      w:add_joint { body1 = bar, point1 = { 0, 0.5 }, point2 = { 3, 3 } }
      local bob = w:add_body { shape = s2.ball { radius = 0.2 }, position = { -4, 3 }, name = "bob" }
      w:add_rope { body1 = bob, point2 = { -3, 4 }, length = 1.5 }
      w:add_spring { body1 = box, point1 = { 0, 0 }, body2 = w.background, point2 = { 2, 2 },
                     rest_length = 1, stiffness = 5, damping = 0.1 }
    end
    local arch = s2.path():move_to(-0.3, 0):line_to(0.3, 0)
      :arc_to(-0.3, 0, { center = { 0, 0 }, outside = true }):close():build { spacing = 0.1 }
    w:add_body { shape = arch, position = { 2, 1 }, angle = 0.1, name = "arch" }
    local removed = w:add_body { shape = s2.ball { radius = 0.1 }, position = { 5, 5 } }
    w:remove_body(removed)  -- a freed slot the next body takes
    w:add_body { shape = s2.ball { radius = 0.15 }, position = { 0.2, 2 }, name = "late" }
    return w
  end
end

local function scene3d(opts, connectors)
  return function()
    local w = impact.world3d(opts)
    w:add_body { shape = s3.box { size = { 10, 10, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                 name = "ground" }
    local ball = w:add_body { shape = s3.sphere { radius = 0.3 }, position = { -1, 0, 1 },
                              velocity = { 0.5, 0.1, 0 }, name = "ball" }
    local box = w:add_body { shape = s3.box { size = { 0.5, 0.4, 0.3 }, smoothing = 0.02 },
                             position = { 1, 0, 0.6 }, name = "box", filter = { category = 2 } }
    w:add_body { shape = s3.capsule { radius = 0.1, length = 0.4 }, position = { 0, 1, 0.8 },
                 angular_velocity = { 1, 0, 0 }, name = "capsule", filter = { group = -1 } }
    w:add_body { shape = s3.convex { points = { { 0, 0, 0 }, { 0.3, 0, 0 }, { 0, 0.3, 0 }, { 0, 0, 0.3 } } },
                 position = { 0.5, -1, 1 }, name = "hull", filter = { group = -1 } }
    w:add_body { shape = s3.sphere { radius = 0.2 }, kinematic = true, position = { -3, 0, 0.2 },
                 velocity = { 0.3, 0, 0 }, name = "paddle" }
    if opts.strategy == "impulse" or opts.strategy == "contact" then
      w:set_pair { body1 = ball, body2 = w:body("ground"), friction = 0.7 }
    end
    ball:no_collide(box)
    if connectors then
      local door = w:add_body { shape = s3.box { size = { 0.1, 1, 0.6 } }, position = { 3, 0, 2 },
                                angular_velocity = { 0, 0, 1 }, name = "door" }
      w:add_joint { kind = "hinge", body1 = door, anchor = { 3, -0.5, 2 }, axis = { 0, 0, 1 },
                    limits = { -1, 1 }, motor = { speed = 0.5, max_force = 2 } }
      local bob = w:add_body { shape = s3.sphere { radius = 0.2 }, position = { -3, 0, 3 }, name = "bob" }
      w:add_rope { body1 = bob, point1 = { 0, 0, 0 }, body2 = w.background, point2 = { -2, 0, 4 },
                   length = 1.5 }
      local link = w:add_body { shape = s3.sphere { radius = 0.1 }, position = { -3, 2, 3 }, name = "link" }
      w:add_joint { kind = "ball", body1 = link, anchor = { -3, 2, 3.5 } }
    end
    w:add_spring { body1 = box, point1 = { 0, 0, 0 }, body2 = w.background, point2 = { 2, 0, 2 },
                   rest_length = 1, stiffness = 5, damping = 0.1 }
    local cube = {}
    for _, x in ipairs { -0.2, 0.2 } do
      for _, y in ipairs { -0.2, 0.2 } do
        for _, z in ipairs { -0.2, 0.2 } do cube[#cube + 1] = { x, y, z } end
      end
    end
    w:add_body { shape = s3.polyhedron { points = cube }, position = { -1, -1, 0.5 },
                 orientation = { 0.9, 0.1, 0.2, 0 }, name = "polyhedron" }
    local removed = w:add_body { shape = s3.sphere { radius = 0.1 }, position = { 5, 5, 5 } }
    w:remove_body(removed)
    w:add_body { shape = s3.cylinder { radius = 0.15, length = 0.3 }, position = { 0.2, 0.2, 2 },
                 name = "late" }
    return w
  end
end

describe("World:save and impact.load continue bit for bit", function()
  for _, strategy in ipairs { "impulse", "contact" } do
    for _, handling in ipairs { "serial", "simultaneous", "hybrid" } do
      it(string.format("2D %s, %s handling, with joints, ropes, springs, filters", strategy, handling),
        function()
          continues(scene2d({ strategy = strategy, gravity = { 0, -9.81 }, dt = 0.01,
                              collision_handling = handling,
                              joint_small_impacts = strategy == "impulse" or nil }, true), 40, 60)
        end)
    end
  end
  it("2D contact, symplectic Euler stepping, PGS", function()
    continues(scene2d({ strategy = "contact", gravity = { 0, -9.81 }, dt = 0.005,
                        time_stepping = "symplectic_euler", contact_solver = "pgs" }, true), 40, 60)
  end)
  it("2D contact, the exact Coulomb solver", function()
    continues(scene2d({ strategy = "contact", gravity = { 0, -9.81 }, dt = 0.01,
                        contact_solver = "coulomb" }, false), 40, 60)
  end)
  it("2D none with an adaptive integrator and springs", function()
    continues(scene2d({ strategy = "none", gravity = { 0, -9.81 }, dt = 0.01,
                        integrator = { method = "rkf45" } }, false), 20, 30)
  end)
  it("2D compliant with materials", function()
    continues(function()
      local w = impact.world2d { strategy = "compliant", gravity = { 0, -9.81 }, dt = 0.01 }
      w:add_body { shape = s2.block { width = 4, height = 0.5 }, fixed = true, position = { 0, -0.25 },
                   material = "billiard_table" }
      w:add_body { shape = s2.ball { radius = 0.2 }, position = { 0, 0.5 }, material = "billiard_ball" }
      w:add_body { shape = s2.ball { radius = 0.2 }, position = { 0.3, 1.2 }, material = "billiard_ball" }
      return w
    end, 30, 40)
  end)
  for _, strategy in ipairs { "impulse", "contact" } do
    for _, solver in ipairs { "lcp", "pgs" } do
      it(string.format("3D %s, %s, with joints, ropes, springs, filters", strategy, solver), function()
        continues(scene3d({ strategy = strategy, gravity = { 0, 0, -9.81 }, dt = 0.01,
                            contact_solver = solver }, true), 40, 60)
      end)
    end
  end
  it("3D contact, a resting stack of boxes under PGS in sub-steps (contacts recycled)", function()
    continues(function()
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 0.01,
                                 contact_solver = "pgs", substeps = 4,
                                 collision_handling = "simultaneous" }
      w:add_body { shape = s3.box { size = { 4, 4, 1 } }, fixed = true, position = { 0, 0, -0.5 } }
      for i = 1, 4 do
        w:add_body { shape = s3.box { size = { 1, 1, 0.5 } },
                     position = { 0.01 * i, 0, 0.25 + 0.5 * (i - 1) } }
      end
      return w
    end, 60, 60, true)  -- (the recycled manifolds are computed again after a save: the saved
                        -- world's run differs from an unsaved one's in the last bits)
  end)
  it("3D contact, time_stepping = \"ode\"", function()
    continues(scene3d({ strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 0.01,
                        time_stepping = "ode" }, false), 20, 30)
  end)
  it("3D compliant with materials", function()
    continues(function()
      local w = impact.world3d { strategy = "compliant", gravity = { 0, 0, -9.81 }, dt = 0.01 }
      w:add_body { shape = s3.box { size = { 4, 4, 0.5 } }, fixed = true, position = { 0, 0, -0.25 },
                   material = "billiard_table" }
      w:add_body { shape = s3.sphere { radius = 0.2 }, position = { 0, 0, 0.4 }, material = "billiard_ball" }
      w:add_body { shape = s3.sphere { radius = 0.3 }, position = { 0.5, 0, 0.9 },
                   material = "billiard_ball" }
      return w
    end, 30, 40)
  end)
  it("3D none with an adaptive integrator", function()
    continues(scene3d({ strategy = "none", gravity = { 0, 0, -9.81 }, dt = 0.01,
                        integrator = { method = "rk8pd" } }, false), 20, 30)
  end)
  it("3D dem (through impact.dem.save)", function()
    continues(function()
      local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 }, dt = 1e-4 }
      w:add_body { shape = s3.wall { normal = { 0, 0, 1 } }, fixed = true }
      w:add_body { shape = s3.sphere { radius = 0.01 }, position = { 0, 0, 0.0105 } }
      w:add_body { shape = s3.sphere { radius = 0.01 }, position = { 0.005, 0, 0.03 } }
      return w
    end, 50, 50)
  end)
  it("keeps names, data, masses, filters and the random generator", function()
    local w = scene2d({ strategy = "contact", gravity = { 0, -9.81 }, seed = 7 }, true)()
    w:body("ball").data = { tag = "red", n = 3 }
    w:step(5)
    local path = tmp()
    w:save(path)
    local w2 = impact.load(path)
    assert.are.equal(w.seed, w2.seed)
    assert.are.equal(w:random(), w2:random())
    assert.are.same({ tag = "red", n = 3 }, w2:body("ball").data)
    assert.are.same(w:body("box").filter, w2:body("box").filter)
    assert.are.equal(w:body("box").mass, w2:body("box").mass)
    assert.are.equal(w.steps, w2.steps)
    assert.are.equal(#w:bodies(), #w2:bodies())
    -- a loaded world saves again, to the same text as the world it came from
    local again = tmp()
    w2:save(again)
    local w3 = impact.load(again)
    w:save(path)
    local f1, f2 = io.open(path, "rb"), io.open(again, "rb")
    local t1, t2 = f1:read("a"), f2:read("a")
    f1:close()
    f2:close()
    os.remove(path)
    os.remove(again)
    assert.are.equal(t1, t2)
    w:step(20)
    w3:step(20)
    assert.are.equal(exact(w), exact(w3))
  end)
end)

describe("a saved world", function()
  it("keeps the polyhedra settings and answers queries after the save", function()
    local w = impact.world3d { strategy = "contact", polyhedra = { threshold = 0.02, minarea = 1e-6 } }
    w:add_body { shape = s3.sphere { radius = 0.5 }, position = { 0, 0, 1 } }
    assert.is_truthy(w:ray_cast({ 0, 0, 5 }, { 0, 0, -5 }))
    local path = tmp()
    w:save(path)
    local hit = w:ray_cast({ 0, 0, 5 }, { 0, 0, -5 })
    assert.are.equal(1.5, hit.point[3])
    local w2 = impact.load(path)
    os.remove(path)
    local settings = require("impact.polyhedra").get(w2)
    assert.are.equal(0.02, settings.threshold)
    assert.are.equal(1e-6, settings.minarea)
    assert.are.equal(1.5, w2:ray_cast({ 0, 0, 5 }, { 0, 0, -5 }).point[3])
  end)
  it("keeps body handles stale once their bodies were removed", function()
    local w = impact.world2d {}
    local a = w:add_body { shape = s2.ball { radius = 1 }, name = "a" }
    local b = w:add_body { shape = s2.ball { radius = 1 }, position = { 3, 0 } }
    local slot = b.id
    w:remove_body(b)  -- the last slot: freed past the last body
    local w2 = files.reloaded(w)
    for _, world in ipairs { w, w2 } do
      local c = world:add_body { shape = s2.ball { radius = 1 }, position = { 6, 0 } }
      assert.are.equal(slot, c.id)
    end
    assert.has_error(function() return b.position end)
    assert.are.equal("a", w:bodies()[1].name)
    assert.are.same(a.position, w2:body("a").position)
  end)
  it("may be empty", function()
    local w = impact.world2d { strategy = "impulse", dt = 0.02 }
    local w2 = files.reloaded(w)
    assert.are.equal(0, #w2:bodies())
    assert.are.equal(0.02, w2.dt)
    assert.are.equal("impulse", w2.strategy)
  end)
end)

describe("events and contacts go on after a save", function()
  local function events_of(w, m)
    local seen = {}
    local function log(e)
      seen[#seen + 1] = string.format("%s %a %s %s", e.kind, e.time, e.body1.id, e.body2.id)
    end
    for _, kind in ipairs { "contact_begin", "contact_end", "collision" } do w:on(kind, log) end
    w:step(m)
    return table.concat(seen, "\n")
  end
  local function settling(dim)
    return function()
      local w = (dim == 2 and impact.world2d or impact.world3d) { strategy = "contact", dt = 0.01 }
      local ground = dim == 2 and s2.block { width = 20, height = 1 } or s3.box { size = { 20, 20, 1 } }
      local box = dim == 2 and s2.block { width = 0.5, height = 0.4 } or s3.box { size = { 0.5, 0.5, 0.4 } }
      local up = function(z) return dim == 2 and { 0.1 * z, z } or { 0.1 * z, 0, z } end
      w:add_body { shape = ground, fixed = true, position = up(-0.5), elasticity = 0 }
      for i = 1, 3 do
        w:add_body { shape = box, position = up(0.25 + 0.6 * i), elasticity = 0.3, friction = 0.5 }
      end
      return w
    end
  end
  for _, case in ipairs { { "2D contact", settling(2) }, { "3D contact", settling(3) } } do
    it(case[1] .. ": the same events as an unsaved run, and the same contacts at once", function()
      local w = case[2]()
      w:step(45)
      local w2 = files.reloaded(w)
      assert.is_true(#w:contacts() > 0)
      assert.are.equal(#w:contacts(), #w2:contacts())
      local never = case[2]()
      never:step(45)
      local expected = events_of(never, 40)
      assert.is_true(#expected > 0)
      assert.are.equal(expected, events_of(w, 40))
      assert.are.equal(expected, events_of(w2, 40))
    end)
  end
end)

describe("impact.load refuses damaged files", function()
  local path
  local function saved_text()
    local w = scene2d({ strategy = "contact", gravity = { 0, -9.81 } }, true)()
    w:step(3)
    path = tmp()
    w:save(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
  end
  local function write(text)
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
  end
  local function refused(pattern)
    local ok, err = pcall(impact.load, path)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find(path, 1, true), err)
    assert.is_truthy(tostring(err):find(pattern), err)
  end
  after_each(function() if path then os.remove(path) end end)

  it("a truncated file", function()
    local text = saved_text()
    write(text:sub(1, #text // 2))
    refused("is not a saved world: line %d+, column %d+")
  end)
  it("a corrupted value", function()
    local text = saved_text()
    write((text:gsub('%["mass"%]=[^,]+', '["mass"]=-0x1p+0', 2)))
    refused("bodies%[1%]%.mass must be a number >= 0, got %-1")
  end)
  it("a value of the wrong type", function()
    local text = saved_text()
    write((text:gsub('%["time"%]=[^,]+', '["time"]="soon"', 1)))
    refused("time must be a finite number, got \"soon\"")
  end)
  it("a body index out of range (checked as the world is built)", function()
    local text = saved_text()
    write((text:gsub('%["body1"%]=%d+', '["body1"]=99', 1)))
    refused("body1 must be an integer in %[0, %d+%]")
  end)
  it("a damaged cache", function()
    local text = saved_text()
    write((text:gsub('%["warm_keys"%]="', '["warm_keys"]="zz', 1)))
    refused("caches%.warm_keys must be a string of hexadecimal digits")
  end)
  it("options given for a world that is not a dem scene", function()
    saved_text()
    local ok, err = pcall(impact.load, path, { functions = {} })
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("option 'functions' is for dem scenes", 1, true), err)
  end)
  it("records of another build's layout", function()
    local text = saved_text()
    write((text:gsub('%["layout"%]="def %d+', '["layout"]="def 1', 1)))
    refused('written by a build of impact whose saved records differ from this one\'s %(layout "def 1')
  end)
  it("a wrong version", function()
    local text = saved_text()
    write((text:gsub('"impact%.world 1"', '"impact.world 99"')))
    refused('format "impact.world 99", which this version of impact does not read')
  end)
  it("code instead of data", function()
    saved_text()
    write("os.exit(1)")
    refused("expected 'return'")
  end)
  it("a missing file", function()
    path = tmp()
    local ok, err = pcall(impact.load, path)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("impact.load: cannot read " .. path, 1, true), err)
  end)
end)

describe("World:save refuses", function()
  it("an unwritable path", function()
    local w = impact.world2d {}
    local bad = dir .. "/no_such_dir_impact/x/world.lua"
    local ok, err = pcall(w.save, w, bad)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("World:save: cannot write " .. bad, 1, true), err)
  end)
  it("a motion function, naming the body", function()
    local w = impact.world2d {}
    w:add_body { shape = s2.ball { radius = 1 }, kinematic = true, name = "lift",
                 motion = function(t) return { 0, t } end }
    local ok, err = pcall(w.save, w, tmp())
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("body 'lift' (#1) has a motion function", 1, true), err)
  end)
  it("body data that is not plain data, naming the body", function()
    local w = impact.world2d {}
    local b = w:add_body { shape = s2.ball { radius = 1 }, name = "b" }
    b.data = { fn = print }
    local ok, err = pcall(w.save, w, tmp())
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("the data of body 'b' (#1) is not plain data", 1, true), err)
  end)
  it("keeps 2D joints added since the last step (their first impulse is still to come)", function()
    -- two blocks welded by two pins while one spins: the first step's plastic impulse makes
    -- them turn as one at 0.6 / 0.297 rad/s, in the saved world and in the loaded one alike
    local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, 0 },
                               integrator = "rk4", extra_accel = "none", joint_small_impacts = true }
    local a = w:add_body { shape = impact.shape2d.block { width = 1, height = 1 }, mass = 0.6,
                           spin = 6 }
    local b = w:add_body { shape = impact.shape2d.block { width = 0.9, height = 1.1 }, mass = 0.6,
                           position = { 0.4, -0.4 } }
    a:no_collide(b)
    w:add_joint { body1 = a, point1 = { 0.4, 0 }, body2 = b, point2 = { 0, 0.4 }, normal = "both" }
    w:add_joint { body1 = a, point1 = { 0, -0.4 }, body2 = b, point2 = { -0.4, 0 }, normal = "both" }
    local w2 = files.reloaded(w)
    w:step(10)
    w2:step(10)
    assert.near(0.6 / 0.297, a.spin, 1e-9)
    assert.are.equal(exact(w), exact(w2))
  end)
end)
