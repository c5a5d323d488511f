--- impact.plot: line plots with axes, ticks, labels, a legend and several series, written as SVG
--- or PNG (impact.draw).
---
---   impact.plot { file = "heights.png", title = "Projectile", x_label = "t (s)", y_label = "y (m)",
---     series = { { x = ts, y = ys, label = "y" }, { x = ts, y = y2, label = "theory", dash = true } } }
---
--- Options: file (.svg or .png; optional: the display list is returned either way), width = 640,
--- height = 400, title, x_label, y_label, x_range = {lo, hi}, y_range = {lo, hi} (default: the data,
--- widened to whole ticks), legend = true, grid = true, background = "white".
--- A series: x, y (arrays of numbers of the same length; NaN leaves a gap), label, color (default
--- the palette in order), width = 2, dash = true | {on, off}, points = true (markers, no line).
-- @module impact.plot
local draw = require("impact.draw")

local M = {}

local options = require("impact.options")

local plot_keys = { file = true, width = true, height = true, title = true, x_label = true,
  y_label = true, x_range = true, y_range = true, legend = true, grid = true, background = true,
  series = true }
local series_keys = { x = true, y = true, label = true, color = true, width = true, dash = true,
  points = true }

local function fail(fmt, ...)
  error("impact.plot: " .. string.format(fmt, ...), options.user_level())
end

local function finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

--- The "nice" number near x: 1, 2 or 5 times a power of ten, rounded (round = true) or not below
--- x. Heckbert, "Nice numbers for graph labels", Graphics Gems (1990).
local function nice(x, round)
  local e = math.floor(math.log(x, 10))
  local f = x / 10 ^ e
  local nf
  if round then
    nf = f < 1.5 and 1 or f < 3 and 2 or f < 7 and 5 or 10
  else
    nf = f <= 1 and 1 or f <= 2 and 2 or f <= 5 and 5 or 10
  end
  return nf * 10 ^ e
end

