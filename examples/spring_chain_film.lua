-- A film: a chain of five blocks joined by springs, hanging from a fixed bar and let go from a
-- sideways start, swings and stretches under gravity. Writes out/chain/frame_*.png and, when
-- ffmpeg is installed, out/chain.gif. Run: make run SCRIPT=examples/spring_chain_film.lua
local impact = require("impact")
local picture = require("impact.picture")

local w = impact.world2d { gravity = { 0, -9.81 }, dt = 0.002, damping = { linear = 0.05 } }
w:add_body { shape = impact.shape2d.block { width = 1.2, height = 0.1 }, position = { 0, 0.05 }, fixed = true,
  name = "bar" }
local previous, point, springs = w.background, { 0, 0 }, {}
for i = 1, 5 do
  local b = w:add_body { shape = impact.shape2d.block { width = 0.3, height = 0.2 }, mass = 0.2,
    position = { 0.35 * i, -0.1 }, name = "block" .. i }
  springs[i] = w:add_spring { body1 = previous, point1 = point, body2 = b, point2 = { -0.15, 0 },
    rest_length = 0.05,
    stiffness = 60, damping = 0.05 }
  previous, point = b, { 0.15, 0 }
end

local film = picture.film { w, every = 1 / 25, dir = "out/chain", view = { -2.2, -3.4, 2.2, 0.4 },
  width = 480, height = 420, springs = springs }
w:run { until_time = 6 }
film:stop()
print(string.format("wrote %d frames to out/chain/", #film.files))
if picture.have_ffmpeg() then
  print("wrote " .. film:encode { file = "out/chain.gif", fps = 25 })
else
  print("ffmpeg is not installed (apt-get install ffmpeg): no GIF, the frames are in out/chain/")
end
