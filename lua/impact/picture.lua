--- impact.picture: pictures of 2D worlds (SVG or PNG), numbered frames of a run, and films
--- (GIF or MP4 through ffmpeg when it is installed).
---
---   impact.picture.frame(w, { file = "pile.png", width = 800, height = 600,
---     view = {xmin, ymin, xmax, ymax}, contacts = { {point =, normal =, force =}, ... } })
---   local film = impact.picture.film { w, every = 1/25, dir = "frames", view = {...} }
---   w:run { until_time = 4 }
---   film:stop(); film:encode { file = "pile.gif", fps = 25 }
---
--- Bodies are filled with the palette (fixed bodies grey) and outlined; arcs are drawn as arcs.
--- Contacts are drawn when a list is given (a point, its normal, a force arrow), e.g. built from
--- w:contacts() (whose force is the magnitude along the normal).
-- @module impact.picture
local periodic = require("impact.periodic")
local options = require("impact.options")
local core = require("impact.core")
local draw = require("impact.draw")
local files = require("impact.files")
local snapshot = require("impact.snapshot")

local M = {}

local frame_keys = { file = true, format = true, width = true, height = true, view = true,
  margin = true, background = true, contacts = true, springs = true, show_normals = true, force_scale = true,
  time = true, names = true, style = true }
local accepted_text = "background, contacts, file, force_scale, format, height, margin, names, springs, "
  .. "show_normals, style, time, view, width"

local function check_frame_opts(opts, what, extra)
  options.check_keys(what, opts, frame_keys, { extra = extra, level = 3,
    accepted_text = accepted_text .. (extra and ", " .. extra._text or "") })
  local width, height = opts.width or 800, opts.height or 600
  if math.type(width) ~= "integer" or math.type(height) ~= "integer" or width < 16 or height < 16 then
    error(string.format("%s: width and height must be integers >= 16, got %s x %s", what,
      tostring(width), tostring(height)), 3)
  end
  if opts.view ~= nil then
    local v = opts.view
    if type(v) ~= "table" or #v ~= 4 then
      error(what .. ": option 'view' must be {xmin, ymin, xmax, ymax}, got " .. tostring(v), 3)
    end
    for i = 1, 4 do
      if type(v[i]) ~= "number" or v[i] ~= v[i] or math.abs(v[i]) == math.huge then
        error(string.format("%s: option 'view' must hold finite numbers, got view[%d] = %s", what, i,
          tostring(v[i])), 3)
      end
    end
    if not (v[3] > v[1] and v[4] > v[2]) then
      error(string.format("%s: option 'view' must have xmax > xmin and ymax > ymin, got {%g, %g, %g, %g}",
        what, v[1], v[2], v[3], v[4]), 3)
    end
  end
  return width, height
end

--- A view {xmin, ymin, xmax, ymax} around every body of the snapshot with a border of `pad`
--- (a fraction of the larger side, default 0.1).
function M.fit(snap, pad)
  snap = snapshot.take(snap)
  local box = snapshot.bounds(snap)
  if not box then return { -1, -1, 1, 1 } end
  local size = math.max(box[3] - box[1], box[4] - box[2], 1e-9)
  local p = (pad or 0.1) * size
  return { box[1] - p, box[2] - p, box[3] + p, box[4] + p }
end

-- outlines are computed once per shape (shapes are immutable)
local outline_cache = setmetatable({}, { __mode = "k" })

local function outline_of(shape)
  local o = outline_cache[shape]
  if not o then
    o = core.shape_outline(shape)
    outline_cache[shape] = o
  end
  return o
end

