--- impact.viewer: a recorded run as one self-contained HTML page (no network) that plays it with
--- play/pause and a time slider, in 2D (outlines, arcs as arcs) or 3D (spheres and box faces,
--- turned with the mouse).
---
---   local film = impact.viewer.recorder { w, every = 0.02 }
---   w:run { until_time = 5 }
---   film:write { file = "run.html", title = "Figure eight" }
---
--- The page is lua/impact/viewer.html with the run embedded as JSON. Opening it with
--- "#frame=12" or "#t=1.5" shows that moment paused; the element #status says what is drawn.
-- @module impact.viewer
local periodic = require("impact.periodic")
local options = require("impact.options")
local core = require("impact.core")
local draw = require("impact.draw")
local files = require("impact.files")
local snapshot = require("impact.snapshot")

local M = {}

-- JSON ---------------------------------------------------------------------------------------

local function json_string(s)
  return '"' .. tostring(s):gsub('[%c"\\<>&]', function(c)
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

--- v as JSON: tables with only array keys 1..n are arrays, others objects (keys sorted, so the
--- text is deterministic); numbers must be finite.
local function json(v, out)
  local t = type(v)
  if t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then
      error("impact.viewer: a value to write is not finite (" .. tostring(v) .. ")", 0)
    end
    out[#out + 1] = math.type(v) == "integer" and tostring(v) or string.format("%.9g", v)
  elseif t == "string" then
    out[#out + 1] = json_string(v)
  elseif t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif v == nil then
    out[#out + 1] = "null"
  elseif t == "table" then
    local n = #v
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    if #keys == n then
      out[#out + 1] = "["
      for i = 1, n do
        if i > 1 then out[#out + 1] = "," end
        json(v[i], out)
      end
      out[#out + 1] = "]"
    else
      table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = json_string(tostring(k))
        out[#out + 1] = ":"
        json(v[k], out)
      end
      out[#out + 1] = "}"
    end
  else
    error("impact.viewer: cannot write a " .. t .. " as JSON", 0)
  end
  return out
end
M.json = function(v) return table.concat(json(v, {})) end

-- Recording ----------------------------------------------------------------------------------

local Recorder = {}
Recorder.__index = Recorder

local rec_keys = { [1] = true, every = true, contacts = true }

-- the shape's description for the page (once per shape)
local function describe_shape(shape)
  local d = { kind = shape.kind, centroid = shape:centroid(), radius = shape:bounding_radius() }
  if shape.dim == 2 then
    d.outline = core.shape_outline(shape)
  else
    local kind, mesh = core.shape_mesh(shape)
    if kind == "point" then
      d.sphere = mesh
    else
      d.vertices = mesh.vertices
      d.faces = {}
      for i, f in ipairs(mesh.faces) do
        local zero_based = {}
        for j, k in ipairs(f) do zero_based[j] = k - 1 end
        d.faces[i] = zero_based
      end
    end
  end
  return d
end

--- impact.viewer.recorder{ w, every = 0 (seconds; 0: each step), contacts = function(w) -> list }
--- keeps a frame (every body's pose) at the start and each `every` seconds until rec:stop().
function M.recorder(opts)
  local what = "impact.viewer.recorder"
  options.check_keys(what, opts, rec_keys, { accepted_text = "[1] = world, contacts, every" })
  local w = opts[1]
  if type(w) ~= "userdata" or type(w.bodies) ~= "function" then
    error(what .. ": the first element must be the world to record", 2)
  end
  local every = periodic.check_every(opts.every or 0, what, 2)
  if opts.contacts ~= nil and type(opts.contacts) ~= "function" then
    error(what .. ": option 'contacts' must be a function(world) returning a contact list", 2)
  end
  local self = setmetatable({ world = w, dim = w.dim, every = every, contacts = opts.contacts,
    shapes = {}, shape_index = {}, bodies = {}, body_index = {}, frames = {}, t0 = w.time }, Recorder)
  self:sample()
  self.handler = periodic.on_schedule(w, every, function() self:sample() end)
  return self
end

--- Takes a frame now (of the world, or of a snapshot given).
function Recorder:sample(snap)
  snap = snapshot.take(snap or self.world)
  local frame = { t = snap.time, b = {} }
  for _, b in ipairs(snap.bodies) do
    -- a body is known by its slot and shape (a slot may be reused after a removal)
    local key = tostring(b.id) .. "/" .. tostring(b.shape)
    local index = self.body_index[key]
    if not index then
      local shape_no = nil
      if b.shape then
        shape_no = self.shape_index[b.shape]
        if not shape_no then
          self.shapes[#self.shapes + 1] = describe_shape(b.shape)
          shape_no = #self.shapes - 1
          self.shape_index[b.shape] = shape_no
        end
      end
      self.bodies[#self.bodies + 1] = { id = b.id, name = b.name, fixed = b.fixed, shape = shape_no,
        color = b.fixed and "#b0b0b0" or draw.pick(#self.bodies + 1) }
      index = #self.bodies - 1
      self.body_index[key] = index
    end
    local pose = { index, b.position[1], b.position[2] }
    if self.dim == 2 then
      pose[4] = b.angle
    else
      pose[4] = b.position[3]
      for k = 1, 4 do pose[4 + k] = b.orientation[k] end
    end
    frame.b[#frame.b + 1] = pose
  end
  local contacts = self.contacts and self.contacts(self.world)
  if contacts and #contacts > 0 then
    frame.c = {}
    for i, c in ipairs(contacts) do
      local f = c.force or {}
      local entry = {}
      for k = 1, self.dim do entry[k] = c.point[k] end
      for k = 1, self.dim do entry[self.dim + k] = f[k] or 0 end
      frame.c[i] = entry
    end
  end
  self.frames[#self.frames + 1] = frame
end

--- Stops recording (the frames stay).
function Recorder:stop()
  periodic.stop(self)
  return self
end

--- The number of frames kept.
function Recorder:count() return #self.frames end

--- The run as the data the page reads.
function Recorder:data(opts)
  opts = opts or {}
  return { dim = self.dim, title = opts.title or "impact run", shapes = self.shapes, bodies = self.bodies,
    frames = self.frames, view = opts.view, size = opts.size or { 800, 600 } }
end

local template_cache

local function template()
  if template_cache then return template_cache end
  local lua_file = package.searchpath("impact.viewer", package.path)
  local html = lua_file and lua_file:gsub("%.lua$", ".html")
  local text = html and files.read(html)
  if not text then
    error("impact.viewer: the page template viewer.html is missing next to "
      .. tostring(lua_file) .. " (reinstall impact)", 0)
  end
  template_cache = text
  return text
end

--- rec:write{ file = "run.html", title =, size = {width, height} (pixels, default 800 x 600),
--- view = {xmin, ymin, xmax, ymax} (2D; default: every body over the whole run) }. Returns file.
function Recorder:write(opts)
  return M.write(self, opts)
end

local write_keys = { file = true, title = true, size = true, view = true }

--- M.write(recorder, opts): the same as rec:write(opts).
function M.write(rec, opts)
  local what = "impact.viewer.write"
  if type(opts) ~= "table" or type(opts.file) ~= "string" then
    error(what .. ": options must be a table with file = \"name.html\"", 3)
  end
  options.check_keys(what, opts, write_keys, { level = 3 })
  if opts.size ~= nil and (type(opts.size) ~= "table" or math.type(opts.size[1]) ~= "integer"
      or math.type(opts.size[2]) ~= "integer" or opts.size[1] < 16 or opts.size[2] < 16) then
    error(what .. ": option 'size' must be {width, height}, integers >= 16", 3)
  end
  if opts.view ~= nil then
    local v = opts.view
    if type(v) ~= "table" or #v ~= 4 or not (v[3] > v[1] and v[4] > v[2]) then
      error(what .. ": option 'view' must be {xmin, ymin, xmax, ymax} with xmax > xmin, ymax > ymin", 3)
    end
  end
  local ok, text = pcall(M.json, rec:data(opts))
  if not ok then error(what .. ": " .. text, 3) end
  local page = template()
  local at = page:find("/*IMPACT_RUN_DATA*/", 1, true)
  page = page:sub(1, at - 1) .. text .. page:sub(at + #"/*IMPACT_RUN_DATA*/")
  files.write(opts.file, page, what)
  return opts.file
end

return M
