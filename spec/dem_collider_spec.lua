-- The dem collider's pairs by distance (dem_bins.h, as LIGGGHTS' neighbour lists with skin 2 v):
-- two spheres are paired when their centres are closer than ra + rb + 2 v at a collider run, and
-- the collider runs again once a sphere moved v from its centre there. Checked on a cloud of
-- spheres with random velocities in a box of walls, at every step: no overlapping pair lacks its
-- interaction (potential when the overlap began in this step's move, after the law ran; real
-- from the next step), and no potential interaction joins spheres farther apart than ra + rb + 4 v
-- (each moved at most v since the run; pairs of overlapping cubes would reach sqrt(3) times the
-- reach across their corners).
local impact = require("impact")
local dem = impact.dem
local overlaps = require("spec.support.dem_overlaps")

local function cloud(seed, verlet)
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
  local rng = seed
  local function rand()
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng / 2147483648
  end
  local L, m, balls, radius = 0.1, 5, {}, {}
  for i = 0, m - 1 do  -- spacing 0.02 +- 0.001, radii below 0.0095: no pair overlaps at the start
    for j = 0, m - 1 do
      for k = 0, m - 1 do
        local r = 0.008 * (1 + 0.18 * rand())
        local p = { (i + 0.5) * L / m + 0.001 * (rand() - 0.5), (j + 0.5) * L / m + 0.001 * (rand() - 0.5),
                    (k + 0.5) * L / m + 0.001 * (rand() - 0.5) }
        local b = w:add_body { shape = impact.shape3d.sphere { radius = r }, density = 2600,
                               position = p,
                               velocity = { 2 * (rand() - 0.5), 2 * (rand() - 0.5), 2 * (rand() - 0.5) } }
        balls[#balls + 1], radius[b.id] = b, r
      end
    end
  end
  for axis = 1, 3 do  -- a box of six walls about the cloud
    for _, side in ipairs { 0, L } do
      local n, p = { 0, 0, 0 }, { 0, 0, 0 }
      n[axis], p[axis] = side == 0 and 1 or -1, side
      w:add_body { shape = impact.shape3d.wall { normal = n }, fixed = true, position = p }
    end
  end
  w:set_engines {
    dem.force_resetter(),
    dem.collider { verlet_distance = verlet },
    dem.interaction_loop { physics = { dem.frict { young = 1e7, ks_ratio = 0.3, friction_angle = 0.5 } },
                           law = { "cundall_strack" } },
    dem.newton { damping = 0 },
  }
  w.dt = 2e-5
  return w, balls, radius
end

local function distance(a, b)
  local p, q = a.position, b.position
  return math.sqrt((p[1] - q[1]) ^ 2 + (p[2] - q[2]) ^ 2 + (p[3] - q[3]) ^ 2)
end

describe("dem collider: pairs by distance", function()
  it("misses no contact and keeps no potential pair beyond ra + rb + 4 v", function()
    local v = 0.0008
    local w, balls, radius = cloud(2468, v)
    local steps, checked, potential, runs0 = 150, 0, 0, w:dem_stats().collider_runs
    for _ = 1, steps do
      w:step(1)
      local all = w:interactions { all = true }
      for _, I in ipairs(all) do
        local ra, rb = radius[I.body1.id], radius[I.body2.id]
        if not I.real and ra and rb then
          potential = potential + 1
          local d = distance(I.body1, I.body2)
          assert.is_true(d < ra + rb + 4 * v,
            ("potential pair %d-%d %.4g m apart, beyond ra + rb + 4 v = %.4g"):format(
              I.body1.id, I.body2.id, d, ra + rb + 4 * v))
        end
      end
      local n, missing = overlaps.check(balls, function(i) return radius[balls[i].id] end,
                                        distance, overlaps.keys(all))
      checked = checked + n
      assert.is_nil(missing)
    end
    local runs = w:dem_stats().collider_runs - runs0
    assert.is_true(checked > 100, "the cloud must collide enough to test: " .. checked)
    assert.is_true(potential > 1000, "potential pairs to test: " .. potential)
    assert.is_true(runs >= 3 and runs < steps / 10, "collider runs: " .. runs)  -- 6 in this cloud
  end)
end)
