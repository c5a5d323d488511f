--- tools/state_hashes.lua: the state hash of one short run of every strategy and mode.
--- A change meant to leave results alone (a restructuring, a speed-up) prints the same lines
--- before and after it: `make hashes > before.txt`, change, `make hashes | diff before.txt -`.
local impact = require("impact")
local dem = impact.dem

local scenes = {}
local function scene(name, fn) scenes[#scenes + 1] = { name = name, fn = fn } end

-- 2D: a ball bouncing on a floor beside a block resting on it and a block tipping over a corner
local function scene2d(opts)
  local w = impact.world2d(opts)
  w:add_body { shape = impact.shape2d.block { width = 10, height = 0.5 }, fixed = true,
               position = { 0, -0.25 }, material = opts.strategy == "compliant" and "steel" or nil }
  local mat = opts.strategy == "compliant" and "steel" or nil
  local extra = opts.strategy ~= "compliant" and opts.strategy ~= "none"
  local function add(def)
    def.material = mat
    if extra then def.elasticity, def.friction = 0.6, 0.4 end
    return w:add_body(def)
  end
  add { shape = impact.shape2d.ball { radius = 0.2 }, density = 1000, position = { -2, 1 },
        velocity = { 1, 0 } }
  if opts.strategy == "compliant" then  -- smooth shapes: flat steel contacts are issue #19
    add { shape = impact.shape2d.ball { radius = 0.15 }, density = 800, position = { 1, 0.3 } }
    add { shape = impact.shape2d.ball { radius = 0.1 }, density = 600, position = { 1.05, 0.8 },
          spin = 1 }
  else
    add { shape = impact.shape2d.block { width = 0.5, height = 0.3 }, density = 800,
          position = { 1, 0.17 } }
    add { shape = impact.shape2d.rounded_block { width = 0.4, height = 0.8, corner_radius = 0.05 },
          density = 600, position = { 3, 0.7 }, angle = 0.3, spin = 1 }
  end
  return w, 1.0
end

for _, strategy in ipairs { "none", "contact", "compliant" } do
  scene("2d " .. strategy, function() return scene2d { strategy = strategy, dt = 0.005 } end)
end
-- impulses only (no resting contact, so no gravity): a cradle of nearly touching balls, where
-- the handling modes differ, and blocks struck by a ball
for _, mode in ipairs { "hybrid", "simultaneous", "serial" } do
  scene("2d impulse " .. mode, function()
    local w = impact.world2d { strategy = "impulse", dt = 0.005, gravity = { 0, 0 },
                               collision_handling = mode }
    for i = 0, 3 do
      w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, elasticity = 1,
                   position = { 0.205 * i, 0.01 * (i % 2) }, velocity = { i == 0 and 1 or 0, 0 } }
    end
    w:add_body { shape = impact.shape2d.rounded_block { width = 0.4, height = 0.8, corner_radius = 0.05 },
                 density = 600, position = { 1.5, 0.2 }, angle = 0.3, spin = 1, elasticity = 0.7 }
    return w, 1.5
  end)
end
for _, mode in ipairs { "simultaneous", "serial" } do
  scene("2d contact " .. mode, function()
    return scene2d { strategy = "contact", dt = 0.005, collision_handling = mode }
  end)
end
scene("2d contact symplectic pgs", function()
  return scene2d { strategy = "contact", dt = 0.005, time_stepping = "symplectic_euler",
                   contact_solver = "pgs" }
end)
scene("2d contact symplectic lcp", function()
  return scene2d { strategy = "contact", dt = 0.005, time_stepping = "symplectic_euler" }
end)
for _, method in ipairs { "rkf45", "rkck", "msbdf" } do
  scene("2d compliant " .. method, function()
    return scene2d { strategy = "compliant", dt = 0.005, integrator = method, gravity = { 0, -9.81 } }
  end)
end

-- 2D connectors: a pendulum on a rod and a rope under impulse (the rod held by the small
-- impacts after each step: without them impulse refuses it)
scene("2d impulse joints", function()
  local w = impact.world2d { strategy = "impulse", dt = 0.005, joint_small_impacts = true }
  local a = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = { 1, 0 } }
  local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = { 2, 0 } }
  w:add_rope { body1 = w.background, body2 = a, length = 1, rod = true }
  w:add_rope { body1 = a, body2 = b, length = 1 }
  return w, 1.0
end)

