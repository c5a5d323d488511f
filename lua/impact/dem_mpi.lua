--- impact.dem_mpi: the dem strategy on several MPI ranks (a spatial domain decomposition). The
--- script is the one of a single rank plus one call after the scene is built:
---
---   local dem_mpi = require("impact.dem_mpi")
---   ... build the whole scene (every rank runs the same script) ...
---   dem_mpi.decompose(w)              -- under mpirun: this rank keeps its slab; else nothing
---   w:run { steps = 20000 }
---   local e = dem_mpi.energy(w)       -- collective: every rank calls it, every rank gets the sum
---
--- Started as `mpirun -np N lua5.4 script.lua` (as root add --allow-run-as-root; more ranks than
--- cores: --oversubscribe). The scene is cut into N slabs along one axis (the longest extent of
--- the free spheres, or opts.axis) at the quantiles of the free spheres' coordinates, then the
--- cuts stay fixed, so reruns on N ranks are bit-identical. Each rank steps its own spheres, the
--- ghosts (its neighbours' spheres within the ghost width of its slab) and every fixed body
--- (walls, facets, fixed spheres); pairs across a cut are computed by both ranks; spheres
--- migrate when they cross a cut (see src/dem/dem_domain.h and doc/manual/05-dem.md).
---
--- After decompose, w:bodies() still lists every body, but the states of the bodies away from
--- this rank's slab are stale: use dem_mpi.bodies(w) (this rank's own), dem_mpi.owns(w, b),
--- and the collective helpers (reduce_sum, reduce_max, energy, packing, count), which every rank
--- must call in the same order. Files: dem_mpi.file(path, w) names one file per rank.
--- Not decomposed: clumps, periodic cells; bodies added after decompose are refused.
-- @module impact.dem_mpi
local core = require("impact.core")

local M = {}
local state = setmetatable({}, { __mode = "k" })  -- w -> {rank, size, mpi}

