-- What the documentation promises a new user (issue 22, items 2 and 5): shape queries as
-- methods, impact.version, w:pause() and w.paused in every world, w:run{progress = true}, body
-- names that need not be unique, the default plot's axes.
local impact = require("impact")
local files = require("spec.support.files")
local shape2d = impact.shape2d

local function ball_world(strategy)
  local w = impact.world2d { strategy = strategy, dt = 0.01 }
  local b = w:add_body { shape = shape2d.ball { radius = 0.1 }, mass = 1, position = { 0, 1 } }
  return w, b
end

describe("shapes", function()
  it("answer s:edges(), s:vertices() and s:contains(p) as methods", function()
    local s = shape2d.block { width = 2, height = 1 }
    local edges = s:edges()
    assert.are.equal(4, #edges)
    local perimeter = 0
    for _, e in ipairs(edges) do perimeter = perimeter + e.length end
    assert.near(6, perimeter, 1e-12)
    assert.are.equal(4, #s:vertices())
    assert.is_true(s:contains { 0.9, 0.4 })
    assert.is_false(s:contains { 1.1, 0 })
    assert.are.same(shape2d.edges(s), s:edges())
    -- a disc: one arc of length 2 pi r
    local disc = shape2d.ball { radius = 0.5 }
    local arc = 0
    for _, e in ipairs(disc:edges()) do arc = arc + e.length end
    assert.near(math.pi, arc, 1e-12)
    local d, _, normal = s:edge_distance(1, { 0, -2 })
    assert.near(1.5, d, 1e-12)
    assert.near({ 0, -1 }, normal, 1e-12)
    assert.near({ 1, 2 }, s:to_world({ position = { 1, 2 }, angle = 0 }, { 0, 0 }), 1e-12)
  end)

  it("bounds returns two tables, the lower and the upper corner", function()
    local lo, hi = shape2d.block { width = 2, height = 1 }:bounds { position = { 1, 0 } }
    assert.near({ 0, -0.5 }, lo, 1e-12)
    assert.near({ 2, 0.5 }, hi, 1e-12)
  end)

  it("raise naming the shape when a 2D query is asked of a 3D shape", function()
    local ok, err = pcall(function() return impact.shape3d.sphere { radius = 1 }:edges() end)
    assert.is_false(ok)
    assert.matches("must be a 2D shape, got sphere", err)
  end)
end)

describe("impact.version", function()
  it("is a version string, also in _VERSION", function()
    assert.matches("^%d+%.%d+%.%d+", impact.version)
    assert.are.equal("impact " .. impact.version, impact._VERSION)
  end)
end)

describe("w:pause() and w.paused", function()
  it("stop w:step(n) and w:run after the current step, in every strategy", function()
    for _, strategy in ipairs { "none", "impulse", "contact" } do
      local w = ball_world(strategy)
      assert.is_false(w.paused)
      w:on("step", function(ww) if ww.steps == 5 then ww:pause() end end)
      w:step(10)
      assert.are.equal(5, w.steps, strategy)
      assert.is_true(w.paused)
      w:run { steps = 3 }                   -- a new run resumes: paused is false again
      assert.are.equal(8, w.steps)
      assert.is_false(w.paused)
    end
  end)

  it("stop a run with fn, and can be set from fn", function()
    local w = ball_world("none")
    w:run { duration = 1, every = 0.1, fn = function(ww) if ww.time > 0.25 then ww.paused = true end end }
    assert.near(0.3, w.time, 1e-9)
    assert.is_true(w.paused)
    local ok, err = pcall(function() w.paused = "yes" end)
    assert.is_false(ok)
    assert.matches('World.paused must be a boolean, got "yes"', err)
  end)

  it("stop a dem run from an engine", function()
    local w = impact.world3d { strategy = "dem" }
    w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 1000 }
    w.engines = { impact.dem.force_resetter(), impact.dem.newton {},
                  impact.dem.every { iterations = 4, fn = function(ww) ww:pause() end } }
    w:run { steps = 100 }
    assert.is_true(w.steps < 100)
    assert.is_true(w.paused)
  end)
end)

describe("w:run{progress = true}", function()
  it("reports progress on stderr (plain lines off a terminal) and steps as without it", function()
    local out = files.run_script([[
local impact = require "impact"
local w = impact.world2d { dt = 0.01 }
local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = {0, 1} }
w:run { duration = 1, progress = true }
io.stdout:write(string.format("steps %d y %.17g\n", w.steps, b.position[2]))
]])
    assert.matches("impact: 100%%  t = 1 / 1 s", out)
    assert.are.equal(10, select(2, out:gsub("impact:%s+%d+%%", "")))
    local w, b = ball_world("none")
    w:run { duration = 1 }
    assert.matches(string.format("steps %d y %.17g\n", w.steps, b.position[2]):gsub("%p", "%%%0"), out)
    local ok, err = pcall(function() w:run { steps = 1, progress = "yes" } end)
    assert.is_false(ok)
    assert.matches("option 'progress' must be a boolean", err)
  end)
end)

describe("body names", function()
  it("need not be unique: w:body(name) returns the first in slot order", function()
    local w = impact.world2d {}
    local first = w:add_body { shape = shape2d.ball { radius = 0.1 }, mass = 1, name = "ball" }
    local second = w:add_body { shape = shape2d.ball { radius = 0.1 }, mass = 1, name = "ball",
                                position = { 1, 0 } }
    assert.are.equal(first, w:body("ball"))
    assert.are.equal("ball", second.name)
    w:remove_body(first)
    assert.are.equal(second, w:body("ball"))
  end)
end)

describe("the recorder's default plot", function()
  it("draws one axis per kind of quantity and leaves the step counter out", function()
    local w, b = ball_world("none")
    local rec = impact.recorder { w, every = 0.1, columns = { { "t", "time" }, { "steps", "steps" },
      { "kinetic", "energy.kinetic" }, { "y", { b, "position", 2 } }, { "f", function() return 1 end } } }
    w:run { duration = 0.5 }
    local items, width, height = rec:plot {}
    assert.are.equal(640, width)
    assert.are.equal(3 * 260, height)            -- energy, position, the function column
    local texts = {}
    for _, item in ipairs(items) do if item.kind == "text" then texts[item.text] = true end end
    assert.is_true(texts["energy (J)"] and texts["position (m)"] and texts.other)
    assert.is_nil(texts.steps)
    -- one kind: a single plot as before
    local _, _, h = rec:plot { y = { "y" } }
    assert.are.equal(400, h)
  end)
end)
