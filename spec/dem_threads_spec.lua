-- The dem strategy runs its interaction loop and integrator with OpenMP: the results must not
-- depend on the number of threads.
local run_with_threads = require("spec.support.files").run_with_threads

local function hash_with(threads)
  local script = [[
local impact = require "impact"
local w = impact.world3d { strategy = "dem", gravity = {0, 0, -9.81}, seed = 3 }
w:add_body { shape = impact.shape3d.wall { normal = {0, 0, 1} }, fixed = true }
for i = 0, 399 do
  w:add_body { shape = impact.shape3d.sphere { radius = 0.01 }, density = 2600,
    position = { 0.021 * (i % 10) + 0.001 * w:random(), 0.021 * ((i // 10) % 10) + 0.001 * w:random(),
                 0.021 * (i // 100) + 0.02 } }
end
w.dt = 0.5 * w:p_wave_dt()
w:run { steps = 1500 }
io.write(w:state_hash())
]]
  return run_with_threads(script, threads)
end

describe("the dem strategy with OpenMP", function()
  it("gives bit-identical states with 1 and 2 threads", function()
    local one = hash_with(1)
    assert.matches("^%x+$", one)
    assert.are.equal(one, hash_with(2))
  end)
end)
