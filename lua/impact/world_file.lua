--- impact.world_file: World:save(path) and impact.load(path[, opts]) for 2D and 3D worlds of
--- every strategy. The file is a Lua chunk read back as data, never run (impact.dem_file's
--- parser): `return {format = "impact.world 1", ...}` with every number written exactly
--- (hexadecimal floats). It holds the world's definition (its options), every body (shape as
--- made by its constructor, mass properties, filter, material, flags, name, data, applied
--- force), the state, time and step counters, the random generator, springs, no_collide
--- pairs, materials and their pair table, per-pair coefficients (set_pair), the 2D engine's
--- joints and ropes and the 3D engine's joints, ropes and rods (with their warm starts).
---
--- The strategies' caches that change the next results are written too (step sizes, warm
--- starts, the last step's contact points and touching pairs, compliant contact episodes):
--- saving does not disturb the run. The 3D engine's recycled manifolds and broad phases are
--- not: saving computes them afresh in the saved world too (it takes the state of a world
--- loaded from its own file), so the saved world and every world loaded from the file
--- continue bit for bit alike. Lua-side state is not saved: step and contact handlers
--- (w:on), recorders, motion functions (a world with one is refused), pause flags.
--- A dem world is saved by impact.dem.save (engines included) and loaded by impact.load too.
-- @module impact.world_file
local core = require("impact.core")
local shapes = require("impact.world_file_shapes")
local check = require("impact.world_file_check")
local literal = require("impact.literal")

local M = {}

local FORMAT = "impact.world 1"

-- whether v is plain data (what literal writes); no cycles, at most 32 deep
local function plain(v, depth)
  local t = type(v)
  if t == "number" or t == "string" or t == "boolean" or t == "nil" then return true end
  if t ~= "table" or depth > 32 or getmetatable(v) ~= nil then return false end
  for k, x in pairs(v) do
    if not (type(k) == "string" or math.type(k) == "integer") then return false end
    if not plain(x, depth + 1) then return false end
  end
  return true
end

local function label(b)
  return b.name and string.format("'%s' (#%d)", b.name, b.id) or string.format("#%d", b.id)
end

