-- The picture and export examples run and write what they say.
local function run(script)
  local env = string.format("LUA_PATH_5_4=%q LUA_CPATH_5_4=%q", package.path, package.cpath)
  local p = assert(io.popen(string.format("%s lua5.4 %s 2>&1", env, script)))
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

describe("picture examples", function()
  it("projectile_plot.lua reaches the closed-form tops and writes its plots", function()
    local out, ok = run("examples/projectile_plot.lua")
    assert.is_true(ok, out)
    for top, expected in out:gmatch("%d+%s+([%d.]+)%s+([%d.]+)\n") do
      assert.near(tonumber(expected), tonumber(top), 2e-4)
    end
    assert.are.equal("\137PNG", assert(io.open("out/projectile.png", "rb")):read(4))
  end)

  it("tumbling_vtk.lua writes a .pvd collection and a viewer page #slow", function()
    local out, ok = run("examples/tumbling_vtk.lua")
    assert.is_true(ok, out)
    assert.matches("wrote out/tumbling/run.pvd %(121 frames%)", out)
    assert.is_not_nil(io.open("out/tumbling.html"))
  end)

  it("spring_chain_film.lua writes its frames #slow", function()
    local out, ok = run("examples/spring_chain_film.lua")
    assert.is_true(ok, out)
    assert.matches("wrote 151 frames to out/chain/", out)
  end)
end)
