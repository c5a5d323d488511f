-- A symmetric body landing flat under the soft step (issue #24): a body dropped with no spin
-- and no tangential velocity onto the face it is symmetric about takes, by symmetry, no
-- angular impulse about its centre, so it leaves its landing step without spin, for any
-- elasticity and any yaw about the vertical, and bounces to e^2 of its drop height. The
-- sub-steps' one Gauss-Seidel pass over the corners took one corner's impulse before the
-- others' and left such bodies spinning (0.15 to 0.93 rad/s at 5 m/s); the restitution pass
-- now settles the impact's points together, on the step's impulses, with their friction. The
-- asymmetric case keeps its closed form: a box landing on an edge with e = 0 and sticking
-- friction keeps its angular momentum about that edge.
local impact = require("impact")
local shape3d = impact.shape3d
local scenes3d = require("spec.support.scenes3d")

local g = 9.81

-- name, shape, half height (rest height of the centre), size (its largest extent)
local bodies = scenes3d.flat_bodies()

local v_hit = 5
local h_drop = v_hit * v_hit / (2 * g)

-- drops body b (at rest, yaw in degrees) from h_drop above its resting height (substeps: the
-- world's, 4 when nil); returns the world and the body
local function drop(b, e, yaw, dt, substeps)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = dt, contact_solver = "soft",
                             substeps = substeps }
  w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true, position = { 0, 0, -0.5 },
               elasticity = e, friction = 0.5 }
  local a = math.rad(yaw)
  local body = w:add_body { shape = b[2](), mass = 2, position = { 0, 0, b[3] + h_drop },
                            orientation = { math.cos(a / 2), 0, 0, math.sin(a / 2) },
                            elasticity = e, friction = 0.5 }
  return w, body
end

local function norm(x) return math.sqrt(x[1] ^ 2 + x[2] ^ 2 + x[3] ^ 2) end

describe("3D soft step: a symmetric body landing flat", function()
  for _, b in ipairs(bodies) do
    it(("a %s leaves its landing step without spin (e = 0, 0.5, 1; yaw 0, 17, 45 deg)"):format(b[1]),
       function()
      for _, e in ipairs { 0, 0.5, 1 } do
        for _, yaw in ipairs { 0, 17, 45 } do
          local w, body = drop(b, e, yaw, 1 / 60)
          local spin
          for _ = 1, 120 do
            local vz = body.velocity[3]
            w:step()
            if body.velocity[3] - vz > 1 then  -- the landing step
              spin = norm(body.angular_velocity)
              break
            end
          end
          assert.is_not_nil(spin, "no landing")
          local what = ("e %.1f yaw %d: spin %.3g rad/s"):format(e, yaw, spin)
          assert.is_true(spin < 1e-9 * v_hit / b[4], what)
        end
      end
    end)
  end

  it("bounces to e^2 of its drop height within 1 % (e = 0.5 and 1)", function()
    for _, b in ipairs(bodies) do
      for _, e in ipairs { 0.5, 1 } do
        local dt = 1 / 240
        local w, body = drop(b, e, 17, dt)
        local landed, apex = false, -math.huge
        for _ = 1, math.floor(2.2 * v_hit / g / dt) do
          w:step()
          landed = landed or body.velocity[3] > 0
          if landed then apex = math.max(apex, body.position[3] - b[3]) end
        end
        local ratio = apex / (e * e * h_drop)
        assert.is_true(math.abs(ratio - 1) < 0.01,
                       ("%s e %.1f: apex / (e^2 h) = %.4f"):format(b[1], e, ratio))
      end
    end
  end)

  it("a box landing on an edge with e = 0 keeps its angular momentum about that edge", function()
    -- a unit cube of 1 kg tilted by theta about y falls at 5 m/s onto its lowest edge (along y,
    -- d = (cos theta - sin theta) / 2 beside the centre and zc = (cos theta + sin theta) / 2
    -- below it); a plastic impact with sticking friction keeps L about the edge:
    -- m d v = (I + m (d^2 + zc^2)) omega, I = m / 6, omega about y
    local dt, theta, m = 1 / 240, 0.3, 1
    local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = dt,
                               contact_solver = "soft" }
    w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true, position = { 0, 0, -0.5 },
                 elasticity = 0, friction = 2 }
    local zc = (math.cos(theta) + math.sin(theta)) / 2  -- the lowest edge's depth below the centre
    local body = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = m, friction = 2,
                              elasticity = 0,
                              position = { 0, 0, zc + 0.001 }, velocity = { 0, 0, -v_hit },
                              orientation = { math.cos(theta / 2), 0, math.sin(theta / 2), 0 } }
    local omega
    for _ = 1, 20 do
      local vz = body.velocity[3]
      w:step()
      if body.velocity[3] - vz > 1 then
        omega = body.angular_velocity
        break
      end
    end
    assert.is_not_nil(omega, "no landing")
    local d = (math.cos(theta) - math.sin(theta)) / 2
    local expected = m * d * v_hit / (m / 6 + m * (d * d + zc * zc))
    assert.is_true(math.abs(math.abs(omega[2]) - expected) < 0.03 * expected,
                   ("omega_y %.4f, closed form %.4f"):format(omega[2], expected))
    assert.is_true(math.abs(omega[1]) + math.abs(omega[3]) < 1e-6 * expected,
                   ("omega_x %.3g, omega_z %.3g"):format(omega[1], omega[3]))
  end)
