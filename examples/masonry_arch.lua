-- Solfec's masonry arch (tests/arch.py, after Gilbert et al.): a semicircular arch of 27
-- voussoirs between two fixed bases, mean radius 10 m, width 5 m, density 1, friction 0.5,
-- stepped at 1 ms for 0.75 s under the 3D contact strategy. A semicircular arch under its
-- own weight needs a thickness of about 0.107 of its mean radius (Milankovitch; Heyman's
-- 0.106): thicker, it stands; thinner, a four-hinge mechanism opens and it falls.
-- Run: make run SCRIPT=examples/masonry_arch.lua; with arguments (paths set as in README):
-- lua5.4 examples/masonry_arch.lua 0.08 out/arch
local impact = require("impact")

local M = {}

--- Builds the arch in world w: returns its voussoirs (bodies).
function M.build(w, opts)
  opts = opts or {}
  local radius, width = opts.radius or 10, opts.width or 5
  local t = (opts.ratio or 0.15) * radius
  local n, mu = opts.blocks or 27, opts.friction or 0.5
  local ri, ro = radius - t / 2, radius + t / 2
  local blocks = {}
  for i = 0, n - 1 do
    local a0, a1 = math.pi * i / n, math.pi * (i + 1) / n
    local pts = {}
    for _, a in ipairs { a0, a1 } do
      for _, r in ipairs { ri, ro } do
        for _, y in ipairs { -width / 2, width / 2 } do
          pts[#pts + 1] = { r * math.cos(a), y, r * math.sin(a) }
        end
      end
    end
    local shape = impact.shape3d.polyhedron { points = pts }
    blocks[#blocks + 1] = w:add_body { shape = shape, density = 1, position = shape:centroid(),
                                       friction = mu, elasticity = 0, name = "voussoir" .. (i + 1) }
  end
  -- the bases: fixed blocks under the feet (top faces at z = 0, from ri to ro)
  for _, side in ipairs { -1, 1 } do
    w:add_body { shape = impact.shape3d.box { size = { t + 2, width + 2, 2 } }, fixed = true,
                 position = { side * radius, 0, -1 }, friction = mu, name = "base" }
  end
  return blocks
end

--- Kinetic energy of the voussoirs.
function M.kinetic_energy(blocks)
  local k = 0
  for _, b in ipairs(blocks) do k = k + b:kinetic_energy() end
  return k
end

if arg and arg[0] and arg[0]:match("masonry_arch%.lua$") then
  local ratio = tonumber(arg and arg[1]) or 0.15
  local folder = arg and arg[2]
  local w = impact.world3d { strategy = "contact", gravity = { 0, 0, -9.81 }, dt = 1e-3 }
  local blocks = M.build(w, { ratio = ratio })
  local vtk = folder and impact.vtk.series { w, every = 0.05, dir = folder, name = "arch" } or nil
  w:run { duration = 0.75 }
  if vtk then vtk:stop() end
  local ke = M.kinetic_energy(blocks)
  local top = blocks[14].position
  print(string.format("masonry arch, thickness ratio %.3f: kinetic energy %.3e J after %.2f s; "
    .. "key stone at z = %.4f m (%s)", ratio, ke, w.time, top[3], ke < 1e-4 and "stands" or "falls"))
end

return M
