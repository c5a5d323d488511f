-- A tilted cube landing on a face under the 3D contact strategy: how a step meets its impacts.
-- Under simultaneous handling a plastic impact (elasticity 0) cuts no step (the speculative
-- bound stops every corner that closes within the step at contact, one simultaneous impact);
-- restitution and serial handling still cut the step at the time of impact. Checked against
-- invariants: a plastic impact never adds kinetic energy, no corner passes through the floor,
-- and the cube ends at rest on a face at its geometric height (0.5 m for a 1 m cube).
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

local function quat_mul(a, b)
  return { a[1] * b[1] - a[2] * b[2] - a[3] * b[3] - a[4] * b[4],
           a[1] * b[2] + a[2] * b[1] + a[3] * b[4] - a[4] * b[3],
           a[1] * b[3] - a[2] * b[4] + a[3] * b[1] + a[4] * b[2],
           a[1] * b[4] + a[2] * b[3] - a[3] * b[2] + a[4] * b[1] }
end

local function axis_quat(x, y, z, angle)
  local s = math.sin(angle / 2)
  return { math.cos(angle / 2), x * s, y * s, z * s }
end

local function kinetic(b)
  local v, om = b.velocity, b.angular_velocity
  return 0.5 * (v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2) + 0.5 / 6 * (om[1] ^ 2 + om[2] ^ 2 + om[3] ^ 2)
end

-- a 1 kg unit cube tilted by (0.12, -0.09) rad dropped from height (its centre) at dt 1/60
local function drop(handling, elasticity, height)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                             collision_handling = handling }
  w:add_body { shape = shape3d.box { size = { 40, 40, 1 } }, fixed = true, friction = 0.6,
               elasticity = elasticity, position = { 0, 0, -0.5 } }
  local q = quat_mul(axis_quat(1, 0, 0, 0.12), axis_quat(0, 1, 0, -0.09))
  local cube = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, friction = 0.6,
                            elasticity = elasticity, position = { 0, 0, height }, orientation = q }
  return w, cube
end

describe("3D contact: a tilted cube landing on a face", function()
  it("a plastic landing (simultaneous) cuts no step, gains no energy, rests on a face", function()
    local w, cube = drop("simultaneous", 0, 10)
    local bound, ke_after = nil, 0
    local lowest = math.huge
    for _ = 1, 240 do
      local ke0, z0 = kinetic(cube), cube.position[3]
      w:step()
      lowest = math.min(lowest, cube.position[3])
      if w:stats().collisions > 0 then
        -- from the step that met the floor on: the energy it came with plus what gravity can
        -- still give (the centre's drop to 0.5 m) bounds every later kinetic energy
        bound = bound or ke0 + g * (z0 - 0.5)
        ke_after = math.max(ke_after, kinetic(cube))
      end
    end
    assert.equal(0, w:stats().backups)
    assert.is_true(w:stats().collisions > 0)
    assert.is_true(ke_after <= bound, "kinetic energy after the landing " .. ke_after .. " > " .. bound)
    -- no corner through the floor: the centre never lower than half the edge minus distance_tol
    assert.is_true(lowest >= 0.5 - 0.01, "lowest centre " .. lowest)
    -- at rest on a face: centre at 0.5 m, a face normal vertical
    assert.near(0.5, cube.position[3], 1e-3)
    assert.is_true(kinetic(cube) < 1e-6)
    local q = cube.orientation
    -- the body's z axis in the world: its vertical component is +-1 when a face is down (or
    -- the cube rolled onto a side face: then x or y is vertical); take the largest
    local zz = 1 - 2 * (q[2] ^ 2 + q[3] ^ 2)
    local xz = 2 * (q[2] * q[4] - q[1] * q[3])
    local yz = 2 * (q[3] * q[4] + q[1] * q[2])
    assert.near(1, math.max(math.abs(zz), math.abs(xz), math.abs(yz)), 1e-4)
  end)

  it("restitution and serial handling still cut the step at the time of impact", function()
    local w1 = drop("simultaneous", 0.5, 3)
    local w2 = drop("serial", 0, 3)
    for _ = 1, 90 do
      w1:step()
      w2:step()
    end
    assert.is_true(w1:stats().backups > 0)
    assert.is_true(w2:stats().backups > 0)
  end)
end)
