-- The examples run, and the README's scene prints what the README says it prints.
local function lua_command(script)
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  return string.format("%s lua5.4 %s 2>&1", env, script)
end

local function run(script)
  local p = assert(io.popen(lua_command(script)))
  local out = p:read("a")
  local ok, _, code = p:close()
  return out, ok, code
end

describe("examples", function()
  it("tennis_racket.lua flips only about the middle axis", function()
    local out, ok = run("examples/tennis_racket.lua")
    assert.is_true(ok, out)
    assert.matches("x %(largest%)%s+0%s", out)
    assert.matches("z %(smallest%)%s+0%s", out)
    local flips = tonumber(out:match("y %(middle%)%s+(%d+)"))
    assert.is_true(flips >= 2, out)
  end)

  it("figure_eight.lua returns to the start after one period", function()
    local out, ok = run("examples/figure_eight.lua")
    assert.is_true(ok, out)
    local dist = tonumber(out:match("largest distance from the start ([%d.e+-]+)"))
    assert.is_true(dist < 1e-6, out)
  end)

  it("bouncing_spring.lua decays as A0 exp(-c t / 2m)", function()
    local out, ok = run("examples/bouncing_spring.lua")
    os.remove("spring.csv")
    assert.is_true(ok, out)
    local a, expected = out:match("amplitude ([%d.e+-]+) m after 10 s, expected .- = ([%d.e+-]+) m")
    assert.near(tonumber(expected), tonumber(a), { rel = 1e-4 })
  end)
end)

describe("compliant examples", function()
  it("bouncing_materials.lua rebounds to h cor^2 and rests at Hertz's depth", function()
    local out, ok = run("examples/bouncing_materials.lua")
    assert.is_true(ok, out)
    local rows = 0
    for first, expected, rest, hertz in out:gmatch(
        "%a+%s+[%d.]+%s+([%d.]+)[^\n]-%(h cor%^2: ([%d.]+)%)%s+%d+%s+([%d.e+-]+)%s+([%d.e+-]+)") do
      rows = rows + 1
      assert.near(tonumber(expected), tonumber(first), { rel = 0.01 })
      assert.near(tonumber(hertz), tonumber(rest), { rel = 1e-3 })
    end
    assert.are.equal(3, rows, out)
  end)
end)

describe("README", function()
  it("shows the output the demo really prints", function()
    local readme = assert(io.open("README.md")):read("a")
    local shown = readme:match("`make demo` prints.-```\n(.-)```")
    assert.is_not_nil(shown)
    local out, ok = run("examples/tennis_racket.lua")
    assert.is_true(ok, out)
    assert.are.equal(shown, out)
  end)

  it("shows the output its scene really prints", function()
    local readme = assert(io.open("README.md")):read("a")
    local section = readme:match("## A scene(.-)\n## ")
    local code, shown = section:match("```lua\n(.-)```%s*```\n(.-)```")
    assert.is_not_nil(code)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(code)
    f:close()
    local out, ok = run(path)
    os.remove(path)
    assert.is_true(ok, out)
    assert.are.equal(shown, out)
  end)
end)
