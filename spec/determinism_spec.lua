-- The same script gives the same numbers, bit for bit.
local impact = require("impact")

local function scene(seed, method)
  local w = impact.world3d { gravity = { 0, 0, -9.81 }, gravitation = { G = 0.005, softening = 0.1 },
    dt = 0.01, seed = seed, integrator = method }
  local bodies = {}
  for i = 1, 12 do
    local shape = i % 2 == 0 and impact.shape3d.box { size = { 0.3, 0.5, 0.7 } }
      or impact.shape3d.sphere { radius = 0.2 + 0.1 * w:random() }
    bodies[i] = w:add_body { shape = shape, density = 500 + 1000 * w:random(),
      position = { 4 * w:random() - 2, 4 * w:random() - 2, 4 * w:random() },
      velocity = { w:random() - 0.5, w:random() - 0.5, w:random() },
      angular_velocity = { 3 * w:random(), -2 * w:random(), w:random() } }
  end
  for i = 1, 11 do
    w:add_spring { body1 = bodies[i], point1 = { 0.1, 0, 0 }, body2 = bodies[i + 1],
      point2 = { 0, 0.1, 0 }, stiffness = 20, damping = 0.1 }
  end
  return w, bodies
end

local function final_numbers(seed, method)
  local w, bodies = scene(seed, method)
  w:run { duration = 2 }
  local out = {}
  for _, b in ipairs(bodies) do
    for _, v in ipairs(b.position) do out[#out + 1] = v end
    for _, v in ipairs(b.orientation) do out[#out + 1] = v end
    for _, v in ipairs(b.angular_velocity) do out[#out + 1] = v end
  end
  return out, w:state_hash()
end

describe("determinism", function()
  for _, method in ipairs { "rk4", "rk8pd", "msbdf" } do
    it("two runs of the same scene with " .. method .. " are bit-identical", function()
      local a, ha = final_numbers(7, method)
      local b, hb = final_numbers(7, method)
      assert.are.equal(ha, hb)
      for i = 1, #a do
        assert.are.equal(string.format("%a", a[i]), string.format("%a", b[i]))
      end
    end)
  end

  it("a different seed gives a different scene", function()
    local _, ha = final_numbers(7, "rk4")
    local _, hb = final_numbers(8, "rk4")
    assert.are_not.equal(ha, hb)
  end)

  it("the world's random generator repeats from its seed", function()
    local w1 = impact.world2d { seed = 42 }
    local w2 = impact.world2d { seed = 42 }
    for _ = 1, 100 do
      local x = w1:random()
      assert.are.equal(x, w2:random())
      assert.is_true(x >= 0 and x < 1)
      local n = w1:random(6)
      assert.are.equal(n, w2:random(6))
      assert.is_true(n >= 1 and n <= 6 and math.type(n) == "integer")
      assert.are.equal(w1:random(-3, 3), w2:random(-3, 3))
    end
  end)
end)
