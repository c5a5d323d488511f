-- myPhysicsLab's CurvedTestApp scene (its CurvedTestApp.make with 6 free bodies, no thrusters)
-- at the state its MiscellanyTest.setupCurvedError records (Sept 15, 2015: a block jammed
-- between a fixed block and a ball), built with impact's shapes: 4 fixed bodies, 6 free ones,
-- and the 4 walls of its Walls.make2 around (-4, -6) to (8, 6), thickness 1.
local M = {}

-- its state variables per body (x, vx, y, vy, angle, spin), in its order
M.state = {
  { -0.4, 0, -4.6, 0, -math.pi / 16, 0 },                   -- fixed block 1, 2 x 2
  { 3, 0, -2.1, 0, 0, 0 },                                  -- fixed ball 2, radius 2
  { -3.4, 0, -4.6, 0, math.pi / 16, 0 },                    -- fixed block 3, 2 x 2
  { 6.7, 0, -1, 0, -0.2, 0 },                               -- fixed block 4, 1.5 x 4
  { -2.030795390390061, 4.512865458735808e-15, -4.281663998539167, -1.1584129699182643e-14,
    0.19634954084936204, 3.3977124756576173e-17 },         -- block 1, 0.8 x 1.5
  { -3.508908223390306, -0.0022134459375859725, -3.071233147002327, -0.18982118035546516,
    -0.7162029577728759, -0.007014474875197854 },          -- ball 2, radius 0.8, off-centre
  { -1.4131244157697151, -0.06857331596331266, -2.408589255520962, 0.12595281822724558,
    -112.72011439193216, -3.7286560279187655 },            -- ball 3, radius 1
  { 0.48658427652460706, 0.23366497836499053, -2.764524317030443, -0.19591156901509027,
    3.7792677989200723, 0.30948577445391096 },             -- block 4, 0.8 x 2, mass 2
  { 0.6997935247254902, -0.022239653137489386, -1.858830272934958, -0.1391275239412234,
    -20.117731072015484, -1.700213190810039 },             -- ball 5, radius 0.4, mass 1.5
  { -2.8164864386930573, -0.31043319580664064, -0.936849316206379, -0.2824877573186655,
    88.5596358892376, 2.1012464824287935 },                -- ball 6, radius 1
}

-- adds the scene to w (elasticity e for all, its walls 1; ball 5 of radius r5, default its
-- 0.4); returns the 6 free bodies and all the bodies, in its order
function M.scene(w, shape2d, e, r5)
  local block, ball = shape2d.block, shape2d.ball
  local kinds = {
    { block { width = 2, height = 2 } }, { ball { radius = 2 } }, { block { width = 2, height = 2 } },
    { block { width = 1.5, height = 4 } },
    { block { width = 0.8, height = 1.5 }, 1, (0.8 ^ 2 + 1.5 ^ 2) / 12 },
    { ball { radius = 0.8 }, 1, 0.8 ^ 2 / 2, { 0, -0.8 + 0.2 * 1.6 } },
    { ball { radius = 1 }, 1, 1 / 2 },
    { block { width = 0.8, height = 2 }, 2, 2 * (0.8 ^ 2 + 2 ^ 2) / 12 },
    { ball { radius = r5 or 0.4 }, 1.5, 1.5 * (r5 or 0.4) ^ 2 / 2 },
    { ball { radius = 1 }, 1, 1 / 2 },
  }
  local free, all = {}, {}
  for i, k in ipairs(kinds) do
    local s = M.state[i]
    local b = w:add_body { shape = k[1], fixed = k[2] == nil, mass = k[2], inertia = k[3],
      center_of_mass = k[4] or (k[2] and { 0, 0 }) or nil, position = { s[1], s[3] },
      velocity = { s[2], s[4] }, angle = s[5], spin = s[6], elasticity = e }
    all[#all + 1] = b
    if k[2] then free[#free + 1] = b end
  end
  local walls = {}
  for _, wall in ipairs { { 14, 1, 2, -6.5 }, { 1, 14, 8.5, 0 }, { 14, 1, 2, 6.5 }, { 1, 14, -4.5, 0 } } do
    walls[#walls + 1] = w:add_body { shape = block { width = wall[1], height = wall[2] },
      fixed = true, position = { wall[3], wall[4] }, elasticity = 1 }
    all[#all + 1] = walls[#walls]
  end
  return free, all
end

return M
