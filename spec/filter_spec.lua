-- Collision filtering as Box2D and LOVE do it: a body's filter {category, mask, group}, the
-- pairs excluded by Body:no_collide, in every strategy with contacts.
local impact = require("impact")
local shape2d, shape3d = impact.shape2d, impact.shape3d

-- a world of the strategy; bodies under compliant and dem take steel, under the 2D impulse
-- strategy (which cannot hold a resting contact) an elasticity of 1, else 0
local function world(dim, strategy)
  local dem = strategy == "dem"
  local w = dim == 2 and impact.world2d { strategy = strategy, dt = 0.002, gravity = { 0, -10 } }
    or impact.world3d { strategy = strategy, dt = dem and 1e-4 or 0.002, gravity = { 0, 0, -10 } }
  local material = (strategy == "compliant" or dem) and "steel" or nil
  local e = (dim == 2 and strategy == "impulse") and 1 or 0
  local function add(def)
    def.material = material
    def.elasticity = not material and e or nil
    return w:add_body(def)
  end
  return w, add
end

-- a unit box (a ball of radius 0.5 under dem and 2D compliant) at height z
local function unit(dim, strategy, add, z, opts)
  local def = opts or {}
  if dim == 2 then  -- (a ball under compliant: its flat polygon contacts are stiff to integrate)
    def.shape = strategy == "compliant" and shape2d.ball { radius = 0.5 }
      or shape2d.block { width = 1, height = 1 }
    def.position = { 0, z }
  else
    def.shape = strategy == "dem" and shape3d.sphere { radius = 0.5 } or shape3d.box { size = { 1, 1, 1 } }
    def.position = { 0, 0, z }
  end
  return add(def)
end