-- a body's outline as a pixel-space path: world = position + R (p - centroid); pixel angles are
-- minus world angles (y is down), so a counter-clockwise world arc runs the other way in pixels
local function body_path(b, v)
  local shape = b.shape
  local cen = shape:centroid()
  local d = {}
  for _, c in ipairs(outline_of(shape)) do
    local op = c[1]
    if op == "move" or op == "line" then
      local x, y = snapshot.place2({ c[2], c[3] }, cen, b.position, b.angle)
      d[#d + 1] = op == "move" and "M" or "L"
      d[#d + 1] = v.x(x)
      d[#d + 1] = v.y(y)
    elseif op == "arc" then
      local x, y = snapshot.place2({ c[2], c[3] }, cen, b.position, b.angle)
      d[#d + 1] = "A"
      d[#d + 1] = v.x(x)
      d[#d + 1] = v.y(y)
      d[#d + 1] = c[4] * v.scale
      d[#d + 1] = -(c[5] + b.angle)
      d[#d + 1] = -(c[6] + b.angle)
    else
      d[#d + 1] = "Z"
    end
  end
  return d
end

local function arrow(items, x0, y0, x1, y1, color, width)
  local dx, dy = x1 - x0, y1 - y0
  local len = math.sqrt(dx * dx + dy * dy)
  if len < 1e-9 then return end
  local ux, uy = dx / len, dy / len
  local head = math.min(10, 0.4 * len)
  items[#items + 1] = { kind = "path", d = { "M", x0, y0, "L", x1, y1 }, stroke = color, width = width }
  items[#items + 1] = { kind = "path", d = { "M", x1, y1,
    "L", x1 - head * ux + 0.5 * head * uy, y1 - head * uy - 0.5 * head * ux,
    "L", x1 - head * ux - 0.5 * head * uy, y1 - head * uy + 0.5 * head * ux, "Z" }, fill = color }
end

local function check_contacts(contacts, what)
  if contacts == nil then return {} end
  if type(contacts) ~= "table" then
    error(what .. ": option 'contacts' must be an array of {point =, normal =, force =}, got "
      .. type(contacts), 4)
  end
  for i, c in ipairs(contacts) do
    if type(c) ~= "table" or type(c.point) ~= "table" or #c.point < 2 then
      error(string.format("%s: contacts[%d] needs a point {x, y}", what, i), 4)
    end
    for _, key in ipairs({ "point", "normal", "force" }) do
      local v = c[key]
      if v ~= nil then
        if type(v) ~= "table" then
          error(string.format("%s: contacts[%d].%s must be a vector, got %s", what, i, key, type(v)), 4)
        end
        for k = 1, 2 do
          if type(v[k]) ~= "number" or v[k] ~= v[k] or math.abs(v[k]) == math.huge then
            error(string.format("%s: contacts[%d].%s[%d] must be a finite number, got %s", what, i, key,
              k, tostring(v[k])), 4)
          end
        end
      end
    end
  end
  return contacts
end

--- The display list of a frame of a 2D world (or snapshot) and its size; see M.frame.
function M.items(w, opts, what)
  opts = opts or {}
  what = what or "impact.picture.items"
  local width, height = check_frame_opts(opts, what, opts._extra)
  local snap = snapshot.take(w)
  if snap.dim ~= 2 then
    error(what .. ": pictures are of 2D worlds; export a 3D world with impact.vtk or impact.viewer", 3)
  end
  local contacts = check_contacts(opts.contacts, what)
  local view = draw.viewport(opts.view or M.fit(snap), width, height, opts.margin or 0)
  local items = {}
  for i, b in ipairs(snap.bodies) do
    local style = opts.style and opts.style(b) or {}
    local fill = style.fill or (b.fixed and "#b0b0b0" or draw.pick(i))
    local stroke = style.stroke or "#202020"
    if b.shape then
      items[#items + 1] = { kind = "path", d = body_path(b, view), fill = fill, stroke = stroke, width = 1.5 }
      if b.shape.kind == "circle" then  -- a radius shows the ball's turn
        local r = b.shape:bounding_radius()
        local x1, y1 = b.position[1] + r * math.cos(b.angle), b.position[2] + r * math.sin(b.angle)
        items[#items + 1] = { kind = "path", d = { "M", view.x(b.position[1]), view.y(b.position[2]),
          "L", view.x(x1), view.y(y1) }, stroke = stroke, width = 1.5 }
      end
    else
      local x, y = view.point(b.position)
      items[#items + 1] = { kind = "path", d = { "M", x - 4, y - 4, "L", x + 4, y + 4, "M", x - 4, y + 4,
        "L", x + 4, y - 4 }, stroke = stroke, width = 1.5 }
    end
    if opts.names and b.name then
      local x, y = view.point(b.position)
      items[#items + 1] = { kind = "text", x = x, y = y, text = b.name, size = 11, anchor = "middle",
        middle = true }
    end
  end
  -- springs (handles from w:add_spring): a zigzag of 8 teeth between their end points
  for _, sp in ipairs(opts.springs or {}) do
    -- a spring's point1 and point2 read back as world points
    local ax, ay = view.point(sp.point1)
    local bx, by = view.point(sp.point2)
    local dx, dy = bx - ax, by - ay
    local len = math.sqrt(dx * dx + dy * dy)
    local d = { "M", ax, ay }
    if len > 1e-9 then
      local nx, ny = -dy / len * 5, dx / len * 5
      for k = 1, 15 do
        local f, side = k / 16, (k % 2 == 1) and 1 or -1
        d[#d + 1], d[#d + 2], d[#d + 3] = "L", ax + f * dx + side * nx, ay + f * dy + side * ny
      end
    end
    d[#d + 1], d[#d + 2], d[#d + 3] = "L", bx, by
    items[#items + 1] = { kind = "path", d = d, stroke = "#505050", width = 1.2 }
  end
  -- contacts: force arrows scaled so the largest is force_scale m/N, by default 15 % of the view
  local fmax = 0
  for _, c in ipairs(contacts) do
    if c.force then fmax = math.max(fmax, math.sqrt(c.force[1] ^ 2 + c.force[2] ^ 2)) end
  end
  local vbox = view.box
  local fscale = opts.force_scale or (fmax > 0 and 0.15 * math.min(vbox[3] - vbox[1],
    vbox[4] - vbox[2]) / fmax or 0)
  for _, c in ipairs(contacts) do
    local x, y = view.point(c.point)
    if c.force and fscale > 0 then
      arrow(items, x, y, view.x(c.point[1] + fscale * c.force[1]), view.y(c.point[2] + fscale * c.force[2]),
        "#c00000", 2)
    end
    if c.normal and opts.show_normals then
      local n = math.sqrt(c.normal[1] ^ 2 + c.normal[2] ^ 2)
      if n > 0 then
        arrow(items, x, y, x + 20 * c.normal[1] / n, y - 20 * c.normal[2] / n, "#0060c0", 1.5)
      end
    end
    items[#items + 1] = { kind = "path", d = { "M", x + 3.5, y, "A", x, y, 3.5, 0, 2 * math.pi, "Z" },
      fill = "#e00000", stroke = "white", width = 1 }
  end
  if opts.time ~= false then
    items[#items + 1] = { kind = "text", x = 8, y = 18, text = string.format("t = %.3f s", snap.time),
      size = 13, color = "#303030" }
  end
  return items, width, height, view
end

--- Writes a picture of a 2D world (or snapshot) to opts.file (.svg or .png). Options: width = 800,
--- height = 600 (pixels), view = {xmin, ymin, xmax, ymax} (default: every body with a 10 % border;
--- same scale on both axes), margin (pixels), background = "white", contacts = { {point =, normal =,
--- force =}, ... }, springs = { spring handles from w:add_spring }, show_normals, force_scale (m per N;
--- default: the largest force is 15 % of the
--- view), time = false (no time label), names = true (body names), style = function(body) ->
--- {fill =, stroke =}. Returns the file name and the viewport (its x(), y() map world to pixels).
function M.frame(w, opts)
  if type(opts) ~= "table" or type(opts.file) ~= "string" then
    error("impact.picture.frame: options must be a table with file = \"name.svg\" | \"name.png\"", 2)
  end
  local items, width, height, view = M.items(w, opts, "impact.picture.frame")
  draw.write(items, { file = opts.file, format = opts.format, width = width, height = height,
    background = opts.background })
  return opts.file, view
end

-- Films ------------------------------------------------------------------------------------------

local Film = {}
Film.__index = Film

local film_extra = { [1] = true, every = true, dir = true, prefix = true,
  _text = "[1] = world, dir, every, prefix" }

--- impact.picture.film{ w, every = 1/25, dir = "frames", format = "png", prefix = "frame_", ... }
--- writes dir/frame_00000.png, ... at the start and each `every` seconds of simulated time while
--- the world runs (every = 0: each step), until film:stop(). Frame options as for M.frame; the view
--- is fixed by the first frame unless given.
function M.film(opts)
  local what = "impact.picture.film"
  if type(opts) ~= "table" then error(what .. ": options must be a table, got " .. type(opts), 2) end
  check_frame_opts(opts, what, film_extra)
  local w = opts[1]
  if type(w) ~= "userdata" or type(w.bodies) ~= "function" then
    error(what .. ": the first element must be the world to film", 2)
  end
  if w.dim ~= 2 then
    error(what .. ": films are of 2D worlds; export a 3D run with impact.vtk.series or impact.viewer", 2)
  end
  local every = periodic.check_every(opts.every or 1 / 25, what, 2)
  local format = opts.format or "png"
  if format ~= "png" and format ~= "svg" then
    error(what .. ": option 'format' must be \"png\" or \"svg\", got " .. tostring(format), 2)
  end
  local dir = files.mkdir(opts.dir or "frames", what)
  local frame_opts = {}
  for k, v in pairs(opts) do
    if frame_keys[k] and k ~= "file" and k ~= "format" then frame_opts[k] = v end
  end
  frame_opts.view = frame_opts.view or M.fit(w, 0.25)
  local self = setmetatable({ world = w, every = every, dir = dir, format = format,
    prefix = opts.prefix or "frame_", frame_opts = frame_opts, files = {}, times = {},
    t0 = w.time }, Film)
  self:shoot()
  self.handler = periodic.on_schedule(w, every, function() self:shoot() end)
  return self
end

--- Writes the next frame now.
function Film:shoot()
  local name = files.join(self.dir, string.format("%s%05d.%s", self.prefix, #self.files, self.format))
  local items, width, height = M.items(self.world, self.frame_opts, "impact.picture.film")
  draw.write(items, { file = name, width = width, height = height, background = self.frame_opts.background })
  self.files[#self.files + 1] = name
  self.times[#self.times + 1] = self.world.time
  return name
end

--- Stops filming (the frames written stay). Returns the list of frame files.
function Film:stop()
  periodic.stop(self)
  return self.files
end

--- The program used for films (settable); M.have_ffmpeg() says whether it is on PATH.
M.ffmpeg = "ffmpeg"
function M.have_ffmpeg() return files.have(M.ffmpeg) end

--- film:encode{ file = "run.gif" | "run.mp4", fps = 25 }: the frames as a GIF or an MP4 (H.264)
--- through ffmpeg. Raises a clear message when ffmpeg is not installed. Returns the file name.
function Film:encode(opts)
  return M.encode(self, opts)
end

--- M.encode(film_or_dir_pattern, {file, fps}): the same for frames written elsewhere, given as
--- a film, or a table {pattern = "dir/frame_%05d.png"}.
function M.encode(frames, opts)
  local what = "impact.picture.encode"
  if type(opts) ~= "table" or type(opts.file) ~= "string" then
    error(what .. ": options must be a table with file = \"name.gif\" | \"name.mp4\"", 3)
  end
  local ext = (opts.file:match("%.(%w+)$") or ""):lower()
  if ext ~= "gif" and ext ~= "mp4" then
    error(what .. ": the film's file must end in .gif or .mp4, got " .. opts.file, 3)
  end
  local fps = options.number(what, opts, "fps", 25,
    { min = 0, min_open = true, max = 1000, text = "a number in (0, 1000]", level = 3 })
  local pattern
  if frames.format then
    if frames.format ~= "png" then
      error(what .. ": films are made from PNG frames; this film wrote " .. frames.format .. " frames", 3)
    end
    if #frames.files == 0 then error(what .. ": the film has no frames", 3) end
    pattern = files.join(frames.dir, frames.prefix .. "%05d.png")
  else
    pattern = frames.pattern
  end
  if not M.have_ffmpeg() then
    error(string.format("%s: making %s needs ffmpeg, which is not installed (Debian: apt-get install "
      .. "ffmpeg); the frames are kept as %s", what, opts.file, pattern), 3)
  end
  local filter = ext == "gif" and "split[a][b];[a]palettegen[p];[b][p]paletteuse"
    or "pad=ceil(iw/2)*2:ceil(ih/2)*2"
  local codec = ext == "mp4" and " -c:v libx264 -pix_fmt yuv420p" or ""
  local cmd = string.format("%s -y -loglevel error -framerate %s -i %s -vf %s%s %s 2>&1",
    files.quote(M.ffmpeg), tostring(fps), files.quote(pattern), files.quote(filter), codec,
    files.quote(opts.file))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local ok = p:close()
  if not ok then
    error(string.format("%s: ffmpeg could not make %s: %s", what, opts.file, out), 3)
  end
  return opts.file
end

return M
