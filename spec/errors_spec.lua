-- Bad input gets a clear error naming the argument, the value and what is accepted.
local impact = require("impact")

local function ball() return impact.shape2d.ball { radius = 0.5 } end

local function err_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return tostring(err)
end

describe("world options", function()
  it("rejects an unknown option and lists the accepted ones", function()
    local e = err_of(impact.world2d, { gravty = { 0, -1 } })
    assert.matches('impact.world2d: unknown option "gravty" %(accepted: gravity, strategy, dt, '
      .. "integrator, damping, gravitation, seed, compliant, ", e)
    for _, key in ipairs { "collision_handling", "distance_tol", "polyhedra" } do
      assert.matches(key, e, 1, true)
    end
  end)

  it("names the option, the value and what is accepted", function()
    assert.matches("impact.world2d: option 'dt' must be a positive finite number, got %-0.1",
      err_of(impact.world2d, { dt = -0.1 }))
    assert.matches("impact.world3d: option 'dt' must be a positive finite number, got nan",
      err_of(impact.world3d, { dt = 0 / 0 }))
    assert.matches("impact.world2d: option 'gravity' must be an array of 2 numbers, got 3",
      err_of(impact.world2d, { gravity = { 0, 0, 1 } }))
    assert.matches("impact.world2d: option 'gravity' must be an array of 2 finite numbers, "
      .. "element 2 is nan", err_of(impact.world2d, { gravity = { 0, 0 / 0 } }))
    assert.matches('impact.world2d: option \'strategy\' must be one of "none", "compliant", "dem", '
      .. '"impulse", "contact", got "bogus"',
      err_of(impact.world2d, { strategy = "bogus" }))
    assert.matches('option \'integrator.method\' must be one of "euler", "modified_euler", "rk4", "rkf45", '
      .. '"rkck", "rk8pd", "msbdf", got "rk5"', err_of(impact.world2d, { integrator = "rk5" }))
    assert.matches("options 'integrator.rtol' and 'integrator.atol' cannot both be 0",
      err_of(impact.world2d, { integrator = { method = "rkf45", rtol = 0, atol = 0 } }))
    assert.matches("option 'seed' must be an integer from 0 to", err_of(impact.world2d, { seed = 1.5 }))
    assert.matches("option 'damping' must be a table", err_of(impact.world2d, { damping = 1 }))
    assert.matches("impact.world2d: options must be a table, got 3", err_of(impact.world2d, 3))
  end)

  it("checks properties set later", function()
    local w = impact.world2d {}
    assert.matches("World: option 'dt' must be a positive finite number, got 0",
      err_of(function() w.dt = 0 end))
    assert.matches("World: 'time' cannot be set", err_of(function() w.time = 3 end))
  end)
end)

describe("conventions a world cannot honour", function()
  it("are refused with the world's dimension, strategy and solver", function()
    local honour = "cannot honour it: leave it out or give \"impact\""
    assert.matches("option 'conventions' %(got \"myphysicslab\"%) changes the 2D collision "
      .. "advance.*this world %(2D, strategy \"compliant\"%) " .. honour,
      err_of(impact.world2d, { strategy = "compliant", conventions = "myphysicslab" }))
    assert.matches("%(2D, strategy \"contact\", contact_solver \"soft\"%) " .. honour,
      err_of(impact.world2d, { strategy = "contact", contact_solver = "soft",
                               conventions = "myphysicslab" }))
    assert.matches("%(3D, strategy \"impulse\"%) " .. honour,
      err_of(impact.world3d, { strategy = "impulse", conventions = "myphysicslab" }))
    assert.matches('option \'conventions\' must be one of "impact", "myphysicslab", got "mpl"',
      err_of(impact.world2d, { strategy = "contact", conventions = "mpl" }))
    for _, s in ipairs { "impulse", "contact" } do
      assert.is_not_nil(impact.world2d { strategy = s, conventions = "myphysicslab" })
    end
    local w = impact.world2d { strategy = "contact", conventions = "myphysicslab" }
    w.strategy = "impulse"
    assert.matches('the compliant strategy cannot honour the world\'s option conventions = '
      .. '"myphysicslab"', err_of(function() w.strategy = "compliant" end))
    assert.equal("impulse", w.strategy)
    assert.is_not_nil(impact.world3d { strategy = "contact", conventions = "impact" })
  end)
end)

