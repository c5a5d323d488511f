-- impact.plot.live: a plot file rewritten while the world runs, from recorder columns.
local impact = require("impact")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

local function falling()
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
  local b = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                         position = { 0, 0, 1 } }
  w.dt = 1e-3
  return w, b
end

describe("impact.plot.live", function()
  it("redraws the file every `redraw` samples while the run goes", function()
    local w, b = falling()
    local base = os.tmpname()
    local path = base .. ".svg"
    local drawn = {}
    local live = impact.plot.live { w, every_steps = 10, redraw = 2, file = path, x = "t",
      y = { "z" }, columns = { t = "time", z = { b, "position", 3 } } }
    drawn[1] = read(path)  -- written at the start (one row)
    w:step(10)  -- one sample: not yet redrawn
    assert.equals(drawn[1], read(path))
    w:step(10)  -- the second: redrawn with three rows
    drawn[2] = read(path)
    assert.are_not.equal(drawn[1], drawn[2])
    assert.equals(3, live.recorder:count())
    -- the recorded heights fall as z0 - (the free fall so far), monotonically
    local z = live.recorder:series("z")
    assert.is_true(z[1] > z[2] and z[2] > z[3])
    live:stop()
    w:step(40)
    assert.equals(drawn[2], read(path))
    assert.equals(3, live.recorder:count())
    os.remove(path)
    os.remove(base)
  end)

  it("checks its options", function()
    local w, b = falling()
    assert.has_error(function() impact.plot.live { w, every_steps = 1, file = "x.txt",
      columns = { t = "time" } } end)
    assert.has_error(function() impact.plot.live { w, every_steps = 1,
      columns = { t = "time" } } end)
    assert.has_error(function() impact.plot.live { w, every_steps = 1, file = "impact_live_unused.svg",
      redraw = 0, columns = { t = "time", z = { b, "position", 3 } } } end)
    assert.has_error(function() impact.plot.live { w, every_steps = 1, file = "impact_live_unused.svg",
      x = "t", y = { "nope" }, columns = { t = "time" } } end)
  end)
end)
