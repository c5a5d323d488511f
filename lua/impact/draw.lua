--- impact.draw: display lists of paths and texts in pixel units (y down), written as SVG (text
--- written here) or PNG (through cairo, src/lua/lua_canvas.c). Plots and pictures build display lists;
--- both formats show the same items.
---
---   items = { { kind = "path", d = { "M", x, y, "L", x, y, "A", cx, cy, r, a0, a1, "Z" },
---               fill = color, stroke = color, width = px, dash = {on, off}, clip = {x, y, w, h} },
---             { kind = "text", x =, y =, text =, size =, color =, anchor = "start"|"middle"|"end",
---               rotate = degrees, middle = true } }
---   draw.write(items, { file = "out.svg" | "out.png", width =, height =, background = color })
---
--- "A" is an arc about (cx, cy) of radius r from angle a0 to a1 (radians in pixel space: increasing
--- angles turn clockwise on the screen); the path's current point must be the arc's start.
--- Colors are "#rrggbb", "#rrggbbaa", a name from draw.named, or {r, g, b [, a]} in [0, 1].
-- @module impact.draw
local core = require("impact.core")
local files = require("impact.files")

local M = {}

M.named = {
  black = "#000000", white = "#ffffff", gray = "#808080", grey = "#808080",
  lightgray = "#d3d3d3", darkgray = "#404040", red = "#d62728", green = "#2ca02c",
  blue = "#1f77b4", orange = "#ff7f0e", purple = "#9467bd", brown = "#8c564b",
  pink = "#e377c2", olive = "#bcbd22", cyan = "#17becf", yellow = "#f0d000",
  none = "#00000000",
}

--- Ten colors that stay apart from each other, for series and bodies (in this order).
M.palette = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf" }

