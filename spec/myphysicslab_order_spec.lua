-- myPhysicsLab scenes whose outcome is the order of simultaneous impacts that serial handling
-- draws from a random generator (its RandomLCG, seeded 99999 by its tests and also drawn by its
-- contact-force solver at every contact it treats): StraightStraightTest's one_block2,
-- diamonds and block_block_contact_2. Under impact's conventions (its own generator) they
-- end 0.008 to 0.2, 4e-4 to 0.34 and 0.008 to 2.1 from the states it asserts over seeds 1 to
-- 12: arbitrary choices, checked here by the physics and by its own assertions that follow the
-- state check. Under conventions = "myphysicslab" the world draws from its generator where it
-- draws (engine2d_impulse_mpl.c: the serial focus and the last pass; engine2d_contact_mpl.c
-- and lcp_baraff_order.c: its ComputeForces, n numbers at every row it treats), over its
-- order of the records (after a back-up the ones found penetrating first, else by estimated
-- collision time): one_block2 and diamonds meet its states to 3.7e-8 and 2.7e-8 (it asserts
-- 1e-5); block_block_contact_2 to 4.5e-8 (it asserts 1e-4; 8.1e-3 until its slow return of a
-- corner that had penetrated was taken as a contact, as its advance takes it), and 2b (the
-- same at dt 0.0025) to 3.4e-8.
-- Common setup (its commonSetup1): RK4, distance_tol 0.01, velocity_tol 0.5, accuracy 0.6,
-- serial handling with a last pass, small impacts on joints.
local impact = require("impact")
local files = require("spec.support.files")
local mpl = require("spec.support.myphysicslab")
local shape2d = impact.shape2d

local function world(o)
  return impact.world2d { strategy = "contact", dt = o.dt or 0.025, gravity = { 0, -(o.g or 0) },
    collision_handling = o.handling or "serial", distance_tol = 0.01, velocity_tol = 0.5,
    collision_accuracy = 0.6, integrator = "rk4", extra_accel = o.extra or "velocity",
    joint_small_impacts = true, seed = o.seed or 99999, conventions = o.conventions,
    gravitation = o.G and { G = o.G, softening = 0 } or nil }
end

-- one_block2: a 1 x 3 block (mass 1, elasticity 0.8) standing 0.005 above the floor of a
-- 10 x 10 box, turned by 0.01 rad (one corner 7.5e-5 above it), falling at 0.3 m/s (a contact's
-- speed), gravity 4, extra acceleration "none"
local function one_block2(seed, handling, conventions)
  local w = world { g = 4, extra = "none", seed = seed, handling = handling, conventions = conventions }
  local b = w:add_body { shape = shape2d.block { width = 1, height = 3 }, mass = 1,
    position = { 0, -5 + 1.5 + 0.005 }, angle = 0.01, velocity = { 0, -0.3 }, elasticity = 0.8 }
  for _, wall in ipairs { { 12, 1, 0, -5.5 }, { 1, 12, 5.5, 0 }, { 12, 1, 0, 5.5 }, { 1, 12, -5.5, 0 } } do
    w:add_body { shape = shape2d.block { width = wall[1], height = wall[2] }, fixed = true,
                 position = { wall[3], wall[4] }, elasticity = 0.8 }
  end
  return w, b
end

local function diamond(wd, ht, a) return mpl.diamond(shape2d, wd, ht, a) end

