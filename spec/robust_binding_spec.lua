-- The binding survives Lua code run inside its C methods (issue #15): metamethods of the
-- arguments and finalizers that close the world, remove bodies or step it, in every argument
-- position and at every point a metamethod runs; and numbers are checked where they enter.
local impact = require("impact")

-- ---- worlds to attack ------------------------------------------------------------------------

local function ball2() return impact.shape2d.ball { radius = 0.5 } end
local function ball3() return impact.shape3d.sphere { radius = 0.5 } end

-- a world of the strategy with bodies a, b (touching in 2D impulse/contact: b above a), a
-- spring between them (not in the 2D engine worlds' connector specs) and a connector
local function context(kind)
  local c = {}
  if kind == "dem" then
    c.w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 }, dt = 1e-4 }
    c.a = c.w:add_body { shape = ball3(), density = 2600, name = "a" }
    c.b = c.w:add_body { shape = ball3(), density = 2600, position = { 0, 0, 0.9 }, name = "b" }
    c.w:step(1)
  elseif kind == "3d" then
    c.w = impact.world3d {}
    c.a = c.w:add_body { shape = ball3(), mass = 1, name = "a" }
    c.b = c.w:add_body { shape = ball3(), mass = 1, position = { 3, 0, 0 }, name = "b" }
    c.sp = c.w:add_spring { body1 = c.a, body2 = c.b, stiffness = 1 }
  else
    c.w = impact.world2d { strategy = kind ~= "default" and kind or nil, gravity = { 0, -1 } }
    c.a = c.w:add_body { shape = ball2(), mass = 1, name = "a" }
    c.b = c.w:add_body { shape = ball2(), mass = 1, position = { 3, 0 }, name = "b" }
    if kind == "impulse" or kind == "contact" then
      c.conn = c.w:add_rope { body1 = c.a, body2 = c.b, length = 4 }
    else
      c.sp = c.w:add_spring { body1 = c.a, body2 = c.b, stiffness = 1 }
    end
  end
  return c
end

