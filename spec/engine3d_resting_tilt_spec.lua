-- A symmetric body set down at rest on the face it is symmetric about, under the soft step
-- (issue #24): its weight and the support's reaction act along its axis, so by symmetry its
-- contact takes no angular impulse about its centre and it never tilts (the angle between
-- its axis and the vertical stays 0 to rounding), on the ground as on a box that rests there.
-- The sub-steps' Gauss-Seidel pass over a new manifold's corners took one corner's impulse
-- before the others' and tilted such bodies by 2e-5 to 1.2e-4 rad in their first step.
local impact = require("impact")
local shape3d = impact.shape3d
local scenes3d = require("spec.support.scenes3d")

local g = 9.81

-- name, shape, half height (rest height of the centre above its support), size
local bodies = scenes3d.flat_bodies()
local tilt = scenes3d.tilt

-- body b set at rest (yaw in degrees) on the ground, or on a 3 x 3 x 0.5 box of 5 kg resting
-- there (on_box); returns the world, the body and the box (nil on the ground)
local function set_down(b, yaw, on_box)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                             contact_solver = "soft" }
  w:add_body { shape = shape3d.box { size = { 200, 200, 1 } }, fixed = true, position = { 0, 0, -0.5 },
               friction = 0.5 }
  local base, support = 0, nil
  if on_box then
    support = w:add_body { shape = shape3d.box { size = { 3, 3, 0.5 } }, mass = 5, position = { 0, 0, 0.25 },
                           friction = 0.5 }
    base = 0.5
  end
  local a = math.rad(yaw)
  local body = w:add_body { shape = b[2](), mass = 2, position = { 0, 0, base + b[3] },
                            orientation = { math.cos(a / 2), 0, 0, math.sin(a / 2) }, friction = 0.5 }
  return w, body, support
end

-- the largest tilt of the body (and of its support) over the given steps
local function worst_tilt(b, yaw, on_box, steps)
  local w, body, support = set_down(b, yaw, on_box)
  local worst = 0
  for _ = 1, steps do
    w:step()
    worst = math.max(worst, tilt(body), support and tilt(support) or 0)
  end
  return worst
end

describe("3D soft step: a symmetric body set down at rest", function()
  for _, on_box in ipairs { false, true } do
    local where = on_box and "on a box resting on the ground" or "on the ground"
    it(("does not tilt in its first step %s (below 1e-12 rad; yaw 0, 17, 45 deg)"):format(where), function()
      for _, b in ipairs(bodies) do
        for _, yaw in ipairs { 0, 17, 45 } do
          local t = worst_tilt(b, yaw, on_box, 1)
          assert.is_true(t < 1e-12, ("%s yaw %d: tilt %.3g rad"):format(b[1], yaw, t))
        end
      end
    end)

    -- not met yet: the new manifold is solved as one block in its first step only; in the
    -- steps after, the passes take its corners one after the other while the soft contact
    -- settles (box 1 x 0.6 x 0.4 on the ground: 1.3e-5 rad at step 2, 1.6e-5 at most over 2 s)
    pending(("keeps its orientation over 2 s %s (below 1e-12 rad)"):format(where), function()
      for _, b in ipairs(bodies) do
        local t = worst_tilt(b, 17, on_box, 120)
        assert.is_true(t < 1e-12, ("%s: tilt %.3g rad"):format(b[1], t))
      end
    end)
  end
end)
