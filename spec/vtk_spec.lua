-- VTK export: .vtp files parse, with the expected points, cells and fields in the right places,
-- and a .pvd collection lists every frame with its time.
local impact = require("impact")
local vtk = require("impact.vtk")
local xml = dofile("spec/support/xml.lua")

local spec_files = require("spec.support.files")
local tmpdir = spec_files.tmpdir

local read = spec_files.read

local function array(parent, name)
  for _, a in ipairs(xml.find_all(parent, "DataArray")) do
    if a.attrs.Name == name then return xml.numbers(a), a end
  end
  error("no DataArray " .. name)
end

local function section(piece, name)
  for _, c in ipairs(piece.children) do
    if c.name == name then return c end
  end
  return nil
end

local h = math.sqrt(0.5)

local function scene3d()
  local w = impact.world3d { gravity = { 0, 0, 0 } }
  w:add_body { shape = impact.shape3d.sphere { radius = 0.5 }, position = { 1, 2, 3 } }
  -- a 1 x 2 x 3 box turned 90 degrees about z: it spans 2 along x, 1 along y, 3 along z
  w:add_body { shape = impact.shape3d.box { size = { 1, 2, 3 } }, position = { 5, 0, 0 },
    orientation = { h, 0, 0, h }, angular_velocity = { 0, 0, 2 } }
  return w
end

local contacts = { { point = { 0, 0, 0 }, normal = { 0, 0, 1 }, force = { 0, 0, 10 } },
  { point = { 1, 0, 0 }, normal = { 1, 0, 0 }, force = { 5, 0, 0 } } }