end)

-- The tilt of a symmetric body landing flat under the soft step (issue #24): dropped with no
-- spin and no sideways velocity onto the face it is symmetric about, it takes by symmetry no
-- angular impulse about its centre at any instant of the impact, so it never tilts: the
-- angle between its axis and the vertical stays 0 at the end of every sub-step of its
-- landing (one sub-step a step here, so that each sub-step's end is a step's state), and,
-- when it bounces, over its flight after. The sub-steps' one Gauss-Seidel pass took one
-- corner's impulse before the others' and tilted such bodies by 0.2 to 9 mrad.
local tilt = scenes3d.tilt

describe("3D soft step: a symmetric body landing flat does not tilt", function()
  for _, b in ipairs(bodies) do
    it(("a %s: below 1e-6 rad at every sub-step's end of its landing (e = 0, 0.5, 1; yaw 0, 17, 45)")
       :format(b[1]), function()
      local dt = 1 / 240
      for _, e in ipairs { 0, 0.5, 1 } do
        for _, yaw in ipairs { 0, 17, 45 } do
          local w, body = drop(b, e, yaw, dt, 1)
          local landed, worst, at = nil, 0, 0
          -- to the landing sub-step; when it bounces, on to the apex (it leaves at e v_hit)
          local steps = math.floor((v_hit + e * v_hit) / g / dt) + 4
          for i = 1, steps do
            local vz = body.velocity[3]
            w:step()
            if not landed and body.velocity[3] - vz > 1 then landed = i end
            if tilt(body) > worst then worst, at = tilt(body), i end
            if landed and e == 0 then break end
          end
          assert.is_not_nil(landed, "no landing")
          assert.is_true(worst < 1e-6, ("e %.1f yaw %d: tilt %.3g rad at step %d (landing %d)")
                         :format(e, yaw, worst, at, landed))
        end
      end
    end)
  end

  it("below 1e-6 rad at the end of the landing step of 4 sub-steps (dt 1/60), every body", function()
    for _, b in ipairs(bodies) do
      for _, e in ipairs { 0, 0.5, 1 } do
        local w, body = drop(b, e, 17, 1 / 60, 4)
        local t
        for _ = 1, 60 do
          local vz = body.velocity[3]
          w:step()
          if body.velocity[3] - vz > 1 then
            t = tilt(body)
            break
          end
        end
        assert.is_not_nil(t, "no landing")
        assert.is_true(t < 1e-6, ("%s e %.1f: tilt %.3g rad"):format(b[1], e, t))
      end
    end
  end)
end)
