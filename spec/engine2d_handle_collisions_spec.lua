-- w:handle_collisions(): the collision impulses at the current state, without a step (what
-- myPhysicsLab's tests do on a scene just built: findCollisions, then handleCollisions).
-- Checked by 1D impacts in closed form: equal balls touching and approaching exchange their
-- velocities when e = 1 and share them when e = 0 (momentum kept, energy kept for e = 1 and
-- halved for e = 0); bodies apart take nothing; the count of collisions is left alone; other
-- worlds get a clear error.
local impact = require("impact")
local shape2d = impact.shape2d

local function two_balls(e, handling, conventions, gap)
  local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, 0 },
    collision_handling = handling, conventions = conventions }
  local a = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, position = { 0, 0 },
                         velocity = { 2, 0 }, elasticity = e }
  local b = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1,
                         position = { 1 + (gap or 0.004), 0 }, elasticity = e }
  return w, a, b
end

describe("World:handle_collisions", function()
  for _, handling in ipairs { "serial", "hybrid", "simultaneous" } do
    for _, conventions in ipairs { "impact", "myphysicslab" } do
      local what = handling .. ", " .. conventions
      it("equal balls touching at 2 m/s, e = 1 (" .. what .. "): velocities exchanged", function()
        local w, a, b = two_balls(1, handling, conventions)
        local n0 = w:stats().collisions
        assert.is_true(w:handle_collisions())
        assert.near(0, a.velocity[1], 1e-12)
        assert.near(2, b.velocity[1], 1e-12)
        assert.near(0, a.velocity[2] + b.velocity[2], 1e-12)
        assert.equal(0, w.time)
        assert.equal(n0, w:stats().collisions)
      end)

      it("equal balls touching at 2 m/s, e = 0 (" .. what .. "): both at 1 m/s", function()
        local w, a, b = two_balls(0, handling, conventions)
        local ke0 = a:kinetic_energy() + b:kinetic_energy()
        assert.is_true(w:handle_collisions())
        assert.near(1, a.velocity[1], 1e-12)
        assert.near(1, b.velocity[1], 1e-12)
        assert.near(ke0 / 2, a:kinetic_energy() + b:kinetic_energy(), 1e-12)
      end)
    end
  end

  it("balls apart (0.1 m, beyond distance_tol): nothing handled, nothing changed", function()
    local w, a, b = two_balls(1, "serial", "myphysicslab", 0.1)
    assert.is_false(w:handle_collisions())
    assert.equal(2, a.velocity[1])
    assert.equal(0, b.velocity[1])
  end)

  it("names what it accepts", function()
    local w3 = impact.world3d { strategy = "contact" }
    assert.has_error(function() w3:handle_collisions() end,
      "World:handle_collisions: handles the collisions of 2D worlds under the strategies "
      .. "\"impulse\" and \"contact\" (not contact_solver \"soft\"); this world: 3D, strategy "
      .. "\"contact\"")
    local ws = impact.world2d { strategy = "contact", contact_solver = "soft" }
    assert.has_error(function() ws:handle_collisions() end)
  end)
end)