--- A color as {r, g, b, a} in [0, 1]; raises naming `what` for anything else.
function M.color(c, what)
  what = what or "impact.draw: color"
  if type(c) == "string" then
    local hex = M.named[c] or c
    local r, g, b, a = hex:match("^#(%x%x)(%x%x)(%x%x)(%x?%x?)$")
    if r and (a == "" or #a == 2) then
      return { tonumber(r, 16) / 255, tonumber(g, 16) / 255, tonumber(b, 16) / 255,
        a == "" and 1 or tonumber(a, 16) / 255 }
    end
  elseif type(c) == "table" and (#c == 3 or #c == 4) then
    local out = {}
    for i = 1, 4 do
      local v = c[i] or 1
      -- luacheck: push ignore 581
      if type(v) ~= "number" or not (v >= 0 and v <= 1) then
        -- luacheck: pop
        error(string.format("%s: components must be numbers in [0, 1], got %s", what, tostring(v)), 3)
      end
      out[i] = v
    end
    return out
  end
  error(string.format("%s must be \"#rrggbb\", \"#rrggbbaa\", a name (%s) or {r, g, b [, a]}, got %s",
    what, "black, white, red, blue, ...", tostring(c)), 3)
end

--- The palette color number i (1-based, cycling).
function M.pick(i)
  return M.palette[(i - 1) % #M.palette + 1]
end

-- SVG -------------------------------------------------------------------------------------------

local function num(v)
  if v ~= v or v == math.huge or v == -math.huge then
    error("impact.draw: a coordinate is not a finite number (" .. tostring(v) .. ")", 4)
  end
  local s = string.format("%.3f", v):gsub("0+$", ""):gsub("%.$", "")
  if s == "-0" then s = "0" end
  return s
end

local function svg_color(c)
  c = M.color(c)
  return string.format("#%02x%02x%02x", math.floor(c[1] * 255 + 0.5), math.floor(c[2] * 255 + 0.5),
    math.floor(c[3] * 255 + 0.5)), c[4]
end

local function escape(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }))
end
M.escape = escape

-- an SVG arc command for an arc of at most 2 pi; a full turn is two half turns (SVG cannot draw
-- an arc whose end is its start)
local function svg_arc(out, cx, cy, r, a0, a1)
  local sweep = a1 >= a0 and 1 or 0
  local total = a1 - a0
  if math.abs(total) > 2 * math.pi then total = (total > 0 and 2 or -2) * math.pi end
  local pieces = math.abs(total) > math.pi and 2 or 1
  for k = 1, pieces do
    local b = a0 + total * k / pieces
    local large = math.abs(total / pieces) > math.pi and 1 or 0
    out[#out + 1] = string.format("A%s %s 0 %d %d %s %s", num(r), num(r), large, sweep,
      num(cx + r * math.cos(b)), num(cy + r * math.sin(b)))
  end
end

local function svg_path_data(d, item_no)
  local out, k = {}, 1
  while k <= #d do
    local op = d[k]
    if op == "M" or op == "L" then
      out[#out + 1] = op .. num(d[k + 1]) .. " " .. num(d[k + 2])
      k = k + 3
    elseif op == "A" then
      local cx, cy, r, a0, a1 = d[k + 1], d[k + 2], d[k + 3], d[k + 4], d[k + 5]
      -- like cairo, an arc starts with a line from the current point to its start
      out[#out + 1] = "L" .. num(cx + r * math.cos(a0)) .. " " .. num(cy + r * math.sin(a0))
      svg_arc(out, cx, cy, r, a0, a1)
      k = k + 6
    elseif op == "Z" then
      out[#out + 1] = "Z"
      k = k + 1
    else
      error(string.format("impact.draw: item %d: d[%d] must be a command \"M\", \"L\", \"A\" or "
        .. "\"Z\", got %s", item_no, k, tostring(op)), 3)
    end
  end
  -- a path that starts with an arc has no current point in SVG: move to the arc's start
  if out[1] and out[1]:sub(1, 1) == "L" then out[1] = "M" .. out[1]:sub(2) end
  return table.concat(out, " ")
end

local function paint_attrs(item)
  local a = {}
  if item.fill then
    local hex, alpha = svg_color(item.fill)
    a[#a + 1] = string.format('fill="%s"', hex)
    if alpha < 1 then a[#a + 1] = string.format('fill-opacity="%s"', num(alpha)) end
  else
    a[#a + 1] = 'fill="none"'
  end
  if item.stroke and (item.width or 1) > 0 then
    local hex, alpha = svg_color(item.stroke)
    a[#a + 1] = string.format('stroke="%s" stroke-width="%s" stroke-linejoin="round" '
      .. 'stroke-linecap="round"', hex, num(item.width or 1))
    if alpha < 1 then a[#a + 1] = string.format('stroke-opacity="%s"', num(alpha)) end
    if item.dash then a[#a + 1] = string.format('stroke-dasharray="%s %s"', num(item.dash[1]),
      num(item.dash[2])) end
  end
  return table.concat(a, " ")
end

--- The items as an SVG document (a string).
function M.svg(items, width, height, background)
  local out = {
    '<?xml version="1.0" encoding="UTF-8"?>',
    string.format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">',
      width, height, width, height),
  }
  local clips, defs = {}, {}
  for i, item in ipairs(items) do
    if item.clip then
      local key = table.concat({ num(item.clip[1]), num(item.clip[2]), num(item.clip[3]),
        num(item.clip[4]) }, " ")
      if not clips[key] then
        clips[key] = "clip" .. (#defs + 1)
        defs[#defs + 1] = string.format('<clipPath id="%s"><rect x="%s" y="%s" width="%s" height="%s"/>'
          .. '</clipPath>', clips[key], num(item.clip[1]), num(item.clip[2]), num(item.clip[3]),
          num(item.clip[4]))
      end
      item._clip_id = clips[key]
    end
    if item.kind ~= "path" and item.kind ~= "text" then
      error(string.format("impact.draw: item %d: 'kind' must be \"path\" or \"text\", got %s", i,
        tostring(item.kind)), 2)
    end
  end
  if #defs > 0 then out[#out + 1] = "<defs>" .. table.concat(defs) .. "</defs>" end
  if background then
    local hex, alpha = svg_color(background)
    out[#out + 1] = string.format('<rect width="100%%" height="100%%" fill="%s"%s/>', hex,
      alpha < 1 and string.format(' fill-opacity="%s"', num(alpha)) or "")
  end
  for i, item in ipairs(items) do
    local clip = item._clip_id and string.format(' clip-path="url(#%s)"', item._clip_id) or ""
    item._clip_id = nil
    if item.kind == "path" then
      out[#out + 1] = string.format('<path d="%s" %s%s/>', svg_path_data(item.d, i),
        paint_attrs(item), clip)
    else
      local hex, alpha = svg_color(item.color or "black")
      local attrs = {
        string.format('x="%s" y="%s"', num(item.x), num(item.y)),
        string.format('font-family="DejaVu Sans, sans-serif" font-size="%s" fill="%s"',
          num(item.size or 12), hex),
      }
      if alpha < 1 then attrs[#attrs + 1] = string.format('fill-opacity="%s"', num(alpha)) end
      if item.anchor and item.anchor ~= "start" then
        attrs[#attrs + 1] = string.format('text-anchor="%s"', item.anchor)
      end
      if item.middle then attrs[#attrs + 1] = 'dy="0.35em"' end
      if item.rotate and item.rotate ~= 0 then
        attrs[#attrs + 1] = string.format('transform="rotate(%s %s %s)"', num(item.rotate),
          num(item.x), num(item.y))
      end
      out[#out + 1] = string.format("<text %s%s>%s</text>", table.concat(attrs, " "), clip,
        escape(item.text))
    end
  end
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n") .. "\n"
end

local function normalized(items)
  -- colors become {r, g, b, a} for cairo (the SVG writer reads every form)
  local out = {}
  for i, item in ipairs(items) do
    local copy = {}
    for k, v in pairs(item) do copy[k] = v end
    for _, key in ipairs({ "fill", "stroke", "color" }) do
      if copy[key] ~= nil then copy[key] = M.color(copy[key], "impact.draw: item " .. i .. " " .. key) end
    end
    out[i] = copy
  end
  return out
end

--- The format of a file name: "svg" or "png" (by its extension), or nil.
function M.format_of(file)
  local ext = tostring(file):match("%.(%w+)$")
  ext = ext and ext:lower()
  if ext == "svg" or ext == "png" then return ext end
  return nil
end

--- Writes items to opts.file (SVG or PNG by its extension, or opts.format) of opts.width x
--- opts.height pixels on opts.background (default white). Returns the file name.
function M.write(items, opts)
  local file = opts.file
  if type(file) ~= "string" then
    error("impact.draw.write: option 'file' must be a file name ending in .svg or .png, got "
      .. tostring(file), 2)
  end
  local format = opts.format or M.format_of(file)
  if format ~= "svg" and format ~= "png" then
    error(string.format("impact.draw.write: cannot tell the format of %q: name it .svg or .png, or "
      .. "give format = \"svg\" | \"png\"", file), 2)
  end
  local width, height = opts.width, opts.height
  local parent = file:match("^(.*)/[^/]*$")
  if parent and parent ~= "" then files.mkdir(parent, "impact.draw.write") end  -- like films
  local background = opts.background == nil and "white" or opts.background
  if background == false then background = nil end
  if format == "png" then
    core.render_png(normalized(items), width, height, file, background and M.color(background) or nil)
  else
    local f, err = io.open(file, "w")
    if not f then error("impact.draw.write: cannot write " .. err, 2) end
    f:write(M.svg(items, width, height, background))
    f:close()
  end
  return file
end

--- A PNG file read back (through cairo): { width =, height =, pixel = function(x, y) -> r, g, b, a }
--- with x, y pixel indices from the top left (0-based) and components 0..255.
function M.read_png(file)
  local width, height, bytes = core.read_png(file)
  local image = { width = width, height = height }
  function image.pixel(x, y)
    if math.type(x) ~= "integer" or math.type(y) ~= "integer" or x < 0 or y < 0 or x >= width
        or y >= height then
      error(string.format("impact.draw: pixel (%s, %s) is outside the %d x %d image", tostring(x),
        tostring(y), width, height), 2)
    end
    local k = (y * width + x) * 4
    return bytes:byte(k + 1, k + 4)
  end
  return image
end

--- A mapping from world coordinates (y up) to pixels (y down) showing the box
--- {xmin, ymin, xmax, ymax} centred in width x height with `margin` pixels kept free, with the same
--- scale on both axes. Returns { scale =, x = function(wx), y = function(wy), point = function(p) }.
function M.viewport(box, width, height, margin)
  margin = margin or 0
  local bw, bh = box[3] - box[1], box[4] - box[2]
  -- luacheck: push ignore 581
  if not (bw > 0 and bh > 0) then
    -- luacheck: pop
    error(string.format("impact.draw: the view {%s, %s, %s, %s} must have xmax > xmin and ymax > ymin",
      tostring(box[1]), tostring(box[2]), tostring(box[3]), tostring(box[4])), 3)
  end
  local s = math.min((width - 2 * margin) / bw, (height - 2 * margin) / bh)
  local ox = 0.5 * width - s * 0.5 * (box[1] + box[3])
  local oy = 0.5 * height + s * 0.5 * (box[2] + box[4])
  local v = { scale = s, box = box, width = width, height = height }
  function v.x(wx) return ox + s * wx end
  function v.y(wy) return oy - s * wy end
  function v.point(p) return ox + s * p[1], oy - s * p[2] end
  return v
end

return M
