-- impact.options, the one module for option checks, and the messages of every public
-- constructor: an unknown key names its parent (the constructor, or parent.key when nested), a
-- NaN names the option and prints "nan".
local impact = require("impact")
local options = require("impact.options")

local nan = 0 / 0

local function err_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return tostring(err)
end

local function has(text, err)
  assert(err:find(text, 1, true), string.format("expected %q in %q", text, err))
end

describe("impact.options", function()
  it("describe prints numbers exactly and NaN as nan", function()
    assert.equals("nan", options.describe(nan))
    assert.equals("-0.1", options.describe(-0.1))
    assert.equals("inf", options.describe(math.huge))
    assert.equals("3", options.describe(3))
    assert.equals('"x"', options.shown("x"))
    assert.equals("table", options.shown({}))
    assert.equals("nil", options.shown(nil))
  end)

  it("check_keys names the table, the key and the sorted accepted keys", function()
    has('f: unknown option "c" (accepted: a, b)',
      err_of(options.check_keys, "f", { c = 1 }, { b = true, a = true }))
    has('f: unknown option "c" (accepted: a, b)', err_of(options.check_keys, "f", { c = 1 }, { "a", "b" }))
    has("f: unknown option 5 (accepted: a)", err_of(options.check_keys, "f", { [5] = 1 }, { "a" }))
    has("f: options must be a table, got number", err_of(options.check_keys, "f", 3, { "a" }))
    assert.same({}, options.check_keys("f", nil, { "a" }, { optional = true }))
    local t = { a = 1 }
    assert.equals(t, options.check_keys("f", t, { a = true }))
    has('f: unknown option "x" (accepted: [1] = world, every)',
      err_of(options.check_keys, "f", { x = 1 }, { every = true }, { accepted_text = "[1] = world, every" }))
  end)

  it("nested options are named parent.key", function()
    has("f: unknown option integrator.rtoll (accepted: atol, rtol)",
      err_of(options.check_keys, "f", { rtoll = 1 }, { "rtol", "atol" }, { parent = "integrator" }))
    has('f: unknown option series[1]["a b"] (accepted: x)',
      err_of(options.check_keys, "f", { ["a b"] = 1 }, { "x" }, { parent = "series[1]" }))
    has("f: option 'integrator' must be a table, got 3",
      err_of(options.check_keys, "f", 3, { "rtol" }, { parent = "integrator" }))
    has("f: option 'integrator.rtol' must be a finite number >= 0, got nan",
      err_of(options.number, "f", { rtol = nan }, "rtol", 1, { parent = "integrator", min = 0 }))
  end)

  it("number: finite, ranges with open and closed ends, integers", function()
    assert.equals(2, options.number("f", {}, "x", 2))
    assert.equals(0.5, options.number("f", { x = 0.5 }, "x", 2, { min = 0, max = 1 }))
    has("f: option 'x' must be a finite number, got inf", err_of(options.number, "f", { x = math.huge }, "x"))
    has("f: option 'x' must be a finite number, got \"1\"", err_of(options.number, "f", { x = "1" }, "x"))
    has("option 'x' must be a finite number in [0, 1], got 2",
      err_of(options.number, "f", { x = 2 }, "x", nil, { min = 0, max = 1 }))
    has("option 'x' must be a finite number in [0, 1), got 1",
      err_of(options.number, "f", { x = 1 }, "x", nil, { min = 0, max = 1, max_open = true }))
    has("option 'x' must be a finite number in (0, 1], got 0",
      err_of(options.number, "f", { x = 0 }, "x", nil, { min = 0, max = 1, min_open = true }))
    has("option 'x' must be a finite number > 0, got 0",
      err_of(options.number, "f", { x = 0 }, "x", nil, { min = 0, min_open = true }))
    has("option 'x' must be a finite number <= 1, got 1.5",
      err_of(options.number, "f", { x = 1.5 }, "x", nil, { max = 1 }))
    has("option 'x' must be a number in (0, 1000], got nan",
      err_of(options.number, "f", { x = nan }, "x", nil, { min = 0, min_open = true, max = 1000,
        text = "a number in (0, 1000]" }))
    has("option 'x' must be a finite number, got nil",
      err_of(options.number, "f", {}, "x", nil, { required = true }))
    has("f: property 'E' must be a finite number > 0, got -1",
      err_of(options.check_number, "f", "E", -1, { min = 0, min_open = true, noun = "property" }))
    assert.equals(3, options.integer("f", { n = 3 }, "n", 1, { min = 1 }))
    has("option 'n' must be an integer >= 1, got 1.5",
      err_of(options.integer, "f", { n = 1.5 }, "n", 1, { min = 1 }))
    has("option 'n' must be an integer in [1, 9], got 10",
      err_of(options.integer, "f", { n = 10 }, "n", 1, { min = 1, max = 9 }))
  end)

  it("enum, boolean, string, func, vector", function()
    assert.equals("b", options.enum("f", { m = "b" }, "m", "a", { "a", "b" }))
    has('f: option \'m\' must be one of "a", "b", got "c"',
      err_of(options.enum, "f", { m = "c" }, "m", "a", { "a", "b" }))
    assert.is_false(options.boolean("f", {}, "b", false))
    has("f: option 'b' must be a boolean, got nan", err_of(options.boolean, "f", { b = nan }, "b", false))
    has("f: option 's' must be a string, got 5", err_of(options.string, "f", { s = 5 }, "s"))
    assert.equals(print, options.func("f", { fn = print }, "fn"))
    local callable = setmetatable({}, { __call = function() end })
    assert.equals(callable, options.func("f", { fn = callable }, "fn"))
    has("f: option 'fn' must be a function, got table", err_of(options.func, "f", { fn = {} }, "fn"))
    has("f: option 'fn' must be a function, got nil",
      err_of(options.func, "f", {}, "fn", nil, { required = true }))
    assert.same({ 1, 2 }, options.vector("f", { g = { 1, 2 } }, "g", nil, 2))
    has("f: option 'g' must be an array of 2 finite numbers, got table",
      err_of(options.vector, "f", { g = { 1 } }, "g", nil, 2))
    has("f: option 'g[2]' must be a finite number, got nan",
      err_of(options.vector, "f", { g = { 1, nan } }, "g", nil, 2))
  end)

  it("errors point at the caller of the function that checks (level)", function()
    local function constructor(opts)
      options.check_keys("c", opts, { "a" })
      local v = options.number("c", opts, "a", 0, { min = 0 })
      return v  -- not a tail call: Lua's error levels do not count a frame a tail call replaced
    end
    local line = debug.getinfo(1, "l").currentline
    local ok, err = pcall(function() constructor { a = -1 } end)
    assert.is_false(ok)
    has("options_spec.lua:" .. (line + 1) .. ": c: option 'a'", err)
    ok, err = pcall(function() constructor { b = 1 } end)
    assert.is_false(ok)
    has("options_spec.lua:" .. (line + 4) .. ": c: unknown option", err)
  end)
end)

