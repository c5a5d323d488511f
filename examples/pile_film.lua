-- A pile of 10 random blocks falling into a pit (the contact strategy), filmed: PNG frames in
-- out/pile_frames/ and, when ffmpeg is installed, out/pile.gif.
-- Run: make run SCRIPT=examples/pile_film.lua
local impact = require("impact")

local w = impact.world2d { strategy = "contact", dt = 0.025, gravity = { 0, -10 }, seed = 5 }
local function fixed(x, y, wd, ht, ang)
  w:add_body { shape = impact.shape2d.block { width = wd, height = ht }, position = { x, y },
               angle = ang or 0, fixed = true }
end
fixed(0, -4.5, 12, 1)
fixed(-6.5, 0, 1, 10)
fixed(6.5, 0, 1, 10)
fixed(-3.2, -3.2, 6, 0.6, -0.5)
fixed(3.2, -3.2, 6, 0.6, 0.5)
for i = 1, 10 do
  local wd, ht = 0.5 + w:random(), 0.5 + w:random()
  w:add_body { shape = impact.shape2d.block { width = wd, height = ht }, density = 1,
               position = { -4 + ((i - 1) % 5) * 2, -1 + 2 * ((i - 1) // 5) },
               angle = w:random() * 6.28, elasticity = 0.8 }
end
local film = impact.picture.film { w, every = 1 / 20, dir = "out/pile_frames", width = 480,
  height = 400, view = { -7, -5, 7, 5 } }
w:run { until_time = 6 }
local frames = film:stop()
print(string.format("%d frames in out/pile_frames (%d collisions handled)", #frames,
  w:stats().collisions))
if impact.picture.have_ffmpeg() then
  film:encode { file = "out/pile.gif", fps = 20 }
  print("film: out/pile.gif")
else
  print("ffmpeg is not installed (apt-get install ffmpeg): the frames are kept, no GIF made")
end
