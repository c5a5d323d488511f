--- impact.options: shared helpers for option checks and their error messages.
---
--- One message style for every module:
---   <what>: option '<name>' must be <constraint>, got <describe(v)>
---   <what>: unknown option <key> (accepted: a, b, c)
--- <name> is the key, or parent.key for an option nested in a table (integrator.rtol,
--- polyhedra.minarea). Every checker takes a trailing `how` table (all fields optional):
---   parent = "integrator"  the nested table's name, used in the option's name
---   level  = 2             the level the caller would give error() (default 2: the caller's caller)
---   noun   = "option"      the word before the name ("property" for materials)
---   required = true        a missing (nil) option is an error (else it gives the default)
---   min, max, min_open, max_open, integer, text: the number's range (see check_number)
-- @module impact.options
local options = {}

--- options.describe(v): v as an error message shows it. Numbers print with %g when that reads
--- back exactly, else with the fewest digits that do ("-0.1", not "-0.10000000000000001"); NaN
--- prints "nan" (tostring(0/0) gives "-nan" here); other values as tostring gives them.
function options.describe(v)
  if math.type(v) == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    for digits = 6, 17 do
      local s = string.format("%." .. digits .. "g", v)
      if tonumber(s) == v then return s end
    end
  end
  return tostring(v)
end

local describe = options.describe
local no_how = {}

-- the folder of impact's Lua files ("@./lua/impact/" from a source tree)
local lib_source = debug.getinfo(1, "S").source:match("^(@.*[/\\])") or "@impact/"

--- options.user_level(): the level to give error() from the function calling this one so that
--- the message points at the nearest caller outside impact's own Lua files (the user's script
--- line), whatever the depth of the library's helpers; 1 when there is none.
function options.user_level()
  local level = 2  -- error()'s level 1 is the function calling this one, getinfo's level 2
  while true do
    local info = debug.getinfo(level + 1, "S")
    if info == nil then return 1 end
    if info.what ~= "C" and info.source:sub(1, #lib_source) ~= lib_source then return level end
    level = level + 1
  end
end

--- options.without_position(msg): an error message without its leading "chunk:line: " (for
--- a message caught by pcall and raised again under another name, at another level).
function options.without_position(msg)
  return (tostring(msg):gsub("^[^:\n]*:%d+: ", "", 1))
end

--- options.shown(v): a value as "got ..." shows it: numbers by describe, strings quoted, nil and
--- booleans as themselves, other values by their type (as the C binding's imp_describe does).
function options.shown(v)
  local t = type(v)
  if t == "number" then return describe(v) end
  if t == "string" then return string.format("%q", v) end
  if t == "nil" or t == "boolean" then return tostring(v) end
  return t
end
local shown = options.shown

-- the level for error() called depth frames below the caller's function (1: in the checker)
local function level_of(how, depth)
  return (how.level or 2) + (depth or 1)
end

-- the option's name as messages show it: key, or parent.key
local function name_of(key, how)
  if how.parent then return how.parent .. "." .. tostring(key) end
  return tostring(key)
end

local function fail(what, key, how, constraint, v, depth)
  error(string.format("%s: %s '%s' must be %s, got %s", what, how.noun or "option", name_of(key, how),
    constraint, shown(v)), level_of(how, depth or 2))
end

-- a key as an unknown-option message shows it: "key" at the top, parent.key when nested
local function shown_key(k, how)
  if how.parent then
    if type(k) == "string" and k:match("^[%a_][%w_]*$") then return how.parent .. "." .. k end
    return string.format("%s[%s]", how.parent, shown(k))
  end
  return shown(k)
end

--- options.accepted_text(accepted): the sorted, comma-separated names of a set {name = true}
--- or a list {"name", ...}.
function options.accepted_text(accepted)
  local names = {}
  if type(accepted[1]) == "string" then
    for i = 1, #accepted do names[i] = tostring(accepted[i]) end
  else
    for k in pairs(accepted) do names[#names + 1] = tostring(k) end
  end
  table.sort(names)
  return table.concat(names, ", ")
end

local function as_set(accepted)
  if type(accepted[1]) ~= "string" then return accepted end  -- a set {name = true}
  local set = {}
  for i = 1, #accepted do set[accepted[i]] = true end
  return set
end

--- options.check_keys(what, opts, accepted [, how]) -> opts
--- opts must be a table (nil gives {} when how.optional) whose keys are all in accepted (a set
--- {name = true} or a list of names). how.accepted_text replaces the generated list (for
--- entries such as "[1] = world"); how.extra is a second set of accepted keys.
function options.check_keys(what, opts, accepted, how)
  how = how or no_how
  if opts == nil and how.optional then return {} end
  if type(opts) ~= "table" then
    if how.parent then
      fail(what, how.parent, { level = how.level }, "a table", opts)
    end
    error(string.format("%s: %s must be a table, got %s", what, how.noun and how.noun .. "s" or "options",
      type(opts)), level_of(how))
  end
  local set = as_set(accepted)
  for k in pairs(opts) do
    if not set[k] and not (how.extra and how.extra[k]) then
      error(string.format("%s: unknown %s %s (accepted: %s)", what, how.noun or "option", shown_key(k, how),
        how.accepted_text or options.accepted_text(accepted)), level_of(how))
    end
  end
  return opts
end

-- "a finite number in [0, 1]", "an integer >= 1", ... for the bounds in how
local function range_text(how, noun)
  local lo, hi = how.min, how.max
  if lo and hi then
    return string.format("%s in %s%s, %s%s", noun, how.min_open and "(" or "[", describe(lo), describe(hi),
      how.max_open and ")" or "]")
  elseif lo then
    return string.format("%s %s %s", noun, how.min_open and ">" or ">=", describe(lo))
  elseif hi then
    return string.format("%s %s %s", noun, how.max_open and "<" or "<=", describe(hi))
  end
  return noun
end

local function in_range(v, how)
  if how.min and (v < how.min or (how.min_open and v == how.min)) then return false end
  if how.max and (v > how.max or (how.max_open and v == how.max)) then return false end
  return true
end

--- options.check_number(what, key, v [, how]) -> v
--- v must be a finite number within how.min / how.max (closed ends unless how.min_open /
--- how.max_open); how.integer asks for an integer; how.text replaces the constraint text.
local function check_num(what, key, v, how)
  local ok
  if how.integer then
    ok = math.type(v) == "integer" and in_range(v, how)
  else
    ok = type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge and in_range(v, how)
  end
  if not ok then
    fail(what, key, how, how.text or range_text(how, how.integer and "an integer" or "a finite number"), v, 3)
  end
  return v
end

function options.check_number(what, key, v, how)
  local r = check_num(what, key, v, how or no_how)  -- not a tail call: the error level counts this frame
  return r
end

--- options.number(what, opts, key, default [, how]): opts[key] checked as check_number, or default.
function options.number(what, opts, key, default, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  local r = check_num(what, key, v, how or no_how)  -- not a tail call: the error level counts this frame
  return r
end

--- options.integer(what, opts, key, default [, how]): as number, for an integer.
function options.integer(what, opts, key, default, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  how = how or no_how
  if not how.integer then
    local h = { integer = true }
    for k, x in pairs(how) do h[k] = x end
    how = h
  end
  local r = check_num(what, key, v, how)
  return r
end

--- options.enum(what, opts, key, default, names [, how]): opts[key], one of the strings in names.
function options.enum(what, opts, key, default, names, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  for i = 1, #names do
    if v == names[i] then return v end
  end
  local quoted = {}
  for i = 1, #names do quoted[i] = string.format("%q", names[i]) end
  how = how or no_how
  fail(what, key, how, "one of " .. table.concat(quoted, ", "), v)
end

--- options.boolean(what, opts, key, default [, how]): opts[key], true or false.
function options.boolean(what, opts, key, default, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  if type(v) ~= "boolean" then fail(what, key, how or no_how, (how or no_how).text or "a boolean", v) end
  return v
end

--- options.string(what, opts, key, default [, how]): opts[key], a string.
function options.string(what, opts, key, default, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  if type(v) ~= "string" then fail(what, key, how or no_how, (how or no_how).text or "a string", v) end
  return v
end

--- options.callable(v): whether v can be called (a function or a table with __call).
function options.callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and mt.__call ~= nil
end

--- options.func(what, opts, key, default [, how]): opts[key], a function (or callable).
function options.func(what, opts, key, default, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  if not options.callable(v) then fail(what, key, how or no_how, (how or no_how).text or "a function", v) end
  return v
end

--- options.vector(what, opts, key, default, n [, how]): opts[key], an array of n finite numbers.
function options.vector(what, opts, key, default, n, how)
  local v = opts[key]
  if v == nil and not (how and how.required) then return default end
  how = how or no_how
  local constraint = string.format("an array of %d finite numbers", n)
  if type(v) ~= "table" or #v ~= n then fail(what, key, how, constraint, v) end
  for i = 1, n do
    local x = v[i]
    if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
      fail(what, string.format("%s[%d]", tostring(key), i), how, "a finite number", x)
    end
  end
  return v
end

return options
