--- impact.dem_cell: the periodic cell of the dem strategy (Yade's O.periodic and O.cell),
--- kept in C (src/dem/dem_cell.c).
---
---   w:set_cell{size = {lx, ly, lz}}        an axis-aligned box cell [0, lx) x [0, ly) x [0, lz)
---   w:set_cell{hsize = {{..}, {..}, {..}}} a parallelepiped: the base vectors are the columns
---                                          of hsize (Yade's cell.hSize; determinant > 0)
---   w:set_cell{vel_grad = {{..}, {..}, {..}}} (with or without a shape) the velocity gradient L
---                                          (1/s; Yade's cell.velGrad): hsize' = L hsize
---   w:set_cell(false)                      back to an unbounded world
---   w:cell()                               nil, or {size, hsize, vel_grad, volume, trsf, strain}
---
--- Particles are wrapped into the cell after each step; a pair interacts across the faces with
--- the nearest image of the second sphere (each interaction carries its integer shift, Yade's
--- cellDist). Under a velocity gradient the particles carry the affine field: a body's velocity
--- is the total one, v = v' + L x, with v' the fluctuation that the integrator damps; a sphere at
--- rest relative to the field keeps its place in the deforming cell. Only free spheres may be in
--- a periodic world (walls, facets and clumps are refused), and none whose diameter (times the
--- interaction-radius factor) reaches half the cell's thinnest width. The stress, porosity and
--- dem.measure_columns take the cell's volume when no volume or box is given.
-- @module impact.dem_cell
local core = require("impact.core")
local options = require("impact.options")

local World = core.World

local function matrix(what, opts, key, level)
  local m = opts[key]
  if type(m) ~= "table" or #m ~= 3 then
    error(string.format("%s: option '%s' must be a 3x3 matrix {{a, b, c}, {d, e, f}, {g, h, i}}, "
      .. "got %s", what, key, options.shown(m)), level)
  end
  local flat = {}
  for i = 1, 3 do
    local name = string.format("%s[%d]", key, i)
    local row = options.vector(what, { [name] = m[i] }, name, nil, 3,
      { required = true, level = level })
    for j = 1, 3 do flat[#flat + 1] = row[j] end
  end
  return flat
end

local function rows(m)
  return { { m[1], m[2], m[3] }, { m[4], m[5], m[6] }, { m[7], m[8], m[9] } }
end

local function det(m)
  return m[1] * (m[5] * m[9] - m[6] * m[8]) - m[2] * (m[4] * m[9] - m[6] * m[7])
    + m[3] * (m[4] * m[8] - m[5] * m[7])
end

local function mul(a, b)
  local c = {}
  for i = 0, 2 do
    for j = 1, 3 do
      c[3 * i + j] = a[3 * i + 1] * b[j] + a[3 * i + 2] * b[3 + j] + a[3 * i + 3] * b[6 + j]
    end
  end
  return c
end

local function inverse(m)
  local dt = det(m)
  return {
    (m[5] * m[9] - m[6] * m[8]) / dt, (m[3] * m[8] - m[2] * m[9]) / dt,
    (m[2] * m[6] - m[3] * m[5]) / dt,
    (m[6] * m[7] - m[4] * m[9]) / dt, (m[1] * m[9] - m[3] * m[7]) / dt,
    (m[3] * m[4] - m[1] * m[6]) / dt,
    (m[4] * m[8] - m[5] * m[7]) / dt, (m[2] * m[7] - m[1] * m[8]) / dt,
    (m[1] * m[5] - m[2] * m[4]) / dt,
  }
end

local ZERO = { 0, 0, 0, 0, 0, 0, 0, 0, 0 }

--- w:set_cell{size | hsize, vel_grad} or w:set_cell(false): see the module's text.
function World:set_cell(opts)
  local what = "World:set_cell"
  local level = options.user_level()
  if opts == false then
    core.dem_clear_cell(self)
    return
  end
  opts = options.check_keys(what, opts, { size = true, hsize = true, vel_grad = true },
    { level = level })
  if opts.size ~= nil and opts.hsize ~= nil then
    error(what .. ": give 'size' or 'hsize', not both", level)
  end
  local cell = core.dem_cell(self)
  local h
  if opts.size ~= nil then
    local s = options.vector(what, opts, "size", nil, 3, { level = level })
    for i = 1, 3 do
      if s[i] <= 0 then
        error(string.format("%s: option 'size' must hold three positive lengths, got size[%d] = %s",
          what, i, options.shown(s[i])), level)
      end
    end
    h = { s[1], 0, 0, 0, s[2], 0, 0, 0, s[3] }
  elseif opts.hsize ~= nil then
    h = matrix(what, opts, "hsize", level + 1)
    local d = det(h)
    if not (d > 0 and d < math.huge) then
      error(string.format("%s: option 'hsize' must have a positive determinant (right-handed "
        .. "base vectors as columns), got determinant %s", what, options.shown(d)), level)
    end
  elseif cell ~= nil then
    h = cell.h
  else
    error(what .. ": option 'size' or 'hsize' is required (the world has no cell yet)", level)
  end
  local vg = opts.vel_grad ~= nil and matrix(what, opts, "vel_grad", level + 1)
    or (cell ~= nil and cell.vel_grad or ZERO)
  local ok, err = pcall(core.dem_set_cell, self, h, vg)
  if not ok then
    error(what .. ": " .. options.without_position(tostring(err)), level)
  end
end

--- w:cell(): nil without a cell, else {size = the base vectors' lengths, hsize, vel_grad (3x3
--- rows), volume = det(hsize), trsf = hsize hsize0^-1 (the deformation since the cell was set),
--- strain = (trsf + trsf^T) / 2 - I (small strain, Yade's getSmallStrain; extension > 0)}.
function World:cell()
  local c = core.dem_cell(self)
  if c == nil then return nil end
  local h = c.h
  local trsf = mul(h, inverse(c.h0))
  local strain = {}
  for i = 0, 2 do
    for j = 0, 2 do
      strain[3 * i + j + 1] = 0.5 * (trsf[3 * i + j + 1] + trsf[3 * j + i + 1])
        - (i == j and 1 or 0)
    end
  end
  local size = {}
  for j = 1, 3 do
    size[j] = math.sqrt(h[j] ^ 2 + h[3 + j] ^ 2 + h[6 + j] ^ 2)
  end
  return { size = size, hsize = rows(h), vel_grad = rows(c.vel_grad), volume = det(h),
           trsf = rows(trsf), strain = rows(strain) }
end

return {}