local function shown(v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

--- The number of ranks mpirun started (from its environment), 1 when not under mpirun.
function M.launched_size()
  return tonumber(os.getenv("OMPI_COMM_WORLD_SIZE") or os.getenv("PMI_SIZE") or "1") or 1
end

local function load_mpi()
  local ok, mpi = pcall(require, "impact.mpi")
  if not ok then
    error("impact.dem_mpi: several ranks need the module impact.mpi (build/impact/mpi.so), "
      .. "which make builds when Open MPI is installed (apt-get install openmpi-bin "
      .. "libopenmpi-dev): " .. tostring(mpi):match("^[^\n]*"), 0)
  end
  return mpi
end

local axes = { x = 0, y = 1, z = 2 }

local function check_world(what, w)
  local ok, strategy = pcall(function() return w.strategy end)
  if not ok or strategy == nil then
    error(string.format("impact.dem_mpi.%s: w must be a world, got %s", what, shown(w)), 3)
  end
  if strategy ~= "dem" then
    error(string.format("impact.dem_mpi.%s: the world's strategy is %q, not \"dem\"", what,
      tostring(strategy)), 3)
  end
end

--- dem_mpi.decompose(w, {axis = "x" | "y" | "z", skin = m, mpi = true | false}): cuts the scene
--- over the ranks of mpirun and keeps this rank's part; returns {rank, size}. axis: default the
--- longest extent of the free spheres; skin (m, >= 0): the spheres may move skin / 2 along the
--- axis before an update (migrations, new ghost lists), default the largest free sphere's
--- radius; mpi: true decomposes even on one rank (the same results as without, bit for bit),
--- false never; default: when started by mpirun.
function M.decompose(w, opts)
  check_world("decompose", w)
  opts = opts or {}
  if type(opts) ~= "table" then
    error("impact.dem_mpi.decompose: opts must be a table, got " .. shown(opts), 2)
  end
  for k in pairs(opts) do
    if k ~= "axis" and k ~= "skin" and k ~= "mpi" then
      error(string.format("impact.dem_mpi.decompose: unknown option %s (accepted: axis, skin, "
        .. "mpi)", shown(k)), 2)
    end
  end
  local axis = -1
  if opts.axis ~= nil then
    axis = axes[opts.axis]
    if axis == nil then
      error(string.format("impact.dem_mpi.decompose: axis must be \"x\", \"y\" or \"z\", got %s",
        shown(opts.axis)), 2)
    end
  end
  local skin = opts.skin
  if skin ~= nil and (type(skin) ~= "number" or skin ~= skin or skin < 0 or skin == math.huge) then
    error("impact.dem_mpi.decompose: skin must be a finite number >= 0 (m), got " .. shown(skin), 2)
  end
  if opts.mpi ~= nil and type(opts.mpi) ~= "boolean" then
    error("impact.dem_mpi.decompose: mpi must be a boolean, got " .. shown(opts.mpi), 2)
  end
  if state[w] then
    error("impact.dem_mpi.decompose: the world is already decomposed", 2)
  end
  local use = opts.mpi
  if use == nil then use = M.launched_size() > 1 end
  if not use then
    state[w] = { rank = 0, size = 1 }
    return { rank = 0, size = 1 }
  end
  local mpi = load_mpi()
  local rank, size = mpi.init()
  local ok, err = pcall(core.dem_domain_attach, w, mpi.dem_comm(), axis, skin or -1)
  if not ok then error("impact.dem_mpi.decompose: " .. tostring(err), 2) end
  state[w] = { rank = rank, size = size, mpi = mpi }
  return { rank = rank, size = size }
end

local function st(w)
  return state[w] or { rank = 0, size = 1 }
end

--- This rank (0 when not decomposed) and the number of ranks.
function M.rank(w) return st(w).rank end
function M.size(w) return st(w).size end

local function reduce(what, w, x, max)
  check_world(what, w)
  if type(x) == "number" then return core.dem_domain_allreduce(w, { x }, max)[1] end
  if type(x) ~= "table" then
    error(string.format("impact.dem_mpi.%s: x must be a number or a list of numbers, got %s",
      what, shown(x)), 3)
  end
  return core.dem_domain_allreduce(w, x, max)
end

--- dem_mpi.reduce_sum(w, x): x (a number or a list of at most 64) summed over the ranks;
--- collective. reduce_max: the maximum.
function M.reduce_sum(w, x) return reduce("reduce_sum", w, x, false) end
function M.reduce_max(w, x) return reduce("reduce_max", w, x, true) end

local energy_keys = { "gravity_work", "kinetic", "elastic", "damping", "plastic", "viscous" }

--- dem_mpi.energy(w): the fields of w:dem_energy() over the whole scene (each rank books its own
--- spheres' motion and half of each interaction across a cut); collective.
function M.energy(w)
  check_world("energy", w)
  local e = core.dem_domain_energy(w)
  local v = {}
  for i, k in ipairs(energy_keys) do v[i] = e[k] end
  local s = core.dem_domain_allreduce(w, v, false)
  local out = { tracked = e.tracked }
  for i, k in ipairs(energy_keys) do out[k] = s[i] end
  return out
end

--- dem_mpi.packing(w): {count, mean_z, top, mass, mz} of the free spheres over the whole scene:
--- their number, the mean height of their centres, the highest z + r, their mass and the sum of
--- m z (gravity's potential energy is g mz); collective.
function M.packing(w)
  check_world("packing", w)
  local p = core.dem_domain_summary(w)
  local s = core.dem_domain_allreduce(w, { p.count, p.z_sum, p.mass, p.mz_sum }, false)
  local top = core.dem_domain_allreduce(w, { p.top }, true)[1]
  return { count = math.tointeger(s[1]) or s[1], mean_z = s[2] / s[1], top = top, mass = s[3],
           mz = s[4] }
end

--- dem_mpi.count(w): the free spheres over the whole scene; collective.
function M.count(w) return M.packing(w).count end

--- dem_mpi.owns(w, b): whether this rank steps body b (its free spheres; fixed bodies are on
--- every rank and owned by rank 0 here).
function M.owns(w, b)
  check_world("owns", w)
  local role = core.dem_domain_role(w, b)
  return role == "owned" or (role == "shared" and st(w).rank == 0)
end

--- dem_mpi.bodies(w): the bodies this rank owns (as dem_mpi.owns): over the ranks, every body
--- once.
function M.bodies(w)
  check_world("bodies", w)
  local out = {}
  for _, b in ipairs(w:bodies()) do
    if M.owns(w, b) then out[#out + 1] = b end
  end
  return out
end

--- dem_mpi.stats(w): {rank, size, axis, lo, hi, ghost, skin, owned, ghosts, updates, migrated,
--- steps, comm_seconds, domain_seconds, bytes_sent, messages} of this rank.
function M.stats(w)
  check_world("stats", w)
  return core.dem_domain_stats(w)
end

local function rank_file(path, rank, size)
  if size <= 1 then return path end
  local stem, ext = path:match("^(.*)(%.[^./]*)$")
  if not stem then stem, ext = path, "" end
  return string.format("%s.rank%d%s", stem, rank, ext)
end

--- dem_mpi.file(path, w): path on one rank; with several, ".rank<r>" before its extension
--- ("out.csv" -> "out.rank1.csv"), so each rank writes its own file.
function M.file(path, w)
  if type(path) ~= "string" then
    error("impact.dem_mpi.file: path must be a string, got " .. shown(path), 2)
  end
  local s = st(w)
  return rank_file(path, s.rank, s.size)
end

-- the decomposition beside a rank's scene file: one "key values..." line each, numbers in %a
-- (exact), the roles as digits
local function number_text(v)
  if v == math.huge then return "inf" elseif v == -math.huge then return "-inf" end
  return string.format("%a", v)
end

local function write_domain(path, t)
  local f, err = io.open(path, "w")
  if not f then error("impact.dem_mpi.save: " .. tostring(err), 3) end
  local function list(v)
    local out = {}
    for i, x in ipairs(v) do out[i] = number_text(x) end
    return table.concat(out, " ")
  end
  f:write("impact.dem_mpi 1\n")
  for _, k in ipairs { "axis", "size", "rank", "updates", "migrated", "steps" } do
    f:write(k, " ", string.format("%d", t[k]), "\n")
  end
  f:write("skin ", number_text(t.skin), "\n", "ghost ", number_text(t.ghost), "\n")
  f:write("bounds ", list(t.bounds), "\n", "refs ", list(t.refs), "\n")
  f:write("roles ", (t.roles:gsub(".", function(c) return tostring(c:byte()) end)), "\n")
  f:close()
end

local function read_domain(path)
  local f, err = io.open(path, "r")
  if not f then error("impact.dem_mpi.load: " .. tostring(err), 3) end
  local text = f:read("a")
  f:close()
  local function bad(what)
    error(string.format("impact.dem_mpi.load: %s: %s", path, what), 4)
  end
  if text:sub(1, 15) ~= "impact.dem_mpi " then bad("not a decomposition file") end
  local t = {}
  for line in text:gmatch("[^\n]+") do
    local k, rest = line:match("^(%w+) ?(.*)$")
    if k then t[k] = rest end
  end
  local function num(s)
    if s == "inf" then return math.huge elseif s == "-inf" then return -math.huge end
    local v = tonumber(s)
    if v == nil then bad("the number " .. shown(s)) end
    return v
  end
  local out = {}
  for _, k in ipairs { "axis", "size", "rank", "updates", "migrated", "steps" } do
    out[k] = math.tointeger(num(t[k] or bad("no " .. k)))
    if out[k] == nil then bad(k .. " is not an integer") end
  end
  out.skin, out.ghost = num(t.skin or bad("no skin")), num(t.ghost or bad("no ghost"))
  for _, k in ipairs { "bounds", "refs" } do
    local v = {}
    for x in (t[k] or bad("no " .. k)):gmatch("%S+") do v[#v + 1] = num(x) end
    out[k] = v
  end
  local roles = t.roles or bad("no roles")
  if roles:find("[^0-3]") then bad("the roles") end
  out.roles = roles:gsub(".", function(c) return string.char(c:byte() - 48) end)
  return out
end

--- dem_mpi.save(w, path): dem.save of this rank's scene to dem_mpi.file(path, w) and, when
--- decomposed, its decomposition beside it (that name .. ".domain"); every rank calls it.
--- dem_mpi.load(path, opts) on as many ranks continues bit-identically.
function M.save(w, path)
  check_world("save", w)
  if type(path) ~= "string" then
    error("impact.dem_mpi.save: path must be a string, got " .. shown(path), 2)
  end
  local dem = require("impact.dem")
  local file = M.file(path, w)
  local t = core.dem_domain_export(w)
  if not t then
    dem.save(w, file)
    return file
  end
  write_domain(file .. ".domain", t)
  core.dem_domain_expose(w, true)  -- dem.save writes the dem state's particles: all of them
  local ok, err = pcall(dem.save, w, file)
  core.dem_domain_expose(w, false)
  if not ok then error(err, 2) end
  return file
end

--- dem_mpi.load(path, opts): the world dem_mpi.save wrote for this rank (opts as dem.load's),
--- decomposed as it was; under mpirun each rank reads its own file.
function M.load(path, opts)
  if type(path) ~= "string" then
    error("impact.dem_mpi.load: path must be a string, got " .. shown(path), 2)
  end
  local dem = require("impact.dem")
  local rank, size, mpi = 0, 1, nil
  if M.launched_size() > 1 then
    mpi = load_mpi()
    rank, size = mpi.init()
  end
  local file = rank_file(path, rank, size)
  local w = dem.load(file, opts)
  local f = io.open(file .. ".domain", "r")
  if f then
    f:close()
    local t = read_domain(file .. ".domain")
    if not mpi then
      mpi = load_mpi()
      rank, size = mpi.init()
    end
    local ok, err = pcall(core.dem_domain_restore, w, mpi.dem_comm(), t)
    if not ok then error("impact.dem_mpi.load: " .. tostring(err), 2) end
  end
  state[w] = { rank = rank, size = size, mpi = mpi }
  return w
end

return M
