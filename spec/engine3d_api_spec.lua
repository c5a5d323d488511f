-- The Lua interface of the 3D engine (impulse and contact strategies in 3D worlds, issue #24
-- items 1 and 5): events, w:contacts(), w:set_pair, and the clear refusal of what the 3D
-- engine cannot honour. The numbers are checked against Newtonian mechanics: a body at rest
-- is carried by N = m g, a sliding sphere feels the Coulomb force mu N against its slip, an
-- inelastic impact takes the impulse m v, v = sqrt(2 g h) after a free fall of h.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function norm(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end

-- a fixed 4 x 4 x 1 slab whose top face is the plane z = 0, and a sphere of radius 0.5, mass
-- m, its centre at height z (on the slab at z = 0.5)
local function sphere_on_slab(strategy, z, opts)
  opts = opts or {}
  local w = impact.world3d { strategy = strategy, gravity = { 0, 0, -g }, dt = 1e-3,
                             collision_handling = opts.handling }
  local slab = w:add_body { shape = shape3d.box { size = { 4, 4, 1 } }, position = { 0, 0, -0.5 },
                            fixed = true, friction = opts.friction or 0.3, elasticity = 0 }
  local ball = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 2,
                            position = { 0, 0, z }, velocity = opts.velocity,
                            friction = opts.friction or 0.3, elasticity = opts.elasticity or 0 }
  return w, slab, ball
end

