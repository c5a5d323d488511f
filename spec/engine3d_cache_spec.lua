-- Contact recycling in the 3D engine (src/engine3d/engine3d_cache.h): a pair whose bodies barely
-- moved relative to each other rebuilds its points from its last manifold, a pair still apart by
-- its last gap is skipped. The physics, warm starts and events must stay those of the manifold
-- computed afresh: expected values are closed forms of rigid-body statics and of the
-- velocity-level step's Coulomb friction.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function cube_on_slab(opts)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = opts.dt or 1 / 60 }
  w:add_body { shape = shape3d.box { size = { 40, 40, 1 } }, fixed = true, position = { 0, 0, -0.5 },
               friction = opts.mu, elasticity = 0 }
  local cube = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = opts.mass, elasticity = 0,
                            position = { 0, 0, 0.5 }, velocity = opts.velocity, friction = opts.mu }
  return w, cube
end

describe("3D contact recycling", function()
  it("a cube at rest keeps its one contact, recycled, carrying its weight", function()
    local w, cube = cube_on_slab { mu = 0.5, mass = 2 }
    local begins, ends = 0, 0
    w:on("contact_begin", function() begins = begins + 1 end)
    w:on("contact_end", function() ends = ends + 1 end)
    for _ = 1, 120 do w:step() end
    local st = w:stats()
    assert.is_true(st.manifolds_recycled >= 100, "recycled " .. st.manifolds_recycled)
    assert.are.equal(1, begins)
    assert.are.equal(0, ends)
    -- the corners' normal forces add up to m g; the cube sits within the slop (0.1 distance_tol)
    local sum, n = 0, 0
    for _, c in ipairs(w:contacts()) do sum, n = sum + c.normal_force, n + 1 end
    assert.are.equal(4, n)
    assert.near(2 * g, sum, 1e-6 * 2 * g)
    assert.near(0.5, cube.position[3], 1e-3)
  end)

  it("a sliding cube stops where the step's Coulomb friction says, then holds without creep", function()
    local h, mu, v0 = 1 / 240, 0.4, 2
    local w, cube = cube_on_slab { mu = mu, mass = 1, dt = h, velocity = { v0, 0, 0 } }
    -- each step takes mu g h off the speed; x adds h v after the step's impulse
    local x, v = 0, v0
    while v > 0 do
      v = math.max(0, v - mu * g * h)
      x = x + h * v
    end
    local steps = math.ceil(v0 / (mu * g * h)) + 10
    for _ = 1, steps do w:step() end
    assert.near(x, cube.position[1], 1e-6 + 1e-4 * x)
    local before, at = w:stats().manifolds_recycled, cube.position[1]
    for _ = 1, 120 do w:step() end
    assert.is_true(w:stats().manifolds_recycled - before >= 100)
    assert.near(at, cube.position[1], 1e-9)
  end)

  it("a cube thrown up ends its contact, and a cube falling from above begins one", function()
    local w, cube = cube_on_slab { mu = 0.5, mass = 1 }
    local ends, begins = 0, 0
    for _ = 1, 30 do w:step() end
    w:on("contact_end", function() ends = ends + 1 end)
    w:on("contact_begin", function() begins = begins + 1 end)
    cube.velocity = { 0, 0, 3 }
    for _ = 1, 10 do w:step() end
    assert.are.equal(1, ends)
    assert.is_true(cube.position[3] > 0.6)
    for _ = 1, 60 do w:step() end  -- back down after 2 v / g = 0.61 s, inelastic: it stays
    assert.are.equal(1, begins)
    assert.near(0.5, cube.position[3], 1e-3)
  end)

  it("two turned cubes whose boxes overlap but which stay apart are skipped, not computed", function()
    -- both turned 45 degrees about z: parallel faces 1.2 sqrt(2) - 1 = 0.70 m apart, while their
    -- axis-aligned boxes (half width sqrt(2) / 2) overlap
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60 }
    w:add_body { shape = shape3d.box { size = { 40, 40, 1 } }, fixed = true, position = { 0, 0, -0.5 } }
    local q = { math.cos(math.pi / 8), 0, 0, math.sin(math.pi / 8) }
    local a = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 0.5 },
                           orientation = q }
    local b = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 1.2, 1.2, 0.5 },
                           orientation = q }
    for _ = 1, 60 do w:step() end
    local st = w:stats()
    assert.is_true(st.pairs_apart >= 55, "apart " .. st.pairs_apart)
    for _, c in ipairs(w:contacts()) do  -- only the slab's contacts
      assert.is_false((c.body1 == a and c.body2 == b) or (c.body1 == b and c.body2 == a))
    end
    assert.near(0.5, a.position[3], 1e-3)
    assert.near(0.5, b.position[3], 1e-3)
  end)
end)
