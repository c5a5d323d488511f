-- Error messages say the value given: NaN as "nan" (printf and tostring spell 0/0 "-nan"),
-- numbers by the shortest form that reads back exactly, and never a format error of
-- lua_pushfstring (found by `make fuzz`).
local impact = require("impact")

local function message(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return tostring(err)
end

describe("error messages", function()
  it("print NaN as nan, from C and from Lua", function()
    local w = impact.world2d {}
    for _, m in ipairs {
      message(function() w:step(0 / 0) end),
      message(function() w:run { every = 0 / 0 } end),
      message(function() impact.recorder { w, every = 0 / 0 } end),
      message(function() impact.material.define("messages_spec_a", { E = 0 / 0 }) end),
      message(function() impact.world3d { polyhedra = { minarea = 0 / 0 } } end),
      message(function() impact.shape3d.box { size = 1e300 } end),
      message(function() impact.shape3d.cylinder { length = 1e154 } end),
      message(function() w:add_body { shape = impact.shape2d.ball { radius = 0 / 0 }, mass = 1 } end),
    } do
      assert.is_nil(m:find("-nan", 1, true), m)
      assert.is_truthy(m:find("nan", 1, true), m)
    end
  end)

  it("show out-of-range numbers as given", function()
    local m = message(impact.world2d, { collision_accuracy = 2 ^ 53 })
    assert.is_truthy(m:find("option 'collision_accuracy' must be in (0, 1], got 9.0072e+15", 1, true), m)
    local w = impact.world2d {}
    m = message(function() w:add_body { elasticity = 1.5, mass = 1, inertia = 1 } end)
    assert.is_truthy(m:find("option 'elasticity' must be in [0, 1], got 1.5", 1, true), m)
    m = message(impact.world2d, { gravity = { -0.1, "x" } })
    assert.is_nil(m:find("0.10000000000000001", 1, true), m)
    m = message(function() w:add_body { mass = -0.1, inertia = 1 } end)
    assert.is_truthy(m:find("got -0.1", 1, true), m)
    assert.is_nil(m:find("-0.10000000000000001", 1, true), m)
  end)
end)
