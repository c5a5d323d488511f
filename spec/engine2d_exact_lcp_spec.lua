-- contact_solver = "coulomb": the 2D engine's contact forces by the exact Coulomb solver
-- (coulomb.h: Newton on the Alart-Curnier function, each 2D contact a 3D one with a
-- decoupled second tangent), warm-started from the last exact solve's forces by row key.
-- A resting offset stack has static forces: nothing moves (each box's centre stays over the
-- one below, |offset| 0.1 < 0.5), every solve reaches the solver's tolerance and the answers
-- are solutions (complementarity residual, relative, below 1e-8).
-- (Not yet here: pyramids, whose side-by-side boxes touch with coincident points; there the
-- solver misses its tolerance on some solves and the engine falls back to PGS.)
local impact = require("impact")
local shape2d = impact.shape2d

local function stack(stepping)
  local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 },
                             contact_solver = "coulomb", time_stepping = stepping }
  w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 },
               fixed = true, friction = 0.5 }
  local bodies = {}
  for k = 0, 3 do
    bodies[#bodies + 1] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                       friction = 0.5, position = { 0.1 * k, 0.505 + 1.005 * k } }
  end
  return w, bodies
end

describe("engine2d contact_solver coulomb", function()
  for _, stepping in ipairs { "symplectic_euler", "ode" } do
    it("holds an offset stack of 4 boxes still with exact forces (" .. stepping .. ")", function()
      local w, bodies = stack(stepping)
      w:run { duration = 1 }
      local s = w:stats()
      assert.is_true(s.coulomb_solves > 0)
      assert.equal(0, s.coulomb_failures)
      assert.is_true(s.lcp_residual < 1e-8, tostring(s.lcp_residual))
      for k, b in ipairs(bodies) do
        assert.is_true(math.abs(b.velocity[1]) < 1e-6 and math.abs(b.velocity[2]) < 1e-6)
        assert.is_true(math.abs(b.position[1] - 0.1 * (k - 1)) < 1e-6, tostring(b.position[1]))
      end
    end)
  end

  -- Boxes placed exactly touching (gap 0, inside the half gap the engine aims for) take the
  -- push path (a first solve for the loads, then the solve with the push): a box on the
  -- ground and a 3-box pyramid stay at rest with no back-up and no collision. (The push solve's
  -- warm start once overwrote the saved right-hand side, so every step backed up.)
  for _, stepping in ipairs { "symplectic_euler", "ode" } do
    it("keeps boxes placed exactly touching at rest, no back-up (" .. stepping .. ")", function()
      local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -10 },
                                 contact_solver = "coulomb", time_stepping = stepping }
      w:add_body { shape = shape2d.block { width = 20, height = 2 }, position = { 0, -1 },
                   fixed = true, friction = 0.6 }
      local start = { { -0.5, 0.5 }, { 0.5, 0.5 }, { 0, 1.5 }, { 4, 0.5 } }
      local bodies = {}
      for _, p in ipairs(start) do
        bodies[#bodies + 1] = w:add_body { shape = shape2d.block { width = 1, height = 1 },
                                           mass = 1, friction = 0.6, position = p }
      end
      w:run { duration = 1 }
      local s = w:stats()
      assert.equal(0, s.backups)
      assert.equal(0, s.collisions)
      assert.equal(0, s.coulomb_failures)
      -- (a contact closer than the half gap, distance_tol / 2 = 0.005, is pushed out to it:
      -- the boxes rise by it, the side-by-side pair parts by at most it)
      local half = 0.005
      for k, b in ipairs(bodies) do
        assert.is_true(math.abs(b.position[1] - start[k][1]) <= half, tostring(b.position[1]))
        local rise = b.position[2] - start[k][2]
        assert.is_true(rise >= 0 and rise <= (k == 3 and 2 or 1) * half + 1e-6, tostring(rise))
        assert.is_true(math.abs(b.angle) < 1e-9, tostring(b.angle))
        assert.is_true(math.abs(b.velocity[1]) < 1e-5 and math.abs(b.velocity[2]) < 1e-5)
      end
      assert.is_true(bodies[2].position[1] - bodies[1].position[1] - 1 <= half + 1e-6)
    end)
  end

  it("is a contact_solver name; others are refused", function()
    assert.has_no.errors(function() stack("ode") end)
    assert.has_error(function()
      impact.world2d { strategy = "contact", contact_solver = "newton" }
    end)
  end)
end)
