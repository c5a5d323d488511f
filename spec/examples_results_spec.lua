-- The examples that plot, film and export runs of the engines: they run and write what they say.
local function run(script)
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  local p = assert(io.popen(env .. " lua5.4 " .. script .. " 2>&1"))
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

local function starts_with(path, bytes)
  local f = io.open(path, "rb")
  if not f then return false end
  local head = f:read(#bytes)
  f:close()
  return head == bytes
end

describe("examples with results", function()
  it("bouncing_balls_plot.lua: rebounds to g + (h0 - g) e^2 and writes the plots", function()
    local out, ok = run("examples/bouncing_balls_plot.lua")
    assert.is_true(ok, out)
    local rows = 0
    for measured, expected in out:gmatch("e = [%d.]+%s+([%d.]+) m%s+([%d.]+) m") do
      rows = rows + 1
      assert.near(tonumber(expected), tonumber(measured), { rel = 0.015 })
    end
    assert.are.equal(4, rows, out)
    assert.is_true(starts_with("out/bouncing_balls.png", "\137PNG\r\n\26\n"))
    assert.is_true(starts_with("out/bouncing_balls.svg", "<?xml") or
      starts_with("out/bouncing_balls.svg", "<svg"))
  end)

  it("pile_film.lua: writes PNG frames (and a GIF when ffmpeg is there)", function()
    local out, ok = run("examples/pile_film.lua")
    assert.is_true(ok, out)
    local n = tonumber(out:match("(%d+) frames in out/pile_frames"))
    assert.are.equal(121, n)  -- 6 s at 20 frames per second, and the first
    assert.is_true(starts_with("out/pile_frames/frame_00000.png", "\137PNG\r\n\26\n"))
    if out:find("film: out/pile.gif", 1, true) then
      assert.is_true(starts_with("out/pile.gif", "GIF89a"))
    else
      assert.matches("ffmpeg is not installed", out)
    end
  end)

  it("deposition_vtk.lua: settles and writes a VTK series for ParaView", function()
    local out, ok = run("examples/deposition_vtk.lua")
    assert.is_true(ok, out)
    assert.matches("216 spheres settled", out)
    local pvd = assert(io.open("out/deposition/run.pvd")):read("a")
    local datasets = 0
    for _ in pvd:gmatch("<DataSet ") do datasets = datasets + 1 end
    assert.are.equal(13, datasets)  -- 0.6 s every 0.05 s, and the start
    local vtp = assert(io.open("out/deposition/run_00012.vtp")):read("a")
    assert.matches('NumberOfPoints="216"', vtp)  -- the spheres; the walls are left out
  end)
end)

describe("VTK export of every 3D shape kind", function()
  it("writes cylinders, rounded cones and hulls as surface meshes and leaves walls out", function()
    local impact = require("impact")
    local w = impact.world3d { gravity = { 0, 0, 0 } }
    local shapes = { impact.shape3d.cylinder { radius = 0.5, length = 1 },
      impact.shape3d.cone { radius = 0.5, length = 1, smoothing = 0.05 },
      impact.shape3d.capsule { radius = 0.2, length = 1 },
      impact.shape3d.ellipsoid { radii = { 1, 0.5, 0.3 } },
      impact.shape3d.polyhedron { points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } }
    local points, polys = 0, 0
    for i, s in ipairs(shapes) do
      w:add_body { shape = s, mass = 1, position = { 2 * i, 0, 0 } }
      local kind, mesh = impact.core.shape_mesh(s)
      assert.are.equal("surface", kind)
      points, polys = points + #mesh.vertices, polys + #mesh.faces
    end
    w:add_body { shape = impact.shape3d.wall {}, fixed = true }
    local path = os.tmpname() .. ".vtp"
    impact.vtk.write(w, path)
    local text = assert(io.open(path)):read("a")
    os.remove(path)
    assert.matches('NumberOfPoints="' .. points .. '"', text, 1, true)
    assert.matches('NumberOfPolys="' .. polys .. '"', text, 1, true)
  end)
end)
