-- The 3D contact strategy's split impulse (engine3d_solve.c, imp_engine3d_push_apart): a
-- penetration deeper than the slop (a tenth of distance_tol) is pushed out on pseudo-velocities
-- that move positions only. From that definition, with no gravity and bodies at rest: the
-- velocity problem has nothing to do (u = 0, b = 0), so a sunk cube rises by no more than its
-- depth beyond the slop, square on its four corners (no turn, no sideways move), and keeps a
-- zero velocity (the pass adds no kinetic energy); a cube that touches without penetrating is
-- not moved at all.
local impact = require("impact")
local shape3d = impact.shape3d

local function scene(solver, substeps)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, 0 }, dt = 1 / 60,
                             contact_solver = solver, substeps = substeps }
  w:add_body { shape = shape3d.box { size = { 20, 20, 1 } }, fixed = true, position = { 0, 0, -0.5 } }
  return w
end

local function norm(v) return math.sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) end

describe("3D contact: the split impulse's position pass", function()
  for _, case in ipairs { { "pgs", 1 }, { "pgs", 4 }, { "lcp", 1 } } do
    local solver, substeps = case[1], case[2]
    local name = solver .. " x " .. substeps
      .. ": a sunk cube rises square, keeps zero velocity; a touching one stays"
    it(name, function()
      local w = scene(solver, substeps)
      local depth, slop = 0.005, 0.1 * 0.01  -- distance_tol's default 0.01
      local sunk = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                                position = { -2, 0, 0.5 - depth } }
      local rest = w:add_body { shape = shape3d.box { size = { 1, 1, 1 } }, mass = 1,
                                position = { 2, 0, 0.5 } }
      local rise = 0
      for _ = 1, 3 do
        local z0 = sunk.position[3]
        w:step()
        local dz = sunk.position[3] - z0
        assert.is_true(dz >= 0, "sank by " .. -dz)
        rise = rise + dz
        assert.equal(0, norm(sunk.velocity))  -- positions only: no velocity, no kinetic energy
        assert.equal(0, norm(sunk.angular_velocity))
      end
      assert.is_true(rise > 0, "not pushed out")
      assert.is_true(rise <= depth - slop + 1e-12, "pushed beyond the slop: rose " .. rise)
      local p, q = sunk.position, sunk.orientation
      assert.is_true(math.abs(p[1] + 2) < 1e-12 and math.abs(p[2]) < 1e-12, "slid")
      assert.is_true(math.abs(q[1] - 1) < 1e-12, "turned")
      assert.same({ 2, 0, 0.5 }, rest.position)  -- exactly: touching, not penetrating
      assert.equal(0, norm(rest.velocity))
    end)
  end
end)
