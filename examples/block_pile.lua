-- A pile of random blocks dropped into a pit (myPhysicsLab's pile_10_random_blocks scene):
-- collisions are handled by impulses after the collision advance backs up to the half gap,
-- resting contacts by contact forces. The pile settles; after that there are no more
-- collisions, every contact sits at the half gap and the energy stays constant.
local impact = require("impact")

local n = tonumber(arg and arg[1]) or 10
local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 }, seed = 5 }
local function fixed(x, y, wd, ht, ang)
  w:add_body { shape = impact.shape2d.block { width = wd, height = ht }, position = { x, y },
               angle = ang or 0, fixed = true }
end
fixed(0, -4.5, 12, 1)             -- floor, top at y = -4
fixed(-6.5, 0, 1, 10)             -- walls, inner faces at x = -6 and 6
fixed(6.5, 0, 1, 10)
fixed(-3.2, -3.2, 6, 0.6, -0.5)   -- the sides of the V
fixed(3.2, -3.2, 6, 0.6, 0.5)
for i = 1, n do
  local wd, ht = 0.5 + w:random(), 0.5 + w:random()
  w:add_body { shape = impact.shape2d.block { width = wd, height = ht }, density = 1,
               position = { -4 + ((i - 1) % 5) * 2, -1 + 2 * ((i - 1) // 5) },
               angle = w:random() * 6.28, elasticity = 0.8 }
end

local clock = os.clock()
w:run { until_time = 10 }
local s = w:stats()
print(string.format("%d blocks fell into the pit: %d collisions, %d back-ups, %d binary searches, "
  .. "largest contact problem %d rows, %.3f s of CPU for 10 s", n, s.collisions, s.backups,
  s.binary_searches, s.max_contact_rows, os.clock() - clock))
local c0, e0 = s.collisions, w:energy().total
w:run { until_time = 12 }
local worst = 0
for _, c in ipairs(w:contacts()) do worst = math.max(worst, math.abs(c.distance - 0.005)) end
print(string.format("from 10 s to 12 s: %d new collisions, energy change %.2e J, %d contacts, "
  .. "largest distance from the half gap %.2e m", w:stats().collisions - c0,
  w:energy().total - e0, #w:contacts(), worst))
