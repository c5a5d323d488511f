-- A one-cube-thick wall under the soft step (the 3D bench's pyramid2d: row k of B - k unit
-- cubes, each over the joint of the two below; manual chapter 3, "Tall walls"). A soft contact
-- is a spring: a point of effective mass m_eff holds a load F at the overlap F / (m_eff w^2),
-- w = 2 pi hertz (twice the hertz against the ground), so a wall sags by a sum of such
-- overlaps, which grows as B^2 / hertz^2. Expected values are the springs' statics.
local impact = require("impact")
local shape3d = impact.shape3d

local g = 9.81

-- the wall of B rows under (substeps, hertz); runs steps steps and returns its cubes (each with
-- its row and start) and the largest displacement any cube had at any step
local function wall(B, substeps, hertz, steps)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -g }, dt = 1 / 60,
                             contact_solver = "soft", substeps = substeps, soft = { hertz = hertz } }
  w:add_body { shape = shape3d.box { size = { B + 10, 10, 1 } }, fixed = true, friction = 0.6, elasticity = 0,
               position = { 0, 0, -0.5 } }
  local cubes = {}
  for k = 0, B - 1 do
    local n = B - k
    for a = 0, n - 1 do
      local x = a - 0.5 * (n - 1)
      local body = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1, friction = 0.6,
                                elasticity = 0, position = { x, 0, 0.5 + k } }
      cubes[#cubes + 1] = { body = body, row = k, x = x, z = 0.5 + k }
    end
  end
  local most = 0
  for s = 1, steps do
    w:step()
    if s % 10 == 0 or s == steps then
      for _, c in ipairs(cubes) do
        local p = c.body.position
        most = math.max(most, math.sqrt((p[1] - c.x) ^ 2 + p[2] ^ 2 + (p[3] - c.z) ^ 2))
      end
    end
  end
  return cubes, most
end

-- the mean vertical displacement of row k's cubes
local function row_dz(cubes, k)
  local sum, n = 0, 0
  for _, c in ipairs(cubes) do
    if c.row == k then
      sum, n = sum + c.body.position[3] - c.z, n + 1
    end
  end
  return sum / n
end

describe("3D soft step: a tall wall", function()
  it("of 50 rows stands at 5 sub-steps and 50 Hz, sunk by its weight over the ground's springs", function()
    -- the bench's pyramid2d 50 (1275 cubes) at a sixth of the sub-step rate (300 Hz). The
    -- ground row's B cubes carry the wall's B (B + 1) / 2 cubes; a ground point (a face
    -- corner, lever arm (+-1/2, +-1/2, -1/2) from a cube of mass 1 and inertia 1/6) has
    -- m_eff = 1 / (1 + 6 (1/4 + 1/4)) = 1/4, its spring against the still ground (2 w)^2 m_eff =
    -- w^2; a cube's four points in parallel, 4 w^2. Linear springs: the row's mean overlap is
    -- the mean load over that, (B + 1) g / (8 w^2), whatever the load's split among the cubes.
    local B, hz = 50, 50
    local cubes, most = wall(B, 5, hz, 500)
    local om = 2 * math.pi * hz
    assert.near(-(B + 1) * g / (8 * om ^ 2), row_dz(cubes, 0), 1e-3 * (B + 1) * g / (8 * om ^ 2))
    -- the bench's criterion: no cube moved 0.1 m in 500 steps
    assert.is_true(most < 0.1, "a cube moved " .. most)
    -- the top sags by the sum of the rows' overlaps. Row k >= 1 carries (B - k)(B - k + 1) / 2
    -- cubes on 2 (B - k) half faces of four points, each m_eff = 1 / (2 + 6 (1/4 + 1/4 + 1/4))
    -- = 1 / 6.5: with the load split evenly, a half face overlaps (B - k + 1) g 6.5 / (16 w^2),
    -- and the rows sum to (B (B + 1) / 2 - 1) 6.5 / 16 g / w^2, 5.2 cm with the ground's. The
    -- centre, under the top, carries more than the mean: the top sags up to 40 % more.
    local even = ((B * (B + 1) / 2 - 1) * 6.5 / 16 + (B + 1) / 8) * g / om ^ 2
    local top = -row_dz(cubes, B - 1)
    assert.is_true(top >= even and top < 1.4 * even, "the top sagged " .. top .. " against " .. even)
  end)

  it("sags as 1 / hertz^2: the springs' statics", function()
    -- the wall's cubes at rest on linear springs of stiffness m_eff w^2: every overlap, and so
    -- the top's sag, scales as 1 / w^2 (20 rows, 8 sub-steps, 30 and 60 Hz: a quarter). The
    -- ground row's exactly (its springs carry the weight whatever its split); the top's within
    -- 8 %: the friction's shear held while the wall settled (a path) differs between the two
    local B = 20
    local soft_wall = wall(B, 8, 30, 300)
    local stiff_wall = wall(B, 8, 60, 300)
    assert.near(4, row_dz(soft_wall, 0) / row_dz(stiff_wall, 0), 4e-3)
    assert.near(4, row_dz(soft_wall, B - 1) / row_dz(stiff_wall, B - 1), 0.32)
  end)
end)
