-- bin/impact: help, exit codes, errors on stderr, outputs, progress lines when not on a terminal.
local spec_files = require("spec.support.files")
local tmpdir = spec_files.tmpdir

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- runs bin/impact with args; returns exit code, stdout, stderr
local function impact(dir, args)
  local out, err = dir .. "/stdout", dir .. "/stderr"
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  local ok, _, code = os.execute(string.format("%s lua5.4 bin/impact %s >%s 2>%s </dev/null", env, args,
    out, err))
  return ok and 0 or code, read(out), read(err)
end

local scene2d = [[
local impact = require "impact"
local w = impact.world2d { gravity = {0, -9.81}, dt = 0.01 }
w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = {0, 1},
             velocity = {1, 2}, name = "ball" }
return { world = w, until_time = 0.5, every = 0.1 }
]]

describe("bin/impact", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("prints its usage with --help and exits 0", function()
    local code, out = impact(dir, "--help")
    assert.are.equal(0, code)
    assert.matches("usage: impact run SCENE.lua", out)
    assert.matches("%-%-record FILE", out)
  end)

  it("exits 2 with the usage on stderr for a wrong command line", function()
    local code, out, err = impact(dir, "run --colour red x.lua")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.matches('^impact: unknown option "%-%-colour"', err)
    code, out, err = impact(dir, "run")
    assert.are.equal("", out)
    assert.are.equal(2, code)
    assert.matches("no scene file given", err)
    code, out, err = impact(dir, "run s.lua --until soon")
    assert.are.equal("", out)
    assert.are.equal(2, code)
    assert.matches('option %-%-until must be a number, got "soon"', err)
  end)

  it("exits 1 with the scene's error on stderr when a scene fails", function()
    local bad = write(dir .. "/bad.lua", "local x = nil\nreturn x.world\n")
    local code, out, err = impact(dir, "run " .. bad)
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.matches("^impact: " .. dir:gsub("%p", "%%%0") .. "/bad.lua:2: attempt to index a nil value", err)
    code, out, err = impact(dir, "run " .. dir .. "/missing.lua")
    assert.are.equal("", out)
    assert.are.equal(1, code)
    assert.matches("cannot open .*missing.lua", err)
    local wrong = write(dir .. "/wrong.lua", "return 42\n")
    code, out, err = impact(dir, "run " .. wrong)
    assert.are.equal("", out)
    assert.are.equal(1, code)
    assert.matches("must return its world, or a table { world = w, ... }; it returned number", err)
  end)

  it("exits 1 when the run fails, keeping what was recorded", function()
    local blowup = write(dir .. "/blowup.lua", [[
local impact = require "impact"
local w = impact.world2d { gravity = {0, 0}, dt = 0.01 }
local b = w:add_body { shape = impact.shape2d.ball { radius = 1 }, position = {0, 0} }
w:on("step", function(ww) if ww.steps == 5 then b:apply_force({0 / 0, 0}) end end)
return w
]])
    local csv = dir .. "/out.csv"
    local code, _, err = impact(dir,
      "run " .. blowup .. " --until 1 --every 0.01 --record " .. csv .. " --quiet")
    assert.are.equal(1, code)
    -- the message points at the script's line that made the call (line 4 of blowup.lua, the handler)
    assert.matches("^impact: [^\n]*blowup%.lua:4: Body:apply_force: argument #1 must be an array of 2 finite "
      .. "numbers", err)
    assert.matches("written up to the failure: " .. csv:gsub("%p", "%%%0"), err)
    local rows = select(2, read(csv):gsub("\n", ""))
    assert.are.equal(1 + 5, rows)  -- header and steps 0..4 (the handler fails after step 5)
  end)

  it("runs a scene with its outputs and prints progress lines when stderr is not a terminal", function()
    local scene = write(dir .. "/scene.lua", scene2d)
    local code, out, err = impact(dir, string.format("run %s --record %s/r.csv --svg %s/svg --vtk %s/vtk "
      .. "--viewer %s/v.html", scene, dir, dir, dir, dir))
    assert.are.equal(0, code, err)
    assert.matches("t = 0.5 s, 50 steps", out)
    assert.matches("impact: 100%%  t = 0.5 / 0.5 s", err)
    local tenths = select(2, err:gsub("impact:%s+%d+%%", ""))
    assert.are.equal(10, tenths)
    local csv = read(dir .. "/r.csv")
    assert.matches("^t,steps,kinetic,rotational,potential,energy,ball.x,ball.y\n", csv)
    local rows = select(2, csv:gsub("\n", ""))
    assert.are.equal(7, rows)     -- header and t = 0, 0.1, ..., 0.5
    assert.is_not_nil(read(dir .. "/svg/frame_00005.svg"))
    assert.is_not_nil(read(dir .. "/vtk/run.pvd"))
    assert.matches("<canvas", read(dir .. "/v.html"))
  end)

  it("refuses 2D pictures of a 3D world", function()
    local scene = write(dir .. "/s3.lua", "local impact = require 'impact'\nreturn impact.world3d {}\n")
    local code, _, err = impact(dir, "run " .. scene .. " --until 0.1 --png " .. dir .. "/p")
    assert.are.equal(1, code)
    assert.matches("%-%-png draws 2D worlds; this world is 3D", err)
  end)

  it("needs an end time", function()
    local scene = write(dir .. "/s.lua", "local impact = require 'impact'\nreturn impact.world2d {}\n")
    local code, _, err = impact(dir, "run " .. scene)
    assert.are.equal(1, code)
    assert.matches("no end time: give %-%-until T", err)
  end)

  it("prints impact.version with --version", function()
    local code, out = impact(dir, "--version")
    assert.are.equal(0, code)
    assert.are.equal("impact " .. require("impact").version .. " (Lua 5.4)\n", out)
    assert.matches("^%d+%.%d+%.%d+", require("impact").version)
  end)

  it("runs busted under Lua 5.4 with impact's paths: bin/impact spec [files]", function()
    local pass = write(dir .. "/pass_spec.lua", [[
local impact = require "impact"
describe("under bin/impact spec", function()
  it("runs Lua 5.4 and finds impact", function()
    assert.are.equal("Lua 5.4", _VERSION)
    assert.is_function(impact.world2d)
  end)
end)
]])
    local fail = write(dir .. "/fail_spec.lua", [[
describe("a failing spec", function() it("fails", function() assert.are.equal(1, 2) end) end)
]])
    local code, out = impact(dir, "spec " .. pass)
    assert.are.equal(0, code, out)
    assert.matches("1 success / 0 failures / 0 errors", out)
    code, out = impact(dir, "spec " .. fail)
    assert.are_not.equal(0, code, out)
    assert.matches("0 successes / 1 failure", out)
    -- busted's own options pass through, the paths survive the ';' (no --lpath cut)
    code, out = impact(dir, "spec --output=TAP " .. pass)
    assert.are.equal(0, code, out)
    assert.matches("ok 1 ", out)
    local _, usage = impact(dir, "--help")
    assert.matches("impact spec %[busted options%] %[spec files or folders%]", usage)
  end)

  it("plots one axis per kind of quantity, without the step counter, function columns too", function()
    local scene = write(dir .. "/scene.lua", scene2d)
    local code, _, err = impact(dir, "run " .. scene .. " --plot " .. dir .. "/p.svg --quiet")
    assert.are.equal(0, code, err)
    local texts = {}
    for t in read(dir .. "/p.svg"):gmatch("<text[^>]*>([^<]*)</text>") do texts[t] = true end
    assert.is_true(texts["energy (J)"] and texts["position (m)"] and texts["ball.y"] and texts.kinetic)
    assert.is_nil(texts.steps)
    local fscene = write(dir .. "/fscene.lua", [[
local impact = require "impact"
local w = impact.world2d { dt = 0.01 }
local b = w:add_body { shape = impact.shape2d.ball { radius = 0.1 }, mass = 1, position = {0, 1} }
return { world = w, until_time = 0.2, columns = { t = "time", height = function() return b.position[2] end,
  e = "energy.total" } }
]])
    code, _, err = impact(dir, string.format("run %s --plot %s/f.svg --record %s/f.csv --quiet", fscene,
      dir, dir))
    assert.are.equal(0, code, err)
    texts = {}
    for t in read(dir .. "/f.svg"):gmatch("<text[^>]*>([^<]*)</text>") do texts[t] = true end
    assert.is_true(texts.height and texts.e and texts["energy (J)"] and texts.other)
    assert.matches("^e,height,t\n", read(dir .. "/f.csv"))
  end)
end)

describe("make run", function()
  it("without SCRIPT names an example that exists", function()
    local makefile = assert(io.open("Makefile")):read("a")
    local named = 0
    for script in makefile:gmatch("make run SCRIPT=([%w_/.-]+%.lua)") do
      named = named + 1
      assert.is_truthy(io.open(script, "r"), "the Makefile names a missing " .. script)
    end
    assert.is_true(named >= 2)
  end)
end)
