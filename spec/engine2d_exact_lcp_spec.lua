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

  it("is a contact_solver name; others are refused", function()
    assert.has_no.errors(function() stack("ode") end)
    assert.has_error(function()
      impact.world2d { strategy = "contact", contact_solver = "newton" }
    end)
  end)
end)
