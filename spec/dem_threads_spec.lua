-- The dem strategy runs its interaction loop and integrator with OpenMP: the results must not
-- depend on the number of threads.
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
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(script)
  f:close()
  local cmd = string.format("OMP_NUM_THREADS=%d OMP_WAIT_POLICY=passive LUA_PATH_5_4=%q "
    .. "LUA_CPATH_5_4=%q lua5.4 %s 2>&1",
    threads, package.path, package.cpath, path)
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local ok = p:close()
  os.remove(path)
  assert.is_true(ok, out)
  return out
end

describe("the dem strategy with OpenMP", function()
  it("gives bit-identical states with 1 and 2 threads", function()
    local one = hash_with(1)
    assert.matches("^%x+$", one)
    assert.are.equal(one, hash_with(2))
  end)
end)
