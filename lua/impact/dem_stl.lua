--- impact.dem_stl: triangles of STL files (ASCII and binary) for the dem strategy's facets
--- (Yade's ymport.stl); dem.import_stl puts them into a world.
---
--- An ASCII file is `solid name`, then per triangle `facet normal nx ny nz / outer loop /
--- vertex x y z (3 times) / endloop / endfacet`, then `endsolid`; a binary file is an 80-byte
--- header, a little-endian uint32 count n, then n records of 50 bytes (normal, 3 vertices as
--- 12 float32, a uint16). A file of exactly 84 + 50 n bytes is read as binary (some binary
--- headers begin with "solid" too). The normals in the file are ignored (facets touch spheres
--- on both sides).
-- @module impact.dem_stl
local stl = {}

local function read_ascii(text, path)
  local triangles, current = {}, {}
  local line_no = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    line_no = line_no + 1
    local word, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
    if word == "vertex" then
      local x, y, z = rest:match("^(%S+)%s+(%S+)%s+(%S+)$")
      x, y, z = tonumber(x), tonumber(y), tonumber(z)
      if not (x and y and z) or x ~= x or y ~= y or z ~= z then
        error(string.format("%s: line %d: a vertex needs three numbers, got %q", path, line_no,
          rest), 0)
      end
      current[#current + 1] = { x, y, z }
    elseif word == "endloop" then
      if #current ~= 3 then
        error(string.format("%s: line %d: a facet needs 3 vertices, got %d", path, line_no,
          #current), 0)
      end
      triangles[#triangles + 1] = current
      current = {}
    end
  end
  if #current ~= 0 then
    error(string.format("%s: the file ends inside a facet (no 'endloop')", path), 0)
  end
  return triangles
end

local function read_binary(text)
  local n = string.unpack("<I4", text, 81)
  local triangles = {}
  local pos = 85
  for i = 1, n do
    local v = { string.unpack("<fffffffff", text, pos + 12) }
    triangles[i] = { { v[1], v[2], v[3] }, { v[4], v[5], v[6] }, { v[7], v[8], v[9] } }
    pos = pos + 50
  end
  return triangles
end

--- stl.read(path): the triangles of the file, {{{x, y, z}, {x, y, z}, {x, y, z}}, ...}.
function stl.read(path)
  local f, err = io.open(path, "rb")
  if not f then error(tostring(err), 0) end
  local text = f:read("a")
  f:close()
  if #text >= 84 and #text == 84 + 50 * string.unpack("<I4", text, 81) then
    return read_binary(text)
  end
  if not text:match("^%s*solid") then
    error(string.format("%s: neither an ASCII STL file (it begins with 'solid') nor a binary "
      .. "one (84 + 50 n bytes for n triangles; the file has %d bytes)", path, #text), 0)
  end
  return read_ascii(text, path)
end

return stl
