-- The engine list of a dem world as data: w.engines = {...} (Yade's O.engines = [...]),
-- reading it back, w:set_engines as before, and errors for bad lists.
local impact = require("impact")
local dem = impact.dem

local function new_world()
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
  w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true }
  w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
               position = { 0, 0, 0.05 }, velocity = { 0.2, 0, 0 } }
  w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
               position = { 0.004, 0.001, 0.08 } }
  w.dt = 5e-5
  return w
end

local function list()
  return { dem.force_resetter(), dem.collider {},
           dem.interaction_loop { physics = { dem.frict { young = 1e7 } } },
           dem.newton { damping = 0.1, label = "newton" } }
end

describe("dem engine list as data", function()
  it("w.engines = {...} runs the list, as w:set_engines does", function()
    local w1, w2 = new_world(), new_world()
    w1.engines = list()
    w2:set_engines(list())
    w1:step(2000)
    w2:step(2000)
    assert.equal(w1:state_hash(), w2:state_hash())
    -- and as the default list in C with the same parameters (damping 0.1 differs from its
    -- 0.2: the results differ)
    local w3 = new_world()
    w3:step(2000)
    assert.are_not.equal(w1:state_hash(), w3:state_hash())
  end)

  it("reads back as the list: the same engines, a copy of the list", function()
    local w = new_world()
    assert.is_nil(w.engines)  -- the default list in C runs
    local l = list()
    local probe = function() end
    l[#l + 1] = probe
    w.engines = l
    local back = w.engines
    assert.equal(5, #back)
    for i = 1, 4 do assert.equal(l[i], back[i]) end  -- the engine objects themselves
    assert.equal("lua", back[5].kind)               -- a function is wrapped as an engine
    assert.equal(probe, back[5].fn)
    back[4].damping = 0.3                            -- engines are data, shared
    assert.equal(0.3, w:engine("newton").damping)
    back[6] = dem.force_resetter()                   -- the list read is a copy: no effect
    assert.equal(5, #w.engines)
    w.engines = back                                 -- until assigned back
    assert.equal(6, #w.engines)
    assert.equal(back[4], w:engines()[4])            -- w:engines() still works
    assert.equal(6, #w:set_engines(back))            -- set_engines returns the list too
    w.engines = nil                                  -- back to the default list in C
    assert.is_nil(w.engines)
    w:step(10)
    assert.equal(10, w.steps)
  end)

  it("other world fields are read and set as before", function()
    local w = new_world()
    w.engines = list()
    w.dt = 1e-5
    assert.equal(1e-5, w.dt)
    w.gravity = { 0, 0, -1 }
    assert.near({ 0, 0, -1 }, w.gravity, 0)
    assert.matches("cannot be set", select(2, pcall(function() w.bogus = 1 end)))
    assert.is_nil(w.bogus)
    local w2 = impact.world2d {}
    w2.dt = 0.5
    assert.equal(0.5, w2.dt)
  end)

  it("rejects bad lists with errors naming the entry", function()
    local w = new_world()
    local function err(f)
      local ok, e = pcall(f)
      assert.is_false(ok)
      return e
    end
    assert.matches("dem_engines_spec.lua:%d+: World.engines: the engine list must be a table, got 5",
      err(function() w.engines = 5 end))
    assert.matches("World.engines: entry 2 must be an engine %(impact.dem.%*%), a function or a "
      .. "table with a run method, got \"collider\"",
      err(function() w.engines = { dem.force_resetter(), "collider" } end))
    assert.matches("World.engines: entry 2 is nil %(the engine list must be a sequence%)",
      err(function() w.engines = { dem.force_resetter(), nil, dem.newton {} } end))
    assert.matches("the engine list must be a sequence, found the key \"newton\"",
      err(function() w.engines = { dem.force_resetter(), newton = dem.newton {} } end))
    local n = dem.newton {}
    assert.matches("entries 1 and 3 are the same engine",
      err(function() w.engines = { n, dem.collider {}, n } end))
    local calls = 0
    local probe = function() calls = calls + 1 end  -- a function may sit twice: no state
    w.engines = { probe, dem.force_resetter(), probe }
    w:step(2)
    assert.equal(4, calls)
    assert.matches("World:set_engines: entry 1 must be an engine",
      err(function() w:set_engines { {} } end))
    local w2 = impact.world3d {}
    assert.matches("World.engines: the world's strategy is \"none\", not \"dem\"",
      err(function() w2.engines = {} end))
    -- a failed assignment keeps the list there was
    w.engines = list()
    err(function() w.engines = { 1 } end)
    assert.equal(4, #w.engines)
  end)

  it("saves and loads the list given as a field", function()
    local w = new_world()
    w.engines = list()
    w:step(500)
    local path = os.tmpname()
    dem.save(w, path)
    local w2 = dem.load(path)
    os.remove(path)
    assert.equal(4, #w2.engines)
    assert.equal(0.1, w2:engine("newton").damping)
    w:step(500)
    w2:step(500)
    assert.equal(w:state_hash(), w2:state_hash())
  end)
end)
