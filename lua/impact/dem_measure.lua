--- impact.dem_measure: the bulk measures of a dem packing (Yade's getStress, porosity,
--- avgNumInteractions, fabricTensor), computed in C (src/dem/dem_measure.c) over the spheres
--- and their contacts (real interactions with overlap >= 0), as World methods:
---
---   w:stress{volume = V | box = {lo, hi}}   Love-Weber stress, 3x3 rows, Pa; tension > 0
---   w:porosity{volume = V | box = {lo, hi}} 1 - (sum of sphere volumes) / V
---   w:coordination()                        2 (sphere contacts) + (wall/facet contacts) per sphere
---   w:fabric()                              mean n (x) n over the sphere/sphere contacts
---   dem.measure_columns{volume | box}       recorder columns: sxx ... szz, sxy, syz, sxz,
---                                           p (mean stress, compression > 0), q (von Mises),
---                                           porosity, coordination, unbalanced, bonds
---                                           (the intact cohesive bonds)
---
--- Without volume or box the volume is the box of the spheres themselves (Yade's
--- aabbExtrema). The stress counts each sphere once whatever its neighbours (a clump's members
--- as separate particles, without the clump's internal forces: an approximation for clumps).
-- @module impact.dem_measure
local core = require("impact.core")
local options = require("impact.options")

local World = core.World
local M = {}

local function volume_of(what, w, opts, m)
  opts = options.check_keys(what, opts, { volume = true, box = true }, { level = 3 })
  if opts.volume ~= nil and opts.box ~= nil then
    error(what .. ": give 'volume' or 'box', not both", 3)
  end
  if opts.volume ~= nil then
    return options.number(what, opts, "volume", nil, { min = 0, min_open = true, level = 3 })
  end
  local lo, hi = m.lo, m.hi
  local cell = opts.box == nil and core.dem_cell(w) or nil
  if cell ~= nil then  -- a periodic cell: its volume
    local h = cell.h
    return h[1] * (h[5] * h[9] - h[6] * h[8]) - h[2] * (h[4] * h[9] - h[6] * h[7])
      + h[3] * (h[4] * h[8] - h[5] * h[7])
  end
  if opts.box ~= nil then
    local box = opts.box
    if type(box) ~= "table" or #box ~= 2 then
      error(string.format("%s: option 'box' must be {{xmin, ymin, zmin}, {xmax, ymax, zmax}}, "
        .. "got %s", what, options.shown(box)), 3)
    end
    lo = options.vector(what, { lo = box[1] }, "lo", nil, 3, { required = true, level = 3 })
    hi = options.vector(what, { hi = box[2] }, "hi", nil, 3, { required = true, level = 3 })
  end
  local v = (hi[1] - lo[1]) * (hi[2] - lo[2]) * (hi[3] - lo[3])
  if not (v > 0 and v < math.huge) then
    error(string.format("%s: the volume is %s (no spheres, or an empty box): give 'volume' or "
      .. "'box'", what, options.shown(v)), 3)
  end
  return v
end

local function stress(what, w, opts)
  local m = core.dem_measure(w)
  local v = volume_of(what, w, opts, m)
  local s = m.stress_sum
  return { { s[1] / v, s[2] / v, s[3] / v }, { s[4] / v, s[5] / v, s[6] / v },
           { s[7] / v, s[8] / v, s[9] / v } }, m, v
end

--- w:stress{volume | box}: the Love-Weber stress tensor {{sxx, sxy, sxz}, {syx, ...}, ...}
--- (Pa; tension positive, as in Yade: a compressed packing has negative diagonal terms),
--- sigma = (1 / V) sum over spheres p and their contacts c of f_c (x) (x_c - x_p).
function World:stress(opts)
  local s = stress("World:stress", self, opts or {})
  return s
end

--- w:porosity{volume | box}: 1 - (sum of the spheres' volumes) / V.
function World:porosity(opts)
  local m = core.dem_measure(self)
  local v = volume_of("World:porosity", self, opts or {}, m)
  return 1 - m.solid_volume / v
end

--- w:coordination(): the mean number of contacts per sphere, 2 Nss + Nws over the spheres
--- (Yade's avgNumInteractions); 0 without spheres.
function World:coordination()
  local m = core.dem_measure(self)
  if m.spheres == 0 then return 0 end
  return (2 * m.sphere_contacts + m.boundary_contacts) / m.spheres
end

--- w:fabric(): the fabric tensor, the mean of n (x) n over the sphere/sphere contacts (trace
--- 1; zeros without contacts), 3x3 rows.
function World:fabric()
  local f = core.dem_measure(self).fabric
  return { { f[1], f[2], f[3] }, { f[4], f[5], f[6] }, { f[7], f[8], f[9] } }
end

--- dem.measure_columns{volume | box}: a map of recorder columns (impact.recorder's columns =
--- ...): sxx, syy, szz, sxy, syz, sxz (Pa, tension > 0), p = -trace / 3 (compression > 0),
--- q = the von Mises deviatoric stress, porosity, coordination, unbalanced (w:unbalanced_force()),
--- bonds (w:bond_count()).
function M.measure_columns(opts)
  opts = opts or {}
  options.check_keys("impact.dem.measure_columns", opts, { volume = true, box = true },
    { level = 2 })
  local function s(w) return (stress("impact.dem.measure_columns", w, opts)) end
  local function at(i, j) return function(w) return s(w)[i][j] end end
  return {
    sxx = at(1, 1), syy = at(2, 2), szz = at(3, 3), sxy = at(1, 2), syz = at(2, 3),
    sxz = at(1, 3),
    p = function(w)
      local t = s(w)
      return -(t[1][1] + t[2][2] + t[3][3]) / 3
    end,
    q = function(w)
      local t = s(w)
      local a, b, c = t[1][1], t[2][2], t[3][3]
      return math.sqrt(0.5 * ((a - b) ^ 2 + (b - c) ^ 2 + (c - a) ^ 2)
        + 3 * (t[1][2] ^ 2 + t[2][3] ^ 2 + t[1][3] ^ 2))
    end,
    porosity = function(w) return w:porosity(opts) end,
    coordination = function(w) return w:coordination() end,
    unbalanced = function(w) return w:unbalanced_force() end,
    bonds = function(w) return core.dem_bond_count(w) end,
  }
end

return M
