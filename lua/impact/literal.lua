--- impact.literal: plain data as a Lua literal that reads back exactly, for the files of saved
--- worlds (impact.world_file, impact.dem.save) and their reader (impact.dem_file): integers
--- as integers, other numbers as hexadecimal floats (%a) with (0/0), math.huge and
--- -math.huge, strings quoted with %q, booleans, and tables (the sequence first, then the
--- other keys, strings and integers only, sorted: integers first, then strings).
-- @module impact.literal
local M = {}

--- literal.write(v, out, where): appends the literal of v to the array of strings out;
--- raises "<where>: a <type> cannot be saved" for anything else (functions, userdata, keys
--- of another type).
function M.write(v, out, where)
  local t = type(v)
  if t == "number" then
    if math.type(v) == "integer" then out[#out + 1] = string.format("%d", v)
    elseif v ~= v then out[#out + 1] = "(0/0)"
    elseif v == math.huge then out[#out + 1] = "math.huge"
    elseif v == -math.huge then out[#out + 1] = "-math.huge"
    else out[#out + 1] = string.format("%a", v) end
  elseif t == "string" then out[#out + 1] = string.format("%q", v)
  elseif t == "boolean" then out[#out + 1] = tostring(v)
  elseif t == "table" then
    out[#out + 1] = "{"
    local n = #v
    for i = 1, n do
      M.write(v[i], out, where)
      out[#out + 1] = ","
    end
    local keys = {}
    for k in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then
        if type(k) ~= "string" and math.type(k) ~= "integer" then
          error(string.format("%s: a key of type %s cannot be saved", where, type(k)), 0)
        end
        keys[#keys + 1] = k
      end
    end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    for _, k in ipairs(keys) do
      out[#out + 1] = "["
      M.write(k, out, where)
      out[#out + 1] = "]="
      M.write(v[k], out, where)
      out[#out + 1] = ",\n"
    end
    out[#out + 1] = "}"
  else
    error(string.format("%s: a %s cannot be saved", where, t), 0)
  end
end

return M
