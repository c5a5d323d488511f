--- impact.dem_packing: sphere packings for the dem strategy (Yade's pack module), as lists
--- {{center = {x, y, z}, radius = r}, ...} that dem.add_spheres puts into a world.
---
---   local spheres = dem.cloud { box = {{0, 0, 0}, {1, 1, 1}}, psd = {mean = 0.05, spread = 0.3},
---                               porosity = 0.7, seed = 1 }
---   dem.cloud { box = ..., psd = {{0.02, 0}, {0.04, 0.5}, {0.06, 1}}, num = 500 }
---   dem.regular { box = ..., radius = 0.01, kind = "hexagonal" }     -- or "cubic"
---   dem.add_spheres(w, spheres, {density = 2600})
---
--- The random numbers are this module's own (splitmix64), so a seed gives the same cloud on
--- every machine.
-- @module impact.dem_packing
local options = require("impact.options")

local packing = {}

local shown = options.shown

-- splitmix64 (Steele, Lea & Flood 2014): 64-bit integer arithmetic wraps in Lua 5.4
local function generator(seed)
  local state = seed
  return function()
    state = state + 0x9E3779B97F4A7C15
    local z = state
    z = (z ~ (z >> 30)) * -4658895280553007687  -- 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * -7723592293110705685  -- 0x94D049BB133111EB
    z = z ~ (z >> 31)
    return (z >> 11) * 2.0 ^ -53  -- uniform in [0, 1)
  end
end

local function check_box(what, opts)
  local box = opts.box
  if type(box) ~= "table" or #box ~= 2 then
    error(string.format("%s: option 'box' must be {{xmin, ymin, zmin}, {xmax, ymax, zmax}}, "
      .. "got %s", what, shown(box)), 3)
  end
  local lo = options.vector(what, { lo = box[1] }, "lo", nil, 3, { required = true, level = 4 })
  local hi = options.vector(what, { hi = box[2] }, "hi", nil, 3, { required = true, level = 4 })
  for k = 1, 3 do
    if hi[k] <= lo[k] then
      error(string.format("%s: option 'box': the upper corner must be above the lower one on "
        .. "every axis, got %s and %s on axis %d", what, shown(lo[k]), shown(hi[k]), k), 3)
    end
  end
  return lo, hi
end

-- the diameter sampler of opts.psd: {mean = d, spread = s} (uniform in d (1 +- s)) or a table
-- {{d, passing}, ...} (passing fractions by mass, or by number with by_number), and the
-- largest diameter
local function diameter_sampler(what, psd, by_number, rand)
  if type(psd) ~= "table" then
    error(string.format("%s: option 'psd' must be {mean = d, spread = s} or {{d, passing}, "
      .. "...}, got %s", what, shown(psd)), 3)
  end
  if psd.mean ~= nil or psd.spread ~= nil then
    options.check_keys(what .. ": option 'psd'", psd, { mean = true, spread = true },
      { level = 4 })
    local d = options.number(what, psd, "mean", nil, { min = 0, min_open = true,
      required = true, level = 4 })
    local s = options.number(what, psd, "spread", 0, { min = 0, max = 1, max_open = true,
      level = 4 })
    return function() return d * (1 + s * (2 * rand() - 1)) end, d * (1 + s)
  end
  local n = #psd
  if n < 2 then
    error(string.format("%s: option 'psd' must list at least two points {d, passing}, got %d",
      what, n), 3)
  end
  local ds, ps = {}, {}
  for i = 1, n do
    local row = psd[i]
    local ok = type(row) == "table" and #row == 2 and type(row[1]) == "number"
      and type(row[2]) == "number" and row[1] > 0 and row[1] < math.huge
      and row[2] >= 0 and row[2] <= 1
      and (i == 1 or (row[1] > ds[i - 1] and row[2] >= ps[i - 1]))
    if not ok then
      error(string.format("%s: psd[%d] must be {d, passing} with d > 0 finite and 0 <= "
        .. "passing <= 1, both increasing down the list, got %s", what, i, shown(row)), 3)
    end
    ds[i], ps[i] = row[1], row[2]
  end
  if ps[n] ~= 1 then
    error(string.format("%s: the last passing fraction of 'psd' must be 1, got %s", what,
      shown(ps[n])), 3)
  end
  -- the inverse of the piecewise-linear passing curve
  local function inverse(u)
    for i = 2, n do
      if u <= ps[i] and ps[i] > ps[i - 1] then
        return ds[i - 1] + (ds[i] - ds[i - 1]) * (u - ps[i - 1]) / (ps[i] - ps[i - 1])
      end
    end
    return ds[n]
  end
  local lowest = ds[1]
  for i = 2, n do
    if ps[i] > ps[i - 1] then lowest = ds[i - 1]; break end
  end
  if by_number then return function() return inverse(rand()) end, ds[n] end
  -- by mass: a diameter drawn from the mass curve, kept with probability (lowest / d)^3, so
  -- that counts are in proportion to mass / d^3 (rejection sampling)
  return function()
    while true do
      local d = inverse(rand())
      if rand() * d ^ 3 <= lowest ^ 3 then return d end
    end
  end, ds[n]
end

local cloud_keys = { box = true, psd = true, porosity = true, num = true, seed = true,
                     by_number = true, max_tries = true }

--- dem.cloud{box = {lo, hi}, psd = {mean = d, spread = s} | {{d, passing}, ...}, porosity,
--- num, seed = 1, by_number = false, max_tries = 1000}: a loose cloud of non-overlapping
--- spheres inside the box (Yade's SpherePack.makeCloud). Diameters: uniform in d (1 +- s), or
--- the piecewise-linear passing curve of psd (fractions by mass, as sieves give them; by
--- number with by_number = true). Sizes are drawn until the spheres fill 1 - porosity of the
--- box or num of them are drawn (give one or both), then placed largest first at uniform
--- random points, each tried at most max_tries times. Returns the list and the number of
--- spheres that found no place (0 unless the cloud is too dense for random placement).
function packing.cloud(opts)
  local what = "impact.dem.cloud"
  opts = options.check_keys(what, opts, cloud_keys, { level = 2 })
  local lo, hi = check_box(what, opts)
  local porosity = options.number(what, opts, "porosity", nil, { min = 0, max = 1,
    max_open = true, level = 2 })
  local num = options.integer(what, opts, "num", nil, { min = 1, level = 2 })
  if not porosity and not num then
    error(what .. ": give 'porosity', 'num' or both (when to stop drawing sizes)", 2)
  end
  local seed = options.integer(what, opts, "seed", 1, { level = 2 })
  local tries = options.integer(what, opts, "max_tries", 1000, { min = 1, level = 2 })
  local rand = generator(seed)
  local draw, dmax = diameter_sampler(what, opts.psd, options.boolean(what, opts, "by_number",
    false, { level = 2 }), rand)
  local size = { hi[1] - lo[1], hi[2] - lo[2], hi[3] - lo[3] }
  for k = 1, 3 do
    if dmax >= size[k] then
      error(string.format("%s: the largest diameter %s does not fit in the box (side %s on "
        .. "axis %d)", what, shown(dmax), shown(size[k]), k), 2)
    end
  end
  local target = porosity and (1 - porosity) * size[1] * size[2] * size[3] or math.huge
  local radii, solid = {}, 0
  while solid < target and #radii < (num or math.huge) do
    local r = draw() / 2
    radii[#radii + 1] = r
    solid = solid + 4 / 3 * math.pi * r ^ 3
    if #radii > 10000000 then
      error(what .. ": more than 1e7 spheres: give 'num' or a larger diameter", 2)
    end
  end
  table.sort(radii, function(a, b) return a > b end)
  -- a grid of cells of the largest diameter: neighbours are in the 27 cells around
  local cell = dmax
  local nx, ny = math.floor(size[1] / cell) + 1, math.floor(size[2] / cell) + 1
  local grid = {}
  local function key(i, j, k) return i + nx * (j + ny * k) end
  local out, failed = {}, 0
  for _, r in ipairs(radii) do
    local placed = false
    for _ = 1, tries do
      local c = { lo[1] + r + (size[1] - 2 * r) * rand(), lo[2] + r + (size[2] - 2 * r) * rand(),
                  lo[3] + r + (size[3] - 2 * r) * rand() }
      local ci = math.floor((c[1] - lo[1]) / cell)
      local cj = math.floor((c[2] - lo[2]) / cell)
      local ck = math.floor((c[3] - lo[3]) / cell)
      local free = true
      for k = ck - 1, ck + 1 do
        for j = cj - 1, cj + 1 do
          for i = ci - 1, ci + 1 do
            for _, s in ipairs(grid[key(i, j, k)] or {}) do
              local p = s.center
              local dx, dy, dz = p[1] - c[1], p[2] - c[2], p[3] - c[3]
              if dx * dx + dy * dy + dz * dz < (s.radius + r) ^ 2 then
                free = false
                break
              end
            end
            if not free then break end
          end
          if not free then break end
        end
        if not free then break end
      end
      if free then
        local s = { center = c, radius = r }
        out[#out + 1] = s
        local kk = key(ci, cj, ck)
        local list = grid[kk] or {}
        grid[kk] = list
        list[#list + 1] = s
        placed = true
        break
      end
    end
    if not placed then failed = failed + 1 end
  end
  return out, failed
end

local regular_kinds = { "cubic", "hexagonal" }

--- dem.regular{box = {lo, hi}, radius = r, kind = "cubic" | "hexagonal"}: spheres of radius r
--- in contact on a lattice filling the box (centres at least r inside it; Yade's regularOrtho
--- and regularHexa): simple cubic (spacing 2r, packing fraction pi / 6) or hexagonal close
--- packing (rows 2r apart along x, rows sqrt(3) r apart along y shifted by r every other row,
--- layers 2 sqrt(2/3) r apart along z shifted over the holes of the layer below (ABAB...),
--- packing fraction pi / (3 sqrt 2)).
function packing.regular(opts)
  local what = "impact.dem.regular"
  opts = options.check_keys(what, opts, { box = true, radius = true, kind = true }, { level = 2 })
  local lo, hi = check_box(what, opts)
  local r = options.number(what, opts, "radius", nil, { min = 0, min_open = true,
    required = true, level = 2 })
  local kind = options.enum(what, opts, "kind", "cubic", regular_kinds, { level = 2 })
  local out = {}
  local hex = kind == "hexagonal"
  local dy = hex and math.sqrt(3) * r or 2 * r
  local dz = hex and 2 * math.sqrt(2 / 3) * r or 2 * r
  local top = { hi[1] - r, hi[2] - r, hi[3] - r }
  local eps = 1e-12 * r
  local layer = 0
  local z = lo[3] + r
  while z <= top[3] + eps do
    -- hexagonal: odd layers shifted to the holes of the even ones (by r in x, r / sqrt 3 in y)
    local sx = hex and layer % 2 == 1 and r or 0
    local sy = hex and layer % 2 == 1 and r / math.sqrt(3) or 0
    local row = 0
    local y = lo[2] + r + sy
    while y <= top[2] + eps do
      local x = lo[1] + r + ((hex and row % 2 == 1) and r or 0) + sx
      if hex and x - 2 * r >= lo[1] + r - eps then x = x - 2 * r end
      while x <= top[1] + eps do
        out[#out + 1] = { center = { x, y, z }, radius = r }
        x = x + 2 * r
      end
      row = row + 1
      y = y + dy
    end
    layer = layer + 1
    z = lo[3] + r + layer * dz
  end
  return out
end

return packing
