--- impact.vtk: runs exported for ParaView (https://www.paraview.org) as VTK XML PolyData files
--- (.vtp, one per frame) and a .pvd collection listing them with their times.
---
---   impact.vtk.write(w, "frame.vtp", { contacts = {...} })          one frame
---   local out = impact.vtk.series { w, every = 0.01, dir = "vtk", name = "run" }
---   w:run { until_time = 2 }                                          -> vtk/run.pvd, vtk/run_00000.vtp, ...
---   out:stop()
---
--- In a frame: spheres, the member spheres of clumps (and 2D circles) are points (Verts) with a
--- `radius` point field: in ParaView show them with the Glyph filter (sphere glyph, scale by
--- radius, factor 2 for the diameter) or as Point Gaussian. Boxes and every other kind with a
--- mesh are surface polygons (Polys); 2D outlines lie in the z = 0 plane, arcs cut into
--- segments of at most 10 degrees. Contacts (a list {point =, normal =, force =} given by the
--- caller, e.g. built from w:contacts()) are Lines from the point along force * force_scale.
--- Point fields: radius, body_id, velocity (of that material point); cell fields: body_id (-1
--- for contacts), force, force_magnitude.
-- @module impact.vtk
local periodic = require("impact.periodic")
local options = require("impact.options")
local core = require("impact.core")
local draw = require("impact.draw")
local files = require("impact.files")
local snapshot = require("impact.snapshot")

local M = {}

local mesh_cache = setmetatable({}, { __mode = "k" })

-- a shape's geometry for export: { point = radius } or { vertices = {...}, faces = {...} } in
-- shape coordinates (3D; 2D outlines lifted to z = 0)
local function geometry(shape)
  local g = mesh_cache[shape]
  if g then return g end
  if shape.dim == 3 and shape.kind == "wall" then
    g = { skip = true }  -- an infinite half-space has no mesh: walls are left out of the files
  elseif shape.dim == 3 and shape.kind == "clump" then
    local centres, radii = core.dem_clump_members(shape)  -- a clump: its member spheres
    g = { members = {} }
    for i, c in ipairs(centres) do g.members[i] = { center = c, radius = radii[i] } end
  elseif shape.dim == 3 then
    local kind, mesh = core.shape_mesh(shape)
    g = kind == "point" and { point = mesh } or mesh
  elseif shape.kind == "circle" then
    g = { point = shape:bounding_radius() }
  else
    local verts, face = {}, {}
    for _, c in ipairs(core.shape_outline(shape)) do
      if c[1] == "move" or c[1] == "line" then
        verts[#verts + 1] = { c[2], c[3], 0 }
      elseif c[1] == "arc" then
        local a0, a1 = c[5], c[6]
        local n = math.max(1, math.ceil(math.abs(a1 - a0) / math.rad(10)))
        for k = 1, n do
          local a = a0 + (a1 - a0) * k / n
          verts[#verts + 1] = { c[2] + c[4] * math.cos(a), c[3] + c[4] * math.sin(a), 0 }
        end
      end
    end
    -- a closing point equal to the first is dropped
    local first, last = verts[1], verts[#verts]
    if #verts > 1 and math.abs(first[1] - last[1]) + math.abs(first[2] - last[2]) < 1e-12 then
      verts[#verts] = nil
    end
    for i = 1, #verts do face[i] = i end
    g = { vertices = verts, faces = { face } }
  end
  mesh_cache[shape] = g
  return g
end

local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end

-- world position and velocity of shape point p of body b
local function place(b, dim, p, cen)
  if dim == 2 then
    local x, y = snapshot.place2(p, cen, b.position, b.angle)
    local rx, ry = x - b.position[1], y - b.position[2]
    local w = b.spin or 0
    return { x, y, 0 }, { b.velocity[1] - w * ry, b.velocity[2] + w * rx, 0 }
  end
  local x, y, z = snapshot.place3(p, cen, b.position, b.orientation)
  local r = { x - b.position[1], y - b.position[2], z - b.position[3] }
  local wr = cross(b.angular_velocity or { 0, 0, 0 }, r)
  return { x, y, z }, { b.velocity[1] + wr[1], b.velocity[2] + wr[2], b.velocity[3] + wr[3] }
end

local function fmt(v)
  if v ~= v or v == math.huge or v == -math.huge then
    error("impact.vtk: a value to export is not finite (" .. tostring(v) .. ")", 4)
  end
  return string.format("%.9g", v)
end

local function array(out, type_, name, ncomp, values)
  out[#out + 1] = string.format('        <DataArray type="%s" Name="%s"%s format="ascii">', type_, name,
    ncomp > 1 and string.format(' NumberOfComponents="%d"', ncomp) or "")
  local line = {}
  for i = 1, #values do
    line[#line + 1] = type_ == "Float64" and fmt(values[i]) or string.format("%d", values[i])
    if #line == 12 or i == #values then
      out[#out + 1] = "          " .. table.concat(line, " ")
      line = {}
    end
  end
  out[#out + 1] = "        </DataArray>"
end

local function cells(out, tag, conn, offsets)
  if #offsets == 0 then return end
  out[#out + 1] = "      <" .. tag .. ">"
  array(out, "Int64", "connectivity", 1, conn)
  array(out, "Int64", "offsets", 1, offsets)
  out[#out + 1] = "      </" .. tag .. ">"
end

local function check_contacts(contacts, dim)
  if contacts == nil then return {} end
  if type(contacts) ~= "table" then
    error("impact.vtk: option 'contacts' must be an array of {point =, normal =, force =}", 4)
  end
  for i, c in ipairs(contacts) do
    if type(c) ~= "table" or type(c.point) ~= "table" then
      error(string.format("impact.vtk: contacts[%d] needs a point", i), 4)
    end
    for _, key in ipairs({ "point", "force" }) do
      local v = c[key]
      if v ~= nil then
        for k = 1, dim do
          if type(v[k]) ~= "number" or v[k] ~= v[k] or math.abs(v[k]) == math.huge then
            error(string.format("impact.vtk: contacts[%d].%s[%d] must be a finite number, got %s", i, key,
              k, tostring(v[k])), 4)
          end
        end
      end
    end
  end
  return contacts
end

--- The largest contact force's magnitude in a list (0 when none).
local function largest_force(contacts)
  local f = 0
  for _, c in ipairs(contacts) do
    if c.force then
      local s = 0
      for k = 1, #c.force do s = s + c.force[k] ^ 2 end
      f = math.max(f, math.sqrt(s))
    end
  end
  return f
end

--- The text of a .vtp file for a world (or snapshot); opts: contacts, force_scale (m per N;
--- default: the largest force is drawn 20 % of the scene's size long).
function M.polydata(w, opts)
  opts = opts or {}
  local snap = snapshot.take(w)
  local dim = snap.dim
  local contacts = check_contacts(opts.contacts, dim)
  local points, radius, pid, vel = {}, {}, {}, {}
  local verts, vert_off, polys, poly_off, lines, line_off = {}, {}, {}, {}, {}, {}
  local vert_body, poly_body = {}, {}
  local function add_point(p, r, id, v)
    points[#points + 1] = p[1]
    points[#points + 1] = p[2]
    points[#points + 1] = p[3] or 0
    radius[#radius + 1] = r
    pid[#pid + 1] = id
    for k = 1, 3 do vel[#vel + 1] = v[k] or 0 end
    return #radius - 1
  end
  for _, b in ipairs(snap.bodies) do
    local g = b.shape and geometry(b.shape) or { point = 0 }
    if g.skip then  -- luacheck: ignore 542
      -- nothing to draw
    elseif g.point then
      local p = { b.position[1], b.position[2], b.position[3] or 0 }
      local v = { b.velocity[1], b.velocity[2], b.velocity[3] or 0 }
      verts[#verts + 1] = add_point(p, g.point, b.id, v)
      vert_off[#vert_off + 1] = #verts
      vert_body[#vert_body + 1] = b.id
    elseif g.members then  -- a clump: one point with its radius per member sphere
      local cen = b.shape:centroid()
      for _, m in ipairs(g.members) do
        local x, v = place(b, dim, m.center, cen)
        verts[#verts + 1] = add_point(x, m.radius, b.id, v)
        vert_off[#vert_off + 1] = #verts
        vert_body[#vert_body + 1] = b.id
      end
    else
      local cen = b.shape:centroid()
      local base = #radius
      for _, p in ipairs(g.vertices) do
        local x, v = place(b, dim, p, cen)
        add_point(x, 0, b.id, v)
      end
      for _, f in ipairs(g.faces) do
        for _, i in ipairs(f) do polys[#polys + 1] = base + i - 1 end
        poly_off[#poly_off + 1] = #polys
        poly_body[#poly_body + 1] = b.id
      end
    end
  end
  local scale = opts.force_scale
  if scale == nil then
    local fmax = largest_force(contacts)
    local box = snapshot.bounds(snap)
    local size = box and math.max(box[dim + 1] - box[1], box[dim + 2] - box[2],
      dim == 3 and box[6] - box[3] or 0) or 1
    scale = fmax > 0 and 0.2 * size / fmax or 0
  end
  local contact_force = {}
  for _, c in ipairs(contacts) do
    local f = c.force or { 0, 0, 0 }
    local p = { c.point[1], c.point[2], c.point[3] or 0 }
    local fv = { f[1], f[2], f[3] or 0 }
    local a = add_point(p, 0, -1, { 0, 0, 0 })
    local e = add_point({ p[1] + scale * fv[1], p[2] + scale * fv[2], p[3] + scale * fv[3] }, 0, -1,
      { 0, 0, 0 })
    lines[#lines + 1] = a
    lines[#lines + 1] = e
    line_off[#line_off + 1] = #lines
    contact_force[#contact_force + 1] = fv
  end
  -- cell fields in VTK's cell order: verts, lines, (strips), polys
  local cell_body, force, fmag = {}, {}, {}
  local function add_cell(id, f)
    cell_body[#cell_body + 1] = id
    for k = 1, 3 do force[#force + 1] = f[k] end
    fmag[#fmag + 1] = math.sqrt(f[1] ^ 2 + f[2] ^ 2 + f[3] ^ 2)
  end
  for _, id in ipairs(vert_body) do add_cell(id, { 0, 0, 0 }) end
  for _, f in ipairs(contact_force) do add_cell(-1, f) end
  for _, id in ipairs(poly_body) do add_cell(id, { 0, 0, 0 }) end

  local out = {
    '<?xml version="1.0"?>',
    '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">',
    "  <PolyData>",
    string.format('    <Piece NumberOfPoints="%d" NumberOfVerts="%d" NumberOfLines="%d" NumberOfStrips="0" '
      .. 'NumberOfPolys="%d">', #radius, #vert_off, #line_off, #poly_off),
    '      <PointData Scalars="radius" Vectors="velocity">',
  }
  array(out, "Float64", "radius", 1, radius)
  array(out, "Int32", "body_id", 1, pid)
  array(out, "Float64", "velocity", 3, vel)
  out[#out + 1] = "      </PointData>"
  out[#out + 1] = '      <CellData Scalars="force_magnitude" Vectors="force">'
  array(out, "Int32", "body_id", 1, cell_body)
  array(out, "Float64", "force", 3, force)
  array(out, "Float64", "force_magnitude", 1, fmag)
  out[#out + 1] = "      </CellData>"
  out[#out + 1] = "      <Points>"
  array(out, "Float64", "Points", 3, points)
  out[#out + 1] = "      </Points>"
  cells(out, "Verts", verts, vert_off)
  cells(out, "Lines", lines, line_off)
  cells(out, "Polys", polys, poly_off)
  out[#out + 1] = "    </Piece>"
  out[#out + 1] = "  </PolyData>"
  out[#out + 1] = "</VTKFile>"
  return table.concat(out, "\n") .. "\n", scale
end

--- Writes one frame of a world (or snapshot) to file (.vtp). Returns the file name.
function M.write(w, file, opts)
  if type(file) ~= "string" then
    error("impact.vtk.write: the file name must be a string ending in .vtp, got " .. tostring(file), 2)
  end
  files.write(file, (M.polydata(w, opts)), "impact.vtk.write")
  return file
end

--- The text of a .pvd collection: entries { {time =, file =}, ... } (file names relative to it).
function M.collection(entries)
  local out = {
    '<?xml version="1.0"?>',
    '<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">',
    "  <Collection>",
  }
  for _, e in ipairs(entries) do
    out[#out + 1] = string.format('    <DataSet timestep="%s" group="" part="0" file="%s"/>',
      string.format("%.17g", e.time), draw.escape(e.file))
  end
  out[#out + 1] = "  </Collection>"
  out[#out + 1] = "</VTKFile>"
  return table.concat(out, "\n") .. "\n"
end

local Series = {}
Series.__index = Series

local series_keys = { [1] = true, every = true, dir = true, name = true, contacts = true,
  force_scale = true }

--- impact.vtk.series{ w, every = 0 (seconds; 0: each step), dir = "vtk", name = "run",
--- contacts = function(w) -> list, force_scale = m/N } writes dir/name_00000.vtp, ... at the start
--- and each `every` seconds, and keeps dir/name.pvd up to date (so ParaView can open a run that
--- stopped early). Stop with series:stop().
function M.series(opts)
  local what = "impact.vtk.series"
  options.check_keys(what, opts, series_keys,
    { accepted_text = "[1] = world, contacts, dir, every, force_scale, name" })
  local w = opts[1]
  if type(w) ~= "userdata" or type(w.bodies) ~= "function" then
    error(what .. ": the first element must be the world to export", 2)
  end
  local every = periodic.check_every(opts.every or 0, what, 2)
  local name = opts.name or "run"
  if type(name) ~= "string" or not name:match("^[%w_.-]+$") then
    error(what .. ": option 'name' must be letters, digits, '_', '-' or '.', got " .. tostring(name), 2)
  end
  if opts.contacts ~= nil and type(opts.contacts) ~= "function" then
    error(what .. ": option 'contacts' must be a function(world) returning a contact list", 2)
  end
  local self = setmetatable({ world = w, every = every, dir = files.mkdir(opts.dir or "vtk", what),
    name = name, contacts = opts.contacts, force_scale = opts.force_scale, entries = {}, t0 = w.time },
    Series)
  self.pvd = files.join(self.dir, name .. ".pvd")
  self:write_frame()
  self.handler = periodic.on_schedule(w, every, function() self:write_frame() end)
  return self
end

--- Writes the next frame now and updates the collection.
function Series:write_frame()
  local file = string.format("%s_%05d.vtp", self.name, #self.entries)
  local contacts = self.contacts and self.contacts(self.world) or nil
  local text, scale = M.polydata(self.world, { contacts = contacts, force_scale = self.force_scale })
  -- the first frame with contacts fixes the force scale, so arrows compare across frames
  if contacts and #contacts > 0 and self.force_scale == nil and scale > 0 then self.force_scale = scale end
  files.write(files.join(self.dir, file), text, "impact.vtk.series")
  self.entries[#self.entries + 1] = { time = self.world.time, file = file }
  files.write(self.pvd, M.collection(self.entries), "impact.vtk.series")
  return file
end

--- Stops exporting; returns the .pvd file name.
function Series:stop()
  periodic.stop(self)
  return self.pvd
end

return M
