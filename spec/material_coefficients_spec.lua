-- A body's material gives the impulse and contact strategies the elasticity and friction it
-- leaves out: the material's contact pair with itself (its cor and mu_k; impact.material).
local impact = require("impact")
local shape2d, shape3d = impact.shape2d, impact.shape3d

describe("a material's own contact pair under impulse and contact", function()
  it("makes a steel box slide to a stop at mu_k g (3D contact: steel-steel mu_k = 0.5)", function()
    local g, v0 = 9.81, 3
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 240 }
    w:add_body { shape = shape3d.box { size = { 40, 40, 0.2 } }, fixed = true, position = { 0, 0, -0.1 },
      material = "steel" }
    local b = w:add_body { shape = shape3d.box { size = { 0.1, 0.1, 0.1 } }, material = "steel",
      position = { 0, 0, 0.05 }, velocity = { v0, 0, 0 } }
    w:run { until_time = 1.5 }
    -- the closed form: stops after v0^2 / (2 mu g) = 0.9174 m (the contact's speculative
    -- margin and the step cost at most a step's travel)
    assert.near(v0 * v0 / (2 * 0.5 * g), b.position[1], v0 / 240)
    assert.near(0, b.velocity[1], 1e-9)
    local c = w:contacts()[1]
    assert.are.equal(0.5, c.friction)
    assert.are.equal(0.7, c.elasticity)
  end)

  it("makes a steel ball rebound at cor 0.7 (2D impulse), and explicit values win", function()
    for _, case in ipairs { { {}, 0.7 }, { { elasticity = 0.3 }, 0.3 } } do
      local w = impact.world2d { strategy = "impulse", gravity = { 0, -9.81 }, dt = 1 / 1000 }
      w:add_body { shape = shape2d.block { width = 10, height = 1 }, fixed = true, position = { 0, -0.5 },
        material = "steel" }
      local opts = { shape = shape2d.ball { radius = 0.1 }, material = "steel", position = { 0, 1.1 } }
      for k, v in pairs(case[1]) do opts[k] = v end
      local b = w:add_body(opts)
      local v_out, vy_min = nil, 0
      for _ = 1, 700 do
        w:step()
        vy_min = math.min(vy_min, b.velocity[2])
        if b.velocity[2] > 0 then v_out = b.velocity[2]; break end
      end
      -- falling 1 m: v = sqrt(2 g h); rebound e times the speed at impact, read here at the
      -- ends of the steps around it, which gravity changes by at most g dt
      assert.is_truthy(v_out)
      assert.near(case[2] * -vy_min, v_out, 9.81 / 1000)
      -- (the speed of a 1 m fall, read a step or two before the impact at the half gap)
      assert.near(math.sqrt(2 * 9.81), -vy_min, 3 * 9.81 / 1000)
    end
  end)
end)