describe("integrators a strategy would not use", function()
  it("are refused, or fail the step, with what to do instead", function()
    -- 2D impulse and contact back each step up to a collision's time: fixed-step methods only
    local w = impact.world2d { strategy = "contact", integrator = "rkf45" }
    w:add_body { shape = ball(), mass = 1 }
    assert.matches("the 2D impulse and contact strategies step with a fixed%-step method.*not "
      .. "rkf45: set w.integrator = \"rk4\"", err_of(w.step, w))
    assert.equal(0, w.time)
    w.integrator = "rk4"
    w:step()
    -- semi-implicit Euler steps (2D symplectic_euler, the soft step), 3D velocity-level steps and
    -- dem: their own schemes
    assert.matches("option 'integrator' would not be used: time_stepping = \"symplectic_euler\"",
      err_of(impact.world2d, { strategy = "contact", time_stepping = "symplectic_euler",
                               integrator = "euler" }))
    assert.matches("option 'integrator' would not be used: the 3D engine's velocity%-level steps",
      err_of(impact.world3d, { strategy = "contact", integrator = "rk4" }))
    assert.matches("option 'integrator' would not be used: the dem strategy steps by its own "
      .. "leapfrog", err_of(impact.world3d, { strategy = "dem", integrator = "rk8pd" }))
    local w3 = impact.world3d { strategy = "impulse" }
    assert.matches("an integrator would not be used", err_of(function() w3.integrator = "euler" end))
    assert.is_not_nil(impact.world3d { strategy = "contact", time_stepping = "ode", integrator = "rkf45" })
  end)
end)

