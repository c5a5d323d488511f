--- impact.progress: the progress report of long runs, on stderr (`w:run{progress = true}` and
--- `bin/impact run`): on a terminal a bar redrawn in place (fraction done, simulated time,
--- steps per second, the time left), otherwise a plain line at each tenth of the run.
-- @module impact.progress
local core = require("impact.core")

local M = {}

--- A duration as a person reads it: "4.2 s", "3 min 07 s", "2 h 05 min" ("?" when unknown).
-- @tparam number s seconds
-- @treturn string
function M.format_seconds(s)
  if s ~= s or s == math.huge then return "?" end
  if s < 60 then return string.format("%.1f s", s) end
  if s < 3600 then return string.format("%d min %02d s", s // 60, math.floor(s % 60)) end
  return string.format("%d h %02d min", s // 3600, math.floor(s % 3600 / 60))
end

--- Whether stderr is a terminal (then the report is a bar, else plain lines).
-- @treturn boolean
function M.stderr_is_terminal()
  return os.execute("test -t 2") == true
end

--- A reporter for a run from simulated time t0 to t_end.
-- @tparam string mode "bar" (redrawn in place) or "lines" (one line each 10 %)
-- @tparam number t0 the start time (s)
-- @tparam number t_end the end time (s)
-- @tparam[opt] function clock a monotonic clock in seconds (default: impact.core.clock)
-- @treturn function report(w, done_steps, finished): call after each batch of steps, and once
-- with finished = true at the end
function M.reporter(mode, t0, t_end, clock)
  clock = clock or core.clock
  local start, last_draw, next_tenth = clock(), -1, 1
  local width = 30
  return function(w, done_steps, finished)
    local now = clock()
    local frac = t_end > t0 and math.min(1, (w.time - t0) / (t_end - t0)) or 1
    local elapsed = now - start
    local rate = elapsed > 0 and done_steps / elapsed or 0
    local left = frac > 0 and elapsed * (1 - frac) / frac or math.huge
    if mode == "bar" then
      if not finished and now - last_draw < 0.1 then return end
      last_draw = now
      local n = math.floor(frac * width + 0.5)
      io.stderr:write(string.format("\r[%s%s] %3d%%  t = %.4g / %.4g s  %.0f steps/s  left %s   ",
        string.rep("#", n), string.rep(".", width - n), math.floor(100 * frac), w.time, t_end, rate,
        finished and "0 s" or M.format_seconds(left)))
      if finished then io.stderr:write("\n") end
    else
      while frac * 10 >= next_tenth - 1e-9 and next_tenth <= 10 do
        io.stderr:write(string.format("impact: %3d%%  t = %.6g / %.6g s  %.0f steps/s  left %s\n",
          next_tenth * 10, w.time, t_end, rate, M.format_seconds(left)))
        next_tenth = next_tenth + 1
      end
    end
  end
end

return M
