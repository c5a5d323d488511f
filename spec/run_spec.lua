-- Stepping, run{}, step events and the recorder.
local impact = require("impact")

local function falling_world()
  local w = impact.world2d { gravity = { 0, -10 }, dt = 0.01 }
  local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1,
    position = { 0, 100 }, name = "ball" }
  return w, b
end

describe("run", function()
  it("stops at until_time, after duration or after steps", function()
    local w = falling_world()
    w:run { until_time = 0.5 }
    assert.are.equal(50, w.steps)
    w:run { duration = 0.25 }
    assert.are.equal(75, w.steps)
    w:run { steps = 5 }
    assert.are.equal(80, w.steps)
    assert.near(0.8, w.time, 1e-14)
  end)

  it("calls fn at the start and at each multiple of every", function()
    local w = falling_world()
    local times = {}
    w:run { until_time = 1, every = 0.25, fn = function(ww) times[#times + 1] = ww.time end }
    assert.near({ 0, 0.25, 0.5, 0.75, 1 }, times, 1e-12)
    local n = 0
    w:run { steps = 7, every = 0, fn = function() n = n + 1 end }
    assert.are.equal(8, n)
  end)

  it("keeps time as a multiple of dt, also after dt changes", function()
    local w = falling_world()
    w:run { steps = 1000 }
    assert.are.equal(10, w.time)  -- 1000 * 0.01 computed as a product, not a sum
    w.dt = 0.1
    w:run { steps = 3 }
    assert.near(10.3, w.time, 1e-13)
  end)
end)

describe("step events", function()
  it("are delivered after each step, in the order added, and can be removed", function()
    local w = falling_world()
    local log = {}
    local h1 = w:on("step", function(ww) log[#log + 1] = "a" .. ww.steps end)
    w:on("step", function(ww) log[#log + 1] = "b" .. ww.steps end)
    w:step(2)
    assert.are.same({ "a1", "b1", "a2", "b2" }, log)
    assert.is_true(w:off("step", h1))
    assert.is_false(w:off("step", h1))
    w:step()
    assert.are.same({ "a1", "b1", "a2", "b2", "b3" }, log)
  end)

  it("refuse a step from inside a step handler, and pass handler errors on", function()
    local w = falling_world()
    w:on("step", function(ww) ww:step() end)
    assert.has_error(function() w:step() end,
      "World:step: cannot step the world from inside one of its 'step' handlers")
    local w2 = falling_world()
    w2:on("step", function() error({ code = 42 }) end)
    local ok, err = pcall(w2.step, w2)
    assert.is_false(ok)
    assert.are.same({ code = 42 }, err)
    assert.are.equal(1, w2.steps)  -- the step itself completed
  end)

  it("let handlers add and remove bodies between steps", function()
    local w = falling_world()
    w:on("step", function(ww)
      if ww.steps == 2 then ww:add_body { shape = impact.shape2d.ball {}, mass = 1 } end
      if ww.steps == 4 then ww:remove_body(ww:body("ball")) end
    end)
    w:step(5)
    assert.are.equal(1, #w)
    assert.is_nil(w:body("ball"))
  end)
end)

describe("the recorder", function()
  it("samples series every dt and writes a CSV that reads back", function()
    local w, b = falling_world()
    local rec = impact.recorder { w, every = 0.1, columns = {
      t = "time", y = function() return b.position[2] end, e = "energy.total",
      vy = { b, "velocity", 2 } } }
    w:run { until_time = 1 }
    assert.are.equal(11, rec:count())
    assert.are.same({ "e", "t", "vy", "y" }, rec:columns())
    local t, y, vy = rec:series("t"), rec:series("y"), rec:series("vy")
    for i = 1, 11 do
      local ti = (i - 1) * 0.1
      assert.near(ti, t[i], 1e-12)
      assert.near(100 - 5 * ti * ti, y[i], 1e-10)
      assert.near(-10 * ti, vy[i], 1e-10)
    end
    for _, e in ipairs(rec:series("e")) do assert.near(1000, e, 1e-9) end
    local path = os.tmpname()
    rec:write_csv(path)
    local lines = {}
    for line in io.lines(path) do lines[#lines + 1] = line end
    os.remove(path)
    assert.are.equal("e,t,vy,y", lines[1])
    assert.are.equal(12, #lines)
    local row = {}
    for v in lines[12]:gmatch("[^,]+") do row[#row + 1] = tonumber(v) end
    assert.are.same(rec:rows()[11], row)  -- %.17g round-trips exactly
  end)

  it("keeps the column order of an array of pairs and stops on request", function()
    local w, b = falling_world()
    local rec = impact.recorder { w, columns = { { "y", { b, "position", 2 } }, { "t", "time" } } }
    w:step(3)
    rec:stop()
    w:step(3)
    assert.are.same({ "y", "t" }, rec:columns())
    assert.are.equal(4, rec:count())
  end)
end)

describe("assertions for users' specs", function()
  it("assert.near compares numbers and nested arrays with absolute or relative tolerance", function()
    assert.near(1, 1 + 1e-10, 1e-9)
    assert.near({ 1, { 2, 3 } }, { 1, { 2, 3 + 1e-7 } }, { rel = 1e-6 })
    assert.is_not.near(1, 1.1, 0.01)
    assert.is_not.near(0 / 0, 0 / 0, 1)
    assert.is_not.near({ 1, 2 }, { 1 }, 1)
  end)

  it("assert.conserved runs the world and checks a quantity", function()
    local w = falling_world()
    assert.conserved(w, "energy", { rel = 1e-12 }, 1)
    assert.near(1, w.time, 1e-12)
    local w2 = impact.world2d { gravity = { 0, 0 }, damping = { linear = 1 } }
    w2:add_body { shape = impact.shape2d.ball {}, mass = 1, velocity = { 1, 0 } }
    assert.is_not.conserved(w2, "momentum", 1e-6, 0.5)
  end)
end)
