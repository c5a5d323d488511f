-- Every 3D shape comes to rest on the ground under the 3D contact strategy at the height its
-- geometry predicts (the centroid above its lowest point), without drifting or turning: the
-- manifold of each pair holds it (flat contacts by several points, curved ones by one).
-- Tolerance: penetrations shallower than the slop (a tenth of distance_tol, 1 mm) are left to
-- rest, so the height is exact to that.
local impact = require("impact")
local shape3d = impact.shape3d

local function hull_of_cuboid(sx, sy, sz, r)
  return shape3d.convex { points = require("spec.support.scenes3d").cuboid_points(sx, sy, sz), smoothing = r }
end

local lying_x = { math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0 }  -- z axis turned onto x

local cases = {
  { "sphere", function() return shape3d.sphere { radius = 0.3 } end, 0.3 },
  { "box", function() return shape3d.box { size = { 0.4, 0.6, 0.8 } } end, 0.4 },
  { "smoothed box", function() return shape3d.box { size = { 0.4, 0.6, 0.8 }, smoothing = 0.05 } end, 0.4 },
  { "ellipsoid on its shortest axis",
    function() return shape3d.ellipsoid { radii = { 0.5, 0.4, 0.3 } } end, 0.3 },
  { "cylinder standing", function() return shape3d.cylinder { radius = 0.3, length = 1 } end, 0.5 },
  { "cylinder lying", function() return shape3d.cylinder { radius = 0.3, length = 1 } end, 0.3, lying_x },
  { "capsule lying", function() return shape3d.capsule { radius = 0.2, length = 0.6 } end, 0.2, lying_x },
  -- a cone's centroid is a quarter of its height above the base
  { "cone on its base", function() return shape3d.cone { radius = 0.4, length = 0.9 } end, 0.225 },
  { "convex hull", function() return hull_of_cuboid(1, 0.8, 0.5, 0) end, 0.25 },
  { "smoothed hull", function() return hull_of_cuboid(1, 0.8, 0.5, 0.05) end, 0.3 },
  { "polyhedron", function()
      local pts = {}
      for _, x in ipairs { -0.5, 0.5 } do
        for _, y in ipairs { -0.5, 0.5 } do
          for _, z in ipairs { -0.5, 0.5 } do pts[#pts + 1] = { x, y, z } end
        end
      end
      return shape3d.polyhedron { points = pts }
    end, 0.5 },
}

describe("3D contact: every shape rests at the height of its lowest point", function()
  for _, ground_kind in ipairs { "box", "wall" } do
    for _, points in ipairs { "clipping", "volumetric" } do
      it(string.format("on a %s (%s contact points)", ground_kind, points), function()
        local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 1 / 240,
                                   contact_points = points }
        if ground_kind == "box" then
          w:add_body { shape = shape3d.box { size = { 100, 100, 1 } }, fixed = true, friction = 0.5,
                       position = { 0, 0, -0.5 } }
        else
          w:add_body { shape = shape3d.wall { normal = { 0, 0, 1 } }, fixed = true, friction = 0.5 }
        end
        local bodies = {}
        for i, case in ipairs(cases) do
          -- dropped from 5 cm above its resting height
          bodies[i] = w:add_body { shape = case[2](), density = 500, friction = 0.5, elasticity = 0,
                                   position = { 3 * i, 0, case[3] + 0.05 },
                                   orientation = case[4] }
        end
        w:run { duration = 2 }
        for i, case in ipairs(cases) do
          local b = bodies[i]
          assert.near(case[3], b.position[3], 1.5e-3, case[1])
          assert.near(3 * i, b.position[1], 1e-3, case[1])
          local v, om = b.velocity, b.angular_velocity
          assert.is_true(math.abs(v[1]) + math.abs(v[2]) + math.abs(v[3]) < 1e-3, case[1])
          assert.is_true(math.abs(om[1]) + math.abs(om[2]) + math.abs(om[3]) < 1e-2, case[1])
        end
      end)
    end
  end
end)
