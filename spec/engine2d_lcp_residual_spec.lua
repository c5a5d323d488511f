-- w:stats().lcp_residual: the largest complementarity residual (relative to the problem's
-- scales) of the answers the 2D engine took from its exact contact-force LCP.
local impact = require("impact")
local shape2d = impact.shape2d

describe("engine2d lcp_residual", function()
  it("is reported and tiny when the exact LCP solves every evaluation", function()
    local w = impact.world2d { strategy = "contact", dt = 0.01, gravity = { 0, -10 } }
    w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 },
                 fixed = true, friction = 0.5 }
    for k = 0, 3 do
      w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1, friction = 0.5,
                   position = { 0.1 * k, 0.505 + 1.005 * k } }
    end
    assert.equal(0, w:stats().lcp_residual)
    w:run { duration = 1 }
    local s = w:stats()
    assert.is_true(s.lcp_solves > 0)
    assert.equal(0, s.lcp_failures)
    assert.is_true(s.lcp_residual >= 0 and s.lcp_residual < 1e-8, tostring(s.lcp_residual))
  end)
end)