local function height(b) return b.position[#b.position] end

describe("collision filters", function()
  it("follow Box2D's rule: same group decides, else category and mask both ways", function()
    local w = impact.world2d {}
    local function body(filter)
      return w:add_body { shape = shape2d.ball { radius = 0.1 }, filter = filter }
    end
    local cases = {  -- filter a, filter b, collide?
      { {}, {}, true },                                          -- the defaults
      { { category = 2 }, { mask = 1 }, false },                 -- b's mask misses a's category
      { { category = 2 }, { mask = 3 }, true },
      { { category = 2, mask = 2 }, {}, false },                 -- a's mask misses b's (1)
      { { category = 4, mask = 1 }, { category = 1, mask = 4 }, true },
      { { category = 0 }, {}, false },                           -- no category: nothing
      { { group = 3 }, { group = 3 }, true },
      { { group = 3, category = 2 }, { group = 3, mask = 1 }, true },   -- positive group wins
      { { group = -3 }, { group = -3 }, false },                  -- negative group: never
      { { group = -3 }, { group = 3 }, true },                    -- different groups: the bits
      { { group = -3 }, { group = -4 }, true },
      { { group = -3, category = 2 }, { group = -4, mask = 1 }, false },
      { { group = 5 }, { group = 0 }, true },
    }
    for i, c in ipairs(cases) do
      local a, b = body(c[1]), body(c[2])
      assert.equal(c[3], a:should_collide(b), "case " .. i)
      assert.equal(c[3], b:should_collide(a), "case " .. i .. " (symmetric)")
    end
  end)

  it("default to category 1, mask 0xFFFF, group 0, readable and settable", function()
    local w = impact.world3d {}
    local b = w:add_body { shape = shape3d.sphere { radius = 1 } }
    assert.same({ category = 1, mask = 0xFFFF, group = 0 }, b.filter)
    b.filter = { category = 4, group = -2 }
    assert.same({ category = 4, mask = 0xFFFF, group = -2 }, b.filter)
    b:set_filter { mask = 6 }
    assert.same({ category = 1, mask = 6, group = 0 }, b.filter)
    b.filter = nil
    assert.same({ category = 1, mask = 0xFFFF, group = 0 }, b.filter)
  end)

  it("leave fixed and kinematic bodies apart from each other", function()
    local w = impact.world2d { strategy = "contact" }
    local f = w:add_body { shape = shape2d.ball { radius = 1 }, fixed = true }
    local k = w:add_body { shape = shape2d.ball { radius = 1 }, kinematic = true }
    local k2 = w:add_body { shape = shape2d.ball { radius = 1 }, kinematic = true }
    local d = w:add_body { shape = shape2d.ball { radius = 1 } }
    assert.is_false(f:should_collide(k))
    assert.is_false(k:should_collide(k2))
    assert.is_true(k:should_collide(d))
    assert.is_true(f:should_collide(d))
  end)

  local strategies = {
    { 2, "impulse" }, { 2, "contact" }, { 2, "compliant" },
    { 3, "impulse" }, { 3, "contact" }, { 3, "compliant" }, { 3, "dem" },
  }
  for _, s in ipairs(strategies) do
    local dim, strategy = s[1], s[2]
    local free_fall_tol = strategy == "dem" and 1e-3 or 0.01  -- symplectic steps: g dt t / 2
    it(string.format("let a filtered box fall through the one under it (%dD %s)", dim, strategy), function()
      local w, add = world(dim, strategy)
      local low = unit(dim, strategy, add, 0.5, { fixed = true, filter = { category = 2 } })
      local high = unit(dim, strategy, add, 1.7, { filter = { mask = 1 } })  -- meets category 1 only
      w:run { until_time = 0.4 }
      -- its bottom passed the lower box's top (at 1) at t = 0.2: it fell on freely (under dem
      -- with Cundall's damping of 0.2, the default, which takes 0.2 of the weight while the
      -- velocity is along it: g (1 - 0.2))
      local g = strategy == "dem" and 10 * (1 - 0.2) or 10
      assert.near(1.7 - 0.5 * g * 0.4 ^ 2, height(high), free_fall_tol)
      assert.equal(0.5, height(low))
    end)

    it(string.format("no_collide keeps two bodies apart, collide_with undoes it, a filter " ..
                     "changed mid-run acts at the next step (%dD %s)", dim, strategy), function()
      local w, add = world(dim, strategy)
      local low = unit(dim, strategy, add, 0.5, { fixed = true })
      local high = unit(dim, strategy, add, 1.6)
      local last_end
      w:on("contact_end", function(e)
        if (e.body1 == low and e.body2 == high) or (e.body1 == high and e.body2 == low) then
          last_end = e.time
        end
      end)
      local resting = dim == 3 and strategy ~= "dem" and strategy ~= "compliant" or strategy == "contact"
      w:run { duration = 0.3 }
      assert.is_true(height(high) > 1.45, "height " .. height(high))  -- on the lower box
      high:no_collide(low)
      assert.is_false(high:should_collide(low))
      last_end = -1
      w:step(1)
      if resting then  -- its contact ended with an event in the first step after the change
        assert.is_true(last_end >= 0.3 - 1e-9, "contact_end at " .. last_end)
      end
      w:run { duration = 0.6 }
      assert.is_true(height(high) < 1, "height " .. height(high))  -- it went into the lower box
      high:collide_with(low)
      assert.is_true(high:should_collide(low))
      -- a filter set mid-run: both in one negative group
      local w3, add3 = world(dim, strategy)
      local l3 = unit(dim, strategy, add3, 0.5, { fixed = true })
      local h3 = unit(dim, strategy, add3, 1.6)
      w3:run { duration = 0.3 }
      assert.is_true(height(h3) > 1.45, "height " .. height(h3))
      l3.filter = { group = -1 }
      h3.filter = { group = -1 }
      w3:run { duration = 0.6 }
      assert.is_true(height(h3) < 1, "height " .. height(h3))
    end)
  end

  it("filter the queries as Box2D's query filter does", function()
    local w = impact.world3d {}
    local s = shape3d.sphere { radius = 1 }
    local near = w:add_body { shape = s, position = { -3, 0, 0 }, filter = { category = 2 } }
    local far = w:add_body { shape = s, position = { 3, 0, 0 } }
    local picky = w:add_body { shape = s, position = { 6, 0, 0 }, filter = { mask = 4 } }
    assert.equal(near, w:ray_cast({ -10, 0, 0 }, { 10, 0, 0 }).body)
    -- a query of category 1 (the default) finds the bodies whose masks take 1 and whose
    -- categories its mask takes
    local hit = w:ray_cast({ -10, 0, 0 }, { 10, 0, 0 }, { filter = { mask = 1 } })
    assert.equal(far, hit.body)
    assert.near(0.6, hit.fraction, 1e-12)  -- enters at x = 2
    local hits = w:ray_cast({ -10, 0, 0 }, { 10, 0, 0 }, { all = true, filter = { category = 4 } })
    assert.equal(3, #hits)
    hits = w:ray_cast({ -10, 0, 0 }, { 10, 0, 0 }, { all = true, filter = { category = 2 } })
    assert.equal(2, #hits)  -- picky's mask (4) misses category 2
    assert.equal(near, hits[1].body)
    assert.equal(far, hits[2].body)
    assert.same({ near, far, picky }, w:query_box({ -10, -1, -1 }, { 10, 1, 1 }))
    assert.same({ near }, w:query_box({ -10, -1, -1 }, { 10, 1, 1 }, { filter = { mask = 2 } }))
    assert.same({ picky }, w:query_point({ 6, 0, 0 }, { filter = { category = 4 } }))
    assert.same({}, w:query_point({ 6, 0, 0 }, { filter = { category = 1 } }))
    local ok, err = pcall(w.query_point, w, { 0, 0, 0 }, { filter = { group = 1 } })
    assert.is_false(ok)
    assert.matches("unknown option filter.group (accepted: category, mask)", err, 1, true)
  end)

  it("refuses bad filters with clear errors", function()
    local w = impact.world2d {}
    local s = shape2d.ball { radius = 1 }
    local function add_err(filter, pattern)
      local ok, err = pcall(w.add_body, w, { shape = s, filter = filter })
      assert.is_false(ok)
      assert.matches(pattern, err, 1, true)
    end
    add_err({ category = 1.5 }, "option 'filter.category' must be an integer from 0 to 65535, got 1.5")
    add_err({ mask = 0x10000 }, "option 'filter.mask' must be an integer from 0 to 65535, got 65536")
    add_err({ mask = -1 }, "option 'filter.mask' must be an integer from 0 to 65535, got -1")
    add_err({ group = 40000 }, "option 'filter.group' must be an integer from -32768 to 32767")
    add_err({ groop = 1 }, "unknown option filter.groop (accepted: category, mask, group)")
    add_err(3, "option 'filter' must be a table {category =, mask =, group =}, got 3")
    local b = w:add_body { shape = s }
    local ok, err = pcall(function() b.filter = { category = "x" } end)
    assert.is_false(ok)
    assert.matches("Body.filter: option 'filter.category' must be an integer", err, 1, true)
    ok, err = pcall(b.no_collide, b, b)
    assert.is_false(ok)
    assert.matches("Body:no_collide: argument #1 is the body itself", err, 1, true)
    ok, err = pcall(b.no_collide, b, 3)
    assert.is_false(ok)
    assert.matches("Body:no_collide: argument #1 must be a body, got 3", err, 1, true)
  end)
end)
