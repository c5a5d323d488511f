-- A job for bench/batch_sweep.lua: a sphere falling under the dem strategy for p.steps steps.
local impact = require("impact")
local p = impact.batch.params()
local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
local b = w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
                       position = { 0, 0, 1 } }
w:set_engines(impact.dem.default_engines { damping = 0 })
w.dt = 1e-5
w:run { steps = p.steps or 1000 }
impact.batch.result { z = b.position[3] }
