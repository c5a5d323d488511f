-- myPhysicsLab's StraightStraightTest six_blocks_settle and six_blocks_settle2
-- (src/test/StraightStraightTest.ts): six 1 x 3 blocks (the first of mass 0.6, the others 1)
-- at (-4.4 + 1.73 i, -3 + 2 (i mod 2)), turned pi (0.30 - 0.15 i), i = 0..5, fall from rest
-- under gravity 5 into the 12 x 12 box of its Walls.make (added after the blocks, so the
-- walls keep its default elasticity 1 while the blocks take 0.6; a collision takes the
-- smaller). Its commonSetup1: RK4, dt 0.025, distance_tol 0.01, velocity_tol 0.5, accuracy
-- 0.6, serial handling, extra acceleration "velocity", small impacts on joints, seed 99999.
-- _settle2 with extra acceleration "velocity_and_distance" and no small impacts. Its
-- assertions: the state at 6.2 s (_settle2: 6 s) to 1e-5, then to 9 s (12 s) no collision and
-- the energy kept to 1e-3 (0.1); _settle2 also every contact at the half gap to 1e-8.
-- Under conventions = "myphysicslab" both are met (4.9e-8 and 4.7e-8, 97 and 88 collisions
-- counted as it counts them). Under impact's conventions the blocks land in another order
-- (state 1.57 away in both; _settle: 10 more collisions after 6.2 s and the energy 0.14 lower
-- by 9 s, block 2 still rocking), a pending below.
local impact = require("impact")
local mpl = require("spec.support.myphysicslab")
local straight = require("spec.support.myphysicslab_straight")
local shape2d = impact.shape2d

local function settle(two, conventions)
  local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -5 },
    collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
    collision_accuracy = 0.6, integrator = "rk4",
    extra_accel = two and "velocity_and_distance" or "velocity", joint_small_impacts = not two,
    seed = 99999, conventions = conventions }
  local blocks = {}
  for i = 0, 5 do
    blocks[i + 1] = w:add_body { shape = shape2d.block { width = 1, height = 3 },
      mass = i == 0 and 0.6 or 1, position = { -4.4 + i * 1.73, -3 + (i % 2) * 2 },
      angle = math.pi * (0.30 - i * 0.15), elasticity = 0.6 }
  end
  straight.walls(w, 1)
  return w, blocks
end

local SETTLE = {
  { -4.4957656, 0, -5.4912852, -0, 1.570724, 0 }, { -2.487432, -0, -4.4929667, 0, 0.0006014, 0 },
  { -1.4838306, -0, -4.4927091, -0, -0.0006352, 0 }, { 0.6040017, -0, -4.9812241, 0, -1.2003959, 0 },
  { 3.4838254, 0, -5.4911445, -0, -1.5701177, 0 }, { 5.4927459, -0, -4.4907594, 0, -3.1415895, 0 } }
local SETTLE2 = {
  { -4.495, -0, -5.495, 0, 1.5707963, -0 }, { -2.49, -0, -4.495, 0, -0, -0 },
  { -1.485, 0, -4.495, 0, -0, -0 }, { 0.5994774, 0, -4.9893409, -0, -1.2031983, -0 },
  { 3.49, -0, -5.495, 0, -1.5707963, -0 }, { 5.495, -0, -4.495, 0, -3.1415927, 0 } }

describe("myPhysicsLab StraightStraightTest six_blocks_settle", function()
  it("six_blocks_settle (myphysicslab conventions): its state at 6.2 s to 1e-5, then to 9 s "
    .. "no collision and energy to 1e-3", function()
    local w, blocks = settle(false, "myphysicslab")
    local e0 = w:energy().total
    w:run { until_time = 6.2 }
    local err = mpl.worst(blocks, SETTLE)
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 4.9e-8
    assert.is_true(w:energy().total < e0)  -- the impacts took energy (elasticity 0.6)
    local c, e = w:stats().collisions, w:energy().total
    w:run { until_time = 9 }
    assert.equal(c, w:stats().collisions)
    assert.near(e, w:energy().total, 1e-3)  -- 0
  end)

  it("six_blocks_settle2 (myphysicslab conventions, velocity and distance, no small impacts): "
    .. "its state at 6 s to 1e-5, then to 12 s no collision, energy to 0.1, contacts at the "
    .. "half gap to 1e-8", function()
    local w, blocks = settle(true, "myphysicslab")
    w:run { until_time = 6 }
    local err = mpl.worst(blocks, SETTLE2)
    assert.is_true(err <= 1e-5, ("state %.3g from myPhysicsLab's"):format(err))  -- 4.7e-8
    local c, e = w:stats().collisions, w:energy().total
    w:run { until_time = 12 }
    assert.equal(c, w:stats().collisions)
    assert.near(e, w:energy().total, 0.1)  -- 0
    local contacts = w:contacts()
    assert.is_true(#contacts >= 6)
    for _, k in ipairs(contacts) do assert.near(0.005, k.distance, 1e-8) end  -- 1e-15
  end)

  -- impact's conventions: settled in the box, no block through a wall, the energy lost to the
  -- impacts (-54 J -> -133.6 J); a step's rise stays below 0.01 J (4.1e-3 at 2.75 s, 1.7e-3;
  -- under myPhysicsLab's conventions, whose states match its own, 6.4e-3 and 2.7e-3)
  for _, two in ipairs { false, true } do
    it("six_blocks_settle" .. (two and "2" or "") .. " (impact's conventions): the blocks come "
      .. "to rest in the box, energy only lost to the impacts", function()
      local w, blocks = settle(two, "impact")
      local e0 = w:energy().total
      local rises = 0
      local last = e0
      w:run { until_time = 9, every = 0, fn = function()
        local e = w:energy().total
        rises = math.max(rises, e - last)
        last = e
      end }
      assert.is_true(rises <= 0.01, ("energy rose by %.3g in a step"):format(rises))
      assert.is_true(w:energy().total < e0)
      for _, b in ipairs(blocks) do
        assert.is_true(math.abs(b.position[1]) < 6 and b.position[2] > -6 and b.position[2] < -3.9)
      end
    end)
  end
  pending("six_blocks_settle under impact's conventions: its state at 6.2 s to 1e-5 (1.57), no "
    .. "collision from 6.2 s to 9 s (10) and the energy kept to 1e-3 there (-0.14)")
  pending("six_blocks_settle2 under impact's conventions: its state at 6 s to 1e-5 (1.57)")
end)
