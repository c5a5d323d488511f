-- The angle of repose of a heap of spheres, with and without rolling resistance, by the lifted
-- cylinder test (a column collapse: the protocol of Itasca PFC's repose-angle examples, and of
-- the heap studies of Zhou et al. 2001, Phys. Rev. E 64 021301; Zhou et al. 2002, Powder
-- Technology 125 45; Ai et al. 2011, Powder Technology 206 269, who also pour from a funnel):
--
-- 1. A smooth cylinder (a 24-sided prism of frictionless facets) standing on a rough floor
--    (fixed spheres of the same size on a square grid: the heap cannot slide on it) is filled
--    with a loose cloud of spheres (diameter 1 cm +- 20 %, mu = 0.5, E = 1e6, Cundall damping
--    0.05 by default: it resists the avalanches and raises the angle, 30.3 degrees at Yade's
--    usual 0.2 against 21.3 at 0.05 without rolling resistance, where the papers have viscous
--    contact damping), which settles under gravity into a column 1.5 times as high as it is
--    wide.
-- 2. The cylinder is lifted slowly (0.1 m/s, against sqrt(g H) ~ 1.4 m/s for the flow): the
--    spheres run out at its foot and the heap grows by avalanches down its flanks, as under a
--    slow pour. Spheres that run off the floor are removed (they fall off the world's edge).
-- 3. Once the heap is at rest (unbalanced force < 0.01), the surface profile h(rho) is the
--    median over 16 sectors of the top of the highest sphere in each ring of one diameter
--    around the axis; the angle of repose is the least-squares slope of the profile on the
--    flank, away from the apex and the toe: between 25 % and 75 % of the heap's height, outside
--    the ring of the apex.
--
--   lua5.4 examples/dem_heap.lua [rolling] [column_radius_m] [seed] [damping]
--                                               (default 0, 0.06, 1, 0.05: Cundall's damping)
--   prints the profile and "angle of repose A degrees (rolling resistance R)"; as a chunk
--   (loadfile(path)(rolling, column_radius, seed, damping, quiet)) it returns {angle = degrees,
--   height = m, spheres = n, lost = n, rings = n} and prints nothing when quiet is true
local impact = require("impact")
local dem = impact.dem

local rolling_arg, radius_arg, seed_arg, damping_arg, quiet = ...
local rolling = tonumber(rolling_arg or "0")
local column_radius = tonumber(radius_arg or "0.06")
local seed = math.tointeger(tonumber(seed_arg or "1"))
local damping = tonumber(damping_arg or "0.05")
local function say(...) if not quiet then print(string.format(...)) end end
local r, rho, E, mu = 0.005, 2600, 1e6, 0.5
local column_height = 5 * column_radius        -- of the loose cloud; it settles to about 3
local floor_radius = 4 * column_radius + 0.08  -- a heap of 10 degrees still fits on it
local lift_speed = 0.1

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local floor = {}
local m = math.floor(floor_radius / (2 * r))
for i = -m, m do
  for j = -m, m do
    local x, y = 2 * r * i, 2 * r * j
    if x * x + y * y <= floor_radius ^ 2 then floor[#floor + 1] = { center = { x, y, r }, radius = r } end
  end
end
dem.add_spheres(w, floor, { density = rho, fixed = true })
local base = 2 * r                             -- the floor's top

-- the cylinder: 24 sides from the floor's top to above the cloud, two facets each
local sides, walls = 24, {}
local top = base + column_height + 0.02
for k = 0, sides - 1 do
  local a0, a1 = 2 * math.pi * k / sides, 2 * math.pi * (k + 1) / sides
  local p0 = { column_radius * math.cos(a0), column_radius * math.sin(a0) }
  local p1 = { column_radius * math.cos(a1), column_radius * math.sin(a1) }
  walls[#walls + 1] = dem.add_facet(w, { vertices = { { p0[1], p0[2], base }, { p1[1], p1[2], base },
                                                      { p1[1], p1[2], top } } })
  walls[#walls + 1] = dem.add_facet(w, { vertices = { { p0[1], p0[2], base }, { p1[1], p1[2], top },
                                                      { p0[1], p0[2], top } } })
end

-- the loose cloud inside the cylinder (inside its inscribed circle, with a margin)
local cloud = dem.cloud { box = { { -column_radius, -column_radius, base + 0.002 },
                                  { column_radius, column_radius, base + column_height } },
                          psd = { mean = 2 * r, spread = 0.2 }, porosity = 0.6, seed = seed }
