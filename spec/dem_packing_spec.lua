-- Sphere packings (dem.cloud, dem.regular, dem.add_spheres) and STL facets (dem.import_stl):
-- clouds without overlaps and with the size distribution asked for (statistical bounds from
-- the sample), the packing fractions of the cubic and hexagonal lattices (pi / 6 and
-- pi / (3 sqrt 2)), STL triangles read back exactly.
local impact = require("impact")
local dem = impact.dem

local function dist(a, b)
  return math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2 + (a[3] - b[3]) ^ 2)
end

-- the smallest gap between two spheres of the list: all pairs closer than twice the largest
-- radius along x (a sweep over the centres sorted by x)
local function smallest_gap(spheres)
  local sorted, rmax = {}, 0
  for i, s in ipairs(spheres) do
    sorted[i] = s
    rmax = math.max(rmax, s.radius)
  end
  table.sort(sorted, function(a, b) return a.center[1] < b.center[1] end)
  local best = math.huge
  for i = 1, #sorted do
    local a = sorted[i]
    for j = i + 1, #sorted do
      local b = sorted[j]
      if b.center[1] - a.center[1] > 2 * rmax then break end
      best = math.min(best, dist(a.center, b.center) - a.radius - b.radius)
    end
  end
  return best
end

local function inside(spheres, lo, hi)
  for _, s in ipairs(spheres) do
    for k = 1, 3 do
      if s.center[k] - s.radius < lo[k] or s.center[k] + s.radius > hi[k] then return false end
    end
  end
  return true
end

local box = { { 0, 0, 0 }, { 1, 0.5, 0.5 } }
local volume = 0.25

