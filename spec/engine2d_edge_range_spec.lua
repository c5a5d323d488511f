-- Body:no_collide(other, { edges = { first, last } }): a 2D body that ignores some edges of
-- another (myPhysicsLab's EdgeRange) and collides with the rest, under every 2D strategy.
-- The scene: a fixed shelf of two boxes side by side, the left one's top at y = 0 (edges 1 to
-- 4), the right one's top at y = -1 (edges 5 to 8); a ball dropped over each.
local impact = require("impact")
local files = require("spec.support.files")
local shape2d = impact.shape2d

local function shelf()
  return shape2d.path()
    :move_to(-2, -0.5):line_to(0, -0.5):line_to(0, 0):line_to(-2, 0):close()      -- edges 1-4
    :move_to(0.5, -1.5):line_to(2.5, -1.5):line_to(2.5, -1):line_to(0.5, -1):close() -- 5-8
    :build()
end

local setups = {
  { "impulse", { strategy = "impulse" } },
  { "contact lcp", { strategy = "contact", contact_solver = "lcp" } },
  { "contact pgs", { strategy = "contact", contact_solver = "pgs" } },
  { "contact soft", { strategy = "contact", contact_solver = "soft" } },
  { "contact myphysicslab", { strategy = "contact", conventions = "myphysicslab",
                              collision_handling = "serial", integrator = "rk4" } },
}

local function scene(opts)
  local def = { dt = 0.01, gravity = { 0, -10 } }
  for k, v in pairs(opts) do def[k] = v end
  local w = impact.world2d(def)
  local s = w:add_body { shape = shelf(), fixed = true, center_of_mass = { 0, 0 },
                         elasticity = 0.5 }
  local left = w:add_body { shape = shape2d.ball { radius = 0.25 }, mass = 1, position = { -1, 1 },
                            elasticity = 0.5 }
  local right = w:add_body { shape = shape2d.ball { radius = 0.25 }, mass = 1,
                             position = { 1.5, 1 }, elasticity = 0.5 }
  return w, s, left, right
end

-- runs to t, returning the lowest heights the two balls reached
local function run(w, left, right, t)
  local low = { math.huge, math.huge }
  while w.time < t - 1e-9 do
    w:step()
    low[1] = math.min(low[1], left.position[2])
    low[2] = math.min(low[2], right.position[2])
  end
  return low
end

describe("Body:no_collide with edges", function()
  for _, case in ipairs(setups) do
    local name, opts = case[1], case[2]
    it(name .. ": a ball ignoring the left box falls through it in free fall; the other "
      .. "ball is held by the right box", function()
      local w, s, left, right = scene(opts)
      left:no_collide(s, { edges = { 1, 4 } })
      right:no_collide(s, { edges = { 1, 4 } })  -- (the right box still holds it)
      assert.is_true(left:should_collide(s))      -- the pair is still paired
      local low = run(w, left, right, 0.8)
      -- free fall: no impulse and no contact force ever acted on it
      assert.near(-10 * w.time, left.velocity[2], 1e-9)
      assert.equal(0, left.velocity[1])
      assert.is_true(low[1] < -0.5 - 0.25)       -- below the left box: passed through it
      assert.is_true(low[2] >= -1 + 0.25 - 0.02) -- never through the right box's top
      assert.is_true(right.velocity[2] ~= -10 * w.time)  -- it struck
    end)

    it(name .. ": ignoring the right box's edges only, a ball still lands on the left box; "
      .. "collide_with restores them", function()
      local w, s, left, right = scene(opts)
      left:no_collide(s, { edges = { 5, 8 } })
      right:no_collide(s, { edges = { 5, 8 } })
      right:collide_with(s)                       -- undone: the right box holds it again
      local low = run(w, left, right, 0.8)
      assert.is_true(low[1] >= 0.25 - 0.02)
      assert.is_true(low[2] >= -1 + 0.25 - 0.02)
    end)
  end

  -- a vertex is ignored when both its edges are (myPhysicsLab's checkVertexes): the floor
  -- ignoring one edge of a tilted box still meets both of that edge's corners
  it("the other body's vertices: ignored when both their edges are", function()
    for _, range in ipairs { { 1, 4 }, { 1, 1 } } do
      local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 } }
      local floor = w:add_body { shape = shape2d.block { width = 10, height = 1 }, fixed = true,
                                 position = { 0, -0.5 }, elasticity = 0 }
      local box = w:add_body { shape = shape2d.block { width = 0.5, height = 0.5 }, mass = 1,
                               position = { 0, 1 }, angle = 0.3, elasticity = 0 }
      floor:no_collide(box, { edges = range })
      w:run { until_time = 1 }
      if range[2] == 4 then
        assert.near(-10 * w.time, box.velocity[2], 1e-9)  -- never touched
      else
        assert.is_true(box.position[2] > 0.2)             -- held above the floor's top
      end
    end
  end)

  it("is kept by save and load", function()
    local w, s, left = scene { strategy = "contact" }
    left:no_collide(s, { edges = { 1, 4 } })
    local w2 = files.reloaded(w)
    -- saved again, either world writes the text of the first save (its connectors' version
    -- included: loading the ranges back does not count as adding them)
    local p1, p2, p3 = os.tmpname(), os.tmpname(), os.tmpname()
    w:save(p1)
    w:save(p2)
    w2:save(p3)
    local t1, t2, t3 = files.read(p1), files.read(p2), files.read(p3)
    for _, p in ipairs { p1, p2, p3 } do os.remove(p) end
    assert.equal(t1, t2)
    assert.equal(t1, t3)
    w2:run { until_time = 1 }
    w:run { until_time = 1 }
    local l2
    for _, b in ipairs(w2:bodies()) do
      if b.position[1] == -1 then l2 = b end
    end
    assert.is_truthy(l2)
    assert.near(-10 * w2.time, l2.velocity[2], 1e-9)
    assert.same(left.position, l2.position)
  end)

  it("rejects bad input with clear errors", function()
    local _, s, left = scene { strategy = "contact" }
    local function err(opts, pattern)
      local ok, msg = pcall(left.no_collide, left, s, opts)
      assert.is_false(ok)
      assert.matches(pattern, msg)
    end
    err({ edges = { 0, 2 } }, "Body:no_collide: option 'edges%[1%]' must be an integer edge index "
      .. "of argument #1, 1 to 8, got 0")
    err({ edges = { 1, 9 } }, "edges%[2%]' must be an integer edge index of argument #1, 1 to 8, got 9")
    err({ edges = { 1.5, 2 } }, "edges%[1%]' must be an integer")
    err({ edges = { 3, 2 } }, "first <= last, got {3, 2}")
    err({ edges = { 1 } }, "option 'edges' must be {first, last}")
    err({ edges = "1-4" }, "option 'edges' must be {first, last}")
    err({ edge = { 1, 2 } }, "unknown option")
    err(5, "argument #2 must be a table {edges = {first, last}} or nil, got")
    local ok, msg = pcall(left.no_collide, left, left, { edges = { 1, 1 } })
    assert.is_false(ok)
    assert.matches("the body itself", msg)
    local w3 = impact.world3d { strategy = "impulse" }
    local a = w3:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1 }
    local b = w3:add_body { shape = impact.shape3d.sphere { radius = 1 }, mass = 1, position = { 3, 0, 0 } }
    ok, msg = pcall(a.no_collide, a, b, { edges = { 1, 1 } })
    assert.is_false(ok)
    assert.matches("option 'edges' is for 2D bodies", msg)
  end)
end)