-- 3D: spheres and boxes on springs under gravitation (none), spheres on a plate (compliant)
for _, method in ipairs { "rk4", "rk8pd", "msbdf" } do
  scene("3d none " .. method, function()
    local w = impact.world3d { gravitation = { G = 0.005, softening = 0.1 }, dt = 0.01, seed = 3,
                               integrator = method }
    local prev
    for i = 1, 6 do
      local shape = i % 2 == 0 and impact.shape3d.box { size = { 0.3, 0.5, 0.7 } }
        or impact.shape3d.sphere { radius = 0.2 + 0.1 * w:random() }
      local b = w:add_body { shape = shape, density = 500 + 1000 * w:random(),
        position = { 4 * w:random() - 2, 4 * w:random() - 2, 4 * w:random() },
        velocity = { w:random() - 0.5, w:random() - 0.5, w:random() },
        angular_velocity = { 3 * w:random(), -2 * w:random(), w:random() } }
      if prev then
        w:add_spring { body1 = prev, point1 = { 0.1, 0, 0 }, body2 = b, point2 = { 0, 0.1, 0 },
                       stiffness = 20, damping = 0.1 }
      end
      prev = b
    end
    return w, 1.0
  end)
end
for _, method in ipairs { "rkf45", "rkck", "rk8pd" } do
  scene("3d compliant " .. method, function()
    local w = impact.world3d { strategy = "compliant", dt = 0.002, integrator = method }
    w:add_body { shape = impact.shape3d.box { size = { 4, 4, 0.2 } }, fixed = true,
                 position = { 0, 0, -0.1 }, material = "steel" }
    for i = 1, 3 do
      w:add_body { shape = impact.shape3d.sphere { radius = 0.1 }, material = "steel",
                   position = { 0.3 * i, 0, 0.15 + 0.1 * i }, velocity = { 0.1, 0.2 * i, 0 } }
    end
    return w, 0.4
  end)
end

-- 3D impulse and contact: a sphere, a box and a hull dropped onto a plate, one box on another,
-- under each solver, sub-stepping, handling and time stepping
local function scene3d(opts)
  local w = impact.world3d(opts)
  w:add_body { shape = impact.shape3d.box { size = { 4, 4, 0.2 } }, fixed = true,
               position = { 0, 0, -0.1 }, friction = 0.5 }
  local function add(def)
    def.friction, def.elasticity, def.density = 0.5, 0.3, 1000
    return w:add_body(def)
  end
  add { shape = impact.shape3d.sphere { radius = 0.1 }, position = { -0.5, 0, 0.4 },
        velocity = { 0.5, 0.2, -3 } }
  add { shape = impact.shape3d.box { size = { 0.3, 0.3, 0.3 } }, position = { 0, 0, 0.15 } }
  add { shape = impact.shape3d.box { size = { 0.2, 0.2, 0.2 } }, position = { 0.02, 0, 0.4 },
        orientation = { math.cos(0.2), 0, 0, math.sin(0.2) } }
  add { shape = impact.shape3d.convex { points = { { 0, 0, 0 }, { 0.2, 0, 0 }, { 0, 0.2, 0 },
                                                   { 0, 0, 0.2 } } },
        position = { 0.6, 0.3, 0.3 }, angular_velocity = { 1, 2, 0 } }
  return w, 0.5
end
for _, v in ipairs {
  { "3d impulse", { strategy = "impulse" } },
  { "3d contact lcp", { strategy = "contact", contact_solver = "lcp" } },
  { "3d contact pgs", { strategy = "contact", contact_solver = "pgs" } },
  { "3d contact pgs substeps 4", { strategy = "contact", contact_solver = "pgs", substeps = 4 } },
  { "3d contact serial", { strategy = "contact", collision_handling = "serial" } },
  { "3d contact ode", { strategy = "contact", time_stepping = "ode", integrator = "rk4" } },
} do
  scene(v[1], function()
    local opts = v[2]
    opts.dt = 0.005
    return scene3d(opts)
  end)
end

-- 3D dem: a small deposition in a box of walls, with facets, a clump and energy tracking
scene("3d dem", function()
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 }, seed = 5 }
  w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true }
  dem.add_facet_box(w, { lo = { -0.3, -0.3, 0 }, hi = { 0.3, 0.3, 0.6 }, open_top = true })
  for i = 1, 60 do
    w:add_body { shape = impact.shape3d.sphere { radius = 0.02 + 0.01 * w:random() }, density = 2600,
                 position = { 0.5 * w:random() - 0.25, 0.5 * w:random() - 0.25, 0.05 + 0.008 * i } }
  end
  w:add_clump { spheres = { { center = { 0, 0, 0.7 }, radius = 0.03 },
                            { center = { 0.04, 0, 0.7 }, radius = 0.025 } }, density = 2600 }
  w.engines = { dem.force_resetter(), dem.collider { verlet_distance = -0.1 },
                dem.interaction_loop { physics = { dem.frict { young = 1e7 } } },
                dem.newton { damping = 0.2, track_energy = true } }
  w.dt = 0.5 * w:p_wave_dt()
  return w, nil, 2000
end)

for _, s in ipairs(scenes) do
  local w, duration, steps = s.fn()
  local ok, err
  if steps then ok, err = pcall(w.step, w, steps) else ok, err = pcall(w.run, w, { duration = duration }) end
  print(string.format("%-30s %s  t = %.17g%s", s.name, w:state_hash(), w.time,
                      ok and "" or ("  error: " .. tostring(err):gsub("\n.*", ""))))
  w:close()
end
