--- tools/fuzz/reduce.lua: minimising a failing call list. Delta debugging (Zeller's ddmin) and
--- two first candidates from the generated names: the definitions a call needs, and its
--- backward slice (every earlier call sharing a name with it, transitively).
local gen = require("gen")

local M = {}

--- A 1-minimal sublist of items for which test(list) is true (test(items) must be true); test
--- sees sublists in their original order and is asked each distinct sublist once.
function M.ddmin(items, test)
  local cache = {}
  local function try(list)
    local key = table.concat(list, ",")
    if cache[key] == nil then cache[key] = test(list) and true or false end
    return cache[key]
  end
  local n = 2
  while #items >= 2 do
    local size = math.ceil(#items / n)
    local parts = {}
    for i = 1, #items, size do parts[#parts + 1] = table.move(items, i, math.min(i + size - 1, #items),
        1, {}) end
    local reduced = false
    for _, part in ipairs(parts) do
      if try(part) then
        items, n, reduced = part, 2, true
        break
      end
    end
    if not reduced then
      for j = 1, #parts do
        local comp = {}
        for k, part in ipairs(parts) do
          if k ~= j then table.move(part, 1, #part, #comp + 1, comp) end
        end
        if try(comp) then
          items, n, reduced = comp, math.max(n - 1, 2), true
          break
        end
      end
    end
    if not reduced then
      if n >= #items then break end
      n = math.min(n * 2, #items)
    end
  end
  if #items == 1 and try({}) then items = {} end
  return items
end

--- The indices 1..k-1 of calls that share a name (object or file) with call k, directly or
--- through later calls: a backward slice.
function M.slice(calls, k)
  local names = gen.tokens(calls[k].src)
  local keep = {}
  for i = k - 1, 1, -1 do
    local t = gen.tokens(calls[i].src)
    local hit = false
    for name in pairs(t) do
      if names[name] then hit = true end
    end
    if hit then
      keep[#keep + 1] = i
      for name in pairs(t) do names[name] = true end
    end
  end
  local out = {}
  for i = #keep, 1, -1 do out[#out + 1] = keep[i] end
  return out
end

--- The indices 1..k-1 of the calls that define (assign) the names call k uses, and those their
--- definitions use: the smallest candidate, tried before the slice.
function M.definitions(calls, k)
  local need = gen.tokens(calls[k].src)
  local keep = {}
  for i = k - 1, 1, -1 do
    local lhs = calls[i].src:match("^([%w_]+) = ")
    local writes_file = false  -- every call naming a needed file may have written it
    for name in pairs(gen.tokens(calls[i].src)) do
      if need[name] and name:find("^impact_fuzz_") then writes_file = true end
    end
    if (lhs and need[lhs]) or writes_file then
      keep[#keep + 1] = i
      if lhs then need[lhs] = nil end
      for name in pairs(gen.tokens((calls[i].src:gsub("^[%w_]+ = ", "")))) do need[name] = true end
    end
  end
  local out = {}
  for i = #keep, 1, -1 do out[#out + 1] = keep[i] end
  return out
end

--- Minimises: test(idx) says whether calls idx (indices below k) followed by call k still fail.
--- Returns the indices kept, or nil when not even all of 1..k-1 fail.
function M.minimise(calls, k, test)
  local prefix = {}
  for i = 1, k - 1 do prefix[i] = i end
  local defs, sliced = M.definitions(calls, k), M.slice(calls, k)
  local start
  if #defs < #sliced and test(defs) then start = defs
  elseif #sliced < #prefix and test(sliced) then start = sliced
  elseif test(prefix) then start = prefix
  else return nil end
  return M.ddmin(start, test)
end

--- The top-level fields of the first table constructor in a call's source: the text before its
--- "{", the list of fields (source), the text after its "}"; nil when there is none.
function M.fields(src)
  local i, n = 1, #src
  local start, depth, quote, base = nil, 0, nil, nil
  local fields, field_start = {}, nil
  while i <= n do
    local ch = src:sub(i, i)
    if quote then
      if ch == "\\" then i = i + 1 elseif ch == quote then quote = nil end
    elseif ch == '"' or ch == "'" then quote = ch
    elseif ch == "{" or ch == "(" or ch == "[" then
      if ch == "{" and start == nil then
        start, field_start, base = i, i + 1, depth
      end
      depth = depth + 1
    elseif ch == "}" or ch == ")" or ch == "]" then
      depth = depth - 1
      if start and depth == base then
        local last = src:sub(field_start, i - 1):match("^%s*(.-)%s*$")
        if last ~= "" then fields[#fields + 1] = last end
        return src:sub(1, start - 1), fields, src:sub(i + 1)
      end
    elseif ch == "," and start and depth == base + 1 then
      fields[#fields + 1] = src:sub(field_start, i - 1):match("^%s*(.-)%s*$")
      field_start = i + 1
    end
    i = i + 1
  end
  return nil
end

--- Drops the fields of each call's first table constructor that the failure does not need:
--- test(calls) says whether the changed list still fails; call `keep` is left as it is (a silent
--- acceptance: the generator's verdict is about the fields it wrote). Returns the list (calls
--- copied when changed).
function M.shrink_fields(calls, test, keep)
  for c = 1, #calls do
    local before, fields, after
    if c ~= keep then before, fields, after = M.fields(calls[c].src) end
    if before and #fields >= 1 then
      local idx = {}
      for i = 1, #fields do idx[i] = i end
      local function with(sub)
        local parts = {}
        for _, i in ipairs(sub) do parts[#parts + 1] = fields[i] end
        local list = table.move(calls, 1, #calls, 1, {})
        local copy = {}
        for key, v in pairs(calls[c]) do copy[key] = v end
        copy.src = before .. "{" .. table.concat(parts, ", ") .. "}" .. after
        list[c] = copy
        return list
      end
      local best = M.ddmin(idx, function(sub) return test(with(sub)) end)
      if #best < #fields then calls = with(best) end
    end
  end
  return calls
end

--- The signature of a worker record {kind, case, call, entry, detail} (silent, nan, message, hang).
function M.record_signature(rec)
  local kind, entry, detail = rec[1], rec[4], rec[5] or ""
  if kind == "silent" then return "silent:" .. entry .. ":" .. detail end
  if kind == "message" then return "message:" .. entry .. ":" .. (detail:match("^[^:]*") or detail) end
  if kind == "hang" then return "hang:" .. entry end
  return kind .. ":" .. entry
end

return M
