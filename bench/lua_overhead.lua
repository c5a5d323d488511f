-- The cost of scripting: stepping a world from Lua, with and without per-step handlers.
local impact = require("impact")

local function scene(n)
  local w = impact.world2d { gravity = { 0, -9.81 }, dt = 0.001 }
  for i = 1, n do
    w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = { i, 0 } }
  end
  return w
end

local function timed(fn)
  local t0 = os.clock()
  fn()
  return os.clock() - t0
end

local steps = 100000
print(string.format("Lua scripting overhead (%d steps of a 10-body 2D world, RK4)", steps))
local w = scene(10)
local batch = timed(function() w:run { steps = steps } end)
print(string.format("  w:run{steps = N}, no handlers:        %7.2f us/step", 1e6 * batch / steps))
w = scene(10)
local one = timed(function() for _ = 1, steps do w:step() end end)
print(string.format("  w:step() called from a Lua loop:      %7.2f us/step", 1e6 * one / steps))
w = scene(10)
local n = 0
w:on("step", function() n = n + 1 end)
local handler = timed(function() w:run { steps = steps } end)
print(string.format("  with one 'step' handler:              %7.2f us/step", 1e6 * handler / steps))
w = scene(10)
local ball = w:bodies()[1]
local rec = impact.recorder { w, every = 0, columns = { t = "time", y = { ball, "position", 2 } } }
local recorded = timed(function() w:run { steps = steps } end)
print(string.format("  recording 2 columns every step:       %7.2f us/step (%d rows)",
  1e6 * recorded / steps, rec:count()))

-- property reads: a number (w.time, b.mass) and a vector (b.position), through the
-- name-to-function tables of src/lua/lua_world.c and src/lua/lua_body.c
local reads = 1000000
local function per_read(fn)
  local best = math.huge
  for _ = 1, 3 do best = math.min(best, timed(fn)) end
  return 1e9 * best / reads
end
w = scene(10)
ball = w:bodies()[1]
local sum = 0
local t_time = per_read(function() for _ = 1, reads do sum = sum + w.time end end)
local t_mass = per_read(function() for _ = 1, reads do sum = sum + ball.mass end end)
local t_pos = per_read(function() for _ = 1, reads do sum = sum + ball.position[1] end end)
print(string.format("  property read w.time / b.mass / b.position: %.0f / %.0f / %.0f ns", t_time, t_mass,
  t_pos))