describe("myPhysicsLab scenes decided by the order of simultaneous impacts", function()
  it("one_block2: no horizontal motion, no penetration, the energy at 4 s below the start; "
    .. "the order drawn matters under serial handling, not under hybrid", function()
    local w, b = one_block2(99999)
    local e0 = w:energy().total
    local lowest = math.huge
    w:on("step", function()
      local c, s = math.cos(b.angle), math.sin(b.angle)
      for _, x in ipairs { -0.5, 0.5 } do  -- the bottom corners' heights above the floor
        lowest = math.min(lowest, b.position[2] + s * x - 1.5 * c + 5)
      end
    end)
    w:run { until_time = 4 }
    -- frictionless floor, vertical normals: no horizontal impulse or force, exactly
    assert.equal(0, b.position[1])
    assert.equal(0, b.velocity[1])
    assert.is_true(lowest > 0, ("a corner %.3g below the floor"):format(-lowest))
    assert.is_true(w:energy().total < e0)  -- elasticity 0.8 (its separating contacts, held at
                                            -- zero acceleration, gain 0.01 J on the way)
    local function state(seed, handling)
      local w2, b2 = one_block2(seed, handling)
      w2:run { until_time = 4 }
      return mpl.vars(b2)
    end
    local s1, s2 = state(1), state(2)
    local apart = 0
    for k = 1, 6 do apart = math.max(apart, math.abs(s1[k] - s2[k])) end
    assert.is_true(apart > 0.01, ("seeds 1 and 2 end %.3g apart"):format(apart))
    -- hybrid handling solves the approaching corners of the block together: no draw decides
    assert.same(state(1, "hybrid"), state(2, "hybrid"))
  end)

  it("one_block2 under conventions = \"myphysicslab\": its state at 4 s to its 1e-5 (its "
    .. "order of the simultaneous corner impacts)", function()
    local w, b = one_block2(99999, "serial", "myphysicslab")
    w:run { until_time = 4 }
    local err = mpl.worst({ b }, { { 0, 0, -3.4970902, 0.0519124, 0.0025727, 0.0153277 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 3.7e-8
  end)

  it("one_block2 under conventions = \"myphysicslab\" survives w:save and impact.load "
    .. "(its generator's state saved): the loaded world steps bit for bit the same", function()
    local w = one_block2(99999, "serial", "myphysicslab")
    w:run { until_time = 0.3 }  -- the generator has drawn (an impact at 0, contact forces)
    local w2 = files.reloaded(w)
    local w3, b = one_block2(99999, "serial", "myphysicslab")  -- never saved
    w2:run { until_time = 2 }
    w3:run { until_time = 2 }
    assert.same(mpl.vars(b), mpl.vars(w2:bodies()[1]))
  end)

  it("diamonds: momentum and centre of mass kept exactly, then no collision and the energy "
    .. "kept to 1e-4 from 7 s to 11 s (its assertions); in the order it drew, its state to "
    .. "5e-4 and its energy to 2e-4", function()
    -- two diamonds (1 x 1 and 1 x 2 rectangles turned by +-pi/4, elasticity 0.5) at (-2, 0.5)
    -- and (2, -0.5) fall together under mutual gravitation G = 3, dt 0.01
    local function run(seed, conventions)
      local w = world { dt = 0.01, G = 3, seed = seed, conventions = conventions }
      local a = w:add_body { shape = diamond(1, 1, math.pi / 4), mass = 1, inertia = 1 / 6,
        center_of_mass = { 0, 0 }, position = { -2, 0.5 }, elasticity = 0.5 }
      local b = w:add_body { shape = diamond(1, 2, -math.pi / 4), mass = 1, inertia = 5 / 12,
        center_of_mass = { 0, 0 }, position = { 2, -0.5 }, elasticity = 0.5 }
      return w, a, b
    end
    local w, a, b = run(99999)
    local drift = 0
    w:on("step", function()
      for k = 1, 2 do
        drift = math.max(drift, math.abs(a.velocity[k] + b.velocity[k]),
                         math.abs(a.position[k] + b.position[k]))
      end
    end)
    w:run { until_time = 7 }
    assert.equal(0, drift)  -- equal and opposite forces and impulses on equal masses
    local e7, c7 = w:energy().total, w:stats().collisions
    w:run { until_time = 11 }
    assert.near(e7, w:energy().total, 1e-4)  -- 3.1e-5
    assert.equal(c7, w:stats().collisions)
    -- under conventions = "myphysicslab" its order of the first two simultaneous corner
    -- impacts (3.52 s): its state to its 1e-5 (measured 2.7e-8) and its energy 0.8168246 (the
    -- pair's potential zero at touching: G / (0.5 + 0.5) above impact's -G m1 m2 / r) to its
    -- 1e-4 (measured 9.9e-8)
    w, a, b = run(99999, "myphysicslab")
    w:run { until_time = 7 }
    local err = mpl.worst({ a, b }, { { -0.571369, 0.463846, 0.147005, 0.1908704, -0.0140063, 0.6080322 },
      { 0.571369, -0.463846, -0.147005, -0.1908704, -0.0137379, 0.6075645 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))
    assert.near(0.8168246, w:energy().total + 3, 1e-4)
  end)

  -- two blocks (1 x 1 and 1 x 2, elasticity 0.8) pass each other at 0.6 m/s under mutual
  -- gravitation G = 3, bounce, and end turning together in contact
  local function block_pair(conventions, dt)
    local w = world { G = 3, conventions = conventions, dt = dt }
    local a = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                           position = { -1, 0 }, velocity = { 0, 0.6 }, elasticity = 0.8 }
    local b = w:add_body { shape = shape2d.block { width = 1, height = 2 }, mass = 1,
                           position = { 1, 0 }, velocity = { 0, -0.6 }, elasticity = 0.8 }
    return w, a, b
  end

  it("block_block_contact_2: no collision from 10 s to 14 s and the energy kept (its 1e-7 not "
    .. "met: 1.8e-7)", function()
    local w = block_pair()
    w:run { until_time = 10 }
    local e10, c10 = w:energy().total, w:stats().collisions
    w:run { until_time = 14 }
    -- the two contacts' normal velocity wobbles by 4e-5 m/s as the pair turns, and the extra
    -- acceleration's velocity term works on it
    assert.near(e10, w:energy().total, 1e-6)
    assert.equal(c10, w:stats().collisions)
  end)

  -- Under the conventions: at 5.81 s the square's corner, which had penetrated the block's
  -- face in a trial step of that world step, comes back at 0.28 m/s, below velocity_tol: at
  -- the end of the next kept trial step myPhysicsLab sees only that step's records (a contact,
  -- stopped by the contact forces), where impact handled it as the collision found before
  -- (an impulse with e = 0.8): 8.1e-3 from its state at 10 s before, 4.5e-8 now
  it("block_block_contact_2 under conventions = \"myphysicslab\": its state at 10 s to its "
    .. "1e-4, then no collision and the energy kept to 2e-6", function()
    local w, a, b = block_pair("myphysicslab")
    w:run { until_time = 10 }
    local err = mpl.worst({ a, b }, { { 0.5034152, 0.2143205, 0.1531754, -0.330582, -9.4336534, -1.3740094 },
      { -0.5034152, -0.2143205, -0.1531754, 0.330582, -9.4355238, -1.3740094 } })
    assert.is_true(err <= 1e-4, ("state %.3g from myPhysicsLab's"):format(err))  -- 4.5e-8
    local e10, c10 = w:energy().total, w:stats().collisions
    w:run { until_time = 14 }
    assert.near(e10, w:energy().total, 2e-6)  -- 1.4e-6
    assert.equal(c10, w:stats().collisions)
  end)

  -- block_block_contact_2b: the same scene at dt 0.0025 (its extra acceleration's h is the
  -- step, as its runTest sets it). Under the conventions impact takes the same impacts and
  -- the same turning contact: its state at 10 s to its 1e-5 (measured 3.4e-8; impact's own
  -- conventions end 2.0 away, another branch of the draws), then no collision and the energy
  -- kept to its 1e-7 (measured 2.5e-9).
  it("block_block_contact_2b under conventions = \"myphysicslab\": its state at 10 s to "
    .. "1e-5, then no collision and the energy kept to 1e-7", function()
    local w, a, b = block_pair("myphysicslab", 0.0025)
    w:run { until_time = 10 }
    local err = mpl.worst({ a, b }, { { 0.5063086, 0.1469399, 0.1376723, -0.5306998, -9.4363357, -1.0665345 },
      { -0.5063086, -0.1469399, -0.1376723, 0.5306998, -9.4363639, -1.0665345 } })
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))
    local e10, c10 = w:energy().total, w:stats().collisions
    w:run { until_time = 14 }
    assert.near(e10, w:energy().total, 1e-7)
    assert.equal(c10, w:stats().collisions)
  end)
end)
