-- The 3D engine's swept problem in sub-steps (contact_solver "pgs", substeps > 1, simultaneous
-- handling) detects contacts once per step and moves the points with their bodies in the later
-- sub-steps (engine3d_step.c). Expected values are closed forms of rigid-body dynamics; the
-- tolerances say what the step allows.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function world(substeps, dt)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = dt or 1 / 60,
                             contact_solver = "pgs", pgs_iterations = 10, substeps = substeps,
                             collision_handling = "simultaneous" }
  w:add_body { shape = shape3d.box { size = { 400, 40, 1 } }, fixed = true, friction = 0.5, elasticity = 0,
               position = { 0, 0, -0.5 } }
  return w
end

describe("3D contact, PGS in sub-steps: one detection per step", function()
  it("a cube dropped from 1 m lands at its half size, one contact begun, no contact ended", function()
    local w = world(4)
    local n = { contact_begin = 0, contact_end = 0 }
    w:on("contact_begin", function() n.contact_begin = n.contact_begin + 1 end)
    w:on("contact_end", function() n.contact_end = n.contact_end + 1 end)
    local cube = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = { 0, 0, 1.5 },
                              friction = 0.5, elasticity = 0 }
    -- free fall from 1 m above the ground: no contact before sqrt(2 / g) = 0.4515 s
    w:run { duration = 0.4 }
    assert.are.equal(0, n.contact_begin)
    assert.near(1.5 - 0.5 * g * 0.4 ^ 2, cube.position[3], 0.5 * g * 0.4 / 60 + 1e-9)
    w:run { duration = 1.6 }
    assert.are.equal(1, n.contact_begin)
    assert.are.equal(0, n.contact_end)
    assert.near(0.5, cube.position[3], 1e-3)
    assert.is_true(math.abs(cube.velocity[3]) < 1e-3, "vz " .. cube.velocity[3])
    assert.is_true(w:stats().max_penetration < 0.01)  -- within distance_tol
  end)

  it("a sliding cube: 4 sub-steps of dt / 4 on one detection go as far as 4 steps of dt / 4", function()
    -- the sub-steps' points move with the cube (refresh) instead of being found again: the
    -- sliding face's contact is the same, so the stop matches to well within the slop
    local function slide(k, dt)
      local w = world(k, dt)
      local cube = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                                position = { 0, 0, 0.5 }, velocity = { 6, 0, 0 }, friction = 0.5,
                                elasticity = 0 }
      w:run { duration = 2 }
      assert.is_true(math.abs(cube.velocity[1]) < 1e-6, "still sliding at " .. cube.velocity[1])
      assert.near(0.5, cube.position[3], 1e-3)
      return cube.position[1]
    end
    local once, each = slide(4, 1 / 60), slide(1, 1 / 240)
    assert.near(each, once, 1e-3)
    assert.is_true(once > 3.5 and once < 4.0, "stopped at " .. once)  -- v0^2 / (2 mu g) = 3.67 m
  end)

  it("a cube tipped over an edge rotates onto its face: the points follow the turning body", function()
    -- a cube balanced on an edge, tilted 1 degree past it, falls onto its side: it ends resting
    -- on a face (its centre at the half size, its orientation a quarter turn about y)
    local w = world(4)
    local th = math.rad(46)
    local c = 0.5 * math.sqrt(2)
    local cube = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                              position = { c * math.sin(th), 0, c * math.cos(th) },
                              orientation = { math.cos(th / 2), 0, math.sin(th / 2), 0 }, friction = 0.5,
                              elasticity = 0 }
    w:run { duration = 6 }
    assert.near(0.5, cube.position[3], 1e-3)
    local q = cube.orientation  -- a quarter turn about y: |q_w| = |q_y| = sqrt(1/2)
    assert.near(math.sqrt(0.5), math.abs(q[1]), 2e-3)
    assert.near(math.sqrt(0.5), math.abs(q[3]), 2e-3)
  end)
end)