describe("dem.cloud", function()
  it("places non-overlapping spheres inside the box up to the porosity", function()
    local spheres, failed = dem.cloud { box = box, psd = { mean = 0.05, spread = 0.3 },
                                        porosity = 0.8, seed = 7 }
    assert.equals(0, failed)
    assert.is_true(smallest_gap(spheres) >= 0)
    assert.is_true(inside(spheres, box[1], box[2]))
    local solid = 0
    for _, s in ipairs(spheres) do solid = solid + 4 / 3 * math.pi * s.radius ^ 3 end
    -- drawn until the solid fraction reached 1 - porosity: the sizes are sorted afterwards,
    -- so the largest sphere bounds the last one drawn
    local largest = 0
    for _, s in ipairs(spheres) do largest = math.max(largest, s.radius) end
    assert.is_true(solid / volume >= 0.2)
    assert.is_true((solid - 4 / 3 * math.pi * largest ^ 3) / volume < 0.2)
    -- diameters uniform in d (1 +- s): bounds, and the mean within 4 standard errors
    local sum = 0
    for _, s in ipairs(spheres) do
      assert.is_true(2 * s.radius >= 0.05 * 0.7 - 1e-15 and 2 * s.radius <= 0.05 * 1.3 + 1e-15)
      sum = sum + 2 * s.radius
    end
    local sigma = 0.05 * 0.3 / math.sqrt(3) / math.sqrt(#spheres)
    assert.near(0.05, sum / #spheres, 4 * sigma)
  end)

  it("gives the passing fractions of the PSD, by mass and by number", function()
    local psd = { { 0.02, 0 }, { 0.03, 0.3 }, { 0.05, 1 } }
    for _, by_number in ipairs { false, true } do
      local spheres = dem.cloud { box = box, psd = psd, num = 4000, porosity = 0.85, seed = 11,
                                  by_number = by_number }
      assert.is_true(smallest_gap(spheres) >= 0)
      local n = #spheres
      assert.is_true(n > 1000)
      -- the fraction below 0.03 (by mass m = d^3 or by count); its standard error from the
      -- sample (delta method for the ratio of means), the check at 4 of them
      local below, total, w = {}, 0, {}
      for i, s in ipairs(spheres) do
        local d = 2 * s.radius
        w[i] = by_number and 1 or d ^ 3
        below[i] = d <= 0.03 and 1 or 0
        total = total + w[i]
      end
      local mean_w = total / n
      local frac = 0
      for i = 1, n do frac = frac + w[i] * below[i] end
      frac = frac / total
      local var = 0
      for i = 1, n do var = var + (w[i] * (below[i] - frac)) ^ 2 end
      local se = math.sqrt(var / n) / mean_w / math.sqrt(n)
      assert.near(0.3, frac, 4 * se)
      for _, s in ipairs(spheres) do
        assert.is_true(2 * s.radius >= 0.02 and 2 * s.radius <= 0.05)
      end
    end
  end)

  it("is the same for the same seed and differs for another", function()
    local a = dem.cloud { box = box, psd = { mean = 0.05 }, num = 50, seed = 5 }
    local b = dem.cloud { box = box, psd = { mean = 0.05 }, num = 50, seed = 5 }
    local c = dem.cloud { box = box, psd = { mean = 0.05 }, num = 50, seed = 6 }
    assert.same(a, b)
    assert.are_not.same(a, c)
  end)

  it("checks its options", function()
    assert.has_error(function() dem.cloud { box = box, psd = { mean = 0.05 } } end,
      "impact.dem.cloud: give 'porosity', 'num' or both (when to stop drawing sizes)")
    assert.has_error(function() dem.cloud { box = { { 0, 0, 0 } }, psd = { mean = 1 }, num = 1 } end)
    assert.has_error(function() dem.cloud { box = box, psd = { mean = 0.6 }, num = 1 } end)
    assert.has_error(function() dem.cloud { box = box, psd = { { 0.02, 0 }, { 0.01, 1 } },
                                            num = 1 } end)
    assert.has_error(function() dem.cloud { box = box, psd = { { 0.02, 0 }, { 0.03, 0.9 } },
                                            num = 1 } end)
    assert.has_error(function() dem.cloud { box = box, psd = { mean = 0.05 }, num = 1,
                                            colour = 1 } end)
  end)
end)

describe("dem.regular", function()
  -- spheres whose centres lie in the half-open box [a, a + n p) on each axis (p: the lattice's
  -- periods), times the sphere volume, over the box's volume: the packing fraction exactly
  local function fraction(spheres, a, p, n)
    local count, r = 0, spheres[1].radius
    for _, s in ipairs(spheres) do
      local ok = true
      for k = 1, 3 do
        ok = ok and s.center[k] >= a[k] and s.center[k] < a[k] + n[k] * p[k]
      end
      if ok then count = count + 1 end
    end
    return count * 4 / 3 * math.pi * r ^ 3 / (n[1] * p[1] * n[2] * p[2] * n[3] * p[3])
  end

  it("packs a simple cubic lattice at pi / 6", function()
    local r = 0.05
    local spheres = dem.regular { box = { { 0, 0, 0 }, { 1, 1, 1 } }, radius = r, kind = "cubic" }
    assert.equals(1000, #spheres)  -- 10 spheres of diameter 0.1 along each side
    assert.near(0, smallest_gap(spheres), 1e-12)
    assert.is_true(inside(spheres, { 0, 0, 0 }, { 1, 1, 1 }))
    assert.near(math.pi / 6, fraction(spheres, { 0.013, 0.013, 0.013 }, { 2 * r, 2 * r, 2 * r },
      { 8, 8, 8 }), 1e-12)
  end)

  it("packs a hexagonal close packing at pi / (3 sqrt 2), 12 neighbours touching", function()
    local r = 0.05
    local spheres = dem.regular { box = { { 0, 0, 0 }, { 1.2, 1.2, 1.2 } }, radius = r,
                                  kind = "hexagonal" }
    assert.near(0, smallest_gap(spheres), 1e-12)
    assert.is_true(inside(spheres, { 0, 0, 0 }, { 1.2, 1.2, 1.2 }))
    -- periods: 2r along x, two rows 2 sqrt(3) r along y, two layers 4 sqrt(2/3) r along z
    local p = { 2 * r, 2 * math.sqrt(3) * r, 4 * math.sqrt(2 / 3) * r }
    assert.near(math.pi / (3 * math.sqrt(2)), fraction(spheres, { 0.2013, 0.2013, 0.2013 }, p,
      { 6, 2, 2 }), 1e-12)
    -- a sphere far from the box's faces touches exactly 12 others
    for _, s in ipairs(spheres) do
      local c = s.center
      if c[1] > 0.4 and c[1] < 0.8 and c[2] > 0.4 and c[2] < 0.8 and c[3] > 0.4 and c[3] < 0.8 then
        local touching = 0
        for _, o in ipairs(spheres) do
          if o ~= s and math.abs(dist(c, o.center) - 2 * r) < 1e-12 then touching = touching + 1 end
        end
        assert.equals(12, touching)
      end
    end
  end)

  it("goes into a world as sphere bodies (dem.add_spheres)", function()
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    local spheres = dem.regular { box = { { 0, 0, 0 }, { 0.4, 0.4, 0.4 } }, radius = 0.1 }
    local bodies = dem.add_spheres(w, spheres, { density = 2600 })
    assert.equals(8, #bodies)
    assert.near(2600 * 4 / 3 * math.pi * 0.001, bodies[1].mass, 1e-12)
    assert.same(spheres[8].center, bodies[8].position)
    assert.has_error(function() dem.add_spheres(w, { { radius = 1 } }, { density = 1 }) end)
  end)
end)

describe("dem.import_stl", function()
  local tris = { { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } }, { { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 } } }

  local function write(path, text)
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
  end

  local function ascii(path)
    local out = { "solid test" }
    for _, t in ipairs(tris) do
      out[#out + 1] = "  facet normal 0 0 1\n    outer loop"
      for _, v in ipairs(t) do out[#out + 1] = string.format("      vertex %g %g %g", v[1], v[2], v[3]) end
      out[#out + 1] = "    endloop\n  endfacet"
    end
    out[#out + 1] = "endsolid test"
    write(path, table.concat(out, "\n") .. "\n")
  end

  local function binary(path)
    local out = { string.rep("s", 80), string.pack("<I4", #tris) }
    for _, t in ipairs(tris) do
      out[#out + 1] = string.pack("<fff", 0, 0, 1)
      for _, v in ipairs(t) do out[#out + 1] = string.pack("<fff", v[1], v[2], v[3]) end
      out[#out + 1] = string.pack("<I2", 0)
    end
    write(path, table.concat(out))
  end

  for _, kind in ipairs { "ascii", "binary" } do
    it("reads " .. kind .. " STL triangles as facets (scaled, shifted), spheres rest on them",
      function()
        local path = os.tmpname()
        if kind == "ascii" then ascii(path) else binary(path) end
        local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
        local facets = dem.import_stl(w, { file = path, scale = 2, shift = { 0, 0, -2 } })
        os.remove(path)
        assert.equals(2, #facets)
        -- the facet's position is its centroid: (2/3, 2/3, z) scaled by 2, shifted
        assert.near(2 / 3, facets[1].position[1], 1e-12)
        assert.near(-2, facets[1].position[3], 1e-12)
        assert.near(0, facets[2].position[3], 1e-12)
        -- a ball dropped on the upper facet comes to rest on it (the facet bears its weight)
        local ball = w:add_body { shape = impact.shape3d.sphere { radius = 0.05 }, density = 2600,
                                  position = { 0.5, 0.5, 0.06 } }
        w.dt = 0.3 * w:p_wave_dt()
        w:run { duration = 0.3 }
        assert.near(0.05, ball.position[3], 0.002)
      end)
  end

  it("names the file and the problem for a bad file", function()
    local path = os.tmpname()
    write(path, "not an stl")
    local w = impact.world3d { strategy = "dem" }
    local ok, err = pcall(dem.import_stl, w, { file = path })
    os.remove(path)
    assert.is_false(ok)
    assert.truthy(err:find("impact.dem.import_stl: " .. path, 1, true))
    assert.has_error(function() dem.import_stl(w, { file = "/nonexistent/x.stl" }) end)
  end)
end)