describe("every public constructor", function()
  local w = impact.world2d {}
  local ball = impact.shape2d.ball { radius = 0.1 }
  local b = w:add_body { shape = ball, mass = 1 }
  local script = "spec/options_spec.lua"
  -- { name, call with an unknown key, its parent's text, call with a NaN, the option's text }
  local cases = {
    { "world2d", function() impact.world2d { bogus = 1 } end, 'impact.world2d: unknown option "bogus"',
      function() impact.world2d { dt = nan } end, "impact.world2d: option 'dt'" },
    { "world3d", function() impact.world3d { bogus = 1 } end, 'impact.world3d: unknown option "bogus"',
      function() impact.world3d { gravity = { 0, nan, 0 } } end, "impact.world3d: option 'gravity'" },
    { "integrator", function() impact.world2d { integrator = { rtoll = 1 } } end,
      "impact.world2d: unknown option integrator.rtoll (accepted: method, rtol",
      function() impact.world2d { integrator = { rtol = nan } } end, "option 'integrator.rtol'" },
    { "World.integrator", function() w.integrator = { method = "rk4", hmaxx = 1 } end,
      "World: unknown option integrator.hmaxx",
      function() w.integrator = { method = "rk4", hmax = nan } end, "World: option 'integrator.hmax'" },
    { "damping", function() impact.world2d { damping = { lin = 1 } } end, "unknown option damping.lin",
      function() impact.world2d { damping = { linear = nan } } end, "option 'damping.linear'" },
    { "gravitation",
      function() impact.world2d { gravitation = { g = 1 } } end, "unknown option gravitation.g",
      function() impact.world2d { gravitation = { G = nan } } end, "option 'gravitation.G'" },
    { "compliant", function() impact.world2d { strategy = "compliant", compliant = { zeps = 1 } } end,
      "unknown option compliant.zeps",
      function() impact.world2d { strategy = "compliant", compliant = { z_eps = nan } } end,
      "option 'compliant.z_eps'" },
    { "polyhedra", function() impact.world3d { polyhedra = { eps = 1 } } end, "unknown option polyhedra.eps",
      function() impact.world3d { polyhedra = { minarea = nan } } end, "option 'polyhedra.minarea'" },
    { "shape2d.ball",
      function() impact.shape2d.ball { radiu = 1 } end, 'impact.shape2d.ball: unknown option "radiu"',
      function() impact.shape2d.ball { radius = nan } end, "impact.shape2d.ball: option 'radius'" },
    { "shape3d.sphere", function() impact.shape3d.sphere { radiu = 1 } end,
      'impact.shape3d.sphere: unknown option "radiu"',
      function() impact.shape3d.sphere { radius = nan } end, "impact.shape3d.sphere: option 'radius'" },
    { "add_body", function() w:add_body { shape = ball, positon = { 0, 0 } } end,
      'World:add_body: unknown option "positon"',
      function() w:add_body { shape = ball, mass = nan } end, "World:add_body: option 'mass'" },
    { "add_spring", function() w:add_spring { bogus = 1 } end, 'World:add_spring: unknown option "bogus"',
      function() w:add_spring { body1 = b, body2 = w.background, stiffness = nan } end,
      "World:add_spring: option 'stiffness'" },
    { "run", function() w:run { bogus = 1 } end, 'World:run: unknown option "bogus"',
      function() w:run { duration = nan } end, "World:run: option 'duration'" },
    { "recorder", function() impact.recorder { w, bogus = 1 } end, 'impact.recorder: unknown option "bogus"',
      function() impact.recorder { w, every = nan, columns = { t = "time" } } end,
      "impact.recorder: option 'every'" },
    { "viewer.recorder", function() impact.viewer.recorder { w, bogus = 1 } end,
      'impact.viewer.recorder: unknown option "bogus"',
      function() impact.viewer.recorder { w, every = nan } end, "impact.viewer.recorder: option 'every'" },
    { "vtk.series",
      function() impact.vtk.series { w, bogus = 1 } end, 'impact.vtk.series: unknown option "bogus"',
      function() impact.vtk.series { w, every = nan } end, "impact.vtk.series: option 'every'" },
    { "picture.film", function() impact.picture.film { w, bogus = 1 } end,
      'impact.picture.film: unknown option "bogus"',
      function() impact.picture.film { w, every = nan } end, "impact.picture.film: option 'every'" },
    { "plot", function() impact.plot { series = { { x = { 1 }, y = { 1 }, colour = 1 } } } end,
      "impact.plot: unknown option series[1].colour",
      function() impact.plot { series = { { x = { 1 }, y = { 1 } } }, x_range = { 0, nan } } end,
      "impact.plot: option 'x_range'" },
    { "batch", function() impact.batch { bogus = 1 } end, 'impact.batch: unknown option "bogus"',
      function() impact.batch { script = script, params = { {} }, poll = nan } end
        , "impact.batch: option 'poll'" },
    { "material.define", function() impact.material.define("m", { bogus = 1 }) end,
      'impact.material.define: unknown property "bogus"',
      function() impact.material.define("m", { E = nan, nu = 0.3, density = 1 }) end,
      "impact.material.define: property 'E'" },
    { "contact_pair.define", function() impact.contact_pair.define("steel", "steel", { bogus = 1 }) end,
      'impact.contact_pair.define: unknown property "bogus"',
      function() impact.contact_pair.define("steel", "steel", { cor = nan }) end,
      "impact.contact_pair.define: property 'cor'" },
    { "lcp.solve", function() impact.lcp.solve({ { 1 } }, { 1 }, { bogus = 1 }) end,
      'impact.lcp.solve: unknown option "bogus"',
      function() impact.lcp.solve({ { 1 } }, { 1 }, { tolerance = nan }) end
        , "impact.lcp.solve: option 'tolerance'" },
    { "dem.newton",
      function() impact.dem.newton { bogus = 1 } end, 'impact.dem.newton: unknown option "bogus"',
      function() impact.dem.newton { damping = nan } end, "impact.dem.newton: option 'damping'" },
    { "dem.collider",
      function() impact.dem.collider { verlet = 1 } end, 'impact.dem.collider: unknown option "verlet"',
      function() impact.dem.collider { verlet_distance = nan } end
        , "impact.dem.collider: option 'verlet_distance'" },
    { "dem.every", function() impact.dem.every { bogus = 1 } end, 'impact.dem.every: unknown option "bogus"',
      function() impact.dem.every { time = nan, fn = print } end, "impact.dem.every: option 'time'" },
    { "dem.frict", function() impact.dem.frict { bogus = 1 } end,
      'impact.dem.frict: unknown option "bogus"',
      function() impact.dem.frict { young = nan } end, "impact.dem.frict: option 'young'" },
  }
  for _, c in ipairs(cases) do
    it(c[1] .. " names the parent of an unknown key, and a NaN as nan", function()
      local err = err_of(c[2])
      has(c[3], err)
      has("(accepted: ", err)
      err = err_of(c[4])
      has(c[5], err)
      has("nan", err)
    end)
  end
end)

