-- Long runs for the soak specs (spec/soak_spec.lua): steps a world in chunks, checking at each
-- checkpoint that every number of the state is finite and that a scene's own invariant holds,
-- and samples the process memory (VmRSS, VmHWM from /proc/self/status) and the Lua heap
-- (collectgarbage("count") after a full collection) to show it stays flat after a warm-up.
--
-- IMPACT_SOAK_STEPS=n in the environment runs n steps instead of 10^6 (e.g. under the
-- sanitizers, which are too slow for 10^6).
local M = {}

--- The number of steps of a soak run: 10^6, or IMPACT_SOAK_STEPS.
function M.steps()
  local n = math.tointeger(tonumber(os.getenv("IMPACT_SOAK_STEPS") or ""))
  if n and n > 0 then return n end
  return 1000000
end

--- True when the process runs under AddressSanitizer (its quarantine keeps freed memory in the
--- RSS, so the RSS says nothing about leaks there; LeakSanitizer checks them at exit).
function M.sanitized()
  return (os.getenv("LD_PRELOAD") or ""):find("asan", 1, true) ~= nil
end

--- True when the process runs under valgrind (its preloaded core library).
function M.valgrind()
  return (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true) ~= nil
end

--- How many times slower than the optimized build this process runs, at most: 1, 4 under
--- AddressSanitizer (make sanitize), 100 under valgrind (make valgrind). The CPU bounds of the
--- guards against hangs scale by it; a bound on the optimized build's cost is asserted only
--- where it is 1.
function M.slowdown()
  if M.valgrind() then return 100 end
  if M.sanitized() then return 4 end
  return 1
end

--- {rss = KiB, hwm = KiB} from /proc/self/status, or nil where there is none.
function M.process_memory()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  local rss, hwm = text:match("VmRSS:%s*(%d+)"), text:match("VmHWM:%s*(%d+)")
  if not (rss and hwm) then return nil end
  return { rss = tonumber(rss), hwm = tonumber(hwm) }
end

--- The memory now: process RSS and peak (KiB, nil without /proc) and the Lua heap (KiB) after a
--- full collection.
function M.memory()
  collectgarbage("collect")
  collectgarbage("collect")
  local p = M.process_memory()
  return { rss = p and p.rss, hwm = p and p.hwm, lua = collectgarbage("count") }
end

local function finite(x) return x == x and x ~= math.huge and x ~= -math.huge end

-- the first non-finite number in v (a number or an array of numbers), as a string, or nil
local function bad(what, v)
  if type(v) == "number" then
    if not finite(v) then return string.format("%s = %s", what, tostring(v)) end
    return nil
  end
  for i = 1, #v do
    if not finite(v[i]) then return string.format("%s[%d] = %s", what, i, tostring(v[i])) end
  end
  return nil
end

--- Every number of the world's state that is not finite, as a string naming the first one, or
--- nil: time, each body's position, velocity and angle/spin (2D) or orientation/angular
--- velocity (3D), the energies and momenta, and the dem energy books when the world has them.
function M.nonfinite(w)
  local f = bad("time", w.time)
  if f then return f end
  local fields = w.dim == 2 and { "position", "velocity", "angle", "spin" }
    or { "position", "velocity", "orientation", "angular_velocity" }
  for i, b in ipairs(w:bodies()) do
    for _, k in ipairs(fields) do
      f = bad(string.format("body %d (%s) %s", i, tostring(b.name), k), b[k])
      if f then return f end
    end
  end
  for k, v in pairs(w:energy()) do
    f = bad("energy." .. k, v)
    if f then return f end
  end
  f = bad("momentum", w:momentum()) or bad("angular_momentum", w:angular_momentum())
  if f then return f end
  if w.strategy == "dem" then
    for k, v in pairs(w:dem_energy()) do
      if type(v) == "number" then
        f = bad("dem_energy." .. k, v)
        if f then return f end
      end
    end
  end
  return nil
end

--- Runs w for opts.steps steps (default M.steps()) in chunks of opts.check_every (1000):
--- after each chunk checks that the state is finite (an error naming the step and the number
--- otherwise) and calls opts.check(w, steps_done) when given; opts.each_step(w), when given,
--- is called after every single step (the time includes it); every opts.memory_every steps
--- (10^5) samples M.memory(). Returns {seconds = CPU time of the stepping, samples = {{steps,
--- rss, hwm, lua}, ...}, warmup = opts.warmup (10^5, or a tenth of the steps when fewer)}.
function M.run(w, opts)
  local steps = opts.steps or M.steps()
  local chunk = opts.check_every or 1000
  local memory_every = opts.memory_every or 100000
  local warmup = opts.warmup or math.min(100000, steps // 10)
  if steps < memory_every * 3 then memory_every = math.max(chunk, steps // 10) end
  local samples = {}
  local seconds, done = 0, 0
  local function sample()
    local m = M.memory()
    samples[#samples + 1] = { steps = done, rss = m.rss, hwm = m.hwm, lua = m.lua }
  end
  sample()
  while done < steps do
    local n = math.min(chunk, steps - done)
    local t0 = os.clock()
    if opts.each_step then
      for _ = 1, n do
        w:step(1)
        opts.each_step(w)
      end
    else
      w:step(n)
    end
    seconds = seconds + (os.clock() - t0)
    done = done + n
    local f = M.nonfinite(w)
    if f then
      error(string.format("after %d steps (t = %.17g): %s", done, w.time, f), 2)
    end
    if opts.check then opts.check(w, done) end
    if done % memory_every == 0 or done == steps then sample() end
  end
  return { seconds = seconds, samples = samples, warmup = warmup, steps = steps }
end

--- The growth of the memory after the warm-up: for each of rss, hwm, lua the largest increase
--- over its value at the first sample at or after the warm-up, in KiB, and that increase per
--- 10^5 steps as a fraction of the base value. Returns a table {rss = {kib =, rate =, base =},
--- hwm = ..., lua = ...} (rss and hwm absent without /proc).
function M.growth(report)
  local base
  for _, s in ipairs(report.samples) do
    if s.steps >= report.warmup then
      base = s
      break
    end
  end
  local out = {}
  for _, k in ipairs { "rss", "hwm", "lua" } do
    if base and base[k] then
      local worst, span = 0, 0
      for _, s in ipairs(report.samples) do
        if s.steps > base.steps then
          worst = math.max(worst, s[k] - base[k])
          span = s.steps - base.steps
        end
      end
      local rate = span > 0 and worst / base[k] / (span / 1e5) or 0
      out[k] = { kib = worst, rate = rate, base = base[k] }
    end
  end
  return out
end

--- One line for the report: steps, CPU seconds, the memory samples (RSS and Lua heap, KiB).
function M.describe(name, report)
  local rss, lua = {}, {}
  for _, s in ipairs(report.samples) do
    rss[#rss + 1] = tostring(s.rss)
    lua[#lua + 1] = string.format("%.0f", s.lua)
  end
  local last = report.samples[#report.samples]
  return string.format("%s: %d steps in %.1f s CPU; RSS (KiB, every %d steps) %s; peak %s KiB; Lua heap "
    .. "(KiB) %s", name, report.steps, report.seconds, report.samples[2] and report.samples[2].steps or 0,
    table.concat(rss, " "), tostring(last.hwm), table.concat(lua, " "))
end

return M
