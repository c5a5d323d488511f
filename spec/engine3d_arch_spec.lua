-- Solfec's masonry arch (examples/masonry_arch.lua): 27 voussoirs on two fixed bases, exact
-- Coulomb friction (mu 0.5), 1 ms steps for 0.75 s. Limit analysis (Milankovitch; Heyman,
-- "The stone skeleton", 1966) puts the least thickness of a semicircular arch under its own
-- weight at about 0.107 of its mean radius: above it a thrust line fits inside the voussoirs
-- and the arch stands; below it a four-hinge mechanism opens. Solfec's test checks the kinetic
-- energy after 0.75 s (< 1e-4 J standing, > 1e-3 J falling).
local impact = require("impact")
local arch = dofile("examples/masonry_arch.lua")

local function run(ratio, points)
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 1e-3,
                             contact_points = points }
  local blocks = arch.build(w, { ratio = ratio })
  w:run { duration = 0.75 }
  return arch.kinetic_energy(blocks), blocks, w
end

describe("3D contact: Solfec's masonry arch", function()
  it("stands at a thickness ratio of 0.15 (above the limit 0.107)", function()
    local ke, blocks = run(0.15)
    assert.is_true(ke < 1e-4, "kinetic energy " .. ke)
    assert.equal(27, #blocks)
  end)

  it("stands on Solfec's own contact points too (the volumetric intersection, sparsified)", function()
    local ke = run(0.15, "volumetric")
    assert.is_true(ke < 1e-4, "kinetic energy " .. ke)
  end)

  it("falls at a thickness ratio of 0.08 (below the limit)", function()
    local ke = run(0.08)
    assert.is_true(ke > 1e-3, "kinetic energy " .. ke)
  end)
end)
