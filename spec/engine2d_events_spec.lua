-- contact_begin and contact_end of the 2D engine in a scene of many touching pairs (more than
-- the 64 records above which engine2d_events.c sorts the touching pairs by counting passes):
-- one event per body pair whatever its number of contact points, in the order of the pairs.
local impact = require("impact")
local shape2d = impact.shape2d

local n = 40  -- boxes on the ground: 2 corners each, 80 records

local function scene(solver)
  local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -10 }, contact_solver = solver,
                             time_stepping = "symplectic_euler" }
  local ground = w:add_body { shape = shape2d.block { width = 2 * n + 4, height = 1 }, position = { 0, -0.5 },
                              fixed = true, friction = 0.6 }
  local boxes = {}
  for i = 1, n do
    boxes[i] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, friction = 0.6,
                            elasticity = 0, position = { 2 * i - n - 1, 0.5 } }
  end
  local log = {}
  w:on("contact_begin", function(ev) log[#log + 1] = ev end)
  w:on("contact_end", function(ev) log[#log + 1] = ev end)
  return w, ground, boxes, log
end

describe("engine2d contact events with many touching pairs", function()
  for _, solver in ipairs { "soft", "pgs" } do
    it(solver .. ": a contact_begin per resting box, a contact_end per lifted box, in body order", function()
      local w, ground, boxes, log = scene(solver)
      w:step()
      assert.equal(n, #log)
      for i, ev in ipairs(log) do
        assert.equal("contact_begin", ev.kind)
        assert.equal(ground, ev.body1)
        assert.equal(boxes[i], ev.body2)  -- the pairs in order, each once
        assert.near({ 0, 1 }, ev.normal, 1e-12)
        -- a corner of the box on the ground's top face
        assert.near(0, ev.point[2], 1e-3)
        assert.near(0.5, math.abs(ev.point[1] - boxes[i].position[1]), 1e-3)
      end
      w:run { duration = 0.5 }
      assert.equal(n, #log)  -- resting: nothing more
      for i = 5, n, 5 do
        boxes[i]:apply_impulse({ 0, 5 })
      end
      w:run { duration = 0.2 }  -- 5 m/s up: about 0.8 m high, still rising
      assert.equal(n + n // 5, #log)
      for k = 1, n // 5 do
        local ev = log[n + k]
        assert.equal("contact_end", ev.kind)
        assert.equal(ground, ev.body1)
        assert.equal(boxes[5 * k], ev.body2)
      end
    end)
  end
end)
