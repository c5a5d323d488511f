-- Export to ParaView: four boxes and four spheres tumble about each other under their mutual
-- gravitation (G = 1, softened). Writes out/tumbling/run.pvd with one .vtp file per frame and
-- out/tumbling.html, a page that plays the run in a browser.
-- In ParaView: File > Open out/tumbling/run.pvd, Apply; spheres are points with a `radius`
-- field: add a Glyph filter (Sphere, Scale Array = radius, Scale Factor = 2).
-- Run: make run SCRIPT=examples/tumbling_vtk.lua
local impact = require("impact")
local vtk = require("impact.vtk")
local viewer = require("impact.viewer")

local w = impact.world3d { gravity = { 0, 0, 0 }, gravitation = { G = 1, softening = 0.3 }, dt = 0.01 }
for i = 0, 7 do
  local a = i * math.pi / 4
  local p = { 3 * math.cos(a), 3 * math.sin(a), (i % 2 == 0) and 0.5 or -0.5 }
  local shape = i % 2 == 0 and impact.shape3d.box { size = { 0.8, 0.5,
    0.3 } } or impact.shape3d.sphere { radius = 0.35 }
  w:add_body { shape = shape, mass = 1, position = p, velocity = { -0.35 * math.sin(a),
    0.35 * math.cos(a), 0 },
    angular_velocity = { 0.5 * i, 1, 0.2 }, name = "body" .. i }
end
local e0 = w:energy().total
local series = vtk.series { w, every = 0.1, dir = "out/tumbling" }
local page = viewer.recorder { w, every = 0.05 }
w:run { until_time = 12 }
print("wrote " .. series:stop() .. " (" .. #series.entries .. " frames)")
print("wrote " .. page:stop():write { file = "out/tumbling.html", title = "Tumbling under gravitation" })
print(string.format("energy drift over the run: %.2e (of %.4f)", math.abs(w:energy().total - e0), e0))
