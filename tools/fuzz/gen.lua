--- tools/fuzz/gen.lua: the fuzzer's generator. Pure Lua (no impact needed): from a seed and a
--- case index it makes a case, a list of calls of the Lua API as source lines
---   { src = "b3 = w:add_body{...}", entry = "World:add_body", bad = nil | "why it must be
---     refused", check = true (the worlds' states must be finite after it returns) }
--- that refer to the objects they make by generated global names (w, w2, b1, s2, sp1, j1, r1,
--- h1, ...), so any subset of a case is still a runnable script.
---
--- ENTRIES below is the list of API entries (one row each: name, weight, dimensions, generator);
--- add a row to fuzz a new function. The generator knows which values must be refused (NaN or
--- an infinity where a finite number is needed, negative sizes, wrong types, unknown keys,
--- shapes of zero or infinite volume...) and marks such calls `bad`.
local M = {}

-- ---- a small deterministic generator: splitmix64 on Lua's 64-bit integers -----------------

local GOLDEN = 0x9E3779B97F4A7C15

local function mix(z)
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

local Rng = {}
Rng.__index = Rng

--- A generator for stream `stream` of seed `seed` (both integers).
function M.rng(seed, stream)
  return setmetatable({ s = mix(mix(seed) + stream * GOLDEN) }, Rng)
end
function Rng:next()
  self.s = self.s + GOLDEN
  return mix(self.s)
end
--- an integer in 1..n
function Rng:int(n) return (self:next() >> 11) % n + 1 end
--- a float in [0, 1)
function Rng:float() return (self:next() >> 11) * 2.0 ^ -53 end
function Rng:chance(p) return self:float() < p end
function Rng:pick(list) return list[self:int(#list)] end
function Rng:range(a, b) return a + (b - a) * self:float() end

-- ---- values as Lua source ----------------------------------------------------------------

--- The shortest Lua source for the number v that reads back as v.
local function numsrc(v)
  if math.type(v) == "integer" then
    if v == math.mininteger then return "math.mininteger" end
    return string.format("%d", v)
  end
  if v ~= v then return "0/0" end
  if v == math.huge then return "1/0" end
  if v == -math.huge then return "-1/0" end
  for p = 1, 17 do
    local s = string.format("%." .. p .. "g", v)
    local back = tonumber(s)
    if back == v and math.type(back) == "float" then return s end
    if back == v then return s .. (s:find("[e.]") and "" or ".0") end
  end
  return string.format("%.17g", v)
end
M.numsrc = numsrc

local function finite(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge end

-- What a number option accepts (the allow-list of legal zeros and infinities is in the kinds:
-- "nonneg" takes 0 (e.g. integrator hmax = 0 means no limit, damping = 0, smoothing = 0,
-- every = 0 means each step); no option of the API takes an infinity: run{until_time} must be
-- finite too (README), so every kind refuses inf and NaN).
local kinds = {
  any = function() return nil end,
  pos = function(v) if v <= 0 then return "not positive" end end,
  nonneg = function(v) if v < 0 then return "negative" end end,
  unit = function(v) if v < 0 or v > 1 then return "outside [0, 1]" end end,
  unitpos = function(v) if v <= 0 or v > 1 then return "outside (0, 1]" end end,
  halfopen = function(v) if v < 0 or v >= 1 then return "outside [0, 1)" end end,
  angle = function(v) if v < 0 or v > math.pi / 2 then return "outside [0, pi/2]" end end,
  poisson = function(v) if v < 0 or v > 0.5 then return "outside [0, 0.5]" end end,
  ge1 = function(v) if v < 1 then return "below 1" end end,
  nu = function(v) if v < 0 or v >= 0.5 then return "outside [0, 0.5)" end end,
}

--- nil when the value v (nil: not a number, `what` says what it is) is legal for kind, else why not
local function verdict(kind, v, what)
  if v == nil then return what or "wrong type" end
  if v ~= v then return "NaN" end
  if v == math.huge or v == -math.huge then return "infinite" end
  return kinds[kind](v)
end

-- the special values numbers are replaced by: {source, value (nil: not a number), what}
local specials = {
  { "0/0", 0 / 0 }, { "1/0", math.huge }, { "-1/0", -math.huge },
  { "1e300", 1e300 }, { "-1e300", -1e300 }, { "1e-300", 1e-300 }, { "1e-320", 1e-320 },
  { "5e-324", 5e-324 }, { "0", 0 }, { "-1", -1 }, { "-1e-300", -1e-300 }, { "1e30", 1e30 },
  { "1e-30", 1e-30 }, { "2^53", 2.0 ^ 53 }, { "math.maxinteger", math.maxinteger },
  { "-0.0", -0.0 }, { "1e154", 1e154 }, { "1e-160", 1e-160 },
  { '"x"', nil, "a string" }, { "true", nil, "a boolean" }, { "{}", nil, "a table" },
  { "print", nil, "a function" },
}

-- ---- the case context: names, objects made so far, value generators ---------------------

local C = {}
C.__index = C

local function new_context(seed, index)
  local r = M.rng(seed, index)
  local c = setmetatable({ r = r, seed = seed, index = index, n = 0, calls = {},
    bodies = {}, shapes = { [2] = {}, [3] = {} }, info = {}, springs = {}, joints = {},
    recorders = {}, handlers = {}, files = {}, worlds = {}, materials = { "steel", "rubber",
    "wood", "aluminium", "glass" } }, C)
  c.p_valid = r:range(0.55, 0.9)
  -- a second stream for the choices added later (collision filters, kinematic bodies), so the
  -- main stream, and with it every case made before them, stays as it was
  c.xr = M.rng(seed, index + 0x40000000)
  return c
end

function C:fresh(prefix)
  self.n = self.n + 1
  return prefix .. self.n
end

--- a file path for this case (the same on every run of the case)
function C:file(ext)
  local dir = os.getenv("FUZZ_TMPDIR") or os.getenv("TMPDIR") or "/tmp"
  local p = string.format("%s/impact_fuzz_%d_%d_%d.%s", dir, self.seed, self.index, #self.files + 1,
    ext or "lua")
  self.files[#self.files + 1] = p
  return p
end

--- the world the next call acts on (sometimes another one)
function C:world()
  if #self.worlds == 0 then return { name = "w", dim = self.dim } end
  if #self.worlds > 1 and self.r:chance(0.25) then return self.r:pick(self.worlds) end
  return self.worlds[1]
end

--- combines the reasons of parts: the first one given
local function first(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if v then return v end
  end
  return nil
end

--- A number of the kind, typically in [lo, hi]; returns source, why bad (or nil), value.
function C:num(kind, lo, hi)
  local r = self.r
  if r:chance(self.p_valid) then
    local v
    if lo > 0 and hi / lo > 50 then v = math.exp(r:range(math.log(lo), math.log(hi)))
    else v = r:range(lo, hi) end
    if r:chance(0.5) then
      local q = math.floor(v * 100 + 0.5) / 100
      if q ~= 0 or lo <= 0 then v = q end
    end
    return numsrc(v), verdict(kind, v), v
  end
  local s = r:pick(specials)
  return s[1], verdict(kind, s[2], s[3]), s[2]
end

--- An integer typically in [tlo, thi], legal in [lo, hi].
function C:int(lo, hi, tlo, thi)
  local r = self.r
  if r:chance(self.p_valid + 0.05) then
    local v = tlo + r:int(thi - tlo + 1) - 1
    return numsrc(v), nil, v
  end
  local cand = { { numsrc(lo - 1), lo - 1 }, { numsrc(hi + 1), hi + 1 }, { "1.5", 1.5 },
    { "0/0", 0 / 0 }, { "1/0", math.huge }, { '"3"', nil }, { "2^63", 2.0 ^ 63 },
    { "math.mininteger", math.mininteger }, { numsrc(lo), lo }, { "-1", -1 }, { "{}", nil } }
  if hi == math.maxinteger then cand[2] = { "math.maxinteger", hi } end
  local s = r:pick(cand)
  local v = s[2]
  local bad
  if type(v) ~= "number" then bad = "wrong type"
  else
    local iv = math.tointeger(v)
    if iv == nil then bad = "not an integer"
    elseif iv < lo or iv > hi then bad = "out of range" end
  end
  return s[1], bad, v
end

function C:bool()
  local r = self.r
  if r:chance(0.9) then return r:chance(0.5) and "true" or "false" end
  return r:pick({ "1", '"yes"', "0" }), "wrong type"
end

function C:enum(list)
  local r = self.r
  if r:chance(0.9) then return string.format("%q", r:pick(list)) end
  return r:pick({ '"bogus"', "1", "{}", '""' }), "not one of the names"
end

function C:string()
  local r = self.r
  return r:pick({ '"a"', '"ball"', '""', '"\\0x"', 'string.rep("n", 300)', '"%s%g%d"' })
end

--- a re-entrant value: a table whose metamethods close or step the world, remove a body,
--- collect garbage or raise; n is the length it claims
function C:evil(n)
  local r = self.r
  local w = self:world().name
  local b = #self.bodies > 0 and r:pick(self.bodies).name or "nil"
  local actions = { w .. ":close()", "pcall(" .. w .. ".step, " .. w .. ")",
    "pcall(" .. w .. ".remove_body, " .. w .. ", " .. b .. ")", "collectgarbage()",
    "error(\"boom\")", w .. ".dt = 0.5", "pcall(" .. w .. ".add_body, " .. w .. ", {shape = "
    .. (self.dim == 2 and "impact.shape2d.ball{}" or "impact.shape3d.sphere{}") .. "})" }
  local act = r:pick(actions)
  local form = r:int(4)
  if form == 1 then
    return string.format("setmetatable({}, {__index = function() %s return 0.5 end, "
      .. "__len = function() return %d end})", act, n)
  elseif form == 2 then
    return string.format("setmetatable({}, {__len = function() %s return %d end, "
      .. "__index = function() return 1 end})", act, n)
  elseif form == 3 then
    local items = {}
    for i = 1, n do items[i] = "1" end
    return string.format("setmetatable({%s}, {__gc = function() %s end})",
      table.concat(items, ", "), act)
  end
  return string.format("setmetatable({}, {__index = function(_, k) if k == %d then %s end "
    .. "return 1 end, __len = function() return %d end})", n, act, n)
end

--- An array of n numbers of the kind; source, why bad, values.
function C:vec(n, kind, lo, hi)
  local r = self.r
  local parts, vals, bad = {}, {}, nil
  local mode = r:float()
  if mode < 0.04 then return self:evil(n), nil, nil end
  local len = n
  if mode < 0.08 then
    len = r:pick({ n - 1, n + 1, 0 })
    if len < 0 then len = n + 1 end
    if len ~= n then bad = "wrong length" end
  elseif mode < 0.1 then
    local s = r:pick({ "1", '"x"', "true", "print" })
    return s, "not an array", nil
  end
  for i = 1, len do
    local s, b, v
    if r:chance(0.12) then s, b, v = self:num(kind, lo, hi)
    else
      v = r:range(lo, hi)
      if r:chance(0.5) then v = math.floor(v * 10 + 0.5) / 10 end
      s = numsrc(v)
    end
    parts[i], vals[i] = s, v
    bad = bad or b
  end
  return "{" .. table.concat(parts, ", ") .. "}", bad, vals
end

--- An options table from spec = {{key, fn(c) -> src, bad, value, p}, ...}: each key with its
--- probability p; sometimes an unknown key, another type or a re-entrant metatable.
--- Returns source, why bad, the values by key.
function C:opts(spec, never_unknown, never_evil)
  local r = self.r
  local parts, vals, bad = {}, {}, nil
  for _, f in ipairs(spec) do
    if r:chance(f[3] or 0.5) then
      local s, b, v = f[2](self)
      parts[#parts + 1] = f[1] .. " = " .. s
      vals[f[1]] = v
      vals[f[1] .. "_given"] = true
      bad = bad or (b and (f[1] .. ": " .. b))
    end
  end
  if not never_unknown and r:chance(0.04) then
    parts[#parts + 1] = r:pick({ "bogus_key = 1", "[1] = 2", "Radius = 1", "[true] = 1" })
    bad = bad or "unknown option"
  end
  local src = "{" .. table.concat(parts, ", ") .. "}"
  if not never_evil and r:chance(0.03) then
    src = string.format("setmetatable(%s, {__index = function() %s:close() end})", src,
      self:world().name)
  end
  return src, bad, vals
end

-- option value generators (each returns source, why bad, value)
local function num(kind, lo, hi) return function(c) return c:num(kind, lo, hi) end end
-- a size: sometimes at the extremes of the scale (legal numbers; the shape's volume may not be)
local extremes = { 1e300, 1e-300, 1e-320, 1e154, 1e-160, 1e200, 1e-200, 1e100 }
local function size(lo, hi)
  return function(c)
    if c.r:chance(0.08) then
      local v = c.r:pick(extremes)
      return numsrc(v), nil, v
    end
    return c:num("pos", lo, hi)
  end
end
local function int(lo, hi, tlo, thi) return function(c) return c:int(lo, hi, tlo, thi) end end
local function vec(n, kind, lo, hi) return function(c) return c:vec(n, kind, lo, hi) end end
-- an array, or one number standing for all its elements (box size, ellipsoid radii, 3D inertia)
local function vec_or_number(n, kind, lo, hi)
  return function(c)
    local src, bad, vals = c:vec(n, kind, lo, hi)
    local x = tonumber(src)
    if x then return src, verdict(kind, x), x end
    return src, bad, vals
  end
end
local function enum(list) return function(c) return c:enum(list) end end
local function bool() return function(c) return c:bool() end end
local function lit(s) return function() return s end end

--- a body name (sometimes not a body at all)
function C:body(world)
  local r = self.r
  local list = {}
  for _, b in ipairs(self.bodies) do
    if world == nil or b.world == world or r:chance(0.1) then list[#list + 1] = b end
  end
  local x = r:float()
  if #list == 0 or x < 0.06 then
    return r:pick({ "(1)", '("b")', "({})" }), "not a body"
  end
  return r:pick(list).name
end

function C:shape(dim)
  local list = self.shapes[dim]
  if #list == 0 or self.r:chance(0.05) then
    return dim == 2 and "impact.shape2d.ball{radius = 0.5}" or "impact.shape3d.sphere{radius = 0.5}"
  end
  return self.r:pick(list)
end

function C:pose(dim)
  if dim == 2 then
    local p, b1 = self:vec(2, "any", -3, 3)
    local a, b2 = self:num("any", -3, 3)
    return string.format("{position = %s, angle = %s}", p, a), first(b1, b2)
  end
  local p, b1 = self:vec(3, "any", -3, 3)
  local q, b2 = self:vec(4, "any", -1, 1)
  return string.format("{position = %s, orientation = %s}", p, q), first(b1, b2)
end

--- records a call
function C:emit(src, entry, bad, check)
  self.calls[#self.calls + 1] = { src = src, entry = entry, bad = bad or nil, check = check or nil }
end

-- ---- shapes: sizes known to the generator (log10 of the volume and of the size) ----------

local log10 = function(x) return math.log(x, 10) end
local LOG_MAX, LOG_MIN = 308.6, -323.7  -- beyond: the value is surely inf / surely 0

local function logs(list, n)
  local out = {}
  if type(list) ~= "table" then return nil end
  for i = 1, n or #list do
    local v = list[i]
    if not finite(v) or v <= 0 then return nil end
    out[i] = log10(v)
  end
  return out
end

--- why a shape of log10 volume lv must be refused (nil: fine or unknown)
local function volume_verdict(lv, word)
  if lv == nil then return nil end
  if lv > LOG_MAX then return word .. " overflows (infinite)" end
  if lv < LOG_MIN then return word .. " is zero" end
  return nil
end

-- 2D presets: {name, spec, log10 area from values, size}
local shape2d_presets = {
  { "ball", { { "radius", size(0.05, 2), 0.9 } },
    function(v) local l = logs({ v.radius or 0.5 }) return l and (log10(math.pi) + 2 * l[1]),
        l and l[1] end },
  { "block", { { "width", size(0.1, 3), 0.9 }, { "height", size(0.1, 3), 0.9 } },
    function(v) local l = logs({ v.width or 1, v.height or 1 })
      return l and (l[1] + l[2]), l and math.max(l[1], l[2]) end },
  { "ngon", { { "sides", int(3, 100000, 3, 12), 0.9 }, { "radius", size(0.1, 2), 0.9 } },
    function(v) local l = logs({ v.radius or 0.5 }) return l and (2 * l[1] + 0.1), l and l[1] end },
  { "rounded_block", { { "width", size(0.2, 3), 0.9 }, { "height", size(0.2, 3), 0.9 },
      { "corner_radius", size(0.01, 0.1), 0.8 }, { "spacing", size(0.05, 1), 0.4 } },
    function(v) local l = logs({ v.width or 1, v.height or 1 })
      return l and (l[1] + l[2]), l and math.max(l[1], l[2]) end },
  { "frame", { { "outer_width", size(1, 4), 0.9 }, { "outer_height", size(1, 4), 0.9 },
      { "thickness", size(0.05, 0.4), 0.9 } }, function() return nil end },
  { "convex_top_block", { { "width", size(0.2, 2), 0.9 }, { "height", size(0.2, 2), 0.9 },
      { "radius", size(1, 3), 0.8 }, { "spacing", size(0.05, 1), 0.3 } },
    function() return nil end },
  { "concave_top_block", { { "width", size(0.2, 2), 0.9 }, { "height", size(0.5, 2), 0.9 },
      { "radius", size(1, 3), 0.8 }, { "spacing", size(0.05, 1), 0.3 } },
    function() return nil end },
}

local FOUR_THIRDS_PI = 4 / 3 * math.pi

local function size_list(v, n, default)
  if type(v) == "number" then
    local out = {}
    for i = 1, n do out[i] = v end
    return out
  end
  if type(v) == "table" then return v end
  return default
end

local function gen_size(c)  -- box size: a number or {sx, sy, sz}
  if c.r:chance(0.3) then return size(0.1, 2)(c) end
  return vec_or_number(3, "pos", 0.1, 2)(c)
end

local shape3d_presets = {
  { "sphere", { { "radius", size(0.05, 1), 0.9 } },
    function(v) local l = logs({ v.radius or 0.5 })
      return l and (log10(FOUR_THIRDS_PI) + 3 * l[1]), l and l[1] end },
  { "box", { { "size", gen_size, 0.9 }, { "smoothing", num("nonneg", 0, 0.05), 0.3 } },
    function(v) local l = logs(size_list(v.size, 3, { 1, 1, 1 }), 3)
      return l and (l[1] + l[2] + l[3]), l and math.max(l[1], l[2], l[3]) end },
  { "ellipsoid", { { "radii", function(c)
      if c.r:chance(0.3) then return size(0.1, 1)(c) end
      return vec_or_number(3, "pos", 0.1, 1)(c) end, 0.9 } },
    function(v) local l = logs(size_list(v.radii, 3, { 0.5, 0.5, 0.5 }), 3)
      return l and (log10(FOUR_THIRDS_PI) + l[1] + l[2] + l[3]), l and math.max(l[1], l[2], l[3]) end },
  { "cylinder", { { "radius", size(0.1, 1), 0.9 }, { "length", size(0.1, 2), 0.9 },
      { "smoothing", num("nonneg", 0, 0.05), 0.3 } },
    function(v) local l = logs({ v.radius or 0.5, v.length or 1 })
      return l and (log10(math.pi) + 2 * l[1] + l[2]), l and math.max(l[1], l[2]) end },
  { "capsule", { { "radius", size(0.1, 1), 0.9 }, { "length", num("nonneg", 0, 2), 0.9 } },
    function(v) local l = logs({ v.radius or 0.5 })
      return l and (log10(FOUR_THIRDS_PI) + 3 * l[1]), l and l[1] end },
  { "cone", { { "radius", size(0.1, 1), 0.9 }, { "length", size(0.1, 2), 0.9 },
      { "smoothing", num("nonneg", 0, 0.05), 0.3 } },
    function(v) local l = logs({ v.radius or 0.5, v.length or 1 })
      return l and (log10(math.pi / 3) + 2 * l[1] + l[2]), l and math.max(l[1], l[2]) end },
}

--- points of a convex hull: {src, bad}
local function hull_points(c)
  local r = c.r
  local kind = r:int(6)
  local pts = {}
  if kind == 1 then  -- flat: zero volume
    for i = 1, 5 do pts[i] = string.format("{%s, %s, 0}", numsrc(r:int(5)), numsrc(r:int(7))) end
    return "{" .. table.concat(pts, ", ") .. "}", "coplanar points (zero volume)"
  elseif kind == 2 then  -- too few
    return "{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}", "fewer than 4 points"
  elseif kind == 3 then
    local s, b = c:vec(3, "any", -1, 1)
    return "{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, " .. s .. "}", b
  end
  local scale = kind == 4 and r:pick({ 1e-300, 1e300, 1e-160, 1e154, 1 }) or 1
  for i = 1, 4 + r:int(8) do
    pts[i] = string.format("{%s, %s, %s}", numsrc(r:range(-1, 1) * scale),
      numsrc(r:range(-1, 1) * scale), numsrc(r:range(-1, 1) * scale))
  end
  local bad
  if scale >= 1e154 then bad = "volume overflows (infinite)"
  elseif scale <= 1e-160 then bad = "volume is zero" end
  return "{" .. table.concat(pts, ", ") .. "}", bad
end

local CUBE_V = "{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}"
local CUBE_F = "{{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}, {4, 1, 5, 8}}"

local function new_shape2d(c)
  local r = c.r
  local name = c:fresh("s")
  if r:chance(0.2) then  -- the path builder
    local ops, bad
    local k = r:int(5)
    if k == 1 then  -- a square, sometimes with a bad coordinate
      local x, b = c:num("any", 0.5, 2)
      bad = b and ("coordinate: " .. b)
      ops = { "move_to(0, 0)", "line_to(" .. x .. ", 0)", "line_to(1, 1)", "line_to(0, 1)", "close()" }
    elseif k == 2 then  -- a bulge
      ops = { "move_to(-1, 0)", "line_to(1, 0)", "arc_to(1, 1, {center = {1, 0.5}, outside = "
        .. c:bool() .. "})", "line_to(-1, 1)", "close()" }
    elseif k == 3 then  -- degenerate: repeated points, collinear, crossing
      ops = { "move_to(0, 0)", r:pick({ "line_to(0, 0)", "line_to(2, 0)", "line_to(1, 1)" }),
        r:pick({ "line_to(1, 0)", "line_to(0, 1)", "line_to(1, -1)" }), "line_to(1, 1)", "close()" }
    elseif k == 4 then  -- a full circle
      local rad = c:num("pos", 0.2, 2)
      ops = { "move_to(" .. rad .. ", 0)", "arc_to(" .. rad .. ", 0, {center = {0, 0}})", "close()" }
    else  -- a frame with a hole
      ops = { "move_to(0, 0)", "line_to(3, 0)", "line_to(3, 3)", "line_to(0, 3)", "close()", "path()",
        "move_to(1, 1)", "line_to(1, 2)", "line_to(2, 2)", "line_to(2, 1)", "close()" }
    end
    local sp, b2 = c:opts({ { "spacing", num("pos", 0.05, 1), 0.4 } })
    c:emit(string.format("%s = impact.shape2d.path():%s:build(%s)", name, table.concat(ops, ":"), sp),
      "impact.shape2d.path", first(bad, b2))
    c.shapes[2][#c.shapes[2] + 1] = name
    return name
  end
  local p = r:pick(shape2d_presets)
  local src, bad, vals = c:opts(p[2])
  local la, ls = p[3](vals)
  if not bad then bad = volume_verdict(la, "area") end
  c:emit(string.format("%s = impact.shape2d.%s(%s)", name, p[1], src), "impact.shape2d." .. p[1], bad)
  c.shapes[2][#c.shapes[2] + 1] = name
  c.info[name] = { logvol = la, logsize = ls }
  return name
end

local function new_shape3d(c)
  local r = c.r
  local name = c:fresh("s")
  local x = r:float()
  if x < 0.15 then
    local pts, bad = hull_points(c)
    local sm, b2 = c:num("nonneg", 0, 0.05)
    local with_sm = r:chance(0.3)
    c:emit(string.format("%s = impact.shape3d.convex{points = %s%s}", name, pts,
      with_sm and (", smoothing = " .. sm) or ""), "impact.shape3d.convex", first(bad, with_sm and b2))
  elseif x < 0.25 then
    if r:chance(0.5) then
      local pts, bad = hull_points(c)
      c:emit(string.format("%s = impact.shape3d.polyhedron{points = %s}", name, pts),
        "impact.shape3d.polyhedron", bad)
    else
      local faces, bad = CUBE_F, nil
      local m = r:int(5)
      if m == 1 then faces, bad = "{{1, 4, 3, 2}, {5, 6, 7, 9}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}, "
        .. "{4, 1, 5, 8}}", "face index out of range"
      elseif m == 2 then faces,
          bad = "{{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}}",
        "open polyhedron"
      elseif m == 3 then faces,
          bad = "{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}, "
        .. "{4, 1, 5, 8}}", "inward face"
      elseif m == 4 then faces,
          bad = "{{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}, "
        .. "{4, 1, 0, 8}}", "face index out of range" end
      c:emit(string.format("%s = impact.shape3d.polyhedron{vertices = %s, faces = %s}", name, CUBE_V, faces),
        "impact.shape3d.polyhedron", bad)
    end
  elseif x < 0.3 then
    local n, bad = c:vec(3, "any", -1, 1)
    if not bad and type(n) == "string" and n:match("^{0, 0, 0}$") then bad = "zero normal" end
    c:emit(string.format("%s = impact.shape3d.wall{normal = %s}", name, n), "impact.shape3d.wall", bad)
    c.info[name] = { wall = true }
  elseif x < 0.36 then
    local r1, b1 = c:num("pos", 0.05, 0.5)
    local cx, b2 = c:vec(3, "any", -0.3, 0.3)
    c:emit(string.format("%s = impact.dem.clump{spheres = {{center = {0, 0, 0}, radius = 0.2}, "
      .. "{center = %s, radius = %s}}}", name, cx, r1), "impact.dem.clump", first(b1, b2))
  elseif x < 0.4 then
    local p, bad = c:vec(3, "any", -1, 1)
    c:emit(string.format("%s = impact.dem.facet{vertices = {{0, 0, 0}, {1, 0, 0}, %s}}", name, p),
      "impact.dem.facet", bad)
  else
    local p = r:pick(shape3d_presets)
    local src, bad, vals = c:opts(p[2])
    local lv, ls = p[3](vals)
    if not bad then bad = volume_verdict(lv, "volume") end
    c:emit(string.format("%s = impact.shape3d.%s(%s)", name, p[1], src), "impact.shape3d." .. p[1], bad)
    c.info[name] = { logvol = lv, logsize = ls }
  end
  c.shapes[3][#c.shapes[3] + 1] = name
  return name
end

-- ---- worlds ------------------------------------------------------------------------------

local STRATEGIES = { [2] = { "none", "impulse", "contact", "compliant" }, [3] = { "none", "compliant",
    "dem", "impulse", "contact" } }
local INTEGRATORS = { "euler", "modified_euler", "rk4", "rkf45", "rkck", "rk8pd", "msbdf" }

local function integrator(c)
  if c.r:chance(0.5) then
    local src, bad = c:enum(INTEGRATORS)
    if src == "{}" then bad = nil end  -- an empty options table is legal
    return src, bad
  end
  return c:opts({ { "method", enum(INTEGRATORS), 0.8 }, { "rtol", num("nonneg", 1e-10, 1e-3), 0.5 },
    { "atol", num("nonneg", 1e-12, 1e-4), 0.5 }, { "hmax", num("nonneg", 0, 0.1), 0.3 },
    { "h0", num("nonneg", 0, 0.01), 0.3 }, { "max_substeps", int(1, math.maxinteger, 10, 100000), 0.3 } })
end

local function damping(c)
  return c:opts({ { "linear", num("nonneg", 0, 1), 0.7 }, { "angular", num("nonneg", 0, 1), 0.7 } })
end

local function world_options(c, dim, strategy)
  local rigid_strategy = strategy == "impulse" or strategy == "contact"
  -- 3D: the time stepping first (the verdicts of integrator, extra_accel, extra_accel_dt and
  -- substeps depend on it)
  local ode = dim == 3 and rigid_strategy and c.r:chance(0.3)
  local spec = {
    { "gravity", vec(dim, "any", -20, 20), 0.5 },
    { "strategy", function()
        -- 3D impulse and contact: always the intended one (their options' verdicts depend on it)
        if c.r:chance(0.97) or (dim == 3 and (strategy == "impulse" or strategy == "contact")) then
          return string.format("%q", strategy)
        end
        -- another strategy; in 3D not a rigid one, whose options' verdicts differ; the
        -- world's strategy is then not the one the generator draws by (c.swapped)
        c.swapped = true
        local others = {}
        for _, s in ipairs(STRATEGIES[dim]) do
          if dim == 2 or (s ~= "impulse" and s ~= "contact") then others[#others + 1] = s end
        end
        return c:enum(others) end, 1 },
    { "dt", num("pos", 1e-3, 0.05), 0.6 },
    { "integrator", function(cc)  -- unused (refused) by the dem and 3D velocity-level steps
        local src, bad = integrator(cc)
        if dim == 3 and not c.swapped and (strategy == "dem" or (rigid_strategy and not ode)) then
          bad = bad or "an integrator the strategy would not use"
        end
        return src, bad
      end, 0.2 },
    { "damping", damping, 0.15 },
    { "gravitation", function(cc) return cc:opts({ { "G", num("any", 0, 1), 0.8 },
        { "softening", num("nonneg", 0, 0.1), 0.5 } }) end, 0.08 },
    { "seed", int(0, math.maxinteger, 0, 1000), 0.15 },
    { "compliant", function(cc) return cc:opts({ { "nz_max", int(1, 1000000, 1, 200), 0.3 },
        { "z_eps", num("pos", 1e-10, 1e-6), 0.3 }, { "k_red", num("pos", 0.1, 10), 0.3 },
        { "d_max", num("pos", 10, 5000), 0.3 }, { "cor_min", num("pos", 1e-4, 0.1), 0.3 },
        { "event_tol", num("pos", 1e-12, 1e-8), 0.3 }, { "damping", enum({ "calibrated", "flores" }), 0.3 },
        { "verlet", num("nonneg", 0, 0.1), 0.3 } }) end, strategy == "compliant" and 0.4 or 0.03 },
  }
  -- contact_solver = "soft" (decided first: the verdicts of time_stepping, substeps and soft
  -- depend on it): velocity-level only, its table `soft` refused with any other solver
  local soft = c.r:chance(rigid_strategy and 0.15 or 0.02)
  local soft_table = function(cc)
    local src, bad = cc:opts({ { "hertz", num("pos", 1, 120), 0.4 },
      { "damping_ratio", num("nonneg", 0, 20), 0.4 }, { "push_max", num("pos", 0.1, 10), 0.3 },
      { "joint_hertz", num("pos", 1, 120), 0.3 }, { "joint_damping_ratio", num("nonneg", 0, 10), 0.3 },
      { "restitution_threshold", num("nonneg", 0, 2), 0.3 }, { "iterations", int(1, 1000, 1, 4), 0.3 },
      { "relax_iterations", int(0, 1000, 0, 3), 0.3 } })
    if not soft then bad = bad or "soft without contact_solver soft" end
    return src, bad
  end
  local solver = function(cc)
    if soft then return '"soft"' end
    return cc:enum({ "lcp", "pgs" })
  end
  spec[#spec + 1] = { "soft", soft_table, soft and 0.5 or 0.01 }
  if dim == 2 then
    local e2 = {
      { "collision_handling", enum({ "simultaneous", "serial", "hybrid" }) },
      { "distance_tol", num("pos", 1e-3, 0.05) }, { "velocity_tol", num("pos", 0.05, 1) },
      { "collision_accuracy", num("unitpos", 0.1, 1) },
      { "extra_accel", enum({ "none", "velocity", "velocity_and_distance", "velocity_joints",
        "velocity_and_distance_joints" }) },
      { "extra_accel_dt", num("nonneg", 0, 0.05) }, { "max_backups", int(1, 100000, 1, 50) },
      { "joint_small_impacts", bool() }, { "contact_solver", solver, soft and 1 or nil },
      { "pgs_iterations", int(1, 100000, 1, 200) },
      { "time_stepping", function(cc)
          local src, bad = cc:enum({ "ode", "symplectic_euler" })
          if soft and src == '"ode"' then bad = bad or "contact_solver soft under time_stepping ode" end
          return src, bad, src
        end },
      { "substeps", function(cc)
          local src, bad = int(1, 1000, 1, 4)(cc)
          if not soft then bad = bad or "substeps in 2D without contact_solver soft" end
          return src, bad
        end, soft and 0.3 or 0.01 },
      { "conventions", function(cc)
          -- (a swapped strategy may be any: only the default is drawn then)
          local src, bad = cc:enum(c.swapped and { "impact" } or { "impact", "myphysicslab" })
          if src == '"myphysicslab"' and (soft or not rigid_strategy) then
            bad = bad or "conventions myphysicslab outside the 2D collision advance"
          end
          return src, bad
        end },
    }
    for _, f in ipairs(e2) do
      f[3] = f[3] or (rigid_strategy and 0.2 or 0.03)
      spec[#spec + 1] = f
    end
  else
    local rigid = rigid_strategy
    local refused = function(src)  -- joint_small_impacts: no joints in 3D
      return function() return src, rigid and "refused in 3D" or nil end
    end
    local ode_only = function(src)  -- the extra acceleration: time_stepping "ode" only
      return function()
        return src, rigid and not ode and "extra_accel outside time_stepping ode in 3D" or nil
      end
    end
    local e3 = {
      { "collision_handling", enum({ "simultaneous", "serial", "hybrid" }) },
      { "distance_tol", num("pos", 1e-3, 0.05) }, { "velocity_tol", num("pos", 0.05, 1) },
      { "collision_accuracy", num("unitpos", 0.01, 1) }, { "max_backups", int(1, 100000, 1, 50) },
      { "contact_solver", solver, soft and 1 or nil }, { "pgs_iterations", int(1, 100000, 1, 200) },
      { "substeps", function(cc)
          local src, bad = int(1, 1000, 1, 4)(cc)
          if not rigid then bad = bad or "substeps outside the 3D rigid strategies" end
          if ode then bad = bad or "substeps under time_stepping ode" end
          return src, bad
        end },
      { "contact_points", function(cc)
          local src, bad = cc:enum({ "clipping", "volumetric" })
          if not rigid then bad = bad or "contact_points outside the 3D rigid strategies" end
          return src, bad
        end },
      { "extra_accel", ode_only('"velocity"') }, { "extra_accel_dt", ode_only("0.01") },
      { "joint_small_impacts", refused("true") },
      { "conventions", function() return '"myphysicslab"', "conventions myphysicslab in 3D" end, 0.01 },
      { "time_stepping", function(cc)
          local src
          if rigid then src = ode and '"ode"' or '"symplectic_euler"'
          else src = cc.r:chance(0.7) and '"symplectic_euler"' or '"ode"' end
          return src, soft and src == '"ode"' and "contact_solver soft under time_stepping ode" or nil
        end, ode and 1 or nil },
    }
    for _, f in ipairs(e3) do
      f[3] = f[3] or (rigid and 0.15 or 0.02)
      spec[#spec + 1] = f
    end
    spec[#spec + 1] = { "polyhedra", function(cc) return cc:opts({ { "epsilon", num("nonneg", 1e-9,
        1e-3), 0.4 },
      { "minarea", num("nonneg", 0, 0.01), 0.4 }, { "threshold", num("nonneg", 0, 0.1), 0.4 },
      { "mindist", num("nonneg", 0, 1e-3), 0.4 } }) end, 0.08 }
  end
  local src, bad, vals = c:opts(spec)
  -- 2D impulse and contact stepping by semi-implicit Euler (asked, or the soft step's) refuse
  -- an integrator, which they would not use
  if dim == 2 and rigid_strategy and not c.swapped and vals.integrator_given
      and (soft or vals.time_stepping == '"symplectic_euler"') then
    bad = bad or "an integrator the strategy would not use"
  end
  return src, bad, vals
end

local function new_world(c, name, dim, strategy)
  c.swapped = false
  local src, bad = world_options(c, dim, strategy)
  c:emit(string.format("%s = impact.world%dd(%s)", name, dim, src), "impact.world" .. dim .. "d", bad)
  -- strategy: the one the draws follow; known: whether the world surely has it (verdicts that
  -- depend on the strategy are given only then)
  c.worlds[#c.worlds + 1] = { name = name, dim = dim, strategy = strategy, known = not c.swapped }
end

--- runs f(c) with the second stream as c.r (its draws leave the main stream alone)
local function on_xr(c, f, ...)
  local saved = c.r
  c.r = c.xr
  local a, b, v = f(c, ...)
  c.r = saved
  return a, b, v
end

--- Body:no_collide's second argument {edges = {first, last}} (the other body's edge count is
--- not known here: a last too large is left to the API, its message checked), or one the API
--- must refuse (draws from the second stream)
local function edges_src(c, dim)
  local r = c.xr
  local k = r:int(8)
  if k == 1 then return "{edges = {0, 1}}", "edge index below 1" end
  if k == 2 then return "{edges = {3, 2}}", "first above last" end
  if k == 3 then return "{edges = {1.5, 2}}", "edge index not an integer" end
  if k == 4 then return "{edges = 2}", "edges not a table" end
  if k == 5 then return "{edge = {1, 2}}", "unknown option" end
  if k == 6 then return "7", "not a table" end
  local lo = r:int(4)
  local hi = lo + r:int(6) - 1
  return string.format("{edges = {%d, %d}}", lo, hi), dim == 3 and "edges in a 3D world" or nil
end

--- a collision filter {category, mask, group} (16-bit bits, a group in -32768..32767), or one
--- the API must refuse (draws from the second stream)
local function filter_src(c)
  local r = c.xr
  local k = r:int(12)
  if k == 1 then return "{category = 1.5}", "not an integer" end
  if k == 2 then return "{mask = 65536}", "bits out of range" end
  if k == 3 then return "{group = -40000}", "group out of range" end
  if k == 4 then return "{catgory = 1}", "unknown key" end
  if k == 5 then return r:pick({ "1", '"x"' }), "not a table" end
  local parts = {}
  if r:chance(0.6) then parts[#parts + 1] = "category = " .. r:pick({ "0", "1", "2", "4", "0xFFFF" }) end
  if r:chance(0.6) then parts[#parts + 1] = "mask = " .. r:pick({ "0", "1", "3", "0xFFFE", "0xFFFF" }) end
  if r:chance(0.5) then
    parts[#parts + 1] = "group = " .. r:pick({ "0", "1", "-1", "2", "-32768", "32767" })
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

--- src (an options table's source, maybe inside setmetatable) with "key = value, " first in it
local function with_option(src, opt)
  local head = src:match("^setmetatable%(%{") or "{"
  local rest = src:sub(#head + 1)
  return head .. opt .. (rest:sub(1, 1) == "}" and "" or ", ") .. rest
end

-- ---- bodies ------------------------------------------------------------------------------

local function add_body(c, wd)
  local r = c.r
  local dim = wd.dim
  local shape
  if wd.strategy == "dem" and r:chance(0.7) then
    shape = r:chance(0.8) and string.format("impact.shape3d.sphere{radius = %s}", numsrc(r:range(0.05, 0.3)))
      or "impact.shape3d.wall{normal = {0, 0, 1}}"
  else
    shape = c:shape(dim)
  end
  local info = c.info[shape] or {}
  local fixed_src = r:chance(0.25) and "true" or (r:chance(0.9) and "false" or c:bool())
  if shape:find("wall") or info.wall then fixed_src = r:chance(0.9) and "true" or fixed_src end
  local spec = {
    { "shape", lit(shape), 1 },
    { "position", vec(dim, "any", -2, 2), 0.8 }, { "velocity", vec(dim, "any", -3, 3), 0.4 },
    { "fixed", lit(fixed_src), 1 }, { "name", function(cc) return cc:string() end, 0.2 },
    { "damping", damping, 0.08 }, { "data", function(cc) return cc.r:pick({ "{}", "1", "print",
        '"d"' }) end, 0.05 },
    { "material", function(cc)
        if cc.r:chance(0.9) then return string.format("%q", cc.r:pick(cc.materials)) end
        return '"no_such_material"', "unknown material" end, wd.strategy == "compliant" and 0.7 or 0.1 },
    { "collide", bool(), 0.1 },
  }
  local mass_given = r:chance(0.3)
  if mass_given then
    spec[#spec + 1] = { "mass", num("pos", 0.1, 10), 1 }
    if dim == 2 then spec[#spec + 1] = { "inertia", num("pos", 0.01, 1), 0.4 }
    else spec[#spec + 1] = { "inertia", vec_or_number(3, "pos", 0.01, 1), 0.3 } end
  else
    spec[#spec + 1] = { "density", num("pos", 10, 8000), 0.4 }
  end
  if dim == 2 then
    spec[#spec + 1] = { "angle", num("any", -3, 3), 0.4 }
    spec[#spec + 1] = { "spin", num("any", -5, 5), 0.3 }
    spec[#spec + 1] = { "elasticity", num("nonneg", 0, 1), 0.3 }
    spec[#spec + 1] = { "friction", num("nonneg", 0, 1), 0.3 }
  else
    spec[#spec + 1] = { "orientation", function(cc)
      local m = cc.r:int(12)
      if m == 1 then return "{0, 0, 0, 0}", "zero quaternion" end
      if m == 2 then return "{1e300, 0, 0, 0}" end
      if m == 3 then return "{1e-170, 0, 0, 1e-170}" end
      return cc:vec(4, "any", -1, 1) end, 0.3 }
    spec[#spec + 1] = { "angular_velocity", vec(3, "any", -5, 5), 0.3 }
    spec[#spec + 1] = { "elasticity", num("nonneg", 0, 1), 0.3 }
    spec[#spec + 1] = { "friction", num("nonneg", 0, 1), 0.3 }
  end
  local src, bad, vals = c:opts(spec)
  -- collision filters and kinematic bodies, from the second stream
  local xr = c.xr
  if xr:chance(0.1) then
    local f, why = filter_src(c)
    src, bad = with_option(src, "filter = " .. f), bad or (why and ("filter: " .. why))
  end
  if xr:chance(0.08) then
    local k, why = on_xr(c, C.bool)
    src, bad = with_option(src, "kinematic = " .. k), bad or (why and ("kinematic: " .. why))
    vals.kinematic = k == "true"
    if not bad and vals.kinematic then  -- infinite mass: not fixed, no mass or inertia, not dem
      if fixed_src == "true" then bad = "fixed and kinematic"
      elseif vals.mass_given or vals.inertia_given then bad = "kinematic with a mass"
      elseif wd.strategy == "dem" and wd.known ~= false then bad = "kinematic under dem" end
    end
  end
  -- the mass properties the body gets must be finite and nonzero (kinematic: infinite anyway)
  if not bad and fixed_src == "false" and info.logvol and not vals.kinematic then
    local lm
    if vals.mass_given then lm = finite(vals.mass) and vals.mass > 0 and log10(vals.mass) or nil
    else
      local d = vals.density_given and vals.density or 1
      if vals.material_given then d = 1000 end
      lm = finite(d) and d > 0 and (log10(d) + info.logvol) or nil
    end
    if lm and not (vals.mass_given and vals.inertia_given) then
      bad = volume_verdict(lm, "mass")
        or volume_verdict(info.logsize and (lm + 2 * info.logsize - 1), "moment of inertia")
    end
  end
  local name = c:fresh("b")
  c:emit(string.format("%s = %s:add_body(%s)", name, wd.name, src), "World:add_body", bad, true)
  c.bodies[#c.bodies + 1] = { name = name, world = wd.name, dim = dim }
end

-- ---- the API entries ---------------------------------------------------------------------
-- Each entry: { name, weight, dims (nil: any, or {[2] = true} ...), gen = function(c, wd) }
-- gen emits one or more calls through c:emit(src, entry, bad, check).

local ENTRIES = {}
M.ENTRIES = ENTRIES
local function entry(name, weight, dims, gen)
  ENTRIES[#ENTRIES + 1] = { name = name, weight = weight, dims = dims, gen = gen }
end
local D2, D3 = { [2] = true }, { [3] = true }

local function sbody(c, wd) return c:body(wd.name) end

-- stepping (weights are high: every case interleaves steps)
--- a step count: 0 to 3, or a value World:step must refuse (it takes integers >= 0 only)
local function step_count(c)
  if c.r:chance(0.93) then return tostring(c.r:int(4) - 1), nil end
  return c.r:pick({ "-1", "1.5", "2.0", '"1"', "0/0", "{}", "math.mininteger" }), "not an integer >= 0"
end
entry("World:step", 14, nil, function(c, wd)
  local n, bad = step_count(c)
  if c.r:chance(0.3) then c:emit(wd.name .. ":step()", "World:step", nil, true)
  else c:emit(string.format("%s:step(%s)", wd.name, n), "World:step", bad, true) end
end)
entry("World:run", 3, nil, function(c, wd)
  local r = c.r
  local which = r:int(3)
  local spec = { { "every", num("nonneg", 0, 0.05), 0.4 },
    { "fn", function(cc) return cc.r:pick({ "function() end", "function(x) x:energy() end",
      "function(x) x:close() end", "function(x) pcall(x.step, x) end", "1" }) end, 0.3 } }
  -- a run of a legal but huge length asks for up to 2^53 steps (World:run refuses more) when dt
  -- is huge too (dt = 2^53, duration = 1e30: 1e14 steps), work asked for, not a hang: huge
  -- lengths are 1e300, beyond 2^53 steps of any dt the fuzzer makes but 1e300 (then one step)
  local function length(kind, lo, hi)
    return function(cc)
      local src, bad, v = cc:num(kind, lo, hi)
      if type(v) == "number" and v > 1e6 and v < math.huge then src = "1e300" end
      return src, bad
    end
  end
  if which == 1 then spec[#spec + 1] = { "steps", step_count, 1 }
  elseif which == 2 then spec[#spec + 1] = { "duration", length("nonneg", 0, 0.05), 1 }
  else spec[#spec + 1] = { "until_time", length("any", 0, 0.1), 1 } end
  local src, bad = c:opts(spec)
  if src:find("fn = 1") then bad = bad or "fn: not a function" end
  c:emit(string.format("%s:run(%s)", wd.name, src), "World:run", bad, true)
end)
entry("World:add_body", 10, nil, function(c, wd) add_body(c, wd) end)
entry("impact.shape2d.*", 5, D2, function(c) new_shape2d(c) end)
entry("impact.shape3d.*", 5, D3, function(c) new_shape3d(c) end)
entry("World:remove_body", 1, nil, function(c, wd)
  local b, bad = sbody(c, wd)
  c:emit(string.format("%s:remove_body(%s)", wd.name, b), "World:remove_body", bad)
end)
entry("World:close", 0.4, nil, function(c, wd) c:emit(wd.name .. ":close()", "World:close") end)
entry("collectgarbage", 0.6, nil, function(c, wd)
  local r = c.r
  if r:chance(0.3) then c:emit(wd.name .. " = nil collectgarbage()", "collectgarbage (a dropped world)")
  else c:emit("collectgarbage()", "collectgarbage") end
end)
entry("World queries", 4, nil, function(c, wd)
  local q = c.r:pick({ "bodies()", "energy()", "momentum()", "angular_momentum()", "stats()",
    "state_hash()", "random()", "contacts()", "body(\"ball\")", "_events()" })
  c:emit(string.format("_ = %s:%s", wd.name, q), "World:" .. q:match("^[%w_]+"))
end)
entry("World properties", 3, nil, function(c, wd)
  local k = c.r:pick({ "time", "dt", "gravity", "dim", "strategy", "integrator", "steps", "background",
    "damping", "gravitation", "seed", "engines", "nothing" })
  local form = c.r:int(3)
  if form == 1 then c:emit(string.format("_ = #%s", wd.name), "#World")
  elseif form == 2 then c:emit(string.format("_ = tostring(%s)", wd.name), "tostring(World)")
  else c:emit(string.format("_ = %s.%s", wd.name, k), "World." .. k) end
end)
entry("World property set", 3, nil, function(c, wd)
  local r = c.r
  local dim = wd.dim
  local k = r:int(8)
  local src, bad, key
  if k == 1 then key = "dt" src, bad = c:num("pos", 1e-3, 0.05)
  elseif k == 2 then key = "gravity" src, bad = c:vec(dim, "any", -20, 20)
  elseif k == 3 then key = "integrator" src, bad = integrator(c)
  elseif k == 4 then key = "damping" src, bad = damping(c)
  elseif k == 5 then key = "gravitation" src, bad = c:opts({ { "G", num("any", 0, 1), 0.8 },
      { "softening", num("nonneg", 0, 0.1), 0.5 } })
  elseif k == 6 then key = "strategy" src = string.format("%q", r:pick(STRATEGIES[dim]))
  elseif k == 7 then key = r:pick({ "time", "steps", "dim", "bogus" }) src = "1" bad = "not settable"
  else key = "gravity" src = c:evil(dim) end
  c:emit(string.format("%s.%s = %s", wd.name, key, src), "World." .. key .. " =",
      bad and (key .. ": " .. bad), true)
  if key == "strategy" then wd.known = false end  -- (as the World.strategy = entry)
end)
entry("Body property get", 3, nil, function(c, wd)
  local b = sbody(c, wd)
  local k = c.r:pick({ "position", "velocity", "angle", "spin", "orientation", "angular_velocity", "mass",
    "inertia", "world_inertia", "shape", "fixed", "name", "data", "id", "world", "is_background", "nothing" })
  if c.xr:chance(0.15) then k = c.xr:pick({ "kinematic", "filter", "motion" }) end
  local form = c.r:int(4)
  if form == 1 then c:emit(string.format("_ = tostring(%s)", b), "tostring(Body)")
  else c:emit(string.format("_ = %s.%s", b, k), "Body." .. k) end
end)
entry("Body property set", 4, nil, function(c, wd)
  local r = c.r
  local b, bb = sbody(c, wd)
  if bb then return c:emit(string.format("%s.position = {0, 0%s}", b, wd.dim == 3 and ", 0" or ""),
    "Body.position =") end
  local dim = wd.dim
  local key, src, bad
  local k = r:int(8)
  if k == 1 then key = "position" src, bad = c:vec(dim, "any", -2, 2)
  elseif k == 2 then key = "velocity" src, bad = c:vec(dim, "any", -3, 3)
  elseif k == 3 and dim == 2 then key = "angle" src, bad = c:num("any", -3, 3)
  elseif k == 3 then key = "orientation" src, bad = c:vec(4, "any", -1, 1)
    if src == "{0, 0, 0, 0}" then bad = "zero quaternion" end
  elseif k == 4 and dim == 2 then key = "spin" src, bad = c:num("any", -5, 5)
  elseif k == 4 then key = "angular_velocity" src, bad = c:vec(3, "any", -5, 5)
  elseif k == 5 then key = "name" src = c:string()
    if r:chance(0.2) then src, bad = "1", "wrong type" end
  elseif k == 6 then key = "data" src = "{}"
  elseif k == 7 then key = r:pick({ "mass", "fixed", "id", "shape", "bogus" }) src = "1" bad = "not settable"
  else key = "position" src = c:evil(dim) end
  if c.xr:chance(0.1) then key = "filter" src, bad = filter_src(c) end
  c:emit(string.format("%s.%s = %s", b, key, src), "Body." .. key .. " =", bad and (key .. ": " .. bad), true)
end)
entry("Body methods", 5, nil, function(c, wd)
  local r = c.r
  local b = sbody(c, wd)
  local dim = wd.dim
  local m = r:pick({ "apply_force", "apply_torque", "apply_impulse", "kinetic_energy", "translational_energy",
    "rotational_energy", "momentum", "angular_momentum", "to_world", "to_body", "point_velocity", "is_valid",
    "members" })
  local args, bad = "", nil
  if c.xr:chance(0.15) then  -- collision filters: the second stream
    m = c.xr:pick({ "no_collide", "collide_with", "should_collide", "set_filter" })
    if m == "set_filter" then
      args, bad = filter_src(c)
    else
      local o, why = on_xr(c, C.body, wd.name)
      args, bad = o, why or (o == b and "the body itself" or nil)
      if m == "no_collide" and c.xr:chance(0.4) then  -- an edge range of the other (2D)
        local opt, why2 = edges_src(c, dim)
        args, bad = args .. ", " .. opt, bad or why2
      end
    end
    return c:emit(string.format("_ = %s:%s(%s)", b, m, args), "Body:" .. m, bad and (m .. ": " .. bad), true)
  end
  if m == "apply_force" or m == "apply_impulse" then
    local f, b1 = c:vec(dim, "any", -10, 10)
    args, bad = f, b1
    if r:chance(0.5) then
      local at, b2 = c:vec(dim, "any", -1, 1)
      args, bad = args .. ", " .. at, bad or b2
    end
  elseif m == "apply_torque" then
    if dim == 2 then args, bad = c:num("any", -5, 5) else args, bad = c:vec(3, "any", -5, 5) end
  elseif m == "to_world" or m == "to_body" or m == "point_velocity" then
    args, bad = c:vec(dim, "any", -1, 1)
  end
  c:emit(string.format("_ = %s:%s(%s)", b, m, args), "Body:" .. m, bad and (m .. ": " .. bad), true)
end)
entry("World:add_spring", 2, nil, function(c, wd)
  local b1, x1 = sbody(c, wd)
  local b2, x2 = c:body(wd.name)
  local dim = wd.dim
  local src, bad = c:opts({ { "body1", lit(b1), 1 }, { "body2", lit(b2), 1 },
    { "point1", vec(dim, "any", -0.5, 0.5), 0.5 }, { "point2", vec(dim, "any", -0.5, 0.5), 0.5 },
    { "rest_length", num("nonneg", 0, 2), 0.7 }, { "stiffness", num("nonneg", 0, 100), 0.7 },
    { "damping", num("nonneg", 0, 1), 0.4 } })
  local name = c:fresh("sp")
  c:emit(string.format("%s = %s:add_spring(%s)", name, wd.name, src), "World:add_spring",
    first(x1 and "body1: not a body", x2 and "body2: not a body", bad))
  c.springs[#c.springs + 1] = name
end)
entry("Spring", 1.5, nil, function(c, wd)
  if #c.springs == 0 then return end
  local r = c.r
  local sp = r:pick(c.springs)
  local k = r:int(4)
  if k == 1 then c:emit(string.format("%s:remove_spring(%s)", wd.name, sp), "World:remove_spring")
  elseif k == 2 then c:emit(string.format("_ = %s.%s", sp, r:pick({ "length", "energy", "rest_length",
    "stiffness", "damping", "body1", "point2" })), "Spring property get")
  else
    local key = r:pick({ "rest_length", "stiffness", "damping" })
    local v, bad = c:num("nonneg", 0, 10)
    c:emit(string.format("%s.%s = %s", sp, key, v), "Spring." .. key .. " =",
        bad and (key .. ": " .. bad), true)
  end
end)
-- a load's force or torque: a function in place of the value is legal (one of time)
local function or_function(gen)
  return function(c)
    local s, b, v = gen(c)
    if s == "print" then b = nil end  -- the whole value, not an element of it
    return s, b, v
  end
end
entry("World:add_load", 1.5, nil, function(c, wd)
  local b, x = sbody(c, wd)
  local dim = wd.dim
  local torque = or_function(dim == 2 and num("any", -5, 5) or vec(3, "any", -5, 5))
  local force = or_function(vec(dim, "any", -10, 10))
  if c.xr:chance(0.2) then  -- a function of time (the second stream): its failures fail a step
    local zero = dim == 2 and "{0, 0}" or "{0, 0, 0}"
    force = lit(c.xr:pick({ "function(t) return " .. zero .. " end", "function() error(\"f\") end",
      "function() return 1 end", "function() " .. wd.name .. ":step() end",
      "function(t) return {t, t, t} end", "function() collectgarbage() return " .. zero .. " end" }))
  end
  local src, bad, vals = c:opts({ { "body", lit(b), 1 }, { "force", force, 0.6 },
    { "torque", torque, 0.4 }, { "point", vec(dim, "any", -1, 1), 0.4 },
    { "frame", enum({ "world", "body" }), 0.4 } })
  local none = not vals.force_given and not vals.torque_given and "neither force nor torque"
  local name = c:fresh("ld")
  c:emit(string.format("%s = %s:add_load(%s)", name, wd.name, src), "World:add_load",
    first(x and "body: not a body", bad, none))
  c.loads = c.loads or {}
  c.loads[#c.loads + 1] = name
end)
entry("Load", 1, nil, function(c, wd)
  if c.loads == nil or #c.loads == 0 then
    return c:emit(string.format("_ = %s:loads()", wd.name), "World:loads")
  end
  local r = c.r
  local ld = r:pick(c.loads)
  local k = r:int(4)
  if k == 1 then c:emit(string.format("%s:remove_load(%s)", wd.name, ld), "World:remove_load")
  elseif k == 2 then c:emit(string.format("_ = %s.%s", ld, r:pick({ "force", "torque", "point",
    "frame", "body" })), "Load property get")
  else
    local key = r:pick({ "force", "point", "frame", "torque", "size" })
    local v, bad
    if key == "frame" then v, bad = c:enum({ "world", "body" })
    elseif key == "torque" and wd.dim == 2 then v, bad = or_function(num("any", -5, 5))(c)
    elseif key == "torque" then v, bad = or_function(vec(3, "any", -5, 5))(c)
    elseif key == "size" then v, bad = "1", "not settable"
    elseif key == "force" then v, bad = or_function(vec(wd.dim, "any", -5, 5))(c)
    else v, bad = c:vec(wd.dim, "any", -5, 5) end
    c:emit(string.format("%s.%s = %s", ld, key, v), "Load." .. key .. " =",
      bad and (key .. ": " .. bad), true)
  end
end)
entry("World:on", 2, nil, function(c, wd)
  local r = c.r
  local ev, bad = c:enum({ "step", "contact_begin", "contact_end", "collision" })
  local body = #c.bodies > 0 and r:pick(c.bodies).name or "nil"
  local fn = r:pick({ "function() end", "function(e) _ = e.body1 end",
      "function() " .. wd.name .. ":close() end",
    "function() " .. wd.name .. ":step() end", "function() error(\"handler\") end",
    "function() " .. wd.name .. ":remove_body(" .. body .. ") end", "function() collectgarbage() end",
    "function(e) " .. wd.name .. ":off(\"step\", e) end" })
  if r:chance(0.05) then fn, bad = "1", bad or "not a function" end
  local h = c:fresh("h")
  c:emit(string.format("%s = %s:on(%s, %s)", h, wd.name, ev, fn), "World:on", bad)
  c.handlers[#c.handlers + 1] = { h = h, ev = ev }
end)
entry("World:off", 0.5, nil, function(c, wd)
  if #c.handlers == 0 then return end
  local h = c.r:pick(c.handlers)
  c:emit(string.format("_ = %s:off(%s, %s)", wd.name, h.ev, h.h), "World:off")
end)
entry("World:distance", 1.5, nil, function(c, wd)
  local a, x1 = sbody(c, wd)
  local b, x2 = sbody(c, wd)
  c:emit(string.format("_ = %s:distance(%s, %s)", wd.name, a, b), "World:distance",
    (x1 or x2) and "argument: not a body")
end)
-- 2D engine connectors
local function connector_opts(c, wd, extra)
  local b1, x1 = sbody(c, wd)
  local b2, x2 = c:body(wd.name)
  if c.r:chance(0.3) then b2, x2 = wd.name .. ".background", nil end
  local spec = { { "body1", lit(b1), 1 }, { "body2", lit(b2), 1 }, { "point1", vec(2, "any", -0.5, 0.5),
      0.8 },
    { "point2", vec(2, "any", -1, 3), 0.8 } }
  for _, e in ipairs(extra) do spec[#spec + 1] = e end
  local src, bad = c:opts(spec)
  return src, first(x1 and "body1: not a body", x2 and "body2: not a body", bad)
end
entry("World:add_joint", 1.5, D2, function(c, wd)
  local pin = true  -- normal absent or "both": a pin, which alone takes frame = "body"
  local src, bad = connector_opts(c, wd, { { "normal", function(cc)
    if cc.r:chance(0.6) then
      local v, b = cc:enum({ "both", "x", "y" })
      pin = v == '"both"'
      return v, b
    end
    local v, b = cc:vec(2, "any", -1, 1)
    if v == "{0, 0}" then b = "zero normal" end
    if v == '"x"' then b = nil end  -- a vector's wrong type that is a legal name here
    pin = false
    return v, b end, 0.7 },
    { "frame", function(cc)
      local v, b = cc:enum({ "world", "body" })
      if v == '"body"' and not pin then b = "a body frame for a joint that is not a pin" end
      return v, b end, 0.3 } })
  local j = c:fresh("j")
  c:emit(string.format("%s = %s:add_joint(%s)", j, wd.name, src), "World:add_joint", bad)
  c.joints[#c.joints + 1] = j
end)
entry("World:add_rope", 1, D2, function(c, wd)
  local src, bad = connector_opts(c, wd, { { "length", num("nonneg", 0, 3), 0.8 }, { "rod", bool(), 0.5 } })
  local j = c:fresh("j")
  c:emit(string.format("%s = %s:add_rope(%s)", j, wd.name, src), "World:add_rope", bad)
  c.joints[#c.joints + 1] = j
end)
-- a path joint's path option (draws from the second stream), or one to refuse
local function path_src(c)
  local r = c.xr
  local k = r:int(10)
  if k == 1 then return "{points = {{0, 0}, {1, 0}}}", "fewer than 3 points" end
  if k == 2 then return "{points = {{0, 0}, {1, 0}, {1, 0}}}", "two equal consecutive points" end
  if k == 3 then return "{fn = function(t) return t end, range = {0, 1}}", "fn returns one number" end
  if k == 4 then return "{fn = function(t) return t, t end, range = {1, 0}}", "range reversed" end
  if k == 5 then return "{points = {{0, 0}, {1, 0}, {0/0, 1}}}", "a point not finite" end
  if k == 6 then return "{}", "neither points nor fn" end
  if k <= 8 then
    return string.format("{fn = function(t) return %d * math.cos(t), %d * math.sin(t) end, range = {0, "
      .. "2 * math.pi}, samples = %d, closed = true}", r:int(4), r:int(4), 3 + r:int(300))
  end
  return string.format("{points = {{-3, %d}, {0, 0}, {3, %d}, {4, 1}}}", r:int(5) - 3, r:int(5) - 1)
end
entry("World:add_path_joint", 0.6, D2, function(c, wd)
  local b, x1 = on_xr(c, C.body, wd.name)
  local src, bad = path_src(c)
  local j = c:fresh("j")
  c:emit(string.format("%s = %s:add_path_joint{body1 = %s, point1 = {0, %d}, path = %s}", j, wd.name, b,
    c.xr:int(3) - 2, src), "World:add_path_joint", x1 and "body1: not a body" or bad)
  if not bad and c.xr:chance(0.5) then
    local lim = c.xr:chance(0.5) and string.format("limit = %d", c.xr:int(9) - 3)
      or string.format("at = {%d, %d}", c.xr:int(5) - 3, c.xr:int(5) - 3)
    c:emit(string.format("_ = %s:add_path_end{body1 = %s, joint = %s, %s, upper = %s}", wd.name, b, j, lim,
      c.xr:chance(0.5) and "true" or "false"), "World:add_path_end", nil)
  end
  c.joints[#c.joints + 1] = j
end)
entry("World:set_pair", 1, nil, function(c, wd)
  local a, x1 = sbody(c, wd)
  local b, x2 = sbody(c, wd)
  local src, bad = c:opts({ { "body1", lit(a), 1 }, { "body2", lit(b), 1 },
    { "friction", num("nonneg", 0, 1), 0.6 }, { "elasticity", num("nonneg", 0, 1), 0.6 } })
  -- (a world whose strategy is neither impulse nor contact refuses it too: the world's actual
  -- strategy may differ from wd.strategy, so that refusal is not predicted here)
  c:emit(string.format("%s:set_pair(%s)", wd.name, src), "World:set_pair",
    first(x1 and "body1: not a body", x2 and "body2: not a body", bad))
end)
entry("World connectors", 1, D2, function(c, wd)
  if #c.joints == 0 then return end
  local j = c.r:pick(c.joints)
  local m = c.r:pick({ "remove_connector", "connector_error" })
  c:emit(string.format("_ = %s:%s(%s)", wd.name, m, j), "World:" .. m)
end)
-- materials
entry("impact.material", 1, nil, function(c)
  local r = c.r
  if r:chance(0.6) then
    local name = r:pick({ "fz_a", "fz_b", "steel" })
    local src, bad = c:opts({ { "E", num("pos", 1e6, 1e11), 0.9 }, { "nu", num("nu", 0, 0.49), 0.9 },
      { "density", num("pos", 100, 10000), 0.9 } })
    c:emit(string.format("impact.material.define(%q, %s)", name, src), "impact.material.define", bad)
    c.materials[#c.materials + 1] = name
  elseif r:chance(0.7) then
    local a, b = r:pick(c.materials), r:pick(c.materials)
    local src, bad = c:opts({ { "cor", num("unit", 0, 1), 0.9 }, { "mu_k", num("nonneg", 0, 1), 0.6 },
      { "mu_r", num("nonneg", 0, 0.1), 0.4 }, { "vsmall", num("pos", 1e-3, 0.1), 0.3 },
      { "wsmall", num("pos", 1e-3, 0.1), 0.3 } })
    c:emit(string.format("impact.contact_pair.define(%q, %q, %s)", a, b, src),
        "impact.contact_pair.define", bad)
  else
    c:emit(string.format("_ = impact.material.get(%q) _ = impact.material.names() "
      .. "_ = impact.contact_pair.get(%q, %q)", r:pick(c.materials), r:pick(c.materials),
          r:pick(c.materials)),
      "impact.material.get")
  end
end)
-- shapes: methods and queries
entry("Shape methods", 3, nil, function(c, wd)
  local r = c.r
  local dim = wd.dim
  local s = c:shape(dim)
  local m = r:int(6)
  if m == 1 then c:emit(string.format("_ = %s:%s()", s, dim == 2 and "area" or "volume"), "Shape:volume")
  elseif m == 2 then c:emit(string.format("_ = %s:centroid() _ = %s:bounding_radius() _ = %s.kind", s, s, s),
    "Shape:centroid")
  elseif m == 3 then
    local d, bad = c:num("pos", 1, 1000)
    c:emit(string.format("_ = %s:%s(%s)", s, r:pick({ "mass", "inertia" }), d), "Shape:inertia",
      bad and ("density: " .. bad))
  elseif m == 4 then
    local p, bad = c:pose(dim)
    c:emit(string.format("_ = %s:bounds(%s)", s, p), "Shape:bounds", bad)
  elseif m == 5 then
    local s2 = c:shape(dim)
    local p1, b1 = c:pose(dim)
    local p2, b2 = c:pose(dim)
    c:emit(string.format("_ = impact.shape%dd.distance(%s, %s, %s, %s)", dim, s, p1, s2, p2),
      "impact.shape" .. dim .. "d.distance", first(b1, b2))
  elseif dim == 2 then
    local p, bad = c:vec(2, "any", -1, 1)
    local f = r:pick({ "contains(%s, %s)", "to_world(%s, {position = {0, 0}, angle = 0}, %s)",
      "to_body(%s, {position = {1, 0}, angle = 1}, %s)", "edge_distance(%s, 1, %s)", "edges(%s) _ = %s",
      "vertices(%s, {decorated = true}) _ = %s" })
    c:emit(string.format("_ = impact.shape2d." .. f, s, p), "impact.shape2d." .. f:match("^[%w_]+"),
      (not f:find("^edges") and not f:find("^vertices")) and bad or nil)
  else
    local s2 = c:shape(3)
    local p1, b1 = c:pose(3)
    local f = r:int(3)
    if f == 1 then c:emit(string.format("_ = impact.shape3d.parameters(%s)", s), "impact.shape3d.parameters")
    elseif f == 2 then c:emit(string.format("_ = impact.shape3d.faces(%s)", s), "impact.shape3d.faces")
    else
      local eps, b2 = c:opts({ { "epsilon", num("nonneg", 0, 1e-3), 0.5 } })
      c:emit(string.format("_ = impact.shape3d.intersection(%s, %s, %s, {position = {0.5, 0.2, 0.1}}, %s)",
        s, p1, s2, eps), "impact.shape3d.intersection", first(b1, b2))
    end
  end
end)
entry("impact.shape2d.detect", 0.5, D2, function(c)
  local s = c:shape(2)
  local v, bad = c:vec(2, "any", -2, 2)
  c:emit(string.format("_ = impact.shape2d.detect({shape = %s, position = {0, 0}, angle = 0, id = 1, "
    .. "velocity = %s, spin = 0, previous = {position = {0, 0.1}, angle = 0}}, "
    .. "{shape = %s, position = {0, 0.9}, "
    .. "angle = 0, id = 2}, {distance_tol = 0.01})", s, v, c:shape(2)), "impact.shape2d.detect", bad)
end)
entry("impact.shape3d.sparsify", 0.5, D3, function(c)
  local p, bad = c:vec(3, "any", -1, 1)
  local a, b2 = c:num("nonneg", 0, 1)
  c:emit(string.format("_ = impact.shape3d.sparsify({{point = %s, area = %s, bodies = {0, 1}, "
    .. "objects = {0, 0}, "
    .. "new = true}, {point = {0, 0, 0}, area = 1, bodies = {0, 1}, objects = {1, 1}, new = true}}, "
    .. "{threshold = 0.01})", p, a), "impact.shape3d.sparsify", first(bad, b2))
end)
entry("World polyhedra", 1, D3, function(c, wd)
  local a, x1 = sbody(c, wd)
  local b, x2 = sbody(c, wd)
  if c.r:chance(0.5) then
    c:emit(string.format("_ = %s:intersection(%s, %s)", wd.name, a, b), "World:intersection",
      (x1 or x2) and "argument: not a body")
  else c:emit(string.format("_ = %s:polyhedral_contacts()", wd.name), "World:polyhedral_contacts") end
end)
-- the LCP solver
entry("impact.lcp.solve", 2, nil, function(c)
  local r = c.r
  local n = r:int(5) - 1
  local rows, bad = {}, nil
  for i = 1, n do
    local cols = {}
    for j = 1, n do
      local v = (i == j) and r:range(1, 3) or r:range(-0.5, 0.5)
      local s = numsrc(math.floor(v * 100 + 0.5) / 100)
      if r:chance(0.03) then
        local sp = r:pick(specials)
        s = sp[1]
        bad = bad or (verdict("any", sp[2], sp[3]) and ("A: " .. verdict("any", sp[2], sp[3])))
      end
      cols[j] = s
    end
    if r:chance(0.02) then cols[#cols + 1] = "1" bad = bad or "A: not square" end
    rows[i] = "{" .. table.concat(cols, ", ") .. "}"
  end
  local b, b2 = c:vec(n, "any", -2, 2)
  local opts, b3 = c:opts({ { "method", enum({ "auto", "symmetric", "general", "lemke", "box" }), 0.3 },
    { "order", enum({ "greedy", "index" }), 0.2 }, { "tolerance", num("pos", 1e-12, 1e-6), 0.2 },
    { "pivot_tolerance", num("pos", 1e-14, 1e-8), 0.1 }, { "max_pivots", int(0, 1000000000, 1, 1000), 0.2 },
    { "mu", function(cc)  -- a number, or a table {[row] = mu} (the empty one sets none)
        local src, why = cc:num("nonneg", 0, 1)
        if src == "{}" then why = nil end
        return src, why
      end, n >= 2 and 0.3 or 0 },
    { "friction", lit("{[2] = 1}"), n >= 2 and 0.3 or 0 },
    { "bilateral", function(cc) local t = {}
        for i = 1, n do t[i] = cc.r:chance(0.3) and "true" or "false" end
        return "{" .. table.concat(t, ", ") .. "}" end, 0.2 } })
  c:emit(string.format("_ = impact.lcp.solve({%s}, %s, %s)", table.concat(rows, ", "), b, opts),
    "impact.lcp.solve", first(bad, b2 and ("b: " .. b2), b3))
end)
entry("impact.lcp.cone", 0.4, nil, function(c)
  local k, bad = c:int(2, 64, 2, 16)
  c:emit(string.format("_ = impact.lcp.cone(%s, {inscribed = %s})", k, c:bool()), "impact.lcp.cone",
    bad and ("k: " .. bad))
end)
-- recorder and snapshots
entry("impact.recorder", 1, nil, function(c, wd)
  local r = c.r
  if #c.recorders > 0 and r:chance(0.6) then
    local rec = r:pick(c.recorders)
    local m = r:pick({ "sample()", "stop()", "series(\"t\")", "rows()", "count()", "columns()",
      string.format("write_csv(%q)", c:file("csv")) })
    c:emit(string.format("_ = %s:%s", rec, m), "Recorder:" .. m:match("^[%w_]+"))
    if m:find("write_csv") then
      c:emit(string.format("_ = impact.recorder.read_csv(%q)", c.files[#c.files]), "impact.recorder.read_csv")
    end
    return
  end
  local b = #c.bodies > 0 and r:pick(c.bodies).name or "nil"
  local every, bad = c:num("nonneg", 0, 0.05)
  local rec = c:fresh("r")
  c:emit(string.format("%s = impact.recorder{%s, every = %s, columns = {t = \"time\", e = \"energy.total\", "
    .. "x = {%s, \"position\", 1}, f = function(x) return x.time end}}", rec, wd.name, every, b),
    "impact.recorder", bad and ("every: " .. bad))
  c.recorders[#c.recorders + 1] = rec
end)
entry("impact.snapshot", 0.5, nil, function(c, wd)
  c:emit(string.format("_ = require(\"impact.snapshot\").bounds(require(\"impact.snapshot\").take(%s))",
      wd.name),
    "impact.snapshot.take")
end)
-- strategies
entry("World.strategy =", 0.6, nil, function(c, wd)
  c:emit(string.format("%s.strategy = %q", wd.name, c.r:pick(STRATEGIES[wd.dim])), "World.strategy =",
      nil, true)
  wd.known = false  -- (the draws still follow wd.strategy, so the cases stay as they were)
end)
-- dem
local function engine_list(c)
  local r = c.r
  local parts, bad = {}, nil
  local function add(src, b)
    parts[#parts + 1] = src
    bad = bad or b
  end
  add("impact.dem.force_resetter()")
  local o, b = c:opts({ { "verlet_distance", num("any", -0.5, 0.05), 0.6 },
    { "interaction_radius", num("ge1", 1, 1.5), 0.2 } })
  add("impact.dem.collider(" .. o .. ")", b and ("collider: " .. b))
  local law = r:chance(0.7) and "cundall_strack" or "hertz_mindlin"
  local phys
  if law == "cundall_strack" then
    phys, b = c:opts({ { "young", num("nonneg", 1e5, 1e9), 0.6 }, { "ks_ratio", num("nonneg", 0, 1), 0.4 },
      { "friction_angle", num("angle", 0, 1.5), 0.4 } })
    phys = "impact.dem.frict(" .. phys .. ")"
  else
    phys, b = c:opts({ { "young", num("nonneg", 1e5, 1e9), 0.6 }, { "poisson", num("poisson", 0, 0.5), 0.4 },
      { "en", num("unit", 0.1, 1), 0.4 }, { "friction_angle", num("angle", 0, 1.5), 0.4 } })
    phys = "impact.dem.mindlin(" .. phys .. ")"
  end
  add(string.format("impact.dem.interaction_loop{geometry = {\"sphere_sphere\", \"wall_sphere\", "
    .. "\"facet_sphere\"}, physics = {%s}, law = {%q}, never_erase = %s}", phys, law,
    r:chance(0.2) and "true" or "false"), b and ("physics: " .. b))
  o, b = c:opts({ { "damping", num("halfopen", 0, 0.5), 0.7 }, { "track_energy", bool(), 0.3 } })
  add("impact.dem.newton(" .. o .. ")", b and ("newton: " .. b))
  if r:chance(0.3) then
    add(string.format("impact.dem.every{iterations = %d, fn = function(x) %s end, label = \"ev\"}", r:int(3),
      r:pick({ "x:pause()", "_ = x:unbalanced_force()", "x:close()", "x.dt = 1e-5", "collectgarbage()" })))
  end
  if r:chance(0.15) then add("function(x) _ = x:dem_stats() end") end
  if r:chance(0.1) then
    add(string.format("impact.dem.lua_engine{fn = function(x) %s end, label = %s}",
      r:pick({ "_ = x:dem_energy()", "x:close()", "x.engines = nil" }), r:pick({ '"le"', "1", "nil" })))
  end
  return "{" .. table.concat(parts, ", ") .. "}", bad
end
entry("World.engines =", 1.5, D3, function(c, wd)
  local list, bad = engine_list(c)
  if c.r:chance(0.3) then c:emit(string.format("_ = %s:set_engines(%s)", wd.name, list),
      "World:set_engines", bad)
  elseif c.r:chance(0.1) then c:emit(wd.name .. ".engines = nil", "World.engines =")
  else c:emit(string.format("%s.engines = %s", wd.name, list), "World.engines =", bad) end
end)
entry("impact.dem.add_facet", 1, D3, function(c, wd)
  local r = c.r
  if r:chance(0.5) then
    local lo, b1 = c:vec(3, "any", -1, 0)
    local hi, b2 = c:vec(3, "any", 0, 1)
    if r:chance(0.2) then lo, hi, b1, b2 = "{0, 0, 0}", "{1, 1, 1}", nil, nil end
    if r:chance(0.1) then lo, hi = "{1, 1, 1}", "{1, 1, 1}" end
    c:emit(string.format("_ = impact.dem.add_facet_box(%s, {lo = %s, hi = %s, open_top = %s})", wd.name,
        lo, hi,
      c:bool()), "impact.dem.add_facet_box", first(b1, b2))
  else
    local p, bad = c:vec(3, "any", -1, 1)
    local name = c:fresh("b")
    c:emit(string.format("%s = impact.dem.add_facet(%s, {vertices = {{-1, -1, 0}, {1, -1, 0}, %s}})", name,
      wd.name, p), "impact.dem.add_facet", bad)
    c.bodies[#c.bodies + 1] = { name = name, world = wd.name, dim = 3 }
  end
end)
entry("World:add_clump", 1, D3, function(c, wd)
  local r1, b1 = c:num("pos", 0.05, 0.3)
  local cx, b2 = c:vec(3, "any", -0.3, 0.3)
  local opts, b3 = c:opts({ { "density", num("pos", 100, 5000), 0.5 }, { "velocity", vec(3, "any", -1,
      1), 0.3 },
    { "angular_velocity", vec(3, "any", -3, 3), 0.3 } }, false, true)
  opts = opts:sub(2, -2)
  local name = c:fresh("b")
  c:emit(string.format("%s = %s:add_clump{spheres = {{center = {0, 0, 0.5}, radius = 0.1}, {center = %s, "
    .. "radius = %s}}%s}", name, wd.name, cx, r1, opts ~= "" and (", " .. opts) or ""), "World:add_clump",
    first(b1 and ("radius: " .. b1), b2 and ("center: " .. b2), b3))
  c.bodies[#c.bodies + 1] = { name = name, world = wd.name, dim = 3 }
end)
entry("dem queries", 1.5, D3, function(c, wd)
  local r = c.r
  local q = r:pick({ "interactions()", "interactions{all = true}", "p_wave_dt()", "unbalanced_force()",
    "dem_energy()", "dem_stats()", "engine(\"ev\")", "pause()" })
  if r:chance(0.15) then
    local a, b = sbody(c, wd), sbody(c, wd)
    q = string.format("erase_interaction(%s, %s)", a, b)
  end
  c:emit(string.format("_ = %s:%s", wd.name, q), "World:" .. q:match("^[%w_]+"))
end)
entry("impact.dem.save/load", 2, D3, function(c, wd)
  local r = c.r
  local path = #c.files > 0 and r:chance(0.5) and c.files[#c.files] or c:file("lua")
  c:emit(string.format("impact.dem.save(%s, %q)", wd.name, path), "impact.dem.save")
  if r:chance(0.6) then
    local mode = r:pick({ "truncate", "flip", "loop", "garbage", "nan", "huge", "empty", "swap", "deep" })
    c:emit(string.format("F.damage(%q, %q, %d)", path, mode, r:int(1000)), "F.damage")
  end
  local name = "w" .. (#c.worlds + 1)
  c:emit(string.format("%s = impact.dem.load(%q%s)", name, path,
    r:chance(0.2) and ", {functions = {ev = function() end}}" or ""), "impact.dem.load", nil, true)
  c.worlds[#c.worlds + 1] = { name = name, dim = 3, strategy = "dem" }
end)
entry("impact.dem.default_engines", 0.3, D3, function(c, wd)
  local o, bad = c:opts({ { "damping", num("halfopen", 0, 0.5), 0.5 }, { "young", num("nonneg", 1e5,
      1e9), 0.5 } })
  c:emit(string.format("%s.engines = impact.dem.default_engines(%s)", wd.name, o),
      "impact.dem.default_engines",
    bad)
end)
entry("world (another one)", 0.3, nil, function(c, wd)
  local name = "w" .. (#c.worlds + 1)
  new_world(c, name, wd.dim, c.r:pick(STRATEGIES[wd.dim]))
end)

M.STRATEGIES = STRATEGIES

-- ---- cases -------------------------------------------------------------------------------

local total_weight = {}
for _, e in ipairs(ENTRIES) do
  for d = 2, 3 do
    if e.dims == nil or e.dims[d] then total_weight[d] = (total_weight[d] or 0) + e.weight end
  end
end

local function pick_entry(c, dim)
  local x = c.r:float() * total_weight[dim]
  for _, e in ipairs(ENTRIES) do
    if e.dims == nil or e.dims[dim] then
      x = x - e.weight
      if x < 0 then return e end
    end
  end
  return ENTRIES[1]
end

--- The calls of case `index` of seed `seed`: about `ncalls` calls (a world, a few bodies, then
--- entries drawn by weight, steps among them).
function M.case(seed, index, ncalls)
  local c = new_context(seed, index)
  local r = c.r
  local dim = r:chance(0.5) and 2 or 3
  c.dim = dim
  local strategy = r:pick(STRATEGIES[dim])
  new_world(c, "w", dim, strategy)
  -- a scene to step: a few bodies (a fixed floor, some falling) before the random calls
  local wd = c.worlds[1]
  for _ = 1, r:int(3) do
    if dim == 2 then new_shape2d(c) elseif strategy ~= "dem" then new_shape3d(c) end
    add_body(c, wd)
  end
  local guard = 0
  while #c.calls < ncalls and guard < 10 * ncalls do
    guard = guard + 1
    pick_entry(c, dim).gen(c, c:world())
  end
  while #c.calls > ncalls do table.remove(c.calls) end
  return c.calls, c.files
end

-- ---- reproducers -------------------------------------------------------------------------

--- Helpers the calls may use (F.damage: damages a saved file); also the prelude of reproducers.
M.HELPERS = [[
local F = {}
function F.damage(path, mode, k)  -- damages a saved file in one of several ways
  local f = io.open(path, "rb")
  local s = ""
  if f then
    s = f:read("a")
    f:close()
  end
  local n = #s
  if mode == "truncate" then s = s:sub(1, k % (n + 1))
  elseif mode == "flip" then
    local i = k % math.max(n, 1) + 1
    s = s:sub(1, i - 1) .. string.char((s:byte(i) or 0) ~ (1 << (k % 7))) .. s:sub(i + 1)
  elseif mode == "loop" then s = "while true do end"
  elseif mode == "garbage" then
    s = 'return {format = "impact.dem 1", state = {particles = {{kind = 7}}, gravity = {0, 0, -1}, dt = 1}, '
      .. 'names = {}, engines = {}}'
  elseif mode == "nan" then s = s:gsub("0x[%x.]+p[-+]?%d+", "(0/0)", 1 + k % 5)
  elseif mode == "huge" then s = s:gsub("0x[%x.]+p[-+]?%d+", "0x1p1023", 1 + k % 5)
  elseif mode == "empty" then s = ""
  elseif mode == "swap" then s = s:gsub("kind=0", "kind=" .. (k % 5), 1)
  elseif mode == "deep" then s = s:gsub("%d+,", tostring(k * 1000003) .. ",", 1 + k % 3)
  end
  f = io.open(path, "wb")
  f:write(s)
  f:close()
end
]]

--- The source of a runnable reproducer of calls (errored[i]: the call raised; wrapped in pcall).
function M.reproducer(calls, errored, header)
  local out = {}
  if header then out[#out + 1] = header end
  out[#out + 1] = 'local impact = require "impact"'
  local uses_f = false
  for _, call in ipairs(calls) do
    if call.src:find("F%.") then uses_f = true end
  end
  if uses_f then out[#out + 1] = M.HELPERS:gsub("\n$", "") end
  for i, call in ipairs(calls) do
    if errored and errored[i] and i < #calls then out[#out + 1] = "pcall(function() " .. call.src .. " end)"
    else out[#out + 1] = call.src end
  end
  return table.concat(out, "\n") .. "\n"
end

--- The names a call's source mentions (objects and files): for slicing.
function M.tokens(src)
  local set = {}
  for word in src:gmatch("[%a_][%w_]*") do
    if word:match("^w%d*$") or word:match("^[bsjhr]%d+$") or word:match("^sp%d+$") then set[word] = true end
  end
  for file in src:gmatch("impact_fuzz_[%d_]+%.%a+") do set[file] = true end
  if src:find("impact%.material%.define") or src:find("impact%.contact_pair%.define") then set.MAT = true end
  if src:find("material =") then set.MAT = true end
  return set
end

return M
