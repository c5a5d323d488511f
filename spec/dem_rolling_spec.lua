-- Rolling resistance (dem.frict{rolling = eta_r}) against the closed form: a sphere rolling
-- without slip on a plane under its weight feels a rolling moment eta_r r m g, so
-- (m + I / r^2) a = -eta_r m g, a = -eta_r g / 1.4 for a solid sphere, and it stops after
-- v0^2 / (2 a) = 0.7 v0^2 / (eta_r g). Without resistance it rolls on at v0.
local impact = require("impact")
local dem = impact.dem

local E, r, rho, g = 1e6, 0.01, 2600, 9.81

local function roll(eta, v0)
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, -g } }
  w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
               position = { 0, 0, 0 } }
  local m = rho * 4 / 3 * math.pi * r ^ 3
  local b = w:add_body { shape = impact.shape3d.sphere { radius = r }, density = rho,
                         position = { 0, 0, r - m * g / (E * r) },  -- at rest on its spring
                         velocity = { v0, 0, 0 }, angular_velocity = { 0, v0 / r, 0 } }
  w.engines = { dem.force_resetter(), dem.collider {},
                dem.interaction_loop { physics = { dem.frict { young = E, rolling = eta } } },
                dem.newton { damping = 0 } }
  w.dt = 0.5 * w:p_wave_dt()
  return w, b
end

describe("dem rolling resistance", function()
  it("a sphere rolling on a plane stops at 0.7 v0^2 / (eta_r g)", function()
    for _, eta in ipairs { 0.1, 0.3 } do
      local v0 = 0.1
      local w, b = roll(eta, v0)
      local stop = 0.7 * v0 ^ 2 / (eta * g)
      local t_stop = v0 / (eta * g / 1.4)
      local xmax, half = 0, math.floor(0.5 * t_stop / w.dt / 10)
      local steps = math.ceil(1.3 * t_stop / w.dt)
      for i = 1, steps // 10 do
        w:step(10)
        xmax = math.max(xmax, b.position[1])
        if i == half then  -- half way: x = v0 t - a t^2 / 2 (the undamped shear spring's
          -- oscillation about the rolling motion is 1e-6 m in x, a few % of v0 in v)
          local t = 10 * half * w.dt
          local a = eta * g / 1.4
          assert.near(v0 * t - a * t * t / 2, b.position[1], 0.002 * stop)
        end
      end
      assert.near(stop, xmax, 0.005 * stop)
      -- and stays there, rocking on its springs (the shear spring alone holds m a / ks ~ 1e-5 m)
      assert.near(stop, b.position[1], 0.01 * stop)
    end
  end)

  it("without it the sphere rolls on", function()
    local v0 = 0.1
    local w, b = roll(0, v0)
    w:step(2000)
    assert.near(v0, b.velocity[1], 1e-3 * v0)
    assert.near(v0 * 2000 * w.dt, b.position[1], 1e-3 * v0 * 2000 * w.dt)
  end)

  it("refuses a negative eta_r", function()
    assert.has_error(function() dem.frict { rolling = -1 } end)
  end)
end)
