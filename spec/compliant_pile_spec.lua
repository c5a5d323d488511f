-- The compliant strategy on a pile (issue #19, item 5): steel boxes poured onto a plate, leaning
-- on each other's edges and corners, settle with the default integrator settings. Checks from
-- statics: the pile comes to rest, no pair sinks deeper than the law's static depth scale, the
-- plate carries the whole weight, and resting pairs neither begin nor end.
local impact = require("impact")

local g = 9.81
local z_eps = 1e-8  -- the default hysteresis (seed 000)
local side = 0.1
-- steel: E = 2e11, nu = 0.3; the flat punch of a box face, k = c_res 2 sqrt(A / pi)
local c_res = 2.0e11 / (1 - 0.3 * 0.3) / 2
local k_face = c_res * 2 * math.sqrt(side * side / math.pi)

impact.material.define("pile_spec_steel", { E = 2.0e11, nu = 0.3, density = 8000 })
impact.contact_pair.define("pile_spec_steel", "pile_spec_steel", { cor = 0.2, mu_k = 0.5, mu_r = 0.001 })

-- two layers of three boxes, each turned about z and tilted a little, the upper layer offset so
-- its boxes land across the gaps and edges of the lower one
local function pile()
  local w = impact.world3d { strategy = "compliant", gravity = { 0, 0, -g }, dt = 0.01 }
  local plate = w:add_body { shape = impact.shape3d.box { size = { 2, 2, 0.2 } }, fixed = true,
    material = "pile_spec_steel", position = { 0, 0, -0.1 } }
  local shape = impact.shape3d.box { size = { side, side, side } }
  local boxes = {}
  for i = 0, 5 do
    local layer, k = i // 3, i % 3
    local a, tilt = 0.3 * layer + 0.1 * k, 0.05 * ((i % 3) - 1)
    local q = { math.cos(a / 2) * math.cos(tilt / 2), math.cos(a / 2) * math.sin(tilt / 2),
      math.sin(a / 2) * math.sin(tilt / 2), math.sin(a / 2) * math.cos(tilt / 2) }
    boxes[#boxes + 1] = w:add_body { shape = shape, material = "pile_spec_steel", orientation = q,
      position = { 0.13 * (k - 1) + 0.06 * layer, 0.03 * layer, 0.058 + 0.11 * layer } }
  end
  return w, plate, boxes
end

describe("a pile of six steel boxes poured onto a steel plate", function()
  local w, plate, boxes = pile()
  local events = {}
  w:on("contact_begin", function(e) events[#events + 1] = e end)
  w:on("contact_end", function(e) events[#events + 1] = e end)
  local ok, err = pcall(w.run, w, { until_time = 0.6 })

  -- (its cost, CPU per simulated second beside the contact strategy's, is in make bench:
  -- bench/compliant_boxes.lua)
  it("settles with the default settings (within the default max_substeps)", function()
    assert.is_true(ok, tostring(err))
  end)

  it("comes to rest", function()
    for _, b in ipairs(boxes) do
      assert.near({ 0, 0, 0 }, b.velocity, 1e-6)
      assert.near({ 0, 0, 0 }, b.angular_velocity, 1e-5)
    end
  end)

  it("sinks no pair deeper than the law's static depth scale", function()
    -- a corner carries at most the weight of the whole pile on a quarter of the face's
    -- stiffness, beyond the onset 2 z_eps (and its ramp, z_eps / 2)
    local weight = 0
    for _, b in ipairs(boxes) do weight = weight + b.mass * g end
    local bound = 2.5 * z_eps + weight / (k_face / 4)
    local contacts = w:contacts()
    assert.is_true(#contacts >= #boxes)
    for _, c in ipairs(contacts) do
      assert.is_true(-c.distance < bound, string.format("bodies %d and %d %g m deep (bound %g m)",
        c.body1.id, c.body2.id, -c.distance, bound))
    end
  end)

  it("weighs on the plate with the whole pile's weight, m g summed, within 1e-6", function()
    local weight, carried = 0, 0
    for _, b in ipairs(boxes) do weight = weight + b.mass * g end
    for _, c in ipairs(w:contacts()) do
      if c.body1.id == plate.id or c.body2.id == plate.id then
        carried = carried + c.force * math.abs(c.normal[3])
      end
    end
    assert.near(weight, carried, { rel = 1e-6 })
  end)

  it("keeps its contacts while it rests: no pair begins or ends", function()
    local n0, pairs0 = #events, #w:contacts()
    w:run { until_time = w.time + 0.2 }
    assert.are.equal(n0, #events)
    assert.are.equal(pairs0, #w:contacts())
  end)
end)