local inner = column_radius * math.cos(math.pi / sides) - 0.001
local inside = {}
for _, s in ipairs(cloud) do
  local c = s.center
  if math.sqrt(c[1] ^ 2 + c[2] ^ 2) + s.radius < inner then inside[#inside + 1] = s end
end
local heap = {}  -- {body, radius}
for i, b in ipairs(dem.add_spheres(w, inside, { density = rho })) do
  heap[i] = { body = b, radius = inside[i].radius }
end

w.engines = {
  dem.force_resetter(), dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = E, friction_angle = math.atan(mu),
                                                 wall_friction_angle = 0, rolling = rolling } } },
  dem.newton { damping = damping },
}
w.dt = 0.5 * 0.8 * r / math.sqrt(E / rho)  -- half the P-wave step of the smallest sphere

-- spheres past the floor's edge fall off the world: remove them
local lost = 0
local function prune()
  local kept = {}
  for _, b in ipairs(heap) do
    local p = b.body.position
    if p[1] ^ 2 + p[2] ^ 2 > floor_radius ^ 2 or p[3] < 0 then
      w:remove_body(b.body)
      lost = lost + 1
    else
      kept[#kept + 1] = b
    end
  end
  heap = kept
end

-- 1. the column settles
repeat w:run { steps = 500 } until w:unbalanced_force() < 0.02 or w.steps > 20000
local column_top = 0
for _, b in ipairs(heap) do column_top = math.max(column_top, b.body.position[3] + b.radius) end
local settled = w.steps
-- 2. the cylinder is lifted until its foot clears the column's top, then removed
for _, f in ipairs(walls) do w:set_velocity(f, { 0, 0, lift_speed }) end
local lift_steps = math.ceil((column_top - base + 2 * r) / lift_speed / w.dt)
local done = 0
while done < lift_steps do
  local n = math.min(1000, lift_steps - done)
  w:run { steps = n }
  done = done + n
  prune()
end
for _, f in ipairs(walls) do w:remove_body(f) end
-- 3. the heap comes to rest
local lifted = w.steps
repeat
  w:run { steps = 1000 }
  prune()
until (w:unbalanced_force() < 0.01 and w.steps > lifted + 5000) or w.steps > lifted + 100000

-- the surface profile: rings of one diameter, 16 sectors each; a ring's height is the median
-- over its sectors of the top of the highest sphere in the sector (0 for an empty sector)
local ring, sectors = 2 * r, 16
local cells = {}
for _, b in ipairs(heap) do
  local p = b.body.position
  local k = math.floor(math.sqrt(p[1] ^ 2 + p[2] ^ 2) / ring)
  local s = math.floor((math.atan(p[2], p[1]) + math.pi) / (2 * math.pi) * sectors) % sectors
  local key = k * sectors + s
  cells[key] = math.max(cells[key] or 0, p[3] + b.radius - base)
end
local rings = math.floor(floor_radius / ring) - 1
local profile, highest, height = {}, 0, 0
for k = 0, rings do
  local hs = {}
  for s = 0, sectors - 1 do hs[#hs + 1] = cells[k * sectors + s] or 0 end
  table.sort(hs)
  profile[k] = (hs[sectors / 2] + hs[sectors / 2 + 1]) / 2
  if profile[k] > height then highest, height = k, profile[k] end
end
local xs, ys = {}, {}
say("%d spheres in the heap (%d ran off the floor), column %.3f m high, %d steps (%d settling, "
  .. "%d lifting), unbalanced force %.4f; profile (ring radius m, surface height above the floor "
  .. "m):", #heap, lost, column_top - base, w.steps, settled, lifted - settled, w:unbalanced_force())
for k = 0, rings do
  local rc, h = (k + 0.5) * ring, profile[k]
  if h > 0 then say("  %.3f %.4f", rc, h) end
  if k > highest and h > 0.25 * height and h < 0.75 * height then
    xs[#xs + 1], ys[#ys + 1] = rc, h
  end
end
local n, sx, sy, sxx, sxy = #xs, 0, 0, 0, 0
for i = 1, n do
  sx, sy = sx + xs[i], sy + ys[i]
  sxx, sxy = sxx + xs[i] ^ 2, sxy + xs[i] * ys[i]
end
local slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
local angle = n >= 2 and math.deg(math.atan(-slope)) or 0 / 0
say("heap height %.4f m; fitted on %d rings", height, n)
say("angle of repose %.1f degrees (rolling resistance %g)", angle, rolling)
return { angle = angle, height = height, spheres = #heap, lost = lost, rings = n }
