--- impact.plot_live: plots that update while a run goes (Yade's plot.addData + plot.plot), as
--- impact.plot.live:
---
---   local live = impact.plot.live { w, every_steps = 100, file = "triax.svg", x = "t",
---     y = {"szz", "p"}, columns = { t = "time", szz = ..., p = ... }, redraw = 5 }
---   w:run { steps = 100000 }       -- triax.svg is rewritten every 5 samples
---   live:draw()  live:stop()  live.recorder:write_csv("triax.csv")
---
--- The columns and the schedule (every = seconds | every_steps = N) are impact.recorder's; the
--- plot options (file: .svg or .png, x, y, title, x_label, y_label, width, height, ...) are
--- Recorder:plot's. The file is written at the start and after every `redraw` samples (default
--- 1), replaced whole each time (a viewer reloading it sees the run progress).
-- @module impact.plot_live
local periodic = require("impact.periodic")
local options = require("impact.options")
local recorder = require("impact.recorder")

local Live = {}
Live.__index = Live

local record_keys = { [1] = true, every = true, every_steps = true, columns = true }

--- Redraws the file now; returns the plot's display list.
function Live:draw()
  return self.recorder:plot(self.plot_opts)
end

--- Stops recording and redrawing (the file keeps the last drawing; call draw() for a final one).
function Live:stop()
  self.recorder:stop()
  periodic.stop(self)
end

local function live(opts)
  local what = "impact.plot.live"
  if type(opts) ~= "table" then error(what .. ": options must be a table, got " .. type(opts), 2) end
  local file = options.string(what, opts, "file", nil, { required = true })
  if not (file:match("%.svg$") or file:match("%.png$")) then
    error(string.format("%s: option 'file' must end in .svg or .png, got %q", what, file), 2)
  end
  local redraw = options.integer(what, opts, "redraw", 1, { min = 1 })
  local rec_opts, plot_opts = {}, {}
  for k, v in pairs(opts) do
    if record_keys[k] then rec_opts[k] = v elseif k ~= "redraw" then plot_opts[k] = v end
  end
  local ok, rec = pcall(recorder, rec_opts)
  if not ok then error((options.without_position(rec):gsub("^impact%.recorder", what)), 2) end
  local self = setmetatable({ recorder = rec, plot_opts = plot_opts, world = opts[1],
                              samples = 0 }, Live)
  ok = pcall(self.draw, self)
  if not ok then  -- the plot options are checked on the first drawing
    rec:stop()
    local _, err = pcall(self.draw, self)
    error(what .. ": " .. options.without_position(err), 2)
  end
  self.handler = periodic.on_schedule(opts[1], rec.every, function()
    self.samples = self.samples + 1
    if self.samples % redraw == 0 then self:draw() end
  end, rec.every_steps)
  return self
end

return { live = live }
