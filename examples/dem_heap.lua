-- The angle of repose of a heap of spheres poured on a rough floor, with and without rolling
-- resistance (Zhou et al. 2002, Powder Technology 125 45; Ai et al. 2011, Powder Technology 206
-- 269). A floor of fixed spheres on a square grid (rough: the heap cannot slide on it) receives
-- small batches of spheres (diameter 1 cm +- 20 %, mu = 0.5, Cundall damping 0.3) dropped from
-- just above the heap's apex; once poured, the heap settles (unbalanced force < 0.01). The angle
-- is the slope of the heap's surface profile: the top of the highest sphere in rings of one
-- diameter around the axis, fitted by least squares on the flank (outside the highest ring)
-- between 20 % and 80 % of the heap's height, and above the monolayer of spheres that rolled
-- away on the floor (1.5 diameters).
--
--   lua5.4 examples/dem_heap.lua [rolling] [spheres]     (default 0 and 1000)
--   prints the profile and "angle of repose A degrees (rolling resistance R)"
local impact = require("impact")
local dem = impact.dem

local rolling = tonumber(arg[1] or "0")
local count = tonumber(arg[2] or "1000")
local r, rho, E, mu = 0.005, 2600, 1e7, 0.5
local floor_radius = 0.2

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true }  -- under it
local floor = {}
local m = math.floor(floor_radius / (2 * r))
for i = -m, m do
  for j = -m, m do
    local x, y = 2 * r * i, 2 * r * j
    if x * x + y * y <= floor_radius ^ 2 then floor[#floor + 1] = { center = { x, y, r }, radius = r } end
  end
end
dem.add_spheres(w, floor, { density = rho, fixed = true })
w.engines = {
  dem.force_resetter(), dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = E, friction_angle = math.atan(mu),
                                                 rolling = rolling } } },
  dem.newton { damping = 0.3 },
}
w.dt = 0.5 * 0.8 * r / math.sqrt(E / rho)  -- half the P-wave step of the smallest sphere

local heap = {}
local function apex()
  local h = 2 * r
  for _, b in ipairs(heap) do h = math.max(h, b.position[3]) end
  return h
end

local seed = 1
while #heap < count do
  local z = apex() + 2 * r
  local batch = dem.cloud { box = { { -0.015, -0.015, z }, { 0.015, 0.015, z + 0.015 } },
                            psd = { mean = 2 * r, spread = 0.2 }, porosity = 0.75, seed = seed }
  seed = seed + 1
  for _, b in ipairs(dem.add_spheres(w, batch, { density = rho })) do heap[#heap + 1] = b end
  w:run { steps = 600 }
end
local poured = w.steps
repeat w:run { steps = 500 } until (w:unbalanced_force() < 0.01 and w.steps > poured + 5000)
  or w.steps > poured + 100000

-- the surface profile: the top of the highest sphere in each ring of width 2 r; the flank is
-- the rings outside the highest one (the apex may hold a small crater where the batches land)
-- and above the rolled-off monolayer
local top, ring = {}, 2 * r
for _, b in ipairs(heap) do
  local p = b.position
  local k = math.floor(math.sqrt(p[1] ^ 2 + p[2] ^ 2) / ring)
  top[k] = math.max(top[k] or 0, p[3] + r)
end
local base = 2 * r                      -- the floor's top
local rings = math.floor(floor_radius / ring) - 1
local highest, height = 0, 0
for k = 0, rings do
  if top[k] and top[k] - base > height then highest, height = k, top[k] - base end
end
local xs, ys = {}, {}
print(string.format("%d spheres, %d steps, unbalanced force %.4f; profile (ring radius m, "
  .. "surface height above the floor m):", #heap, w.steps, w:unbalanced_force()))
for k = 0, rings do
  if top[k] then
    local rc, h = (k + 0.5) * ring, top[k] - base
    print(string.format("  %.3f %.4f", rc, h))
    if k > highest and h > math.max(0.2 * height, 3 * r) and h < 0.8 * height then
      xs[#xs + 1], ys[#ys + 1] = rc, h
    end
  end
end
local n, sx, sy, sxx, sxy = #xs, 0, 0, 0, 0
for i = 1, n do
  sx, sy = sx + xs[i], sy + ys[i]
  sxx, sxy = sxx + xs[i] ^ 2, sxy + xs[i] * ys[i]
end
local slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
print(string.format("heap height %.4f m; fitted on %d rings", height, n))
print(string.format("angle of repose %.1f degrees (rolling resistance %g)",
  math.deg(math.atan(-slope)), rolling))
