--- impact.periodic: the schedule shared by the recorder, films, VTK series and the viewer.
--- The caller samples at the start; then each time the simulated time passes a multiple of
--- `every` after the start (every = 0: after each step), or every N steps.
-- @module impact.periodic
local options = require("impact.options")
local M = {}

--- Checks `every` (seconds: a finite number >= 0) and returns it; raises naming `what`, as if
--- from the function `level` levels up (2: the caller of the constructor that calls this).
function M.check_every(every, what, level)
  local v = options.check_number(what, "every", every, { min = 0, level = level + 1 })
  return v
end

--- Calls fn() after each step of w at which a sample is due: each multiple of `every` seconds
--- after the current time (every = 0: each step), or every `steps` steps when steps is given.
--- Returns the step handler, for w:off("step", handler).
function M.on_schedule(w, every, fn, steps)
  local t0, steps0 = w.time, w.steps
  local next_time = t0 + every
  return w:on("step", function(ww)
    if steps then
      if (ww.steps - steps0) % steps == 0 then fn() end
    elseif every == 0 or ww.time >= next_time - 1e-9 * ww.dt then
      fn()
      if every > 0 then
        next_time = t0 + (math.floor((ww.time - t0) / every + 1e-9) + 1) * every
      end
    end
  end)
end

--- Ends what on_schedule started for obj (obj.world, obj.handler); calling it again does nothing.
function M.stop(obj)
  if obj.handler and obj.world then
    obj.world:off("step", obj.handler)
    obj.handler = nil
  end
end

return M
