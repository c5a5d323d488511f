-- The recorder: sampling every N steps, body methods as columns, CSV written and read back
-- bit for bit, plots of recorded columns.
local impact = require("impact")
local recorder = require("impact.recorder")
local xml = dofile("spec/support/xml.lua")

local g = 9.81

local function projectile()
  local w = impact.world2d { gravity = { 0, -g }, dt = 0.01 }
  local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 2, position = { 0, 1 },
    velocity = { 3, 4 }, name = "ball" }
  return w, b
end

describe("impact.recorder", function()
  it("samples every N steps with every_steps", function()
    local w = projectile()
    local rec = impact.recorder { w, every_steps = 3, columns = { { "n", "steps" }, { "t", "time" } } }
    w:step(10)
    assert.are.same({ 0, 3, 6, 9 }, rec:series("n"))
    assert.near({ 0, 0.03, 0.06, 0.09 }, rec:series("t"), 1e-12)
    assert.error_matches(function() impact.recorder { w, every_steps = 0, columns = { t = "time" } } end,
      "option 'every_steps' must be an integer >= 1")
    assert.error_matches(function() impact.recorder { w, every = 1, every_steps = 2,
      columns = { t = "time" } } end,
      "not both")
  end)

  it("records a body method such as kinetic_energy (1/2 m |v|^2 of the projectile)", function()
    local w = projectile()
    local rec = impact.recorder { w, every = 0.1, columns = { { "t", "time" }, { "ke", { w:body("ball"),
      "kinetic_energy" } } } }
    w:run { until_time = 0.5 }
    for i, t in ipairs(rec:series("t")) do
      assert.near(0.5 * 2 * (3 ^ 2 + (4 - g * t) ^ 2), rec:series("ke")[i], 1e-9)
    end
  end)

  it("writes CSV that reads back to the same numbers, bit for bit", function()
    local w, b = projectile()
    local rec = impact.recorder { w, every = 0.05, columns = {
      { "t", "time" }, { "x", { b, "position", 1 } }, { "y", { b, "position", 2 } },
      { "third", function(ww) return ww.time / 3 end },
      { "odd", function(ww) return ww.steps == 0 and 0 / 0 or (ww.steps == 5
        and -math.huge or 1e-310) end } } }
    w:run { until_time = 1 }
    local path = os.tmpname()
    rec:write_csv(path)
    local back = recorder.read_csv(path)
    os.remove(path)
    assert.are.same(rec:columns(), back:columns())
    assert.are.equal(rec:count(), back:count())
    assert.are.equal(21, back:count())
    for _, name in ipairs(rec:columns()) do
      local a, c = rec:series(name), back:series(name)
      for i = 1, #a do
        if a[i] ~= a[i] then
          assert.is_true(c[i] ~= c[i], name .. " row " .. i .. " should be NaN")
        else
          assert.are.equal(a[i], c[i])
        end
      end
    end
  end)

  it("says which line and field of a CSV file is wrong", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("t,y\n0,1\n0.1,oops\n")
    f:close()
    local ok, err = pcall(recorder.read_csv, path)
    os.remove(path)
    assert.is_false(ok)
    assert.matches(':3: field 2 is "oops", not a number', err)
  end)

  it("plots its columns against time (SVG and PNG)", function()
    local w, b = projectile()
    local rec = impact.recorder { w, every = 0.05, columns = { { "t", "time" }, { "y", { b, "position",
      2 } } } }
    w:run { until_time = 0.8 }
    local svg, png = os.tmpname() .. ".svg", os.tmpname() .. ".png"
    local _, _, _, layout = rec:plot { y = "y", file = svg, title = "height" }
    rec:plot { file = png }
    local root = xml.parse(assert(io.open(svg)):read("a"))
    local texts = {}
    for _, t in ipairs(xml.find_all(root, "text")) do texts[t.text] = true end
    assert.is_true(texts.height and texts.t and texts.y)
    -- the data range: y from 1 up to 1 + 4^2 / (2 g) and down again, widened to ticks
    assert.is_true(layout.y_range[1] <= 1 and layout.y_range[2] >= 1 + 16 / (2 * g))
    assert.are.equal("\137PNG", assert(io.open(png, "rb")):read(4))
    os.remove(svg)
    os.remove(png)
    assert.error_matches(function() rec:plot { y = "z" } end, "no column z")
  end)
end)