describe("body options", function()
  local w
  before_each(function() w = impact.world2d {} end)

  it("rejects zero, negative and NaN mass and density", function()
    assert.matches("World:add_body: option 'mass' must be a positive finite number, got 0",
      err_of(w.add_body, w, { shape = ball(), mass = 0 }))
    assert.matches("option 'mass' must be a positive finite number, got %-2",
      err_of(w.add_body, w, { shape = ball(), mass = -2 }))
    assert.matches("option 'mass' must be a positive finite number, got nan",
      err_of(w.add_body, w, { shape = ball(), mass = 0 / 0 }))
    assert.matches("option 'density' must be a positive finite number, got %-1",
      err_of(w.add_body, w, { shape = ball(), density = -1 }))
    assert.matches("give either 'mass' or 'density', not both",
      err_of(w.add_body, w, { shape = ball(), mass = 1, density = 1 }))
  end)

  it("rejects NaN and infinite positions and velocities", function()
    assert.matches("option 'position' must be an array of 2 finite numbers, element 1 is nan",
      err_of(w.add_body, w, { shape = ball(), position = { 0 / 0, 0 } }))
    assert.matches("option 'velocity' must be an array of 2 finite numbers, element 2 is inf",
      err_of(w.add_body, w, { shape = ball(), velocity = { 0, math.huge } }))
    assert.matches("option 'angle' must be a finite number, got nan",
      err_of(w.add_body, w, { shape = ball(), angle = 0 / 0 }))
  end)

  it("rejects unknown keys, wrong types and impossible bodies", function()
    assert.matches('World:add_body: unknown option "positon"',
      err_of(w.add_body, w, { shape = ball(), positon = { 0, 0 } }))
    assert.matches('unknown option "orientation"',  -- a 3D key in a 2D world
      err_of(w.add_body, w, { shape = ball(), orientation = { 1, 0, 0, 0 } }))
    assert.matches("option 'shape' must be a shape %(impact.shape2d.%*%), got \"ball\"",
      err_of(w.add_body, w, { shape = "ball" }))
    assert.matches("option 'shape' is a 3D sphere; a 2D world needs a 2D shape",
      err_of(w.add_body, w, { shape = impact.shape3d.sphere { radius = 1 } }))
    assert.matches("a body needs a 'shape', or both 'mass' and 'inertia'",
      err_of(w.add_body, w, { mass = 1 }))
    assert.matches("option 'fixed' must be true or false, got 1",
      err_of(w.add_body, w, { shape = ball(), fixed = 1 }))
    assert.matches("a fixed body cannot have a velocity or spin",
      err_of(w.add_body, w, { shape = ball(), fixed = true, velocity = { 1, 0 } }))
    assert.matches("option 'name' must be a string, got 3",
      err_of(w.add_body, w, { shape = ball(), name = 3 }))
  end)

  it("rejects unphysical 3D inertia tensors and zero quaternions", function()
    local w3 = impact.world3d {}
    assert.matches("the inertia tensor is not physical",
      err_of(w3.add_body, w3, { mass = 1, inertia = { 1, 1, 5 } }))
    assert.matches("the inertia tensor must be positive definite",
      err_of(w3.add_body, w3, { mass = 1, inertia = { { 1, 2, 0 }, { 2, 1, 0 }, { 0, 0, 1 } } }))
    assert.matches("the inertia tensor must be symmetric",
      err_of(w3.add_body, w3, { mass = 1, inertia = { { 1, 0.5, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } }))
    assert.matches("option 'orientation' must be a nonzero quaternion",
      err_of(w3.add_body, w3, { shape = impact.shape3d.sphere {}, orientation = { 0, 0, 0, 0 } }))
  end)

  it("checks body properties set later", function()
    local b = w:add_body { shape = ball(), mass = 1 }
    assert.matches("Body.position must be an array of 2 finite numbers, element 2 is nan",
      err_of(function() b.position = { 0, 0 / 0 } end))
    assert.matches("Body: 'mass' cannot be set", err_of(function() b.mass = 3 end))
    local f = w:add_body { shape = ball(), fixed = true }
    assert.matches("Body.velocity: a fixed body does not move",
      err_of(function() f.velocity = { 1, 0 } end))
    assert.matches("Body:apply_force: argument #1 must be an array of 2 numbers, got 3",
      err_of(b.apply_force, b, { 1, 2, 3 }))
  end)
end)

describe("other calls", function()
  it("run, on, springs and the recorder reject bad options", function()
    local w = impact.world2d {}
    local b = w:add_body { shape = ball(), mass = 1 }
    assert.matches('World:run: unknown option "until"', err_of(w.run, w, { ["until"] = 1 }))
    assert.matches("World:run: give exactly one of until_time, duration, steps",
      err_of(w.run, w, { until_time = 1, steps = 3 }))
    assert.matches("World:on: unknown event \"colision\" %(accepted: collision, contact_begin, "
      .. "contact_end, step%)",
      err_of(w.on, w, "colision", print))
    assert.matches("World:add_spring: option 'body2' must be a body, got nil",
      err_of(w.add_spring, w, { body1 = b, stiffness = 1 }))
    assert.matches("option 'stiffness' must be a finite number >= 0, got %-1",
      err_of(w.add_spring, w, { body1 = b, body2 = w.background, stiffness = -1 }))
    assert.matches('impact.recorder: unknown option "evry"',
      err_of(impact.recorder, { w, evry = 1, columns = {} }))
    assert.matches('impact.recorder: column "y": source must be a function',
      err_of(impact.recorder, { w, columns = { y = "height" } }))
  end)

  it("a body of another world is refused", function()
    local w1, w2 = impact.world2d {}, impact.world2d {}
    local b = w1:add_body { shape = ball(), mass = 1 }
    assert.matches("World:remove_body: argument #1 is a body of another world",
      err_of(w2.remove_body, w2, b))
  end)
end)
