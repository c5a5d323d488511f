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