describe("impact.vtk", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("writes spheres as points with a radius, boxes as outward quads, contacts as lines", function()
    local file = vtk.write(scene3d(), dir .. "/f.vtp", { contacts = contacts, force_scale = 0.1 })
    local root = xml.parse(read(file))
    assert.are.equal("VTKFile", root.name)
    assert.are.equal("PolyData", root.attrs.type)
    local piece = xml.find_all(root, "Piece")[1]
    assert.are.equal("13", piece.attrs.NumberOfPoints)  -- 1 sphere + 8 corners + 2 x 2 line ends
    assert.are.equal("1", piece.attrs.NumberOfVerts)
    assert.are.equal("2", piece.attrs.NumberOfLines)
    assert.are.equal("6", piece.attrs.NumberOfPolys)
    local pts = array(section(piece, "Points"), "Points")
    assert.are.equal(39, #pts)
    local radius = array(section(piece, "PointData"), "radius")
    assert.are.equal(13, #radius)
    assert.are.equal(0.5, radius[1])
    assert.near({ 1, 2, 3 }, { pts[1], pts[2], pts[3] }, 0)
    -- the box corners: x = 5 +- 1, y = +-0.5, z = +-1.5
    local corners = {}
    for i = 2, 9 do
      local x, y, z = pts[3 * i - 2], pts[3 * i - 1], pts[3 * i]
      assert.near(1, math.abs(x - 5), 1e-12)
      assert.near(0.5, math.abs(y), 1e-12)
      assert.near(1.5, math.abs(z), 1e-12)
      corners[i - 1] = { x, y, z }
    end
    -- each quad's normal (Newell) points away from the box centre; the volume (divergence
    -- theorem about the centre) is 1 * 2 * 3
    local polys = section(piece, "Polys")
    local conn, offsets = array(polys, "connectivity"), array(polys, "offsets")
    assert.are.same({ 4, 8, 12, 16, 20, 24 }, offsets)
    local volume = 0
    for f = 0, 5 do
      local n, c = { 0, 0, 0 }, { 0, 0, 0 }
      for k = 1, 4 do
        local a = corners[conn[4 * f + k]]
        local b = corners[conn[4 * f + k % 4 + 1]]
        assert.is_not_nil(a, "face index outside the box's points")
        n[1] = n[1] + (a[2] - b[2]) * (a[3] + b[3])
        n[2] = n[2] + (a[3] - b[3]) * (a[1] + b[1])
        n[3] = n[3] + (a[1] - b[1]) * (a[2] + b[2])
        for j = 1, 3 do c[j] = c[j] + a[j] / 4 end
      end
      local d = (c[1] - 5) * n[1] + c[2] * n[2] + c[3] * n[3]
      assert.is_true(d > 0, "face " .. f .. " faces inwards")
      volume = volume + d / 2 / 3
    end
    assert.near(6, volume, 1e-12)
    -- velocities of the turning box's points: v = w x r, w = 2 about z
    local vel = array(section(piece, "PointData"), "velocity")
    for i = 2, 9 do
      local rx, ry = pts[3 * i - 2] - 5, pts[3 * i - 1]
      assert.near({ -2 * ry, 2 * rx, 0 }, { vel[3 * i - 2], vel[3 * i - 1], vel[3 * i] }, 1e-12)
    end
    -- contact lines from the point along force * force_scale; cell fields in VTK's order
    local lines = section(piece, "Lines")
    local lc = array(lines, "connectivity")
    local a, b = lc[1] + 1, lc[2] + 1
    assert.near({ 0, 0, 0 }, { pts[3 * a - 2], pts[3 * a - 1], pts[3 * a] }, 0)
    assert.near({ 0, 0, 1 }, { pts[3 * b - 2], pts[3 * b - 1], pts[3 * b] }, 1e-15)
    local cells = section(piece, "CellData")
    assert.are.same({ 1, -1, -1, 2, 2, 2, 2, 2, 2 }, array(cells, "body_id"))
    assert.are.same({ 0, 10, 5, 0, 0, 0, 0, 0, 0 }, array(cells, "force_magnitude"))
    assert.are.equal(27, #array(cells, "force"))
  end)

  it("writes a clump's member spheres as points at their world places and velocities", function()
    -- two equal spheres 0.3 apart along x: the centre of mass is midway; turned 90 degrees
    -- about z, the members sit at c -+ (0, 0.15, 0); spinning at w about z, a member at r
    -- from the centre moves at v + w x r = v + w (-r_y, r_x, 0)
    local w = impact.world3d { strategy = "dem" }
    local c = w:add_clump { spheres = { { center = { 0, 0, 0 }, radius = 0.1 },
                                        { center = { 0.3, 0, 0 }, radius = 0.1 } },
                            density = 1000 }
    c.position = { 1, 2, 3 }
    c.orientation = { h, 0, 0, h }
    c.velocity = { 0.5, 0, 0 }
    c.angular_velocity = { 0, 0, 2 }
    local piece = xml.find_all(xml.parse(read(vtk.write(w, dir .. "/c.vtp"))), "Piece")[1]
    assert.are.equal("2", piece.attrs.NumberOfPoints)
    assert.are.equal("2", piece.attrs.NumberOfVerts)
    local pts = array(section(piece, "Points"), "Points")
    local vel = array(section(piece, "PointData"), "velocity")
    assert.are.same({ 0.1, 0.1 }, array(section(piece, "PointData"), "radius"))
    assert.near({ 1, 1.85, 3, 1, 2.15, 3 }, pts, 1e-12)
    assert.near({ 0.5 + 0.3, 0, 0, 0.5 - 0.3, 0, 0 }, vel, 1e-12)
  end)

  it("exports 2D worlds in the z = 0 plane", function()
    local w = impact.world2d { gravity = { 0, 0 } }
    w:add_body { shape = impact.shape2d.ball { radius = 0.25 }, position = { 1, 1 } }
    w:add_body { shape = impact.shape2d.block { width = 2, height = 1 }, position = { 3, 0 },
      angle = math.pi / 2 }
    local root = xml.parse(vtk.polydata(w))
    local piece = xml.find_all(root, "Piece")[1]
    assert.are.equal("5", piece.attrs.NumberOfPoints)
    assert.are.equal("1", piece.attrs.NumberOfPolys)
    local pts = array(section(piece, "Points"), "Points")
    for i = 2, 5 do
      assert.near(0.5, math.abs(pts[3 * i - 2] - 3), 1e-12)  -- turned: 1 wide, 2 high
      assert.near(1, math.abs(pts[3 * i - 1]), 1e-12)
      assert.are.equal(0, pts[3 * i])
    end
    assert.are.equal(0.25, array(section(piece, "PointData"), "radius")[1])
  end)

  it("writes a series with a .pvd collection of the frames and their times", function()
    local w = scene3d()
    local series = vtk.series { w, every = 0.1, dir = dir .. "/out", name = "spin" }
    w:run { until_time = 0.5 }
    local pvd = series:stop()
    assert.are.equal(dir .. "/out/spin.pvd", pvd)
    local root = xml.parse(read(pvd))
    assert.are.equal("Collection", root.attrs.type)
    local sets = xml.find_all(root, "DataSet")
    assert.are.equal(6, #sets)
    for i, s in ipairs(sets) do
      assert.near((i - 1) * 0.1, tonumber(s.attrs.timestep), 1e-9)
      assert.are.equal(string.format("spin_%05d.vtp", i - 1), s.attrs.file)
      xml.parse(read(dir .. "/out/" .. s.attrs.file))
    end
  end)

  it("rejects non-finite contacts and bad options", function()
    assert.error_matches(function()
      vtk.polydata(scene3d(), { contacts = { { point = { 0, 0 / 0, 0 } } } })
    end, "contacts%[1%]%.point%[2%] must be a finite number")
    assert.error_matches(function() vtk.series { scene3d(), name = "a/b" } end, "option 'name'")
  end)

  it("is read by VTK's own XML reader (when python3-vtk9 is installed) #slow", function()
    local python = "/usr/bin/python3"
    if not os.execute(python .. " -c 'import vtk' >/dev/null 2>&1") then
      pending("VTK's Python module is not installed (apt-get install python3-vtk9)")
      return
    end
    local file = vtk.write(scene3d(), dir .. "/f.vtp", { contacts = contacts })
    local script = dir .. "/read.py"
    local f = assert(io.open(script, "w"))
    f:write(string.format([[
import vtk
r = vtk.vtkXMLPolyDataReader()
r.SetFileName(%q)
r.Update()
d = r.GetOutput()
print(r.GetErrorCode(), d.GetNumberOfPoints(), d.GetNumberOfVerts(), d.GetNumberOfLines(),
      d.GetNumberOfPolys(), d.GetPointData().GetArray("radius").GetValue(0),
      d.GetCellData().GetArray("force").GetNumberOfTuples())
]], file))
    f:close()
    local p = assert(io.popen(python .. " " .. script .. " 2>&1"))
    local out = p:read("a")
    p:close()
    assert.are.equal("0 13 1 2 6 0.5 9", out:match("^%s*(.-)%s*$"))
  end)
end)