-- the saved table of world w
local function describe_world(w, what)
  local saved = core.world_state_export(w)
  saved.format = FORMAT
  local list, index = {}, {}
  for _, b in ipairs(w:bodies()) do
    local entry = saved.bodies[b.id]
    if b.motion ~= nil then
      error(string.format("%s: body %s has a motion function, which cannot be saved (clear it "
        .. "with b.motion = nil and give the body a velocity or a target instead, or set it "
        .. "again after impact.load)", what, label(b)), 3)
    end
    local shape = b.shape
    if shape ~= nil then
      if index[shape] == nil then
        local r = shapes.recipe(shape)
        if r == nil then
          error(string.format("%s: the shape of body %s was not made by impact's shape "
            .. "constructors with plain data (tables of numbers and strings): it cannot be saved",
            what, label(b)), 3)
        end
        list[#list + 1] = { ctor = r.ctor, args = r.args, n = r.n, center = r.center }
        index[shape] = #list
      end
      entry.shape = index[shape]
    end
    entry.name = b.name
    local data = b.data
    if data ~= nil then
      if not plain(data, 0) then
        error(string.format("%s: the data of body %s is not plain data (numbers, strings, "
          .. "booleans and tables of them, no metatables): it cannot be saved", what, label(b)), 3)
      end
      entry.data = data
    end
  end
  saved.shapes = list
  if saved.dim == 3 then saved.polyhedra = require("impact.polyhedra").get(w) end
  -- the background's generation is 0 and its slot never freed: nothing to keep
  return saved
end

-- the shape of entry (a body's) in the world being built
local function build_shape(saved, entry, made)
  if entry.shape == nil then return nil end
  local s = made[entry.shape]
  if s == nil then
    s = shapes.make(saved.shapes[entry.shape])
    made[entry.shape] = s
  end
  return s
end

-- a new world from the saved table (checked); raises with a message without position
local function build(saved)
  local world = require("impact.world")
  local w = (saved.dim == 2 and world.world2d or world.world3d) { strategy = saved.strategy,
                                                                  polyhedra = saved.polyhedra }
  local ok, err = pcall(function()
    local made, placeholders = {}, {}
    local shape3d, shape2d = require("impact.shape3d"), require("impact.shape2d")
    for slot = 1, saved.nslots - 1 do
      local entry = saved.bodies[slot]
      local b
      if entry.active == 1 then
        local shape = build_shape(saved, entry, made)
        local opts = { shape = shape, fixed = true, name = entry.name, data = entry.data }
        if shape == nil then opts.mass, opts.inertia = 1, 1 end
        b = w:add_body(opts)
      else
        b = w:add_body { fixed = true, shape = saved.dim == 2 and shape2d.ball { radius = 1 }
          or shape3d.sphere { radius = 1 } }
        placeholders[#placeholders + 1] = b
      end
      if b.id ~= slot then
        error(string.format("bodies[%d]: built in slot %d", slot, b.id), 0)
      end
    end
    -- slots past the last body that were freed: made and freed again (so the world holds
    -- them, and their generations are read back)
    local last = saved.nslots - 1
    for _, t in ipairs(saved.trailing) do last = math.max(last, t[1]) end
    for _ = saved.nslots, last do
      placeholders[#placeholders + 1] = w:add_body { fixed = true, shape = saved.dim == 2
        and shape2d.ball { radius = 1 } or shape3d.sphere { radius = 1 } }
    end
    for _, b in ipairs(placeholders) do w:remove_body(b) end
    -- trailing freed slots are not in nslots: the world drops them as the file did
    core.world_state_import(w, saved)
  end)
  if not ok then
    w:close()
    error(err, 0)
  end
  return w
end

-- a message without its position and its "impact.load: "
local function strip(err)
  err = tostring(err):gsub("^[^:\n]*:%d+: ", "")
  return (err:gsub("^impact%.load: ", ""))
end

--- w:save(path): writes the world to path (see the module's description); raises naming the
--- path when it cannot be written, and naming the body whose motion function, shape or data
--- cannot be saved. The world then continues as a world loaded from the file would.
function M.save(w, path)
  local what = "World:save"
  if type(path) ~= "string" then
    error(string.format("%s: the path must be a string, got %s", what, type(path)), 2)
  end
  if w.strategy == "dem" then
    return require("impact.dem").save(w, path)
  end
  local saved = describe_world(w, what)
  local out = { "return " }
  literal.write(saved, out, what)
  out[#out + 1] = "\n"
  local text = table.concat(out)
  local f, err = io.open(path, "wb")
  if not f then error(string.format("%s: cannot write %s", what, tostring(err)), 2) end
  local wrote, werr = f:write(text)
  local closed, cerr = f:close()
  if not wrote or not closed then
    error(string.format("%s: cannot write %s: %s", what, path, tostring(werr or cerr)), 2)
  end
  -- the saved world goes on from the state a loaded one starts from
  local ok, twin = pcall(build, saved)
  if not ok then
    error(string.format("%s: %s was written but cannot be read back: %s", what, path, strip(twin)), 2)
  end
  core.world_state_swap(w, twin)
  twin:close()
end

--- impact.load(path[, opts]): the world saved in path by w:save (or a dem scene saved by
--- impact.dem.save: opts as impact.dem.load's, {functions = {label = fn}}). A file that is
--- missing, truncated, of another format or version, or with a damaged value gives an error
--- naming the file and what is wrong, and no world.
function M.load(path, opts)
  if type(path) ~= "string" then
    error("impact.load: the path must be a string, got " .. type(path), 2)
  end
  if opts ~= nil and type(opts) ~= "table" then
    error("impact.load: the options must be a table, got " .. type(opts), 2)
  end
  local f, err = io.open(path, "rb")
  if not f then error("impact.load: cannot read " .. tostring(err), 2) end
  local text = f:read("a")
  f:close()
  if type(text) ~= "string" then error("impact.load: cannot read " .. path, 2) end
  local dem_file = require("impact.dem_file")
  local ok, saved = pcall(dem_file.parse, text, path, {
    what = "impact.load: %s is not a saved world: line %%d, column %%d: %%s" })
  if not ok then error(saved, 2) end
  if type(saved) == "table" and saved.format == "impact.dem 1" then
    return require("impact.dem").load(path, opts)
  end
  for k in pairs(opts or {}) do
    error(string.format("impact.load: option '%s' is for dem scenes (impact.dem.load); %s holds a "
      .. "%s world", tostring(k), path, tostring(type(saved) == "table" and saved.strategy)), 2)
  end
  ok, err = pcall(check.world, saved, path, FORMAT)
  if not ok then error(err, 2) end
  local w
  ok, w = pcall(build, saved)
  if not ok then error(string.format("impact.load: %s: %s", path, strip(w)), 2) end
  return w
end

--- World:save is installed on the World methods (lua/impact/world.lua requires this module).
function M.install(World)
  World.save = M.save
end

return M