describe("the property tables of World and Body", function()
  -- every name is reachable: the tables are searched by binary search, so an entry out of
  -- order would read as nil
  it("read every property, and refuse to set a read-only one", function()
    for _, dim in ipairs { 2, 3 } do
      local w = dim == 2 and impact.world2d {} or impact.world3d {}
      for _, k in ipairs { "background", "damping", "dim", "dt", "gravitation", "gravity", "integrator",
                           "seed", "steps", "strategy", "time" } do
        assert.is_not_nil(w[k], k)
      end
      assert.is_nil(w.no_such_property)
      has("World: 'time' cannot be set (settable: dt, gravity", err_of(function() w.time = 1 end))
      has("World: 'bogus' cannot be set", err_of(function() w.bogus = 1 end))
      local shape = dim == 2 and impact.shape2d.ball { radius = 1 } or impact.shape3d.sphere { radius = 1 }
      local b = w:add_body { shape = shape, mass = 1 }
      local common = { "fixed", "id", "inertia", "is_background", "mass", "position", "shape", "velocity" }
      local own = dim == 2 and { "angle", "spin" } or { "angular_velocity", "orientation", "world_inertia" }
      local other = dim == 2 and { "angular_velocity", "orientation", "world_inertia" } or { "angle", "spin" }
      for _, k in ipairs(common) do assert.is_not_nil(b[k], k) end
      for _, k in ipairs(own) do assert.is_not_nil(b[k], k) end
      for _, k in ipairs(other) do assert.is_nil(b[k], k) end
      has("Body: 'mass' cannot be set", err_of(function() b.mass = 2 end))
      has("Body: '" .. other[1] .. "' cannot be set", err_of(function() b[other[1]] = 1 end))
      b.position = dim == 2 and { 1, 2 } or { 1, 2, 3 }
      assert.equals(2, b.position[2])
      w.dt = 0.5
      assert.equals(0.5, w.dt)
    end
  end)
end)
