--- impact.dem_file: reading a scene written by impact.dem.save as data (never as code), and
--- checking every field before impact.dem.load builds a world from it.
---
--- The parser accepts exactly what dem.save writes: `return` and one value, where a value is
--- a table constructor ({v, ..., [k] = v, ...}, keys strings or integers, each once), a
--- string in double quotes (the escapes of %q), an integer, a hexadecimal float (%a), (0/0),
--- math.huge, -math.huge, true or false; white space between tokens. Anything else is an
--- error naming the file, the line and column, what was expected and what was found.
-- @module impact.dem_file
local dem_file = {}

local MAX_DEPTH = 16

local function fail(path, text, pos, msg)
  local line, col = 1, pos
  for nl in text:sub(1, pos - 1):gmatch("()\n") do
    line = line + 1
    col = pos - nl
  end
  error(string.format(path, line, col, msg), 0)
end

-- what stands at pos, for messages
local function found(text, pos)
  if pos > #text then return "the end of the file" end
  local s = text:match("^[%w_%.]+", pos) or text:sub(pos, pos)
  if #s > 20 then s = s:sub(1, 20) .. "..." end
  return string.format("%q", s)
end

local escapes = { ["\\"] = "\\", ['"'] = '"', ["\n"] = "\n", r = "\r", n = "\n", t = "\t" }

