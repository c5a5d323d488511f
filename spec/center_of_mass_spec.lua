-- A 2D body's centre of mass away from its shape's centroid (World:add_body's
-- center_of_mass, LOVE's setMassData and Box2D's mass data): the body's position is that
-- point, its outline turns about it, its inertia is the shape's about its own centroid unless
-- given (as myPhysicsLab's setCenterOfMass keeps it).
local impact = require("impact")
local files = require("spec.support.files")
local shape2d = impact.shape2d

local function inside(w, p, body)
  for _, b in ipairs(w:query_point(p)) do
    if b == body then return true end
  end
  return false
end

describe("center_of_mass (2D)", function()
  it("places the body's position at the point and turns the outline about it", function()
    local w = impact.world2d { strategy = "contact", gravity = { 0, 0 } }
    local r, c = 0.75, 0.3
    local ball = w:add_body { shape = shape2d.ball { radius = r }, mass = 2,
                              center_of_mass = { c, 0 }, position = { 0, 0 }, spin = math.pi }
    -- the outline's centre is at -c from the position
    assert.is_true(inside(w, { -c - r + 0.05, 0 }, ball))
    assert.is_false(inside(w, { r - c + 0.05, 0 }, ball))
    assert.same({ c, 0 }, ball.shape:centroid())
    -- a free body: the centre of mass moves in a straight line (here it stays), the outline
    -- turns about it; after half a turn its centre is at +c
    w:run { until_time = 1 }
    assert.near(0, ball.position[1], 1e-12)
    assert.near(0, ball.position[2], 1e-12)
    assert.near(math.pi, ball.angle, 1e-12)
    assert.is_true(inside(w, { c + r - 0.05, 0 }, ball))
    assert.is_false(inside(w, { c - r - 0.05, 0 }, ball))
  end)

  it("keeps the shape's moment about its own centroid unless inertia is given", function()
    local w = impact.world2d { strategy = "contact" }
    local s = shape2d.block { width = 2, height = 1 }
    local a = w:add_body { shape = s, mass = 3, center_of_mass = { 0.5, 0.25 } }
    assert.near(3 * (4 + 1) / 12, a.inertia, 1e-14)
    local b = w:add_body { shape = s, mass = 3, center_of_mass = { 0.5, 0.25 }, inertia = 2 }
    assert.equal(2, b.inertia)
    assert.same({ 0, 0 }, s:centroid())  -- the shape given is not changed
    local c = w:add_body { shape = s, density = 2, center_of_mass = { 0, 0 } }
    assert.near(4, c.mass, 1e-14)
  end)

  it("rests a ball on a floor below its centre of mass when that is straight above the centre",
     function()
    -- a ball whose centre of mass is above its centre balances on its lowest point
    -- (equilibrium, unstable): started exactly there it stays, touching at the half gap
    local w = impact.world2d { strategy = "contact", gravity = { 0, -10 } }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, fixed = true,
                 position = { 0, -0.5 } }
    local ball = w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1,
                              center_of_mass = { 0, 0.2 }, position = { 0, 0.7 + 0.005 } }
    w:run { until_time = 1 }
    assert.near(0, ball.position[1], 1e-9)
    assert.near(0.705, ball.position[2], 1e-6)
    assert.near(0, ball.angle, 1e-9)
  end)

  it("refuses what it cannot honour, clearly", function()
    local w = impact.world2d { strategy = "contact" }
    local ball = shape2d.ball { radius = 1 }
    assert.has_error(function() w:add_body { shape = ball, center_of_mass = { 0 / 0, 0 } } end,
      "World:add_body: option 'center_of_mass' must be an array of 2 finite numbers, element 1 "
      .. "is nan")
    assert.has_error(function() w:add_body { shape = ball, center_of_mass = "x" } end,
      "World:add_body: option 'center_of_mass' must be an array of 2 numbers, got \"x\"")
    assert.has_error(function()
      w:add_body { mass = 1, inertia = 1, center_of_mass = { 0, 0 } }
    end, "World:add_body: option 'center_of_mass' is a point in the shape's coordinates: give "
      .. "the body a 'shape'")
    local w3 = impact.world3d { strategy = "contact" }
    local ok, err = pcall(w3.add_body, w3, { shape = impact.shape3d.sphere { radius = 1 },
                                            center_of_mass = { 0, 0, 0 } })
    assert.is_false(ok)
    assert.matches('unknown option "center_of_mass"', err, 1, true)
  end)

  it("is kept by World:save and impact.load (the body's shape is made again, recentred)",
     function()
    local function run(w, n)
      for _ = 1, n do w:step() end
      local b = w:bodies()[1]
      return string.format("%a %a %a %a %a %a", b.position[1], b.position[2], b.angle,
                           b.velocity[1], b.velocity[2], b.spin)
    end
    local w = impact.world2d { strategy = "contact", gravity = { 0, -10 } }
    w:add_body { shape = shape2d.ball { radius = 0.5 }, mass = 1, center_of_mass = { 0.2, 0.1 },
                 position = { 0, 0.8 }, spin = 1 }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, fixed = true,
                 position = { 0, -0.5 } }
    run(w, 20)
    local w2 = files.reloaded(w)
    local a = run(w, 40)
    assert.same({ 0.2, 0.1 }, w2:bodies()[1].shape:centroid())
    assert.equal(a, run(w2, 40))
  end)
end)
