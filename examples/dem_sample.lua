-- A Yade user's sample preparation: a loose cloud with a size distribution (makeCloud), a
-- deposition under gravity in a box of walls, the measures (porosity, coordination number,
-- Love-Weber stress, fabric) recorded and plotted live while it runs, then printed at rest.
--
--   lua5.4 examples/dem_sample.lua [side_m] [max_steps]    (default 0.05 m, 30000 steps; it
--   stops earlier once at rest: Yade's unbalanced force below 0.01)
--   writes dem_sample.svg (redrawn while the run goes) and dem_sample.csv
local impact = require("impact")
local dem = impact.dem

local L = tonumber(arg[1] or "0.05")
local steps = math.tointeger(tonumber(arg[2] or "30000"))

-- a sieve curve by mass: 30 % below 8 mm, all below 12 mm, none below 6 mm
local spheres, failed = dem.cloud { box = { { 0, 0, 0 }, { L, L, 2 * L } },
  psd = { { 0.006, 0 }, { 0.008, 0.3 }, { 0.012, 1 } }, porosity = 0.75, seed = 1 }
print(string.format("cloud: %d spheres (%d found no place)", #spheres, failed))

local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
for _, wall in ipairs { { { 0, 0, 1 }, { 0, 0, 0 } }, { { 1, 0, 0 }, { 0, 0, 0 } },
                        { { -1, 0, 0 }, { L, 0, 0 } }, { { 0, 1, 0 }, { 0, 0, 0 } },
                        { { 0, -1, 0 }, { 0, L, 0 } } } do
  w:add_body { shape = impact.shape3d.wall { normal = wall[1] }, fixed = true, position = wall[2] }
end
dem.add_spheres(w, spheres, { density = 2600 })
w.engines = {
  dem.force_resetter(), dem.collider {},
  dem.interaction_loop { physics = { dem.frict { young = 1e7, ks_ratio = 0.3,
                                                 friction_angle = 0.5 } } },
  dem.newton { damping = 0.3 },
  dem.every { iterations = 500, label = "checker", fn = function(ww)
    local u = ww:unbalanced_force()
    if u == u and u < 0.01 then ww:pause() end
  end },
}
w.dt = 0.5 * w:p_wave_dt()

local columns = dem.measure_columns { box = { { 0, 0, 0 }, { L, L, L } } }
columns.t = "time"
local live = impact.plot.live { w, every_steps = 200, redraw = 5, file = "dem_sample.svg",
  x = "t", y = { "coordination" }, title = "Deposition: mean contacts per sphere",
  columns = columns }
w:run { steps = steps }
live:draw()
live:stop()
live.recorder:write_csv("dem_sample.csv")

local s = w:stress { box = { { 0, 0, 0 }, { L, L, L } } }
local f = w:fabric()
print(string.format("after %d steps (t = %.3f s): unbalanced force %.3g", w.steps, w.time,
  w:unbalanced_force()))
print(string.format("porosity of the lower box %.3f, coordination %.2f", w:porosity {
  box = { { 0, 0, 0 }, { L, L, L } } }, w:coordination()))
print(string.format("stress (Pa, tension > 0): sxx %.4g  syy %.4g  szz %.4g", s[1][1], s[2][2],
  s[3][3]))
print(string.format("fabric diagonal: %.3f %.3f %.3f (trace 1)", f[1][1], f[2][2], f[3][3]))
