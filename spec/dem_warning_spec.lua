-- The dt warning of the dem strategy: a step whose contacts hold a sphere with dt above its
-- P-wave step r / sqrt(E / rho) (Yade's PWaveTimeStep) is reported, once per batch of steps,
-- with the ratio dt / step; below the step nothing is said; dt = false silences it.
local impact = require("impact")
local dem = impact.dem

local rho, E, R = 2600, 1e7, 0.01

local function resting(with_engines)
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -9.81 } }
  w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
               position = { 0, 0, 0 } }
  -- at rest: the overlap where the wall's spring kn = E R carries the weight
  local young = with_engines and E or 1e9
  local m = 4 / 3 * math.pi * R ^ 3 * rho
  local b = w:add_body { shape = impact.shape3d.sphere { radius = R }, density = rho,
                         position = { 0, 0, R - m * 9.81 / (young * R) }, name = "ball" }
  if with_engines then
    w.engines = { dem.force_resetter(), dem.collider {},
                  dem.interaction_loop { physics = { dem.frict { young = E } } },
                  dem.newton { damping = 0.2 } }
  end
  return w, b
end

local function p_wave() return R / math.sqrt(E / rho) end

describe("dem dt warning", function()
  for _, with_engines in ipairs { true, false } do
    local how = with_engines and "engine list" or "default list"
    it("reports dt above the P-wave step of a sphere in contact (" .. how .. ")", function()
      local w, b = resting(with_engines)
      if not with_engines then
        -- the default list's young modulus is 1e9: the step of the ball is its own
        assert.is_true(w:p_wave_dt() > 0)
      end
      local step = with_engines and p_wave() or w:p_wave_dt()
      assert.near(step, w:p_wave_dt(), 1e-12 * step)
      w.dt = 3 * step
      local got = {}
      w:dem_warnings { handler = function(warning) got[#got + 1] = warning end }
      w:step(5)
      assert.equals(1, #got)  -- one call per batch of steps
      local warning = got[1]
      assert.equals("dt", warning.kind)
      assert.equals(5, warning.steps)  -- the ball touches the wall at every step
      assert.near(3, warning.ratio, 1e-9)
      assert.equals(b, warning.body)
      assert.equals(w, warning.world)
      assert.truthy(warning.message:find("3 times the P-wave step", 1, true))
      assert.truthy(warning.message:find("\"ball\"", 1, true))
      w:run { steps = 3 }
      assert.equals(2, #got)
      assert.equals(3, got[2].steps)
    end)
  end

  it("says nothing below the P-wave step, nor without contacts", function()
    local w = resting(true)
    local got = 0
    w:dem_warnings { handler = function() got = got + 1 end }
    w.dt = 0.9 * w:p_wave_dt()
    w:step(20)
    assert.equals(0, got)
    local free = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    free:add_body { shape = impact.shape3d.sphere { radius = R }, density = rho,
                    position = { 0, 0, 1 } }
    free:dem_warnings { handler = function() got = got + 1 end }
    free.dt = 5 * free:p_wave_dt()
    free:step(10)
    assert.equals(0, got)  -- a free sphere's dt is not limited by a contact
  end)

  it("is silenced by dt = false, and the default handler writes one line per world", function()
    local w = resting(true)
    w.dt = 2 * w:p_wave_dt()
    local lines = {}
    local stderr = io.stderr
    local fake = { write = function(_, ...) lines[#lines + 1] = table.concat { ... } end }
    io.stderr = fake  -- luacheck: ignore 122
    local ok, err = pcall(function()
      w:step(3)
      w:step(3)
    end)
    io.stderr = stderr  -- luacheck: ignore 122
    assert(ok, err)
    assert.equals(1, #lines)
    assert.truthy(lines[1]:find("^impact%.dem: warning: dt = "))
    local quiet = resting(true)
    quiet.dt = 2 * quiet:p_wave_dt()
    quiet:dem_warnings { dt = false, handler = function() error("called") end }
    quiet:step(3)
  end)

  it("keeps the error above 10 times the step (the state would blow up)", function()
    local w = resting(true)
    w.dt = 62 * w:p_wave_dt()
    assert.has_error(function() w:step(1) end)
  end)

  -- the global estimate is cached between steps: it must follow the bodies and the modulus,
  -- each changed on its own
  it("follows new bodies and a new modulus between steps", function()
    local w = resting(true)
    local got = {}
    w:dem_warnings { handler = function(warning) got[#got + 1] = warning end }
    w.dt = 0.9 * p_wave()
    w:step(3)
    assert.equals(0, #got)
    -- a ball of radius R / 4 resting on the wall: its step is p_wave() / 4, dt 3.6 times it
    local r = R / 4
    local m = 4 / 3 * math.pi * r ^ 3 * rho
    local small = w:add_body { shape = impact.shape3d.sphere { radius = r }, density = rho,
                               position = { 0.1, 0, r - m * 9.81 / (E * r) } }
    w:step(1)
    assert.equals(1, #got)
    assert.near(3.6, got[1].ratio, 1e-9)
    assert.equals(small, got[1].body)
    w:remove_body(small)
    w:step(2)
    assert.equals(1, #got)
    -- 9 E: the ball's step is a third of p_wave(), dt is 2.7 times it
    w.engines = { dem.force_resetter(), dem.collider {},
                  dem.interaction_loop { physics = { dem.frict { young = 9 * E } } },
                  dem.newton { damping = 0.2 } }
    assert.near(p_wave() / 3, w:p_wave_dt(), 1e-12 * p_wave())
    w:step(1)
    assert.equals(2, #got)
    assert.near(2.7, got[2].ratio, 1e-9)
  end)

  it("checks its options", function()
    local w = resting(true)
    assert.has_error(function() w:dem_warnings { dt = 1 } end)
    assert.has_error(function() w:dem_warnings { handler = 3 } end)
    assert.has_error(function() w:dem_warnings { loud = true } end)
  end)
end)
