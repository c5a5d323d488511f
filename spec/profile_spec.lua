-- w:stats().profile: the seconds of each named stage of every strategy's step (issue #16),
-- timed without changing results.
local impact = require("impact")

local stages = { "step", "integrate", "detect", "collisions", "contact_solve", "contacts", "joints",
  "pairs", "locate", "events", "reset_forces", "collide", "interactions", "newton" }

local function world2d(strategy)
  local w = impact.world2d { strategy = strategy, gravity = { 0, -9.81 } }
  w:add_body { shape = impact.shape2d.ball { radius = 0.5 }, density = 1, position = { 0, 0.7 },
    material = "steel" }
  w:add_body { shape = impact.shape2d.block { width = 4, height = 0.2 }, fixed = true,
    position = { 0, 0 }, material = "steel" }
  return w
end

local function ran(profile)
  local names = {}
  for name, s in pairs(profile.total) do
    if s > 0 then names[#names + 1] = name end
  end
  table.sort(names)
  return table.concat(names, " ")
end

describe("w:stats().profile", function()
  it("names every stage, last and total, 0 before any step", function()
    local p = world2d("none"):stats().profile
    for _, name in ipairs(stages) do
      assert.are.equal(0, p.last[name])
      assert.are.equal(0, p.total[name])
    end
  end)

  it("times the stages each strategy runs; total grows, last is one step's", function()
    local expect = {
      none = "integrate step",
      compliant = "events integrate locate pairs step",
      impulse = "collisions contacts detect integrate step",
      contact = "collisions contact_solve contacts detect integrate step",
    }
    for strategy, names in pairs(expect) do
      local w = world2d(strategy)
      for _ = 1, 60 do w:step() end
      local p = w:stats().profile
      assert.are.equal(names, ran(p), strategy)
      assert.is_true(p.last.step > 0 and p.last.step <= p.total.step, strategy)
      assert.is_true(p.last.integrate <= p.last.step, strategy)
      assert.near(w:stats().step_seconds, p.total.step, 1e-9)
    end
    local w = impact.world3d { strategy = "dem" }
    w:add_body { shape = impact.shape3d.sphere { radius = 0.5 }, density = 1000, position = { 0, 0, 1 },
      material = "steel" }
    for _ = 1, 5 do w:step() end
    assert.are.equal("collide interactions newton reset_forces step", ran(w:stats().profile))
  end)

  it("does not change results: equal runs, equal hashes", function()
    local a, b = world2d("contact"), world2d("contact")
    for _ = 1, 50 do a:step() end
    a:stats()
    for _ = 1, 50 do b:step() end
    assert.are.equal(a:state_hash(), b:state_hash())
  end)
end)
