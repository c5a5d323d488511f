-- Scenes shared by the 2D engine specs (built through the public Lua API only).
local shape2d = require("impact").shape2d

local M = {}

--- A fixed ground block of the given width (2 m thick, top face at y = 0, friction 0.6).
function M.ground(w, width)
  return w:add_body { shape = shape2d.block { width = width, height = 2 }, position = { 0, -1 },
                      fixed = true, friction = 0.6 }
end

--- The sum of the contact forces (magnitudes from w:contacts()) that act on body.
function M.load_on(w, body)
  local load = 0
  for _, c in ipairs(w:contacts()) do
    if c.body1 == body or c.body2 == body then load = load + c.force end
  end
  return load
end

--- A 1 x 0.5 block of mass 2 resting (5 mm above the surface) on a fixed slope of `deg` degrees,
--- friction mu on both. Returns the block.
function M.block_on_slope(w, deg, mu)
  local th = math.rad(deg)
  local n = { -math.sin(th), math.cos(th) }
  w:add_body { shape = shape2d.block { width = 40, height = 1 }, angle = th, fixed = true,
               friction = mu }
  local d = 0.5 + 0.25 + 0.005
  local blk = w:add_body { shape = shape2d.block { width = 1, height = 0.5 }, mass = 2,
                           position = { d * n[1], d * n[2] }, angle = th, friction = mu,
                           elasticity = 0 }
  return blk
end

--- The pyramid of peers-2d.md: `base` rows of unit boxes (friction 0.6, elasticity 0) standing
--- on the world's fixed ground, touching side by side; opts.mass or opts.density (default
--- density 1). Returns the boxes and their start positions.
function M.pyramid(w, base, opts)
  opts = opts or {}
  local boxes, start, h = {}, {}, 0.5
  for i = 0, base - 1 do
    for j = i, base - 1 do
      local p = { (i + 1) * h + 2 * (j - i) * h - h * base, (2 * i + 1) * h }
      boxes[#boxes + 1] = w:add_body { shape = shape2d.block { width = 1, height = 1 },
                                       mass = opts.mass, density = opts.mass == nil and 1 or nil,
                                       position = p, friction = 0.6, elasticity = 0 }
      start[#boxes] = p
    end
  end
  return boxes, start
end

--- Steps a bouncing ball (at most max_steps) until `hits` collisions and `apexes` apexes after
--- a rebound were seen. Returns the collision events and the apex heights.
function M.bounce(w, ball, max_steps, hits_wanted, apexes_wanted)
  local hits, apex = {}, {}
  local top, rising = -math.huge, false
  w:on("collision", function(ev) hits[#hits + 1] = ev end)
  for _ = 1, max_steps do
    w:step()
    local y, vy = ball.position[2], ball.velocity[2]
    if vy > 0 then rising = true end
    if rising then top = math.max(top, y) end
    if rising and vy < 0 and #hits > #apex then
      apex[#apex + 1] = top
      top, rising = -math.huge, false
    end
    if #hits >= hits_wanted and #apex >= apexes_wanted then break end
  end
  return hits, apex
end

return M
