-- Pictures of 2D worlds and line plots: the files are valid (PNG signature and size, well-formed
-- SVG) and show what they should (pixels at known body positions are filled, outside are not).
local impact = require("impact")
local draw = require("impact.draw")
local picture = require("impact.picture")
local plot = require("impact.plot")
local xml = dofile("spec/support/xml.lua")

local spec_files = require("spec.support.files")
local tmpdir = spec_files.tmpdir

local read = spec_files.read

-- PNG file header: the 8-byte signature, then the IHDR chunk with width and height (big-endian)
local function png_size(path)
  local s = read(path)
  assert.are.equal("\137PNG\r\n\26\n", s:sub(1, 8))
  assert.are.equal("IHDR", s:sub(13, 16))
  return (string.unpack(">I4", s, 17)), (string.unpack(">I4", s, 21))
end

local function rgb255(color)
  local c = draw.color(color)
  return math.floor(c[1] * 255 + 0.5), math.floor(c[2] * 255 + 0.5), math.floor(c[3] * 255 + 0.5)
end

local function assert_pixel(img, x, y, color, tol)
  local r, g, b = img.pixel(math.floor(x), math.floor(y))
  local er, eg, eb = rgb255(color)
  tol = tol or 2
  assert.is_true(math.abs(r - er) <= tol and math.abs(g - eg) <= tol and math.abs(b - eb) <= tol,
    string.format("pixel (%g, %g) is (%d, %d, %d), expected (%d, %d, %d)", x, y, r, g, b, er, eg, eb))
end

-- world (view {0, 0, 10, 7.5} in 800 x 600 pixels): 80 px per m, y up
local function px(x, y) return 80 * x, 600 - 80 * y end
local function assert_world(img, x, y, color, tol)
  local u, v = px(x, y)
  assert_pixel(img, u, v, color, tol)
end

local function scene()
  local w = impact.world2d { gravity = { 0, 0 } }
  w:add_body { shape = impact.shape2d.ball { radius = 1 }, position = { 2, 3 }, name = "ball" }
  w:add_body { shape = impact.shape2d.block { width = 4, height = 1 }, position = { 6, 2 },
    angle = math.pi / 6, name = "block" }
  return w
end

