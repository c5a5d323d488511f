--- impact.world_file_shapes: how each shape was made, so World:save can write it and
--- impact.load make it again, bit for bit (a shape is a deterministic function of its
--- constructor's arguments). The constructors of impact.core that make shapes are wrapped once:
--- each shape they return is remembered (weakly) with the constructor's name and a copy of its
--- arguments.
-- @module impact.world_file_shapes
local core = require("impact.core")

local M = {}

-- the constructors whose shapes can be saved, and how many arguments each takes
local constructors = {
  shape2d_ball = 1, shape2d_block = 1, shape2d_ngon = 1, shape2d_rounded_block = 1,
  shape2d_frame = 1, shape2d_convex_top_block = 1, shape2d_concave_top_block = 1,
  shape2d_polygon = 2,
  shape3d_sphere = 1, shape3d_box = 1, shape3d_ellipsoid = 1, shape3d_cylinder = 1,
  shape3d_capsule = 1, shape3d_cone = 1, shape3d_convex = 1, shape3d_wall = 1,
  shape3d_polyhedron = 1, dem_clump = 2, dem_facet = 3,
}
M.constructors = constructors

-- a copy of v when it is plain data (numbers, strings, booleans, tables of them), else nil
local function copy(v, depth)
  local t = type(v)
  if t == "number" or t == "string" or t == "boolean" then return v, true end
  if t ~= "table" or depth > 8 or getmetatable(v) ~= nil then return nil, v == nil end
  local out = {}
  for k, x in pairs(v) do
    local ck, okk = copy(k, depth + 1)
    local cx, okx = copy(x, depth + 1)
    if not okk or not okx or ck == nil then return nil, false end
    out[ck] = cx
  end
  return out, true
end

-- recipes[shape] = { ctor = name, args = {...}, n = count }: shared by every load of this
-- module (specs may load it again), kept on the core table
local recipes = core._shape_recipes
if not recipes then
  recipes = setmetatable({}, { __mode = "k" })
  core._shape_recipes = recipes
  for name, count in pairs(constructors) do
    local make = core[name]
    if make then
      core[name] = function(...)
        local shape = make(...)
        local args, ok = {}, true
        for i = 1, count do
          local a, fine = copy((select(i, ...)), 0)
          args[i] = a
          ok = ok and fine
        end
        if ok then recipes[shape] = { ctor = name, args = args, n = count } end
        return shape
      end
    end
  end
end

-- a body's centre of mass off its shape's centroid (World:add_body's center_of_mass) makes a
-- copy of the shape through core.shape2d_recentred: its recipe is the original's with center
if not core._shape_recentred_wrapped and core.shape2d_recentred then
  core._shape_recentred_wrapped = true
  local recentre = core.shape2d_recentred
  core.shape2d_recentred = function(shape, x, y)
    local moved = recentre(shape, x, y)
    local base = recipes[shape]
    if base and base.center == nil then
      recipes[moved] = { ctor = base.ctor, args = base.args, n = base.n, center = { x, y } }
    end
    return moved
  end
end

--- M.recipe(shape): { ctor =, args =, n = [, center = {x, y}] } for a shape made by impact's
--- constructors (center: recentred on that point), or nil.
function M.recipe(shape) return recipes[shape] end

--- M.make(recipe): the shape the recipe makes (raises as its constructor does).
function M.make(r)
  local make = core[r.ctor]
  local shape = make(table.unpack(r.args, 1, r.n))
  if r.center then shape = core.shape2d_recentred(shape, r.center[1], r.center[2]) end
  return shape
end

return M
