-- Solfec's stick-slip block (Potra, Anitescu, Gavrea & Trinkle 2006): a 0.3 x 0.3 x 0.1 block
-- of 1 kg on a fixed table, Coulomb friction mu = 0.8, pushed along x by F = 8 cos t. The
-- friction can hold mu m g = 7.848 N, so the block slides only while |F| exceeds that (near
-- t = 0, pi, 2 pi, ...) and sticks in between: a test of static friction without creep and of
-- the exact stick/slip transitions. Run: make run SCRIPT=examples/block_sliding.lua; with
-- arguments (paths set as in README): lua5.4 examples/block_sliding.lua pgs
local impact = require("impact")

local solver = arg and arg[1] or "lcp"
local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 1e-3,
                           contact_solver = solver }
w:add_body { shape = impact.shape3d.box { size = { 4, 4, 0.2 } }, fixed = true, friction = 0.8,
             position = { 0, 0, -0.1 } }
local block = w:add_body { shape = impact.shape3d.box { size = { 0.3, 0.3, 0.1 } }, mass = 1,
                           position = { 0, 0, 0.05 }, friction = 0.8 }

local sliding, phases = false, {}
w:run { duration = 10, every = 1e-3, fn = function()
  block:apply_force { 8 * math.cos(w.time), 0, 0 }
  local now = math.abs(block.velocity[1]) > 1e-6
  if now ~= sliding then
    phases[#phases + 1] = string.format("%s at t = %.3f s", now and "slides" or "sticks", w.time)
    sliding = now
  end
end }
print(string.format("block sliding (%s): x(10 s) = %.5f m, v = %.2e m/s", solver, block.position[1],
  block.velocity[1]))
for _, p in ipairs(phases) do print("  " .. p) end
return { x = block.position[1], v = block.velocity[1], phases = phases }
