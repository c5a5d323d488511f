--- impact.dem_compaction: a dense random packing by compaction (the idea of Yade's
--- randomDensePack, done here by gravity): a loose cloud (dem.cloud) above a box of walls
--- falls, frictionless, with strong numerical damping, until it is at rest; the spheres lying
--- wholly inside the box are the packing.
-- @module impact.dem_compaction
local impact_world = require("impact.world")
local shape3d = require("impact.shape3d")
local options = require("impact.options")

local M = {}

local keys = { box = true, psd = true, num = true, seed = true, by_number = true,
               young = true, density = true, max_unbalanced = true, max_steps = true }

--- dense_pack(dem, {box = {lo, hi}, psd, num, seed = 1, by_number, young = 1e7,
--- density = 2600, max_unbalanced = 0.01, max_steps = 200000}): the spheres of a dense random
--- packing in the box, {{center, radius}, ...}, the number of steps the compaction took and the
--- world it ran in (at rest: its contacts and measures are the packing's).
--- num spheres (default: as many as fill the box at a solid fraction of 0.64) start as a cloud
--- of porosity 0.7 in a column of the box's section above its floor; they fall under gravity
--- (-z) between the box's five walls, without friction and with damping 0.4, until Yade's
--- unbalanced force is below max_unbalanced (an error after max_steps).
function M.dense_pack(dem, opts)
  local what = "impact.dem.dense_pack"
  opts = options.check_keys(what, opts, keys, { level = 3 })
  local box = opts.box
  if type(box) ~= "table" or #box ~= 2 then
    error(string.format("%s: option 'box' must be {{xmin, ymin, zmin}, {xmax, ymax, zmax}}, got "
      .. "%s", what, options.shown(box)), 3)
  end
  local lo = options.vector(what, { lo = box[1] }, "lo", nil, 3, { required = true, level = 3 })
  local hi = options.vector(what, { hi = box[2] }, "hi", nil, 3, { required = true, level = 3 })
  local young = options.number(what, opts, "young", 1e7, { min = 0, min_open = true, level = 3 })
  local density = options.number(what, opts, "density", 2600, { min = 0, min_open = true,
    level = 3 })
  local max_unbalanced = options.number(what, opts, "max_unbalanced", 0.01,
    { min = 0, min_open = true, level = 3 })
  local max_steps = options.integer(what, opts, "max_steps", 200000, { min = 1, level = 3 })
  local num = options.integer(what, opts, "num", nil, { min = 1, level = 3 })
  local volume = (hi[1] - lo[1]) * (hi[2] - lo[2]) * (hi[3] - lo[3])
  -- the column the cloud starts in: tall enough for the box's 0.64 at porosity 0.7
  local column = { lo[1], lo[2], lo[3] }
  local top = { hi[1], hi[2], lo[3] + (hi[3] - lo[3]) * 0.64 / 0.3 * 1.1 }
  local cloud_opts = { box = { column, top }, psd = opts.psd, seed = opts.seed,
                       by_number = opts.by_number }
  if num then cloud_opts.num = num else cloud_opts.porosity = 1 - 0.64 * volume
      / ((top[1] - column[1]) * (top[2] - column[2]) * (top[3] - column[3])) end
  local ok, spheres = pcall(dem.cloud, cloud_opts)
  if not ok then error((options.without_position(spheres):gsub("impact%.dem%.cloud", what)), 3) end
  local w = impact_world.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
  local function wall(normal, at)
    w:add_body { shape = shape3d.wall { normal = normal }, fixed = true, position = at }
  end
  wall({ 0, 0, 1 }, lo)
  wall({ 1, 0, 0 }, lo)
  wall({ 0, 1, 0 }, lo)
  wall({ -1, 0, 0 }, hi)
  wall({ 0, -1, 0 }, hi)
  local bodies = dem.add_spheres(w, spheres, { density = density })
  w.engines = {
    dem.force_resetter(), dem.collider {},
    dem.interaction_loop { physics = { dem.frict { young = young, friction_angle = 0 } } },
    dem.newton { damping = 0.4 },
  }
  w.dt = 0.5 * w:p_wave_dt()
  w:dem_warnings { dt = false }
  local steps = 0
  while true do
    w:step(200)
    steps = steps + 200
    local u = w:unbalanced_force()
    if u == u and u < max_unbalanced then break end
    if steps >= max_steps then
      error(string.format("%s: not at rest after %d steps (unbalanced force %g > %g); raise "
        .. "max_steps or max_unbalanced", what, steps, u, max_unbalanced), 3)
    end
  end
  local out = {}
  for i, b in ipairs(bodies) do
    local c, r = b.position, spheres[i].radius
    if c[3] + r <= hi[3] then out[#out + 1] = { center = { c[1], c[2], c[3] }, radius = r } end
  end
  return out, steps, w
end

return M
