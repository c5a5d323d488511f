-- myPhysicsLab's StraightStraightTest acute_corners (src/test/StraightStraightTest.ts): a box of
-- four walls (its Walls.make2 about the rectangle (-4.5, -3.6) to (3.1, 4), 1 thick), three
-- 1 x 3 blocks and three quadrilaterals with acute corners (its Shapes.makePolygon: mass 1,
-- moment 1/6, the centre of mass at the bounding box's centre as its Polygon.finish sets it),
-- from its recorded state (bodies 4 to 9 resting on the floor and on each other, block 7 about
-- to land on block 8), gravity 3, elasticity 0.8, no damping, extra acceleration
-- "velocity_and_distance_joints", its commonSetup1 otherwise (RK4, dt 0.025, serial handling).
-- Its point: the acute corners of bodies 6 and 9 rest against each other on the floor, each
-- beyond the other's edge, where only a corner/corner contact holds them (it once threw a
-- "probablyPointInside" error there). It asserts the state at 5 s to 1e-5. Measured: 0.011 from
-- it under impact's conventions (42 collisions), 8.9e-8 under conventions = "myphysicslab",
-- with its 5 collisions (its own code, run under node, ends 5.2e-8 from its recorded state).
-- What it took (session 16): its CornerCornerCollision's b (both lever arms at the normal
-- body's corner, + |dv|^2 / distance: the normal turns about that corner) and, at a back-up,
-- its addCollision refusing the static records of a kept penetrating corner (0.084 before).
local impact = require("impact")
local mpl = require("spec.support.myphysicslab")
local shape2d = impact.shape2d

-- x, vx, y, vy, angle, spin of its bodies 0 to 9 (walls: bottom, right, top, left)
local START = {
  { -0.7, 0, -4.1, 0, 0, 0 }, { 3.6, 0, 0.2, 0, 0, 0 }, { -0.7, 0, 4.5, 0, 0, 0 }, { -5, 0, 0.2, 0, 0, 0 },
  { -3.994175423172596, -3.375246109755061e-7, -2.7383266394583425, -5.942141763683848e-9,
    -1.0548398616079855, -9.118912363980537e-9 },
  { -2.003265933175177, -4.007266059523297e-7, -3.0949999992492216, -2.805109218609374e-8,
    -1.5707963271905572, 1.4783921554646415e-8 },
  { 2.1894973957584805, -0.002607801649199815, -2.8567099904181865, -1.137377229716843e-13,
    0.14442290824138998, -3.3018032752131266e-14 },
  { 0.5531761073947989, -0.07606659236252189, -1.7549648725459994, -0.0375339986382553,
    1.8055032081848377, -0.030052137616049142 },
  { -1.7979653247900453, 0.186005234323005, -1.089999995447982, -1.7043644812988394e-7,
    3.141592646020941, 2.8341393571213067e-7 },
  { 0.6357229411480702, 0.14498910247394578, -2.9733009783756574, -4.2449932455742765e-13,
    0.9490286328488056, 3.497165520156307e-13 } }

-- its state at 5 s
local AT_5 = {
  { -0.7, 0, -4.1, 0, 0, 0 }, { 3.6, 0, 0.2, 0, 0, 0 }, { -0.7, 0, 4.5, 0, 0, 0 }, { -5, 0, 0.2, 0, 0, 0 },
  { -4.1032991, -0.0000002, -2.6832517, 0.0000001, -0.9315825, 0.0000002 },
  { -1.8781805, 0.0192418, -3.095, -0, -1.5707963, -0 },
  { 2.1928624, 0.0025583, -2.852029, 0.0201551, 0.1502213, 0.0250336 },
  { -1.0789055, -0.0480727, -2.0371939, -0.0180137, 1.6062169, -0.0121602 },
  { -3.350931, 0.047195, -1.0558168, -0.0178603, 3.3357669, -0.0708072 },
  { 0.6897072, 0.0187622, -2.9732101, -0.0026702, 0.9488974, 0.0038532 } }

