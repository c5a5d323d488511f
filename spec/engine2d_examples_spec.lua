-- The 2D engine's examples run and print what happened.
local function run(script, args)
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  local p = assert(io.popen(string.format("%s lua5.4 %s %s 2>&1", env, script, args or "")))
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

describe("engine2d examples", function()
  it("newtons_cradle.lua: serial moves only the last ball", function()
    local out, ok = run("examples/newtons_cradle.lua", "serial")
    assert.is_true(ok, out)
    for i = 2, 4 do
      assert.matches(string.format("ball %d: velocity %%(%%s*%%-?0%%.0000,%%s*%%-?0%%.0000%%)", i), out)
    end
    assert.is_nil(out:match("ball 5: velocity %(%s*%-?0%.0000,%s*%-?0%.0000%)"), out)
  end)

  it("block_pile.lua settles: no collisions, constant energy, contacts at the half gap", function()
    local out, ok = run("examples/block_pile.lua")
    assert.is_true(ok, out)
    assert.matches("from 10 s to 12 s: 0 new collisions", out)
    local de = tonumber(out:match("energy change ([%d.e+-]+) J"))
    assert.is_true(math.abs(de) < 1e-6, out)
    local gap = tonumber(out:match("half gap ([%d.e+-]+) m"))
    assert.is_true(gap < 1e-6, out)
  end)

  it("ball_in_bowl.lua: the sliding and rolling periods match the pendulum formulas", function()
    local out, ok = run("examples/ball_in_bowl.lua")
    assert.is_true(ok, out)
    local n = 0
    for section in out:gmatch("ball in a bowl.-theory: [^\n]*") do
      local p1 = tonumber(section:match("period 1: ([%d.]+) s"))
      local theory = tonumber(section:match("([%d.]+) s with the amplitude correction"))
      assert.near(theory, p1, 2e-4 * theory)
      n = n + 1
    end
    assert.equal(2, n)
  end)

  it("roller_coaster.lua: sqrt(2 g h) in the valley, one strike on the stop, held on the track",
    function()
    local out, ok = run("examples/roller_coaster.lua")
    assert.is_true(ok, out)
    local v, want = out:match("fastest in the first valley: ([%d.]+) m/s at y = [%d.]+ "
      .. "%(sqrt%(2 g h%) = ([%d.]+)%)")
    assert.is_truthy(v, out)
    assert.near(tonumber(want), tonumber(v), 1e-3)
    assert.matches("strike 1 on the stop", out)
    local off = tonumber(out:match("the car ([%d.e+-]+) m off the track"))
    assert.is_true(off < 1e-4, out)
  end)
end)
