--- impact.world_file_check: checks every field of a saved world (impact.world_file) before
--- impact.load builds anything, so a damaged file gives an error naming the file, the field,
--- what it must be and what it holds, and no world. The connectors' and joints' fields are
--- checked by the binding as it reads them (src/lua/lua_world_state.c).
-- @module impact.world_file_check
local dem_file = require("impact.dem_file")
local shapes = require("impact.world_file_shapes")

local M = {}

local top_keys = { format = true, dim = true, strategy = true, def = true, nslots = true,
                   time = true, time_base = true, steps_since_base = true, rng = true, lcg = true,
                   stats = true, y = true, bodies = true, springs = true, no_collide = true,
                   materials = true, material_pairs = true, engine2d = true, engine3d = true,
                   shapes = true, caches = true, polyhedra = true, islands = true,
                   trailing = true, layout = true, loads = true }
local body_keys = { active = true, generation = true, fixed = true, kinematic = true,
                    mass = true, inv_mass = true, inertia = true, inv_inertia = true,
                    force = true, torque = true, damping = true, material = true,
                    collide = true, elasticity = true, friction = true, has_target = true,
                    target = true, category = true, mask = true, group = true, shape = true,
                    name = true, data = true, no_sleep = true, island = true, rest = true,
                    asked = true,
                    -- per-body fields other features add (sleeping: the body's sleep state)
                    -- are listed here and read by lua/impact/world_file.lua
                  }
local strategies = { none = true, impulse = true, contact = true, compliant = true }

-- one body slot's entry
local function check_body(c, where, b, nshapes)
  c.record(where, b, body_keys)
  local active = c.int(where .. ".active", b.active, 0, 1)
  c.int(where .. ".generation", b.generation, 0, 0xFFFFFFFF)
  if active == 0 then return end
  local fixed = c.int(where .. ".fixed", b.fixed, 0, 1)
  local kinematic = c.int(where .. ".kinematic", b.kinematic, 0, 1)
  if fixed == 1 then  -- (a wall's mass and inertia may be infinite)
    c.num(where .. ".mass", b.mass, 0, nil, true)
    c.numbers(where .. ".inertia", b.inertia, 9, nil, nil, true)
  else
    c.positive(where .. ".mass", b.mass)
    c.numbers(where .. ".inertia", b.inertia, 9)
  end
  if fixed == 1 or kinematic == 1 then
    c.num(where .. ".inv_mass", b.inv_mass, 0, 0)
    c.numbers(where .. ".inv_inertia", b.inv_inertia, 9, 0, 0)
  else
    c.positive(where .. ".inv_mass", b.inv_mass)
    if math.abs(b.mass * b.inv_mass - 1) > 1e-9 then
      c.bad(where .. ".inv_mass", "1 / mass", b.inv_mass)
    end
  end
  c.numbers(where .. ".force", b.force, 3)
  c.numbers(where .. ".torque", b.torque, 3)
  c.numbers(where .. ".damping", b.damping, 2)
  c.int(where .. ".material", b.material, -1)
  c.int(where .. ".collide", b.collide, 0, 1)
  c.num(where .. ".elasticity", b.elasticity, 0, 1)
  c.num(where .. ".friction", b.friction, 0)
  c.int(where .. ".has_target", b.has_target, 0, 1)
  c.numbers(where .. ".target", b.target, 7)
  c.int(where .. ".category", b.category, 0, 0xFFFF)
  c.int(where .. ".mask", b.mask, 0, 0xFFFF)
  c.int(where .. ".group", b.group, -32768, 32767)
  if b.shape ~= nil then c.int(where .. ".shape", b.shape, 1, nshapes) end
  if b.name ~= nil and type(b.name) ~= "string" then c.bad(where .. ".name", "a string", b.name) end
end

--- M.world(saved, path, format): raises "impact.load: path: field must be ..., got ..." unless
--- saved is a well-formed saved world of this format.
function M.world(saved, path, format)
  if type(saved) ~= "table" or type(saved.format) ~= "string" then
    error(string.format("impact.load: %s is not a saved world (no format \"%s\")", path, format), 0)
  end
  if saved.format ~= format then
    error(string.format("impact.load: %s has format \"%s\", which this version of impact does not "
      .. "read (it reads \"%s\" and dem scenes, \"impact.dem 1\")", path, saved.format, format), 0)
  end
  local ok, err = pcall(function()
    local c = dem_file.checker(path)
    c.record("the world", saved, top_keys)
    local dim = c.int("dim", saved.dim, 2, 3)
    if not strategies[saved.strategy] then
      c.bad("strategy", "one of \"none\", \"impulse\", \"contact\", \"compliant\"", saved.strategy)
    end
    if type(saved.def) ~= "string" then c.bad("def", "a string", saved.def) end
    if type(saved.layout) ~= "string" then c.bad("layout", "a string", saved.layout) end
    local nslots = c.int("nslots", saved.nslots, 1, 10000000)
    c.num("time", saved.time)
    c.num("time_base", saved.time_base)
    c.int("steps_since_base", saved.steps_since_base, 0)
    c.list("rng", saved.rng, 4)
    for i = 1, 4 do c.int(string.format("rng[%d]", i), saved.rng[i]) end
    if saved.lcg ~= nil then c.int("lcg", saved.lcg, 0, 4294967295) end  -- (files before it: none)
    c.list("stats", saved.stats, 5)
    for i = 1, 5 do c.int(string.format("stats[%d]", i), saved.stats[i], 0) end
    local stride = dim == 2 and 6 or 13
    local y = c.numbers("y", saved.y, nslots * stride)
    local list = c.list("shapes", saved.shapes)
    for i, s in ipairs(list) do
      local where = string.format("shapes[%d]", i)
      c.record(where, s, { ctor = true, args = true, n = true, center = true })
      if s.center ~= nil then
        if dim ~= 2 then c.bad(where .. ".center", "absent (3D shapes are not recentred)", s.center) end
        c.numbers(where .. ".center", s.center, 2)
      end
      if type(s.ctor) ~= "string" or not shapes.constructors[s.ctor]
          or s.ctor:sub(6, 7) ~= (dim == 2 and "2d" or "3d") and s.ctor:sub(1, 4) ~= "dem_" then
        c.bad(where .. ".ctor", string.format("the name of a %dD shape constructor", dim), s.ctor)
      end
      if type(s.args) ~= "table" then c.bad(where .. ".args", "a table", s.args) end
      c.int(where .. ".n", s.n, 1, shapes.constructors[s.ctor])
    end
    local bodies = c.list("bodies", saved.bodies, nslots - 1)
    for i, b in ipairs(bodies) do
      local where = string.format("bodies[%d]", i)
      check_body(c, where, b, #list)
      if dim == 3 and b.active == 1 then
        local o = i * stride
        local q = y[o + 4] ^ 2 + y[o + 5] ^ 2 + y[o + 6] ^ 2 + y[o + 7] ^ 2
        if not (q > 0.5 and q < 2) then
          c.bad(string.format("y[%d..%d] (body %d's orientation)", o + 4, o + 7, i),
            "a unit quaternion", string.format("one of norm %g", math.sqrt(q)), true)
        end
      end
    end
    for i, t in ipairs(c.list("trailing", saved.trailing)) do
      c.list(string.format("trailing[%d]", i), t, 2)
      c.int(string.format("trailing[%d][1] (a slot)", i), t[1], nslots, 10000000)
      c.int(string.format("trailing[%d][2] (a generation)", i), t[2], 0, 0xFFFFFFFF)
    end
    c.list("springs", saved.springs)
    if saved.loads ~= nil then c.list("loads", saved.loads) end
    c.list("no_collide", saved.no_collide)
    c.list("materials", saved.materials)
    c.list("material_pairs", saved.material_pairs, #saved.materials * #saved.materials)
    for i, p in ipairs(saved.material_pairs) do
      c.numbers(string.format("material_pairs[%d]", i), p, 6)
    end
    if saved.polyhedra ~= nil and dim ~= 3 then
      c.bad("polyhedra", "absent in a 2D world", saved.polyhedra)
    end
    for name, v in pairs { engine2d = saved.engine2d, engine3d = saved.engine3d, caches = saved.caches,
                           polyhedra = saved.polyhedra } do
      if type(v) ~= "table" then c.bad(name, "a table", v) end
    end
  end)
  if not ok then error((tostring(err):gsub("^impact%.dem%.load: ", "impact.load: ")), 0) end
end

return M
