-- A job for the impact.batch spec: drops a sphere on a wall under the dem strategy for the
-- time given, reports its height; fails on purpose when asked.
local impact = require("impact")
local p = impact.batch.params()
if p.fail then error("job failed on purpose") end
local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local b = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                       position = { 0, 0, 1 } }
w:set_engines(impact.dem.default_engines { damping = 0 })
w.dt = 1e-3
w:run { steps = p.steps }
impact.batch.result { z = b.position[3], steps = w.steps, tag = p.tag }