--- dem_file.parse(text, path, opts): the value of a scene file's text (raises on anything
--- else). opts (impact.batch's data, written with %.17g) may allow decimal numbers
--- (decimals = true), a bare 0/0 (bare_nan = true) and float keys (float_keys = true), and
--- set the message's start (what: a format with the path, line, column and message); bare =
--- true reads a value alone (no 'return').
function dem_file.parse(text, path, opts)
  opts = opts or {}
  path = string.format(opts.what or "impact.dem.load: %s is not a saved dem scene: line %%d, "
    .. "column %%d: %%s", (path:gsub("%%", "%%%%")))
  local max_depth = opts.max_depth or MAX_DEPTH
  local pos = 1
  local function skip() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local function expect(token, what)
    skip()
    if text:sub(pos, pos + #token - 1) ~= token then
      fail(path, text, pos, string.format("expected %s, got %s", what or ("'" .. token .. "'"),
        found(text, pos)))
    end
    pos = pos + #token
  end

  local function string_literal()
    local start, out = pos, {}
    pos = pos + 1
    while true do
      local a, b = text:find('[\\"\n]', pos)
      if not a then fail(path, text, start, "unfinished string") end
      out[#out + 1] = text:sub(pos, a - 1)
      local c = text:sub(a, b)
      if c == '"' then
        pos = a + 1
        return table.concat(out)
      elseif c == "\n" then
        fail(path, text, start, "unfinished string")
      end
      local e = text:sub(a + 1, a + 1)
      local digits = text:match("^%d%d?%d?", a + 1)
      if digits then
        local code = tonumber(digits)
        if code > 255 then fail(path, text, a, "escape \\" .. digits .. " out of range") end
        out[#out + 1] = string.char(code)
        pos = a + 1 + #digits
      elseif escapes[e] then
        out[#out + 1] = escapes[e]
        pos = a + 2
      else
        fail(path, text, a, "unknown escape in a string: " .. found(text, a))
      end
    end
  end

  local function number_literal()
    local tok = text:match("^%-?0[xX]%x+%.?%x*[pP][%+%-]?%d+", pos)
    if tok == nil and opts.decimals then
      tok = text:match("^%-?%d+%.?%d*[eE][%+%-]?%d+", pos) or text:match("^%-?%d+%.%d+", pos)
    end
    if tok then
      pos = pos + #tok
      return tonumber(tok) + 0.0
    end
    tok = text:match("^%-?%d+", pos)
    if tok and not text:find("^[%w%.]", pos + #tok) then
      local v = math.tointeger(tonumber(tok))
      if v == nil then fail(path, text, pos, "integer " .. tok .. " out of range") end
      pos = pos + #tok
      return v
    end
    return nil
  end

  local value

  local function table_literal(depth)
    if depth > max_depth then fail(path, text, pos, "tables nested too deeply") end
    pos = pos + 1
    local t, n = {}, 0
    while true do
      skip()
      local c = text:sub(pos, pos)
      if c == "}" then
        pos = pos + 1
        return t
      end
      if c == "[" then
        local at = pos
        pos = pos + 1
        skip()
        local k = value(depth + 1)
        if type(k) ~= "string" and math.type(k) ~= "integer"
            and not (opts.float_keys and k == k and type(k) == "number") then
          fail(path, text, at + 1, "a key must be a string or an integer, got " .. tostring(k))
        end
        if t[k] ~= nil then fail(path, text, at, "the key " .. string.format("%q", k)
          .. " appears twice") end
        expect("]")
        expect("=")
        skip()
        t[k] = value(depth + 1)
      else
        if next(t, n > 0 and n or nil) ~= nil then
          fail(path, text, pos, "expected '[' or '}' (keyed entries come after the list), got "
            .. found(text, pos))
        end
        n = n + 1
        t[n] = value(depth + 1)
      end
      skip()
      c = text:sub(pos, pos)
      if c == "," then
        pos = pos + 1
      elseif c ~= "}" then
        fail(path, text, pos, "expected ',' or '}', got " .. found(text, pos))
      end
    end
  end

  value = function(depth)
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then return table_literal(depth) end
    if c == '"' then return string_literal() end
    for word, v in pairs { ["true"] = true, ["false"] = false, ["(0/0)"] = 0 / 0,
                           ["math.huge"] = math.huge, ["-math.huge"] = -math.huge,
                           ["0/0"] = opts.bare_nan and 0 / 0 or nil } do
      if text:sub(pos, pos + #word - 1) == word and not text:find("^[%w_]", pos + #word) then
        pos = pos + #word
        return v
      end
    end
    local v = number_literal()
    if v ~= nil then return v end
    fail(path, text, pos, "expected a value (a table, string, number, true or false), got "
      .. found(text, pos))
  end

  if not opts.bare then  -- a chunk "return value" (else the value alone)
    expect("return", "'return'")
    if not text:find("^[ \t\r\n{]", pos) then
      fail(path, text, pos, "expected a table after 'return', got " .. found(text, pos))
    end
  end
  local v = value(1)
  skip()
  if pos <= #text then fail(path, text, pos, "expected the end of the file, got " .. found(text, pos)) end
  return v
end

-- ---- checking the scene ---------------------------------------------------------------------

local function shown(v)
  if type(v) == "string" then return string.format("%q", v) end
  if v ~= v then return "nan" end
  if math.type(v) == "float" then return string.format("%.17g", v) end
  if type(v) == "table" then return "a table" end
  return tostring(v)
end

-- a checker that raises "impact.dem.load: path: where must be what, got v"
local function checker(path)
  local c = {}
  -- v: the value found; a description of it when raw
  function c.bad(where, what, v, raw)
    error(string.format("impact.dem.load: %s: %s must be %s, got %s", path, where, what,
      raw and v or shown(v)), 0)
  end
  function c.positive(where, v)
    if type(v) ~= "number" or v ~= v or v <= 0 or v == math.huge then
      c.bad(where, "a finite number > 0", v)
    end
    return v
  end
  function c.num(where, v, lo, hi, allow_inf)
    if type(v) ~= "number" or v ~= v or (not allow_inf and (v == math.huge or v == -math.huge))
        or (lo and v < lo) or (hi and v > hi) then
      c.bad(where, (allow_inf and "a number" or "a finite number")
        .. (lo and hi and string.format(" in [%g, %g]", lo, hi) or lo and string.format(" >= %g", lo)
            or ""), v)
    end
    return v
  end
  function c.int(where, v, lo, hi)
    local i = math.tointeger(v)
    if type(v) ~= "number" or i == nil or (lo and i < lo) or (hi and i > hi) then
      c.bad(where, "an integer" .. (lo and hi and string.format(" in [%d, %d]", lo, hi)
        or lo and string.format(" >= %d", lo) or ""), v)
    end
    return i
  end
  function c.bool(where, v)
    if type(v) ~= "boolean" then c.bad(where, "a boolean", v) end
    return v
  end
  -- a list of exactly n (or, with n a table, one of those counts) entries
  function c.list(where, v, n)
    if type(v) ~= "table" then c.bad(where, "a list", v) end
    local count = 0
    for k in pairs(v) do
      if math.type(k) ~= "integer" or k < 1 then c.bad(where, "a list (no keys)", k) end
      count = count + 1
    end
    if count ~= #v then c.bad(where, "a list without holes", v) end
    if type(n) == "number" and count ~= n then
      c.bad(where, string.format("a list of %d entries", n), string.format("%d entries", count),
        true)
    elseif type(n) == "table" then
      local ok = false
      for _, m in ipairs(n) do ok = ok or m == count end
      if not ok then
        c.bad(where, "a list of " .. table.concat(n, " or ") .. " entries",
          string.format("%d entries", count), true)
      end
    end
    return v
  end
  function c.numbers(where, v, n, lo, hi, allow_inf)
    c.list(where, v, n)
    for i = 1, #v do c.num(string.format("%s[%d]", where, i), v[i], lo, hi, allow_inf) end
    return v
  end
  function c.record(where, v, keys)
    if type(v) ~= "table" then c.bad(where, "a table", v) end
    for k in pairs(v) do
      if not keys[k] then
        local names = {}
        for name in pairs(keys) do names[#names + 1] = name end
        table.sort(names)
        error(string.format("impact.dem.load: %s: %s: unknown field %s (accepted: %s)", path,
          where, shown(k), table.concat(names, ", ")), 0)
      end
    end
    return v
  end
  return c
end
dem_file.checker = checker

local STRIDE = 13 -- a body's state: position, orientation, velocity, angular velocity
local KIND = { sphere = 0, wall = 1, facet = 2, clump = 3 }

local particle_keys = { kind = true, slot = true, fixed = true, mass = true, inertia = true,
                        inv_inertia = true, inv_mass = true, spheres = true,
                        angular_momentum = true, radius = true, normal = true, vertices = true,
                        material = true, state = true }
local state_keys = { time_base = true, steps_since_base = true, steps = true, dt = true,
                     gravity = true, iter = true, collider_runs = true, energy = true,
                     params = true, particles = true, interactions = true, pending = true,
                     pend_scan = true, moments = true, params2 = true,
                     cell = true }

-- one saved body; returns its kind and the number of particles it gives
local function check_particle(c, where, p)
  c.record(where, p, particle_keys)
  local kind = c.int(where .. ".kind", p.kind, 0, 3)
  c.int(where .. ".slot", p.slot, 0)
  local fixed = c.bool(where .. ".fixed", p.fixed)
  local J, iJ = p.inertia, p.inv_inertia
  if fixed then
    c.num(where .. ".mass", p.mass, 0, nil, true)
    c.numbers(where .. ".inertia", J, 9, nil, nil, true)
    c.num(where .. ".inv_mass", p.inv_mass, 0, 0)
    c.numbers(where .. ".inv_inertia", iJ, 9, 0, 0)
  else
    -- the exact mass properties: positive, and the inverses those of the values
    c.positive(where .. ".mass", p.mass)
    c.positive(where .. ".inv_mass", p.inv_mass)
    if math.abs(p.mass * p.inv_mass - 1) > 1e-9 then
      c.bad(where .. ".inv_mass", "1 / mass (" .. shown(1 / p.mass) .. ")", p.inv_mass)
    end
    c.numbers(where .. ".inertia", J, 9)
    c.numbers(where .. ".inv_inertia", iJ, 9)
    for i = 0, 2 do
      if J[4 * i + 1] <= 0 then
        c.bad(string.format("%s.inertia[%d] (a diagonal entry)", where, 4 * i + 1), "> 0", J[4 * i + 1])
      end
      for j = 0, 2 do
        local sum, scale = 0, 0
        for k = 0, 2 do
          sum = sum + J[3 * i + k + 1] * iJ[3 * k + j + 1]
          scale = scale + math.abs(J[3 * i + k + 1] * iJ[3 * k + j + 1])
        end
        if math.abs(sum - (i == j and 1 or 0)) > 1e-9 * math.max(scale, 1) then
          c.bad(where .. ".inv_inertia", "the inverse of inertia", "a matrix that is not", true)
        end
      end
    end
  end
  local s = c.numbers(where .. ".state", p.state, STRIDE)
  local q = s[4] * s[4] + s[5] * s[5] + s[6] * s[6] + s[7] * s[7]
  if not (q > 0.5 and q < 2) then
    c.bad(where .. ".state[4..7]", "a unit quaternion", string.format("one of norm %g", math.sqrt(q)),
      true)
  end
  if p.material ~= nil and type(p.material) ~= "string" then
    c.bad(where .. ".material", "a material name", p.material)
  end
  local count = 1
  local function none(key)
    if p[key] ~= nil then c.bad(where .. "." .. key, "absent for kind " .. kind, p[key]) end
  end
  if kind == KIND.sphere then
    c.positive(where .. ".radius", p.radius)
    none("normal"); none("vertices"); none("spheres"); none("angular_momentum")
  elseif kind == KIND.wall then
    local n = c.numbers(where .. ".normal", p.normal, 3)
    if n[1] * n[1] + n[2] * n[2] + n[3] * n[3] <= 0 then
      c.bad(where .. ".normal", "a non-zero vector", "zero", true)
    end
    if not fixed then c.bad(where .. ".fixed", "true for a wall", p.fixed) end
    none("radius"); none("vertices"); none("spheres"); none("angular_momentum")
  elseif kind == KIND.facet then
    c.numbers(where .. ".vertices", p.vertices, 9)
    if not fixed then c.bad(where .. ".fixed", "true for a facet", p.fixed) end
    none("radius"); none("normal"); none("spheres"); none("angular_momentum")
  else
    local sp = c.list(where .. ".spheres", p.spheres)
    if #sp < 4 or #sp % 4 ~= 0 or #sp > 4000000 then
      c.bad(where .. ".spheres", "a list of 4 numbers per member (centre, radius), 1 to 1e6 "
        .. "members", string.format("%d numbers", #sp), true)
    end
    for i = 1, #sp do
      if i % 4 == 0 then
        c.positive(string.format("%s.spheres[%d] (a radius)", where, i), sp[i])
      else
        c.num(string.format("%s.spheres[%d]", where, i), sp[i])
      end
    end
    c.numbers(where .. ".angular_momentum", p.angular_momentum, 3)
    none("radius"); none("normal"); none("vertices")
    count = #sp // 4
  end
  return kind, count
end

--- dem_file.check(saved, path): raises a clear error unless saved is a well-formed scene
--- (types, sizes, finite values, ranges, particle indices in range); the engines are checked
--- by impact.dem.load as it rebuilds them.
function dem_file.check(saved, path)
  local c = checker(path)
  if type(saved) ~= "table" or saved.format ~= "impact.dem 1" then
    error(string.format("impact.dem.load: %s is not a saved dem scene (no format \"impact.dem 1\")",
      path), 0)
  end
  c.record("the scene", saved, { format = true, state = true, names = true, engines = true,
                                 has_engines = true })
  local st = c.record("state", saved.state, state_keys)
  c.num("state.time_base", st.time_base)
  c.int("state.steps_since_base", st.steps_since_base, 0)
  c.int("state.steps", st.steps, 0)
  c.positive("state.dt", st.dt)
  c.numbers("state.gravity", st.gravity, 3)
  c.int("state.iter", st.iter, 0)
  c.int("state.collider_runs", st.collider_runs, 0)
  c.numbers("state.energy", st.energy, { 3, 4 }) -- 3 in scenes saved before viscous was booked
  local pr = c.numbers("state.params", st.params, 12)
  if not (pr[1] >= 0 and pr[1] < 1) then
    c.bad("state.params[1] (damping)", "a finite number in [0, 1)", pr[1])
  end
  c.num("state.params[3] (interaction radius)", pr[3], 1)
  c.int("state.params[4] (geometry)", pr[4], 0, 7)
  c.int("state.params[5] (law)", pr[5], 0, 2)
  c.int("state.params[6] (never_erase)", pr[6], 0, 1)
  c.num("state.params[7] (young)", pr[7], 0)
  c.num("state.params[8] (ks_ratio)", pr[8], 0)
  c.num("state.params[9] (friction angle)", pr[9], 0, math.pi / 2)
  c.num("state.params[10] (poisson)", pr[10], 0, 0.5)
  c.int("state.params[11] (track_energy)", pr[11], 0, 1)
  c.num("state.params[12] (en)", pr[12], 0, 1)
  local particles = c.list("state.particles", st.particles)
  local kinds, clump_of, n = {}, {}, 0 -- per particle (0-based as saved)
  for i, p in ipairs(particles) do
    local kind, count = check_particle(c, string.format("state.particles[%d]", i), p)
    for _ = 1, count do
      kinds[n] = kind == KIND.clump and KIND.sphere or kind
      clump_of[n] = kind == KIND.clump and i or nil
      n = n + 1
    end
  end
  local names = c.list("names", saved.names, #particles)
  for i, name in ipairs(names) do
    if name ~= false and type(name) ~= "string" then c.bad(string.format("names[%d]", i),
      "a string or false", name) end
  end
  local seen = {}
  for k, I in ipairs(c.list("state.interactions", st.interactions)) do
    local where = string.format("state.interactions[%d]", k)
    c.numbers(where, I, 19)
    local a = c.int(where .. "[1] (particle a)", I[1], 0, n - 1)
    local b = c.int(where .. "[2] (particle b)", I[2], 0, n - 1)
    local ka, kb = kinds[a], kinds[b]
    if a == b or kb ~= KIND.sphere or (ka == KIND.sphere and a > b)
        or (clump_of[a] ~= nil and clump_of[a] == clump_of[b]) then
      c.bad(where .. "[1..2]", "a sphere pair (a < b, not in one clump) or a wall or facet "
        .. "and a sphere", string.format("particles %d and %d", a, b), true)
    end
    local key = a * n + b
    if seen[key] then
      c.bad(where, "a pair not saved before", "the pair of interaction " .. seen[key], true)
    end
    seen[key] = k
    local real = c.int(where .. "[3] (real)", I[3], 0, 1)
    c.int(where .. "[4] (pending)", I[4], 0, 1)
    for _, j in ipairs { 9, 10, 11, 12, 13, 19 } do  -- kn, ks, mu, kn0, ks0, cn0
      c.num(string.format("%s[%d]", where, j), I[j], 0)
    end
    local nn = I[6] * I[6] + I[7] * I[7] + I[8] * I[8]
    if real == 1 and not (nn > 0.5 and nn < 2) then
      c.bad(where .. "[6..8] (normal)", "a unit vector", string.format("one of norm %g",
        math.sqrt(nn)), true)
    end
    c.int(where .. "[18] (created)", I[18])
  end
  if st.moments ~= nil then  -- 10 per interaction: rolling moment, twist, bonded, adhesions, shift
    c.numbers("state.moments", st.moments, 10 * #st.interactions)
    for k = 1, #st.interactions do
      local o = 10 * (k - 1)
      c.int(string.format("state.moments[%d] (bonded)", o + 5), st.moments[o + 5], 0, 1)
      c.num(string.format("state.moments[%d] (normal adhesion)", o + 6), st.moments[o + 6], 0)
      c.num(string.format("state.moments[%d] (shear adhesion)", o + 7), st.moments[o + 7], 0)
      for j = 8, 10 do
        c.int(string.format("state.moments[%d] (cell shift)", o + j), st.moments[o + j], -1e9, 1e9)
      end
    end
  end
  if st.cell ~= nil then c.numbers("state.cell", st.cell, 27) end
  if st.params2 ~= nil then
    -- 2 in scenes saved before the viscoelastic law's tangential damping
    c.numbers("state.params2", st.params2, { 2, 3 })
    c.num("state.params2[1] (twisting)", st.params2[1], 0)
    c.num("state.params2[2] (wall friction angle, < 0: none)", st.params2[2], nil, math.pi / 2)
    if st.params2[3] ~= nil then
      c.int("state.params2[3] (tangential damping)", st.params2[3], 0, 1)
    end
  end
  local pend = c.list("state.pending", st.pending)
  if #pend % 2 ~= 0 then
    c.bad("state.pending", "a list of pairs", string.format("%d entries", #pend), true)
  end
  for e, v in ipairs(pend) do c.int(string.format("state.pending[%d]", e), v, 0, n - 1) end
  c.bool("state.pend_scan", st.pend_scan)
  c.bool("has_engines", saved.has_engines)
  c.list("engines", saved.engines)
  return n
end

return dem_file