describe("impact.picture.frame", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("writes a PNG of the given size with the bodies where they are", function()
    local w = scene()
    local file = picture.frame(w, { file = dir .. "/f.png", view = { 0, 0, 10, 7.5 }, time = false })
    local width, height = png_size(file)
    assert.are.equal(800, width)
    assert.are.equal(600, height)
    local img = draw.read_png(file)
    -- the ball (palette color 1), radius 1 m: inside at 0.9 m from the centre, outside at 1.1 m
    assert_world(img, 2, 3.5, draw.pick(1))
    assert_world(img, 2, 3 - 0.9, draw.pick(1))
    assert_world(img, 2, 3 - 1.1, "white")
    assert_world(img, 2 - 0.9, 3, draw.pick(1))
    assert_world(img, 2 - 1.1, 3, "white")
    -- the block turned by 30 degrees counter-clockwise: points given in its own frame
    local c, s = math.cos(math.pi / 6), math.sin(math.pi / 6)
    local function block_point(u, v) return px(6 + c * u - s * v, 2 + s * u + c * v) end
    local x, y = block_point(1.8, 0.35)
    assert_pixel(img, x, y, draw.pick(2))
    x, y = block_point(1.8, 0.65)
    assert_pixel(img, x, y, "white")
    -- inside the block had it not turned, outside it as it is
    x, y = px(7.8, 1.6)
    assert_pixel(img, x, y, "white")
    assert_pixel(img, 5, 5, "white")
  end)

  it("writes well-formed SVG with the ball's outline as an arc", function()
    local file = picture.frame(scene(), { file = dir .. "/f.svg", view = { 0, 0, 10, 7.5 } })
    local root = xml.parse(read(file))
    assert.are.equal("svg", root.name)
    assert.are.equal("800", root.attrs.width)
    assert.are.equal("600", root.attrs.height)
    local paths = xml.find_all(root, "path")
    -- ball outline, ball radius line, block outline
    assert.are.equal(3, #paths)
    local d = paths[1].attrs.d
    assert.matches("^M240 360 ", d)           -- the rightmost point of the ball (3, 3)
    assert.matches("A80 80 0 0 0 ", d)        -- arcs of radius 1 m = 80 px
    assert.are.equal(draw.pick(1), paths[1].attrs.fill)
    assert.are.equal(1, #xml.find_all(root, "text"))
  end)

  it("draws given contact points and force arrows", function()
    local contacts = { { point = { 4, 1 }, normal = { 0, 1 }, force = { 0, 10 } } }
    local file = picture.frame(scene(), { file = dir .. "/c.png", view = { 0, 0, 10, 7.5 },
      contacts = contacts, time = false })
    local img = draw.read_png(file)
    local x, y = px(4, 1)
    assert_pixel(img, x, y, "#e00000", 3)
    -- the arrow: the largest force is 15 % of the view's smaller side (7.5 m) long
    x, y = px(4, 1 + 0.5 * 0.15 * 7.5)
    local r, g = img.pixel(math.floor(x), math.floor(y))
    assert.is_true(r > 150 and g < 90, string.format("arrow pixel (%d, %d)", r, g))
    x, y = px(4, 1 + 1.3 * 0.15 * 7.5)
    assert_pixel(img, x, y, "white")
  end)

  it("rejects what it cannot draw, naming the problem", function()
    local w3 = impact.world3d {}
    assert.has_error(function() picture.frame(w3, { file = dir .. "/x.png" }) end,
      "impact.picture.frame: pictures are of 2D worlds; export a 3D world with impact.vtk or impact.viewer")
    assert.error_matches(function() picture.frame(scene(), { file = dir .. "/x.png", view = { 1, 1, 0,
      2 } }) end,
      "option 'view' must have xmax > xmin")
    assert.error_matches(function() picture.frame(scene(), { file = dir .. "/x.png", colour = 1 }) end,
      "unknown option \"colour\"")
    assert.error_matches(function() picture.frame(scene(), { file = dir .. "/x.jpg" }) end,
      "cannot tell the format")
    assert.error_matches(function()
      picture.frame(scene(), { file = dir .. "/x.png", contacts = { { point = { 0 / 0, 1 } } } })
    end, "contacts%[1%]%.point%[1%] must be a finite number")
  end)
end)

describe("impact.picture.film", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  local function spin_film()
    local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
    w:add_body { shape = impact.shape2d.block { width = 2, height = 0.4 }, position = { 0, 0 },
      spin = math.pi }
    local film = picture.film { w, every = 0.1, dir = dir .. "/frames", view = { -2, -2, 2, 2 },
      width = 160, height = 160 }
    w:run { until_time = 1 }
    film:stop()
    return film
  end

  it("writes a numbered frame at the start and every 'every' seconds", function()
    local film = spin_film()
    assert.are.equal(11, #film.files)
    for i, f in ipairs(film.files) do
      assert.are.equal(string.format("%s/frames/frame_%05d.png", dir, i - 1), f)
      assert.are.same({ 160, 160 }, { png_size(f) })
      assert.near((i - 1) * 0.1, film.times[i], 1e-9)
    end
    -- after 0.5 s at pi rad/s the bar stands upright: filled at (0, 0.8), empty at (0.8, 0)
    local img = draw.read_png(film.files[6])
    assert_pixel(img, 80, 80 - 0.8 * 40, draw.pick(1))
    assert_pixel(img, 80 + 0.8 * 40, 80, "white")
  end)

  it("makes a GIF and an MP4 when ffmpeg is installed", function()
    if not picture.have_ffmpeg() then
      pending("ffmpeg is not installed (apt-get install ffmpeg)")
      return
    end
    local film = spin_film()
    local gif = film:encode { file = dir .. "/spin.gif", fps = 10 }
    assert.are.equal("GIF89a", read(gif):sub(1, 6))
    local mp4 = film:encode { file = dir .. "/spin.mp4", fps = 10 }
    assert.are.equal("ftyp", read(mp4):sub(5, 8))
  end)

  it("says so clearly when ffmpeg is missing", function()
    local film = spin_film()
    local saved = picture.ffmpeg
    picture.ffmpeg = "impact-no-such-ffmpeg"
    local ok, err = pcall(film.encode, film, { file = dir .. "/spin.mp4" })
    picture.ffmpeg = saved
    assert.is_false(ok)
    assert.matches("needs ffmpeg, which is not installed %(Debian: apt%-get install ffmpeg%)", err)
  end)
end)

describe("impact.plot", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("chooses ticks at 1, 2 or 5 times a power of ten", function()
    local lo, hi, step, ticks = plot.ticks(0, 1, 6, true)
    assert.are.same({ 0, 1, 0.2 }, { lo, hi, step })
    assert.near({ 0, 0.2, 0.4, 0.6, 0.8, 1 }, ticks, 1e-15)
    lo, hi, step, ticks = plot.ticks(0.3, 9.7, 6, true)
    assert.are.same({ 0, 10, 2 }, { lo, hi, step })
    assert.are.same({ 0, 2, 4, 6, 8, 10 }, ticks)
    lo, hi = plot.ticks(5, 5, 6, true)   -- a constant series still gets a range
    assert.is_true(lo < 5 and hi > 5)
  end)

  it("draws each series where its values are", function()
    local file = dir .. "/p.png"
    local _, width, height, layout = plot {
      file = file, x_range = { 0, 1 }, y_range = { 0, 2 },
      series = { { x = { 0, 1 }, y = { 1, 1 }, label = "one" }, { x = { 0, 1 }, y = { 0.25, 1.75 } } } }
    assert.are.same({ 640, 400 }, { png_size(file) })
    assert.are.same({ 640, 400 }, { width, height })
    local img = draw.read_png(file)
    assert_pixel(img, layout.x(0.3), layout.y(1), draw.pick(1), 10)
    assert_pixel(img, layout.x(0.3), layout.y(1.25), "white")
    -- the rising line y = 0.25 + 1.5 x passes (0.3, 0.7)
    assert_pixel(img, layout.x(0.3), layout.y(0.7), draw.pick(2), 40)
    assert.are.equal(layout.left, layout.x(0))
    assert.are.equal(layout.top, layout.y(2))
  end)

  it("writes well-formed SVG with title, labels and legend", function()
    local file = dir .. "/p.svg"
    plot { file = file, title = "Heights & <times>", x_label = "t (s)", y_label = "y (m)",
      series = { { x = { 0, 1, 2 }, y = { 0, 1, 0 }, label = "ball" }, { x = { 0, 2 }, y = { 0, 0 },
        label = "floor",
        dash = true } } }
    local root = xml.parse(read(file))
    local texts = {}
    for _, t in ipairs(xml.find_all(root, "text")) do texts[t.text] = true end
    assert.is_true(texts["Heights & <times>"])
    assert.is_true(texts["t (s)"] and texts["y (m)"] and texts.ball and texts.floor)
  end)

  it("rejects bad series, naming the problem", function()
    assert.error_matches(function() plot { series = { { x = { 1, 2 }, y = { 1 } } } } end,
      "series 1: x has 2 values and y has 1")
    assert.error_matches(function() plot { series = { { x = { 1 }, y = { "a" } } } } end,
      "series 1: y%[1%] must be a finite number")
    assert.error_matches(function() plot { series = {} } end, "option 'series'")
  end)
end)