-- its three quadrilaterals (counter-clockwise)
local ACUTE = {
  { { 1, 0 }, { -0.513177951173234170, 0.858282232386085031 },
    { -0.969768795922141824, 0.244025577462116117 }, { 0.513177951173234059, -0.858282232386085142 } },
  { { 1, 0 }, { -0.516830731524381637, 0.856087609390518200 },
    { -0.814535453253508290, -0.580113777972133482 }, { 0.615548804248536530, -0.788098768929502258 } },
  { { 1, 0 }, { -0.518913825057696454, 0.854826556772770418 },
    { -0.971381139582120134, 0.237526170482626198 }, { -0.087331206181348126, -0.996179331459406847 } } }

-- a quadrilateral and its bounding box's centre (its Polygon.finish's centre of mass)
local function quad(pts)
  local p = shape2d.path()
  local x0, x1, y0, y1 = math.huge, -math.huge, math.huge, -math.huge
  for i, v in ipairs(pts) do
    if i == 1 then p:move_to(v[1], v[2]) else p:line_to(v[1], v[2]) end
    x0, x1 = math.min(x0, v[1]), math.max(x1, v[1])
    y0, y1 = math.min(y0, v[2]), math.max(y1, v[2])
  end
  return p:close():build(), { x0 + (x1 - x0) / 2, y0 + (y1 - y0) / 2 }
end

local function scene(conventions)
  local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -3 },
    collision_handling = "serial", distance_tol = 0.01, velocity_tol = 0.5,
    collision_accuracy = 0.6, integrator = "rk4", extra_accel = "velocity_and_distance_joints",
    joint_small_impacts = true, seed = 99999, conventions = conventions }
  local bodies = {}
  for i, size in ipairs { { 9.6, 1 }, { 1, 9.6 }, { 9.6, 1 }, { 1, 9.6 } } do
    local s = START[i]
    bodies[i] = w:add_body { shape = shape2d.block { width = size[1], height = size[2] },
      fixed = true, position = { s[1], s[3] }, elasticity = 0.8 }
  end
  for k, kind in ipairs { ACUTE[1], "block", ACUTE[2], "block", "block", ACUTE[3] } do
    local s = START[4 + k]
    local o = { mass = 1, position = { s[1], s[3] }, velocity = { s[2], s[4] }, angle = s[5],
                spin = s[6], elasticity = 0.8 }
    if kind == "block" then
      o.shape = shape2d.block { width = 1, height = 3 }
    else
      o.shape, o.center_of_mass = quad(kind)
      o.inertia = 1 / 6
    end
    bodies[4 + k] = w:add_body(o)
  end
  return w, bodies
end

describe("myPhysicsLab StraightStraightTest acute_corners", function()
  for _, c in ipairs { { "impact", 0.02 }, { "myphysicslab", 1e-5 } } do
    it("(" .. c[1] .. "): runs to 5 s with collisions and contacts at the acute corners, every "
      .. "body inside the box, the energy lost to the impacts (its rises, the contacts' drift "
      .. "corrections, within 1e-3 a step); its state at 5 s to " .. c[2], function()
      local w, bodies = scene(c[1])
      local e0 = w:energy().total
      local e = e0
      while w.time < 5 - 1e-9 do
        w:step()
        local now = w:energy().total  -- rises: at most 3.3e-4 (impact), 7.6e-4 (myphysicslab)
        assert.is_true(now <= e + 1e-3, ("energy rose by %.3g at %g s"):format(now - e, w.time))
        e = now
        for i = 5, 10 do
          local p = bodies[i].position
          assert.is_true(p[1] > -4.5 and p[1] < 3.1 and p[2] > -3.6 and p[2] < 4,
                         ("body %d at (%g, %g)"):format(i - 1, p[1], p[2]))
        end
      end
      assert.is_true(w:stats().collisions > 0)
      if c[1] == "myphysicslab" then
        assert.are.equal(5, w:stats().collisions)  -- its count (42 under impact's conventions)
      end
      assert.is_true(e < e0 - 0.1)  -- -0.596 (impact), -0.591 (myphysicslab)
      local err = mpl.worst(bodies, AT_5)
      assert.is_true(err <= c[2], ("state %.3g from myPhysicsLab's at 5 s"):format(err))  -- 0.011, 8.9e-8
    end)
  end
end)