-- Every entry point reaching a world: its name, the world kind, the call, and the plain
-- arguments (tables among them are replaced by hostile proxies).
local entries = {
  { "World:add_body", "default", function(c, o) return c.w:add_body(o) end,
    function() return { shape = ball2(), mass = 1, position = { 1, 2 }, velocity = { 0, 1 },
                        damping = { linear = 0.1 }, inertia = 2 } end },
  { "World:add_body (3D)", "3d", function(c, o) return c.w:add_body(o) end,
    function() return { shape = ball3(), mass = 1, position = { 1, 2, 3 },
                        orientation = { 1, 0, 0, 0 }, angular_velocity = { 0, 0, 1 },
                        inertia = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } end },
  { "World:remove_body", "default", function(c) return c.w:remove_body(c.b) end },
  { "World:bodies", "default", function(c) return c.w:bodies() end },
  { "World:step", "default", function(c) return c.w:step(2) end },
  { "World:energy", "default", function(c) return c.w:energy() end },
  { "World:momentum", "default", function(c) return c.w:momentum() end },
  { "World:angular_momentum", "3d", function(c) return c.w:angular_momentum() end },
  { "World:stats", "default", function(c) return c.w:stats() end },
  { "World:state_hash", "default", function(c) return c.w:state_hash() end },
  { "World:random", "default", function(c) return c.w:random(1, 6) end },
  { "World:add_spring", "default", function(c, o) return c.w:add_spring(o) end,
    function(c) return { body1 = c.a, body2 = c.b, point1 = { 0, 0.1 }, stiffness = 2 } end },
  { "World:remove_spring", "default", function(c) return c.w:remove_spring(c.sp) end },
  { "World:contacts", "compliant", function(c) return c.w:contacts() end },
  { "World:contacts (impulse)", "impulse", function(c) return c.w:contacts() end },
  { "World:distance", "default", function(c) return c.w:distance(c.a, c.b) end },
  { "World:set_pair", "impulse", function(c, o) return c.w:set_pair(o) end,
    function(c) return { body1 = c.a, body2 = c.b, friction = 0.5 } end },
  { "World:add_joint", "contact", function(c, o) return c.w:add_joint(o) end,
    function(c) return { body1 = c.a, point1 = { 0, 0.5 }, normal = { 0, 1 } } end },
  { "World:add_rope", "impulse", function(c, o) return c.w:add_rope(o) end,
    function(c) return { body1 = c.a, body2 = c.b, point2 = { 0, 0.1 }, length = 5 } end },
  { "World:remove_connector", "impulse", function(c, o) return c.w:remove_connector(o) end,
    function(c) return { index = c.conn.index, generation = c.conn.generation } end },
  { "World:connector_error", "impulse", function(c, o) return c.w:connector_error(o) end,
    function(c) return { index = c.conn.index, generation = c.conn.generation } end },
  { "World.gravity =", "default", function(c, v) c.w.gravity = v end,
    function() return { 0, -2 } end },
  { "World.integrator =", "default", function(c, v) c.w.integrator = v end,
    function() return { method = "rk4" } end },
  { "World.damping =", "default", function(c, v) c.w.damping = v end,
    function() return { linear = 0.1, angular = 0.2 } end },
  { "World.gravitation =", "default", function(c, v) c.w.gravitation = v end,
    function() return { G = 1, softening = 0.1 } end },
  { "World.dt =", "default", function(c) c.w.dt = 0.02 end },
  { "World.gravity", "default", function(c) return c.w.gravity end },
  { "World.integrator", "default", function(c) return c.w.integrator end },
  { "#World", "default", function(c) return #c.w end },
  { "World:interactions", "dem", function(c, o) return c.w:interactions(o) end,
    function() return { all = true } end },
  { "World:erase_interaction", "dem", function(c) return c.w:erase_interaction(c.a, c.b) end },
  { "World:dem_stats", "dem", function(c) return c.w:dem_stats() end },
  { "World:dem_energy", "dem", function(c) return c.w:dem_energy() end },
  { "impact.core.dem_export", "dem", function(c) return impact.core.dem_export(c.w) end },
  { "impact.core.dem_collide", "dem", function(c) return impact.core.dem_collide(c.w, 0, 1) end },
  { "Body:apply_force", "default", function(c, f, at) return c.a:apply_force(f, at) end,
    function() return { 1, 2 } end, function() return { 0.1, 0 } end },
  { "Body:apply_torque (3D)", "3d", function(c, t) return c.a:apply_torque(t) end,
    function() return { 0, 0, 1 } end },
  { "Body:apply_impulse", "default", function(c, j, at) return c.a:apply_impulse(j, at) end,
    function() return { 1, 2 } end, function() return { 0.1, 0 } end },
  { "Body:to_world", "default", function(c, p) return c.a:to_world(p) end,
    function() return { 1, 2 } end },
  { "Body:to_body", "3d", function(c, p) return c.a:to_body(p) end,
    function() return { 1, 2, 3 } end },
  { "Body:point_velocity", "default", function(c, p) return c.a:point_velocity(p) end,
    function() return { 1, 2 } end },
  { "Body:momentum", "default", function(c) return c.a:momentum() end },
  { "Body:kinetic_energy", "default", function(c) return c.a:kinetic_energy() end },
  { "Body.position =", "default", function(c, v) c.a.position = v end,
    function() return { 1, 2 } end },
  { "Body.velocity =", "3d", function(c, v) c.a.velocity = v end,
    function() return { 1, 2, 3 } end },
  { "Body.orientation =", "3d", function(c, v) c.a.orientation = v end,
    function() return { 1, 1, 0, 0 } end },
  { "Body.angular_velocity =", "3d", function(c, v) c.a.angular_velocity = v end,
    function() return { 0, 0, 1 } end },
  { "Body.position", "default", function(c) return c.a.position end },
  { "Body.inertia (3D)", "3d", function(c) return c.a.inertia end },
  { "Spring.length", "default", function(c) return c.sp.length end },
  { "Spring.point1", "3d", function(c) return c.sp.point1 end },
  { "Spring.stiffness =", "default", function(c) c.sp.stiffness = 3 end },
}

-- A proxy of t: empty, its fields come through __index and its length through __len, nested
-- tables proxied too; hook() runs before each metamethod (also __tostring, __eq, __concat,
-- __lt, __call, in case the binding ever calls them).
local function proxy(t, hook)
  if type(t) ~= "table" then return t end
  local mt = {}
  mt.__index = function(_, k)
    hook()
    return proxy(t[k], hook)
  end
  mt.__len = function()
    hook()
    return #t
  end
  for _, m in ipairs { "__tostring", "__eq", "__lt", "__le", "__concat", "__call" } do
    mt[m] = function()
      hook()
      return m == "__tostring" and "proxy" or false
    end
  end
  return setmetatable({}, mt)
end

local function args_of(entry, c)
  local args = {}
  for i = 4, #entry do args[i - 3] = entry[i](c) end
  return args
end

-- an object whose finalizer runs fn, dropped at once
local function finalizer(fn) setmetatable({}, { __gc = fn }) end

local closers = {
  ["closes the world"] = function(c) c.w:close() end,
  ["collects a finalizer closing the world"] = function(c)
    finalizer(function() c.w:close() end)
    collectgarbage()
    collectgarbage()
  end,
}

local function is_closed(w) return tostring(w) == "impact.World(closed)" end

describe("re-entrancy: Lua code closing the world inside a C method", function()
  for _, entry in ipairs(entries) do
    local name, kind, call = entry[1], entry[2], entry[3]
    for how, close in pairs(closers) do
      it(name .. ": a metamethod of an argument that " .. how .. " at any point", function()
        -- k-th metamethod call closes; grow k until the call ran no k-th metamethod
        local positions = #entry - 3
        for pos = 1, math.max(positions, 1) do
          for k = 1, 200 do
            local c = context(kind)
            local count, fired = 0, false
            local hook = function()
              count = count + 1
              if count == k then
                fired = true
                close(c)
              end
            end
            local args = args_of(entry, c)
            if positions > 0 then args[pos] = proxy(args[pos], hook) end
            local ok, err = pcall(call, c, table.unpack(args, 1, positions))
            if fired then
              assert.is_false(ok, "the call went on after the world was closed")
              assert.matches("the world was closed while [%w_:.]+ was running", tostring(err))
              assert.is_true(is_closed(c.w))
              assert.has_error(function() c.w:bodies() end, "the world is closed")
              assert.has_error(function() return c.a.position end, "this body's world is closed")
            else
              assert.is_true(ok, tostring(err))
              break
            end
            if positions == 0 then break end
          end
        end
      end)
    end

    it(name .. ": finalizers of earlier garbage closing the world at any allocation", function()
      collectgarbage("incremental", 0, 1000)
      for _ = 1, 6 do
        local c = context(kind)
        local args = args_of(entry, c)
        for _ = 1, 20 do finalizer(function() c.w:close() end) end
        local ok, err = pcall(call, c, table.unpack(args, 1, #entry - 3))
        if not ok then
          local msg = tostring(err)
          assert.is_truthy(msg:find("the world was closed while", 1, true)
            or msg:find("world is closed", 1, true), msg)
        end
        collectgarbage()
        assert.is_true(is_closed(c.w))
      end
      collectgarbage("incremental", 200, 100)
    end)

    it(name .. ": metamethods and finalizers that try to change the world are refused", function()
      local positions = #entry - 3
      for pos = 1, positions do
        for _, change in ipairs {
          function(c) c.w:remove_body(c.a) end,
          function(c) c.w:step() end,
          function(c) c.w:add_body { shape = c.w.dim == 2 and ball2() or ball3(), mass = 1 } end,
          function(c) c.a.position = c.w.dim == 2 and { 5, 5 } or { 5, 5, 5 } end,
        } do
          local c = context(kind)
          local refused = {}
          local hook = function()
            local ok, err = pcall(change, c)
            assert.is_false(ok)
            refused[#refused + 1] = err
          end
          local args = args_of(entry, c)
          args[pos] = proxy(args[pos], hook)
          pcall(call, c, table.unpack(args, 1, positions))
          for _, err in ipairs(refused) do
            assert.matches("the world is in use by [%w_:.]+, which ran the code making this call",
              tostring(err))
          end
          -- the world is whole: both bodies there, the state readable, a step works
          assert.is_true(c.a:is_valid())
          c.w:state_hash()
          c.w:step()
        end
      end
    end)
  end
end)

describe("re-entrancy: handlers and engines", function()
  it("a 'step' handler closing the world ends the run with a clear error", function()
    local c = context("default")
    c.w:on("step", function(w) w:close() end)
    assert.has_error(function() c.w:step(3) end, "the world is closed")
    assert.is_true(is_closed(c.w))
    local c2 = context("default")
    c2.w:on("step", function(w) w:close() end)
    c2.w:step(1)  -- the last step: nothing more to do
    assert.is_true(is_closed(c2.w))
  end)

  it("a contact handler closing the world, then the step handlers", function()
    local w = impact.world2d { strategy = "impulse", gravity = { 0, -10 } }
    w:add_body { shape = impact.shape2d.block { width = 10, height = 1 }, fixed = true }
    w:add_body { shape = impact.shape2d.block { width = 1, height = 1 }, mass = 1,
                 position = { 0, 1.2 }, velocity = { 0, -1 } }
    local seen = 0
    w:on("collision", function() w:close() end)
    w:on("step", function() seen = seen + 1 end)
    local ok, err = pcall(w.step, w, 50)
    assert.is_false(ok)
    assert.matches("the world is closed", err)
    assert.is_true(is_closed(w))
    assert.is_true(seen >= 1)
  end)

  it("a run function closing the world", function()
    local c = context("default")
    assert.has_error(function()
      c.w:run { steps = 5, fn = function(w) if w.steps == 2 then w:close() end end }
    end, "the world is closed")
  end)

  it("stepping re-entrantly from a dem Lua engine is refused; closing from it is clean", function()
    local c = context("dem")
    local dem = impact.dem
    c.w.engines = { dem.force_resetter(), dem.newton { damping = 0 },
                    function(w) w:step() end }
    local ok, err = pcall(c.w.step, c.w, 1)
    assert.is_false(ok)
    assert.matches("cannot step the world from inside one of its own steps", err)
    c.w.engines = { dem.force_resetter(), function(w) w:close() end, dem.newton { damping = 0 } }
    ok, err = pcall(c.w.step, c.w, 1)
    assert.is_false(ok)
    assert.matches("the world is closed", err)
    assert.is_true(is_closed(c.w))
  end)

  it("a world survives a failed step and steps again (the guard is not left raised)", function()
    local c = context("default")
    for _ = 1, 3 do
      assert.has_error(function() c.w:add_body { mass = -1 } end)
      c.w:step()
    end
    c.w:close()
    assert.is_true(is_closed(c.w))
  end)
end)

describe("numbers are checked where they enter", function()
  local shape3d = impact.shape3d
  local range = "its volume and inertia must be positive finite numbers with finite inverses"

  it("shapes whose volume or inertia is 0, inf or NaN", function()
    assert.has_error(function() shape3d.sphere { radius = 1e300 } end,
      "impact.shape3d.sphere: radius = 1e+300 gives a shape with a volume of inf; " .. range
      .. " (keep lengths roughly between 1e-60 and 1e60)")
    assert.has_error(function() shape3d.sphere { radius = 1e-300 } end,
      "impact.shape3d.sphere: radius = 1e-300 gives a shape with a volume of 0; " .. range
      .. " (keep lengths roughly between 1e-60 and 1e60)")
    local cases = {
      { shape3d.box, { size = 1e200 }, "impact.shape3d.box: size = {1e+200, 1e+200, 1e+200}, "
        .. "smoothing = 0 gives a shape with a volume of" },
      { shape3d.cylinder, { length = 5e-324 }, "impact.shape3d.cylinder: radius = 0.5, length = "
        .. "4.94066e-324, smoothing = 0 gives a shape with a volume of 0" },
      { shape3d.cone, { radius = 1e-160 }, "impact.shape3d.cone: radius = 1e-160, length = 1, "
        .. "smoothing = 0 gives a shape with a volume of 1.0494e-320" },
      { shape3d.capsule, { radius = 1e-200, length = 0 }, "impact.shape3d.capsule: radius = "
        .. "1e-200, length = 0 gives a shape with a volume of 0" },
      { shape3d.ellipsoid, { radii = { 1e200, 1, 1 } }, "impact.shape3d.ellipsoid: radii = "
        .. "{1e+200, 1, 1} gives a shape with an inertia per unit density of diagonal "
        .. "{1.67552e+200, inf, inf}" },
      { shape3d.convex, { points = { { 0, 0, 0 }, { 1e-70, 0, 0 }, { 0, 1e-70, 0 }, { 0, 0, 1e-70 } } },
        "impact.shape3d.convex: option 'points' gives a shape with an inertia per unit density" },
      { shape3d.polyhedron, { points = { { 0, 0, 0 }, { 1e-70, 0, 0 }, { 0, 1e-70, 0 },
        { 0, 0, 1e-70 } } }, "impact.shape3d.polyhedron: option 'points' gives a shape with" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1], c[2])
      assert.is_false(ok)
      err = err:gsub("^[^:\n]*:%d+: ", "", 1)  -- the caller's line, then the message
      assert.are.equal(c[3], err:sub(1, #c[3]))
      assert.truthy(err:find(range, 1, true), err)
    end
    -- the usual sizes are untouched
    assert.near(4 / 3 * math.pi * 1e-45, shape3d.sphere { radius = 1e-15 }:volume(), 1e-58)
    assert.near(1e30, shape3d.box { size = 1e10 }:volume(), 1e16)
  end)

  it("masses of inf or whose inverse is inf, where the value is given", function()
    local w = impact.world3d {}
    local ball = shape3d.sphere { radius = 1 }
    assert.has_error(function() w:add_body { shape = ball, mass = 1e-320 } end,
      "World:add_body: option 'mass' must be a positive finite number whose inverse is finite, "
      .. "got 9.99989e-321")
    assert.has_error(function() w:add_body { shape = ball, density = 1e308 } end,
      "World:add_body: a density of 1e+308 (option 'density') times the shape's volume (4.18879) "
      .. "gives a mass of inf; the mass must be a positive finite number whose inverse is finite")
    assert.has_error(function() w:add_body { shape = ball, density = 1e-320 } end,
      "World:add_body: a density of 9.99989e-321 (option 'density') times the shape's volume "
      .. "(4.18879) gives a mass of 4.18869e-320; the mass must be a positive finite number whose "
      .. "inverse is finite")
    local w2 = impact.world2d {}
    assert.has_error(function()
      w2:add_body { shape = impact.shape2d.ball { radius = 1 }, density = 1e308 }
    end, "World:add_body: a density of 1e+308 (option 'density') times the shape's area (3.14159) "
      .. "gives a mass of inf; the mass must be a positive finite number whose inverse is finite")
    assert.are.equal(0, #w)
    assert.are.equal(0, #w2)
    -- the shape's inertia scaled to a huge mass on a tiny shape
    assert.has_error(function()
      w:add_body { shape = shape3d.sphere { radius = 1e-50 }, mass = 1e300 }
    end, "World:add_body: the shape's inertia at a mass of 1e+300: the inertia is not finite")
    -- fixed bodies need no mass
    w:add_body { shape = ball, fixed = true, density = 1e308 }
  end)

  it("explicit inertias whose inverse is not finite", function()
    local w = impact.world3d {}
    assert.has_error(function() w:add_body { mass = 1, inertia = { 1e-320, 1e-320, 1e-320 } } end,
      "World:add_body: option 'inertia' = {{9.99989e-321, 0, 0}, {0, 9.99989e-321, 0}, "
      .. "{0, 0, 9.99989e-321}}: the inertia tensor's smallest principal moment is too small (its "
      .. "inverse is not finite)")
    local w2 = impact.world2d {}
    assert.has_error(function() w2:add_body { mass = 1, inertia = 1e-320 } end,
      "World:add_body: option 'inertia' = 9.99989e-321: the inertia must be a positive finite "
      .. "number whose inverse is finite")
  end)

  it("positions, velocities, orientations, forces and impulses of NaN or inf", function()
    local nan, inf = 0 / 0, math.huge
    local w = impact.world3d {}
    local b = w:add_body { shape = shape3d.sphere { radius = 1 }, mass = 1 }
    for _, x in ipairs { nan, inf, -inf } do
      assert.has_error(function() b.position = { x, 0, 0 } end)
      assert.has_error(function() b.velocity = { 0, x, 0 } end)
      assert.has_error(function() b.angular_velocity = { 0, 0, x } end)
      assert.has_error(function() b.orientation = { 1, x, 0, 0 } end)
      assert.has_error(function() b:apply_force { x, 0, 0 } end)
      assert.has_error(function() b:apply_force({ 1, 0, 0 }, { x, 0, 0 }) end)
      assert.has_error(function() b:apply_impulse { 0, 0, x } end)
      assert.has_error(function() b:apply_torque { 0, x, 0 } end)
    end
    assert.has_error(function() b.orientation = { 1e300, 1e300, 0, 0 } end,
      "Body.orientation must be a nonzero quaternion {w, x, y, z} of finite norm, got one of "
      .. "norm inf")
    -- a bad value leaves the body as it was (no half-written vector)
    b.position = { 1, 2, 3 }
    assert.has_error(function() b.position = { 5, 6, "x" } end)
    assert.are.same({ 1, 2, 3 }, b.position)
    w.gravity = { 0, 0, -1 }
    assert.has_error(function() w.gravity = { 7, nan, 0 } end)
    assert.are.same({ 0, 0, -1 }, w.gravity)
    w.damping = { linear = 0.5, angular = 0.25 }
    assert.has_error(function() w.damping = { linear = 0.1, angular = -1 } end)
    assert.are.same({ linear = 0.5, angular = 0.25 }, w.damping)
    w.gravitation = { G = 2, softening = 0.5 }
    assert.has_error(function() w.gravitation = { G = 3, softening = inf } end)
    assert.are.same({ G = 2, softening = 0.5 }, w.gravitation)
  end)

  it("a default spring rest length that is not finite", function()
    local w = impact.world3d {}
    local a = w:add_body { shape = shape3d.sphere { radius = 1 }, mass = 1 }
    local b = w:add_body { shape = shape3d.sphere { radius = 1 }, mass = 1, position = { 3, 0, 0 } }
    assert.has_error(function()
      w:add_spring { body1 = a, body2 = b, point1 = { 1e300, 0, 0 }, point2 = { -1e300, 0, 0 } }
    end, "World:add_spring: the distance between the points is not finite (inf); give "
      .. "'rest_length' or points closer together")
  end)

  it("sparsify: areas of inf, huge body ids, negative lengths", function()
    local function c(b1, b2, area)
      return { point = { 0, 0, 0 }, area = area or 1, bodies = { b1, b2 }, objects = { 1, 2 } }
    end
    assert.has_error(function() shape3d.sparsify { c(0, 1, math.huge) } end,
      "impact.shape3d.sparsify: contacts[1].area must be a finite number >= 0, got inf")
    -- ids are names: the largest allowed costs no table of that size
    assert.are.same(shape3d.sparsify({ c(3, 0), c(3, 5) }, {}),
      shape3d.sparsify({ c(2147483646, 0), c(2147483646, 5) }, {}))
    assert.has_error(function()
      shape3d.sparsify(setmetatable({}, { __len = function() return -3 end }))
    end, "impact.shape3d.sparsify: the number of contacts must be from 0 to 10000000, got -3")
  end)
end)

describe("closed worlds", function()
  it("b:is_valid() is false, not an error, once the world is closed", function()
    local c = context("default")
    assert.is_true(c.a:is_valid())
    c.w:close()
    assert.is_false(c.a:is_valid())
    assert.are.equal("a", c.a.name)
    assert.are.equal(c.w, c.a.world)
  end)
end)

describe("found by fuzzing", function()
  it("a dem spin whose square overflows fails the step, not the orientation (also 8 at a time)", function()
    for _, n in ipairs { 1, 12 } do
      local w = impact.world3d { strategy = "dem" }
      local bodies = {}
      for i = 1, n do
        bodies[i] = w:add_body { shape = impact.shape3d.sphere { radius = 0.1 }, position = { i, 0, 0 } }
      end
      local b = bodies[n]
      b.angular_velocity = { 0, 0.5, 1e300 }
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      assert.matches("non%-finite", err)
      assert.matches("#" .. n, err)
      assert.same({ 1, 0, 0, 0 }, b.orientation)
      assert.equal(0, w.time)
    end
  end)

  it("an impulse that would make a velocity non-finite is refused and changes nothing", function()
    local w = impact.world3d {}
    local b = w:add_body { mass = 1e-160, inertia = { 0.4, 0.3, 0.1 } }
    local ok, err = pcall(b.apply_impulse, b, { 1e300, -0.7, -5.5 })
    assert.is_false(ok)
    assert.matches("Body:apply_impulse: the impulse would make the body's velocity non%-finite "
      .. "%(mass 1e%-160 kg%)", err)
    assert.same({ 0, 0, 0 }, b.velocity)
    b:apply_impulse({ 1e-160, 0, 0 }, { 0, 1, 0 })  -- a finite one still acts, spin included
    assert.same({ 1, 0, 0 }, b.velocity)
    local w2 = impact.world2d {}
    local b2 = w2:add_body { mass = 1e-300, inertia = 1 }
    assert.has_error(function() b2:apply_impulse { 1e300, 0 } end)
    assert.same({ 0, 0 }, b2.velocity)
  end)

  it("a path point of NaN is named 'nan'", function()
    local ok, err = pcall(function() impact.shape2d.path():move_to(0 / 0, 0) end)
    assert.is_false(ok)
    assert.matches("argument x must be a finite number, got nan$", err)
  end)

  it("an empty compliant 3D world steps (the sweep sorted no end points through NULL)", function()
    local w = impact.world3d { strategy = "compliant" }
    w:step(2)
    assert.near(2 * w.dt, w.time, 1e-15)
  end)

  it("a dem body so far out that its box has no extent (lo + r rounds to lo)", function()
    local s = impact.shape3d.sphere { radius = 0.5 }
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 }, dt = 1e-5 }
    w:add_body { shape = s, mass = 1 }
    local b = w:add_body { shape = s, mass = 1, position = { 0, 0, 0.9 } }
    local f = w:add_body { shape = s, fixed = true, position = { 0, 0, -3 } }
    w:step(2)
    w:remove_body(b)
    f.position = { 1e200, -1.9179515705892136, 1.481953222367884 }
    w:step(1)  -- the sweep met the box's max before its min and ran off its list
    assert.are.same({ 1e200, -1.9179515705892136, 1.481953222367884 }, f.position)
  end)
end)

describe("run lengths", function()
  it("a run longer than 2^53 steps is refused at once (it ran for ever with fn, raised "
    .. "about World:step without)", function()
    local w = impact.world2d {}
    assert.has_error(function() w:run { until_time = 1e300 } end,
      "World:run: until_time = 1e+300 asks for 1e+302 steps of dt = 0.01; at most 2^53 steps "
      .. "are accepted")
    assert.has_error(function() w:run { duration = 1e300, fn = function() end } end,
      "World:run: duration = 1e+300 asks for 1e+302 steps of dt = 0.01; at most 2^53 steps are "
      .. "accepted")
    -- in the past: refused, no step (issue #17: it used to do nothing silently)
    assert.has_error(function() w:run { until_time = -5 } end,
      "World:run: until_time = -5 has already passed (the world's time is 0); give a later time, "
      .. "or duration = D to run on from now")
    assert.are.equal(0, w.steps)
  end)
end)
