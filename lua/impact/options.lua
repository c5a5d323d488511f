--- impact.options: shared helpers for option checks and their error messages.
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

return options
