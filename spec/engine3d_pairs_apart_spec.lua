-- Pairs of the 3D broad phase that are farther apart than their margin: the broad phase keeps
-- each body's margin-grown box in a fat copy (re-sorted only when the box leaves it) and lists
-- the pairs whose fat boxes overlap; detection passes over the listed pairs whose grown boxes
-- do not overlap now, and over those found apart by their gap (engine3d_cache.h). No contact
-- may be missed for it: a body moved by hand between steps and a body that only turns (its
-- centroid still) must meet what they reach, as rigid bodies do. Expected values are statics
-- (a cube resting on a cube carries m g) and the conservation of momentum and angular momentum
-- in a collision without gravity.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81
local solvers = { "pgs", "soft" }

local function unit_cube(w, pos, extra)
  local d = { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, position = pos, friction = 0.5,
              elasticity = 0 }
  for k, v in pairs(extra or {}) do d[k] = v end
  return w:add_body(d)
end

local function pair_contacts(w, a, b)
  local n, force = 0, 0
  for _, c in ipairs(w:contacts()) do
    if (c.body1 == a and c.body2 == b) or (c.body1 == b and c.body2 == a) then
      n, force = n + 1, force + c.normal_force
    end
  end
  return n, force
end

local function norm(v) return math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) end

for _, solver in ipairs(solvers) do
  describe("3D pairs kept apart (" .. solver .. ")", function()
    it("a cube moved by hand onto a cube it was apart from rests on it, carrying its weight", function()
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                                 contact_solver = solver }
      w:add_body { shape = shape3d.box { size = { 40, 40, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                   friction = 0.5, elasticity = 0 }
      -- both turned 45 degrees about z, 1.2 sqrt(2) - 1 = 0.70 m apart face to face, their
      -- axis-aligned boxes overlapping: a pair of the broad phase found apart and passed over
      local q = { math.cos(math.pi / 8), 0, 0, math.sin(math.pi / 8) }
      local a = unit_cube(w, { 0, 0, 0.5 }, { orientation = q })
      local b = unit_cube(w, { 1.2, 1.2, 0.5 }, { orientation = q })
      for _ = 1, 60 do w:step() end
      local apart = w:stats().pairs_apart
      assert.is_true(apart >= 55, "apart " .. apart)
      assert.are.equal(0, (pair_contacts(w, a, b)))
      -- onto a, face on face, 1 mm above it: it must land there, not fall through
      b.position = { 0, 0, 1.501 }
      b.orientation = q
      b.velocity = { 0, 0, 0 }
      b.angular_velocity = { 0, 0, 0 }
      for _ = 1, 90 do w:step() end
      local n, force = pair_contacts(w, a, b)
      assert.is_true(n >= 3, "points " .. n)
      assert.near(g, force, 1e-3 * g)  -- b's weight (m = 1)
      assert.near(1.5, b.position[3], 2e-3)
      assert.near(0.5, a.position[3], 2e-3)
    end)

    it("a spinning bar whose centroid stays still strikes a cube in its sweep; momentum and "
       .. "angular momentum are kept", function()
      local w = impact.world3d { strategy = "contact", gravity = { 0, 0, 0 }, dt = 1 / 60,
                                 contact_solver = solver }
      -- the bar (4 x 0.2 x 0.2) along 45 degrees, turning clockwise at 2 rad/s; the cube's
      -- centre at (1, -1) is 1.41 m from the axis of turn, inside the bar's half length 2, and
      -- at first 1.41 - 0.1 - 0.71 = 0.61 m from the bar while their boxes overlap
      local bar = w:add_body { shape = shape3d.box { size = { 4, 0.2, 0.2 } }, mass = 1,
                               position = { 0, 0, 0 },
                               orientation = { math.cos(math.pi / 8), 0, 0, math.sin(math.pi / 8) },
                               angular_velocity = { 0, 0, -2 }, friction = 0, elasticity = 0 }
      local cube = unit_cube(w, { 1, -1, 0 }, { friction = 0 })
      local p0, l0 = w:momentum(), w:angular_momentum()
      assert.near(-2 * (16 + 0.04) / 12, l0[3], 1e-12)  -- I_z w of the bar alone
      local hit = false
      for _ = 1, 60 do
        w:step()
        hit = hit or pair_contacts(w, bar, cube) > 0
      end
      assert.is_true(w:stats().pairs_apart > 0)
      assert.is_true(hit)
      -- struck: the cube goes off along the tip's way (clockwise at -45 degrees: -x and -y)
      local v = cube.velocity
      assert.is_true(norm(v) > 0.3, "cube speed " .. norm(v))
      assert.is_true(v[1] < 0 and v[2] < 0)
      -- the impulses are equal and opposite: momentum exactly; angular momentum to what the
      -- step's update of the turning bodies keeps (1e-4 of it in 60 steps)
      local p, l = w:momentum(), w:angular_momentum()
      for i = 1, 3 do
        assert.near(p0[i], p[i], 1e-12)
        assert.near(l0[i], l[i], 1e-3 * math.abs(l0[3]))
      end
    end)
  end)
end
