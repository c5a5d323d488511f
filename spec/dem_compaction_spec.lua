-- dem.dense_pack: a frictionless packing compacted by gravity comes to rest (Yade's
-- unbalanced force below the threshold) inside its box without overlaps beyond the soft
-- contacts' small ones, denser than the cloud it started from, and isostatic: a rigid
-- frictionless packing at rest has as many contacts as force equations, 3 per sphere (Alexander
-- 1998; O'Hern et al. 2003), less the few spheres that rattle free (none of them carries load).
local impact = require("impact")
local dem = impact.dem

describe("dem.dense_pack", function()
  it("compacts a cloud into a dense, isostatic packing at rest in the box", function()
    local L, d = 0.04, 0.01
    local spheres, steps, w = dem.dense_pack { box = { { 0, 0, 0 }, { L, L, L } },
                                               psd = { mean = d }, young = 1e6, seed = 2 }
    assert.is_true(steps > 0)
    assert.is_true(w:unbalanced_force() < 0.01)
    local solid = 0
    for _, s in ipairs(spheres) do
      solid = solid + 4 / 3 * math.pi * s.radius ^ 3
      for k = 1, 3 do
        assert.is_true(s.center[k] - s.radius > -0.01 * s.radius)
        assert.is_true(s.center[k] + s.radius < L + 0.01 * s.radius)
      end
    end
    assert.is_true(solid / L ^ 3 > 0.3)  -- the cloud started at 0.3
    for _, I in ipairs(w:interactions()) do
      assert.is_true(I.overlap < 0.01 * d / 2)
    end
    -- contacts carrying load, and the spheres touched by none (rattlers)
    local m = impact.core.dem_measure(w)
    local touched = {}
    for _, I in ipairs(w:interactions()) do
      if I.overlap >= 0 then
        touched[I.body1] = true
        touched[I.body2] = true
      end
    end
    local n = 0
    for b in pairs(touched) do
      if not b.fixed then n = n + 1 end  -- the spheres (the walls are fixed)
    end
    local contacts = m.sphere_contacts + m.boundary_contacts
    assert.near(3, contacts / n, 0.3)
    -- Love-Weber under gravity: each sphere at rest carries its weight, so the sum of
    -- f (x) (x_c - x_p) gives V szz = -g sum m z (the floor's contacts at z = 0 add nothing and
    -- the frictionless side walls no vertical force), whatever V: to the unbalanced force
    local V = 1
    local szz = w:stress { volume = V }[3][3]
    local moment = 0
    for _, b in ipairs(w:bodies()) do
      if not b.fixed then moment = moment + b.mass * 9.81 * b.position[3] end
    end
    assert.near(-moment, szz * V, 0.02 * moment)
  end)

  it("checks its options", function()
    assert.has_error(function() dem.dense_pack { box = { { 0, 0, 0 } }, psd = { mean = 0.01 } } end)
    assert.has_error(function() dem.dense_pack { box = { { 0, 0, 0 }, { 1, 1, 1 } },
                                                 psd = { mean = 0.01 }, young = -1 } end)
    assert.has_error(function() dem.dense_pack { box = { { 0, 0, 0 }, { 1, 1, 1 } },
                                                 psd = { mean = 0.01 }, fast = true } end)
  end)
end)