for _, strategy in ipairs({ "impulse", "contact" }) do
  for _, handling in ipairs({ "simultaneous", "serial", "hybrid" }) do
    describe(string.format("3D %s (%s): a sphere dropped on a slab, elasticity 0", strategy, handling),
      function()
      it("begins one contact, takes the impulse m v of the fall, then rests on N = m g", function()
        local drop, m = 0.5, 2
        local w, slab, ball = sphere_on_slab(strategy, 0.5 + drop, { handling = handling })
        local seen = {}
        for _, kind in ipairs({ "contact_begin", "collision", "contact_end" }) do
          w:on(kind, function(e)
            seen[#seen + 1] = e
            assert.equal(kind, e.kind)
          end)
        end
        w:run { duration = 0.6 }
        -- one contact_begin, then one collision, no contact_end
        local begins, hits = {}, {}
        for _, e in ipairs(seen) do
          assert.are_not.equal("contact_end", e.kind)
          if e.kind == "contact_begin" then begins[#begins + 1] = e else hits[#hits + 1] = e end
        end
        assert.equal(1, #begins)
        assert.is_true(seen[1].kind == "contact_begin")
        -- the impact: one collision event (with elasticity 0 the step that stops the ball at
        -- contact, after a speculative step closed most of the gap)
        assert.equal(1, #hits)
        local impulse = 0
        for _, e in ipairs(hits) do
          impulse = impulse + e.impulse
          assert.is_true(e.time <= hits[1].time + 1.5 * w.dt)
        end
        for _, e in ipairs(seen) do
          assert.equal(slab, e.body1)
          assert.equal(ball, e.body2)
          assert.near({ 0, 0, 1 }, e.normal, 1e-12)
          assert.near({ 0, 0, 0 }, e.point, 1e-2)
          assert.equal("number", type(e.time))
        end
        -- the fall's speed at the impact, sqrt(2 g h): the impact speed and the impulse m v
        local v = math.sqrt(2 * g * drop)
        assert.near(v, math.abs(begins[1].normal_velocity), { rel = 0.02 })
        assert.is_true(hits[1].normal_velocity < 0, "approaching: normal velocity < 0")
        assert.near(v, -hits[1].normal_velocity, { rel = 0.02 })
        assert.near(m * v, impulse, { rel = 0.02 })
        assert.is_nil(begins[1].impulse)
        -- at rest: one contact point carrying the weight
        local cs = w:contacts()
        assert.equal(1, #cs)
        local c = cs[1]
        assert.equal(slab, c.body1)
        assert.equal(ball, c.body2)
        assert.equal("contact", c.kind)
        assert.near({ 0, 0, 1 }, c.normal, 1e-12)
        assert.near({ 0, 0, 0 }, c.point, 1e-3)
        assert.is_true(math.abs(c.distance) <= 0.01, "within distance_tol")
        assert.near(m * g, c.normal_force, { rel = 1e-6 })
        assert.equal(c.normal_force, c.force)
        assert.near(0, norm(c.friction_force), 1e-9)
        assert.near(0, c.normal_velocity, 1e-9)
        assert.near(0.3, c.friction, 0)
        assert.near(0, c.elasticity, 0)
        assert.near(0, ball.velocity[3], 1e-9)
      end)
    end)
  end

  describe(string.format("3D %s: w:set_pair", strategy), function()
    it("sets the friction a sliding sphere feels: mu N against its slip, v = v0 - mu g t", function()
      -- a sphere sliding without spin slides (and decelerates at mu g) for 2 v0 / (7 mu g)
      local v0, m, mu1, mu2 = 2, 2, 0.3, 0.1
      local w, slab, ball = sphere_on_slab(strategy, 0.5, { velocity = { v0, 0, 0 }, friction = mu1 })
      w:run { duration = 0.05 }
      local t1 = w.time
      local c = w:contacts()[1]
      assert.near(mu1, c.friction, 0)
      assert.near(m * g, c.normal_force, { rel = 1e-6 })
      -- on the sphere (body2), against its slip along +x, of size mu N
      assert.near({ -mu1 * m * g, 0, 0 }, c.friction_force, 1e-6 * m * g)
      assert.near(v0 - mu1 * g * t1, ball.velocity[1], 1e-9)
      w:set_pair { body1 = ball, body2 = slab, friction = mu2 }
      w:run { duration = 0.05 }
      c = w:contacts()[1]
      assert.near(mu2, c.friction, 0)
      assert.near({ -mu2 * m * g, 0, 0 }, c.friction_force, 1e-6 * m * g)
      assert.near(v0 - mu1 * g * t1 - mu2 * g * (w.time - t1), ball.velocity[1], 1e-9)
      -- a coefficient not given keeps the pair's
      w:set_pair { body1 = slab, body2 = ball, elasticity = 0.5 }
      w:step()
      c = w:contacts()[1]
      assert.near(mu2, c.friction, 0)
      assert.near(0.5, c.elasticity, 0)
    end)

    it("sets the elasticity of an impact: e = 1 for the pair returns the impact speed", function()
      local drop = 0.5
      local w, slab, ball = sphere_on_slab(strategy, 0.5 + drop)
      w:set_pair { body1 = ball, body2 = slab, elasticity = 1 }
      local up, ended
      w:on("collision", function() up = up or ball.velocity[3] end)
      w:on("contact_end", function(e)
        assert.equal(slab, e.body1)
        assert.equal(ball, e.body2)
        assert.near({ 0, 0, 1 }, e.normal, 1e-12)
        assert.is_nil(e.impulse)
        ended = ended or w.time
      end)
      w:run { duration = 0.35 }
      -- right after the impact the ball goes up at the fall's speed, less one step of gravity,
      -- and leaves the slab
      assert.near(math.sqrt(2 * g * drop), up, { rel = 0.02 })
      assert.is_not_nil(ended)
      assert.is_true(ended < 0.34)
    end)
  end)
end

describe("3D impulse and contact: what the 3D engine refuses", function()
  local function world()
    local w = impact.world3d { strategy = "contact" }
    local a = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1 }
    local b = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { 2, 0, 0 } }
    return w, a, b
  end

  it("joints, ropes and rods: 3D joints take a kind (the 2D form is refused by name)", function()
    -- (3D joints were refused here until issue #17 item 1; engine3d_joints_spec.lua has them)
    local w, a, b = world()
    local calls = {
      add_joint = { function() w:add_joint { body1 = a, point1 = { 0, 0, 0 } } end,
                    "option 'kind' is required in a 3D world" },
      ["add_joint (2D normal)"] = { function() w:add_joint { kind = "ball", body1 = a, normal = "x" } end,
                                    "unknown option" },
      remove_connector = { function() w:remove_connector { index = 0, generation = 0 } end,
                           "the connector was removed or does not belong to this world" },
      connector_error = { function() w:connector_error { index = 0, generation = 0 } end,
                          "the connector was removed or does not belong to this world" },
    }
    for name, call in pairs(calls) do
      local ok, err = pcall(call[1])
      assert.is_false(ok, name)
      local method = name:match("^(%S+)")
      assert.matches("World:" .. method .. ": ", err, 1, true)
      assert.matches(call[2], err, 1, true)
    end
    assert.equal("rope", w:add_rope { body1 = a, body2 = b, length = 2 }.kind)
    assert.equal("rod", w:add_rope { body1 = a, body2 = b, length = 2, rod = true }.kind)
  end)

  it("the extra acceleration outside time_stepping = \"ode\", and joint_small_impacts (2D joints only), "
     .. "naming the option and its value", function()
    local refused = { extra_accel = "velocity", extra_accel_dt = 0.1 }
    for _, strategy in ipairs({ "impulse", "contact" }) do
      for key, value in pairs(refused) do
        local ok, err = pcall(impact.world3d, { strategy = strategy, [key] = value })
        assert.is_false(ok)
        assert.matches("impact.world3d: option '" .. key .. "' (got ", err, 1, true)
        assert.matches(tostring(value), err, 1, true)
        assert.matches("symplectic_euler", err, 1, true)
        assert.matches("time_stepping = \"ode\"", err, 1, true)
      end
      for _, stepping in ipairs({ "ode", "symplectic_euler" }) do
        local ok, err = pcall(impact.world3d, { strategy = strategy, time_stepping = stepping,
                                                joint_small_impacts = true })
        assert.is_false(ok)
        assert.matches("impact.world3d: option 'joint_small_impacts' (got true) acts on joints of 2D "
                       .. "worlds; 3D joints are held in every step's contact problem", err, 1, true)
      end
      local ok, err = pcall(impact.world3d, { strategy = strategy, time_stepping = "ode", substeps = 2 })
      assert.is_false(ok)
      assert.matches("option 'substeps' (got 2) cuts the velocity-level steps", err, 1, true)
      -- what applies in 3D is accepted: both time steppings, the extra acceleration under "ode"
      local w = impact.world3d { strategy = strategy, collision_handling = "serial",
                                 distance_tol = 0.02, velocity_tol = 0.1, contact_solver = "pgs",
                                 pgs_iterations = 50, time_stepping = "symplectic_euler" }
      assert.equal(strategy, w.strategy)
      w = impact.world3d { strategy = strategy, time_stepping = "ode", extra_accel = "velocity",
                           extra_accel_dt = 0.1, max_backups = 10, integrator = "rk4" }
      assert.equal(strategy, w.strategy)
    end
  end)

  it("w:set_pair with bad arguments says which, the value and what is accepted", function()
    local w, a, b = world()
    local other = impact.world3d { strategy = "contact" }
    local c = other:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1 }
    local cases = {
      { { body1 = a, body2 = a, friction = 1 }, "options 'body1' and 'body2' must be two different bodies" },
      { { body1 = a, body2 = b }, "give 'friction' or 'elasticity' (or both)" },
      { { body1 = a, body2 = b, elasticity = 1.5 }, "option 'elasticity' must be in [0, 1], got 1.5" },
      { { body1 = a, body2 = b, friction = -1 }, "option 'friction' must be a finite number >= 0, got -1" },
      { { body1 = a, body2 = b, friction = "x" },
        "option 'friction' must be a finite number >= 0, got \"x\"" },
      { { body1 = a, body2 = c, friction = 1 }, "option 'body2' is a body of another world" },
      { { body2 = b, friction = 1 }, "option 'body1' must be a body, got nil" },
      { { body1 = a, body2 = b, mu = 1 },
        "unknown option \"mu\" (accepted: body1, body2, friction, elasticity)" },
    }
    for _, case in ipairs(cases) do
      local ok, err = pcall(w.set_pair, w, case[1])
      assert.is_false(ok)
      assert.matches("World:set_pair: " .. case[2], err, 1, true)
    end
  end)

  it("w:set_pair in a world whose strategy does not use pairs names the strategies that do", function()
    local worlds = {
      impact.world3d { strategy = "compliant" }, impact.world3d { strategy = "none" },
      impact.world2d { strategy = "compliant" }, impact.world2d {},
    }
    for _, w in ipairs(worlds) do
      local shape = w.dim == 3 and shape3d.sphere { radius = 0.5 } or impact.shape2d.ball { radius = 0.5 }
      local a = w:add_body { shape = shape, mass = 1 }
      local ok, err = pcall(w.set_pair, w, { body1 = w.background, body2 = a, friction = 0.5 })
      assert.is_false(ok)
      assert.matches("World:set_pair: pair coefficients are used by the strategies \"impulse\" and "
                     .. "\"contact\"; this world's strategy is \"" .. w.strategy .. "\"", err, 1, true)
    end
  end)
end)

describe("README: 3D impulse and contact", function()
  it("runs the section's code and prints what it says", function()
    local readme = assert(io.open("README.md")):read("a")
    local section = readme:match("### 3D impulse and contact(.-)\n### ")
    assert.is_not_nil(section)
    local code, shown = section:match("```lua\n(.-)```%s*```\n(.-)```")
    assert.is_not_nil(code)
    -- (raises with the script's output when it fails)
    local out = require("spec.support.files").run_with_threads(code, 1)
    assert.are.equal(shown, out)
  end)
end)

describe("3D impulse and contact: w:contacts() when bodies come and go", function()
  it("is empty before the first step and after a body is added or removed", function()
    local w, _, ball = sphere_on_slab("contact", 0.5)
    assert.same({}, w:contacts())
    w:step(2)
    assert.equal(1, #w:contacts())
    local other = w:add_body { shape = shape3d.sphere { radius = 0.5 }, mass = 1, position = { 0, 0, 3 } }
    assert.same({}, w:contacts())
    w:step()
    assert.equal(1, #w:contacts())
    w:remove_body(ball)
    assert.same({}, w:contacts())
    w:step()
    assert.same({}, w:contacts())
    assert.is_not_nil(other)
  end)
end)