--- Tick positions covering [lo, hi] with about n ticks: returns lo', hi' (widened to ticks when
--- widen), step, and the ticks inside the range.
function M.ticks(lo, hi, n, widen)
  n = n or 5
  if hi < lo then lo, hi = hi, lo end
  if hi - lo <= 1e-12 * math.max(math.abs(lo), math.abs(hi)) or hi == lo then
    local pad = lo == 0 and 1 or 0.1 * math.abs(lo)
    lo, hi = lo - pad, hi + pad
  end
  local step = nice(nice(hi - lo, false) / (n - 1), true)
  local first, last = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
  if widen then lo, hi = first, last end
  local ticks = {}
  local k0 = math.ceil(lo / step - 1e-9)
  local k = k0
  while k * step <= hi + 1e-9 * step do
    local v = k * step
    if math.abs(v) < 1e-12 * step then v = 0 end
    ticks[#ticks + 1] = v
    k = k + 1
  end
  return lo, hi, step, ticks
end

local function tick_label(v, step)
  local mag = math.max(math.abs(v), step)
  if mag >= 1e5 or step < 1e-4 then
    return (string.format("%.3g", v):gsub("e%+?(%-?)0*(%d)", "e%1%2"))
  end
  local digits = math.max(0, -math.floor(math.log(step, 10) + 1e-9))
  return string.format("%." .. digits .. "f", v)
end

local function data_range(series, axis)
  local lo, hi = math.huge, -math.huge
  for _, s in ipairs(series) do
    for i = 1, #s[axis] do
      local v = s[axis][i]
      if v == v then
        lo = math.min(lo, v)
        hi = math.max(hi, v)
      end
    end
  end
  if lo > hi then lo, hi = 0, 1 end
  return lo, hi
end

local function check_range(r, name)
  if r == nil then return nil end
  if type(r) ~= "table" or not finite(r[1]) or not finite(r[2]) or r[2] <= r[1] then
    local got = type(r) == "table" and string.format("{%s, %s}", options.shown(r[1]), options.shown(r[2]))
      or options.shown(r)
    fail("option '%s' must be {lo, hi} with finite lo < hi, got %s", name, got)
  end
  return r
end

local function check_series(opts)
  if type(opts.series) ~= "table" or #opts.series == 0 then
    fail("option 'series' must be a non-empty array of { x =, y =, label = }")
  end
  for i, s in ipairs(opts.series) do
    if type(s) ~= "table" then fail("series %d must be a table, got %s", i, type(s)) end
    options.check_keys("impact.plot", s, series_keys, { parent = "series[" .. i .. "]", level = 3 })
    if type(s.x) ~= "table" or type(s.y) ~= "table" then
      fail("series %d needs x and y, arrays of numbers", i)
    end
    if #s.x ~= #s.y then
      fail("series %d: x has %d values and y has %d", i, #s.x, #s.y)
    end
    for _, axis in ipairs({ "x", "y" }) do
      for j = 1, #s[axis] do
        local v = s[axis][j]
        if type(v) ~= "number" or v == math.huge or v == -math.huge then
          fail("series %d: %s[%d] must be a finite number (or NaN for a gap), got %s", i, axis, j,
            tostring(v))
        end
      end
    end
  end
end

--- Builds the plot's display list; writes opts.file when given. Returns items, width, height and
--- the layout { left, top, width, height (of the plotting area, pixels), x = fn, y = fn (data to
--- pixels), x_range, y_range }.
function M.plot(opts)
  options.check_keys("impact.plot", opts, plot_keys)
  check_series(opts)
  local width, height = opts.width or 640, opts.height or 400
  if math.type(width) ~= "integer" or math.type(height) ~= "integer" or width < 100 or height < 80 then
    fail("width and height must be integers of at least 100 x 80 pixels, got %s x %s",
      tostring(width), tostring(height))
  end
  local xr, yr = check_range(opts.x_range, "x_range"), check_range(opts.y_range, "y_range")
  local x0, x1, xstep, xticks
  local y0, y1, ystep, yticks
  if xr then
    x0, x1, xstep, xticks = M.ticks(xr[1], xr[2], 6, false)
  else
    local lo, hi = data_range(opts.series, "x")
    x0, x1, xstep, xticks = M.ticks(lo, hi, 6, true)
  end
  if yr then
    y0, y1, ystep, yticks = M.ticks(yr[1], yr[2], 6, false)
  else
    local lo, hi = data_range(opts.series, "y")
    y0, y1, ystep, yticks = M.ticks(lo, hi, 6, true)
  end

  local left, right = 72, 20
  local top = opts.title and 40 or 20
  local bottom = opts.x_label and 56 or 36
  local pw, ph = width - left - right, height - top - bottom
  local function px(x) return left + (x - x0) / (x1 - x0) * pw end
  local function py(y) return top + ph - (y - y0) / (y1 - y0) * ph end
  local clip = { left, top, pw, ph }
  local items = {}
  local function add(item) items[#items + 1] = item end

  local grid = opts.grid ~= false
  for _, v in ipairs(xticks) do
    local x = px(v)
    if grid then add { kind = "path", d = { "M", x, top, "L", x, top + ph }, stroke = "#e4e4e4",
      width = 1 } end
    add { kind = "path", d = { "M", x, top + ph, "L", x, top + ph + 5 }, stroke = "black", width = 1 }
    add { kind = "text", x = x, y = top + ph + 18, text = tick_label(v, xstep), size = 11, anchor = "middle" }
  end
  for _, v in ipairs(yticks) do
    local y = py(v)
    if grid then add { kind = "path", d = { "M", left, y, "L", left + pw, y }, stroke = "#e4e4e4",
      width = 1 } end
    add { kind = "path", d = { "M", left - 5, y, "L", left, y }, stroke = "black", width = 1 }
    add { kind = "text", x = left - 8, y = y, text = tick_label(v, ystep), size = 11, anchor = "end",
      middle = true }
  end
  add { kind = "path", d = { "M", left, top, "L", left + pw, top, "L", left + pw, top + ph, "L", left,
    top + ph, "Z" }, stroke = "black", width = 1 }
  if opts.title then
    add { kind = "text", x = left + pw / 2, y = top / 2 + 2, text = tostring(opts.title), size = 15,
      anchor = "middle", middle = true }
  end
  if opts.x_label then
    add { kind = "text", x = left + pw / 2, y = height - 12, text = tostring(opts.x_label), size = 12,
      anchor = "middle" }
  end
  if opts.y_label then
    add { kind = "text", x = 16, y = top + ph / 2, text = tostring(opts.y_label), size = 12,
      anchor = "middle", middle = true, rotate = -90 }
  end

  for i, s in ipairs(opts.series) do
    local color = s.color or draw.pick(i)
    local dash = s.dash == true and { 6, 4 } or s.dash or nil
    if s.points then
      for j = 1, #s.x do
        if s.x[j] == s.x[j] and s.y[j] == s.y[j] then
          local cx, cy = px(s.x[j]), py(s.y[j])
          add { kind = "path", d = { "M", cx + 3, cy, "A", cx, cy, 3, 0, 2 * math.pi, "Z" },
            fill = color, clip = clip }
        end
      end
    else
      local d, pen = {}, false
      for j = 1, #s.x do
        if s.x[j] == s.x[j] and s.y[j] == s.y[j] then
          d[#d + 1] = pen and "L" or "M"
          d[#d + 1] = px(s.x[j])
          d[#d + 1] = py(s.y[j])
          pen = true
        else
          pen = false
        end
      end
      if #d > 0 then
        add { kind = "path", d = d, stroke = color, width = s.width or 2, dash = dash, clip = clip }
      end
    end
  end

  local labelled = {}
  for i, s in ipairs(opts.series) do
    if s.label then labelled[#labelled + 1] = { i = i, s = s } end
  end
  if opts.legend ~= false and #labelled > 0 then
    local longest = 0
    for _, e in ipairs(labelled) do longest = math.max(longest, #tostring(e.s.label)) end
    local lw, lh = 44 + 7 * longest, 8 + 18 * #labelled
    local lx, ly = left + pw - lw - 8, top + 8
    add { kind = "path", d = { "M", lx, ly, "L", lx + lw, ly, "L", lx + lw, ly + lh, "L", lx, ly + lh, "Z" },
      fill = { 1, 1, 1, 0.85 }, stroke = "#a0a0a0", width = 1 }
    for k, e in ipairs(labelled) do
      local y = ly + 4 + 18 * (k - 0.5)
      local color = e.s.color or draw.pick(e.i)
      if e.s.points then
        add { kind = "path", d = { "M", lx + 21, y, "A", lx + 18, y, 3, 0, 2 * math.pi, "Z" }, fill = color }
      else
        add { kind = "path", d = { "M", lx + 8, y, "L", lx + 30, y }, stroke = color, width = e.s.width or 2,
          dash = e.s.dash == true and { 6, 4 } or e.s.dash or nil }
      end
      add { kind = "text", x = lx + 36, y = y, text = tostring(e.s.label), size = 11, middle = true }
    end
  end

  if opts.file ~= nil then
    draw.write(items, { file = opts.file, width = width, height = height,
      background = opts.background == nil and "white" or opts.background })
  end
  return items, width, height, { left = left, top = top, width = pw, height = ph, x = px, y = py,
    x_range = { x0, x1 }, y_range = { y0, y1 } }
end

-- the items moved down by dy pixels
local function shifted(items, dy)
  local out = {}
  for i, item in ipairs(items) do
    local c = {}
    for k, v in pairs(item) do c[k] = v end
    if item.kind == "text" then
      c.y = item.y + dy
    elseif item.d then
      local d, j = {}, 1
      while j <= #item.d do
        local op = item.d[j]
        d[#d + 1] = op
        if op == "M" or op == "L" then
          d[#d + 1], d[#d + 2] = item.d[j + 1], item.d[j + 2] + dy
          j = j + 3
        elseif op == "A" then
          d[#d + 1], d[#d + 2], d[#d + 3], d[#d + 4], d[#d + 5] = item.d[j + 1], item.d[j + 2] + dy,
            item.d[j + 3], item.d[j + 4], item.d[j + 5]
          j = j + 6
        else
          j = j + 1
        end
      end
      c.d = d
    end
    if item.clip then c.clip = { item.clip[1], item.clip[2] + dy, item.clip[3], item.clip[4] } end
    out[i] = c
  end
  return out
end

--- Several plots one above the other in one file, sharing the width: plot.stack{panels =
--- {opts, ...}, file =, width = 640, background =}, each panel the options of plot{} (its
--- height 260 pixels unless given; no file). Returns the items, width and height.
function M.stack(opts)
  options.check_keys("impact.plot.stack", opts,
    { panels = true, file = true, width = true, background = true })
  if type(opts.panels) ~= "table" or #opts.panels == 0 then
    fail("stack: option 'panels' must be a non-empty array of plot options")
  end
  local items, width, y = {}, opts.width or 640, 0
  for _, p in ipairs(opts.panels) do
    local popts = {}
    for k, v in pairs(p) do popts[k] = v end
    popts.file, popts.width, popts.height = nil, width, p.height or 260
    local panel_items, _, h = M.plot(popts)
    table.move(shifted(panel_items, y), 1, #panel_items, #items + 1, items)
    y = y + h
  end
  if opts.file ~= nil then
    draw.write(items, { file = opts.file, width = width, height = y,
      background = opts.background == nil and "white" or opts.background })
  end
  return items, width, y
end

--- impact.plot.live{w, columns, every | every_steps, file, x, y, redraw, ...}: a plot redrawn
--- while the world runs (impact.plot_live).
function M.live(opts) return require("impact.plot_live").live(opts) end

return setmetatable(M, { __call = function(_, opts) return M.plot(opts) end })
