-- The HTML viewer: a self-contained page with the run embedded; in headless Chromium (when
-- installed) it draws the bodies where they were at the frame asked for.
local impact = require("impact")
local draw = require("impact.draw")
local files = require("impact.files")
local viewer = require("impact.viewer")

local spec_files = require("spec.support.files")
local tmpdir = spec_files.tmpdir

local function chromium()
  for _, name in ipairs({ "chromium", "chromium-browser" }) do
    if files.have(name) then return name end
  end
  return nil
end

-- runs headless Chromium on url; mode "--dump-dom" returns the DOM, "--screenshot" writes png
local function headless(browser, dir, url, mode, png, size)
  local profile = dir .. "/profile"
  local cmd = string.format("%s --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    .. "--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars "
    .. "--force-device-scale-factor=1 --virtual-time-budget=2000 --user-data-dir=%s "
    .. "--window-size=%d,%d %s %s 2>/dev/null",
    browser, files.quote(profile), size[1], size[2],
    mode == "--screenshot" and "--screenshot=" .. files.quote(png) or "--dump-dom", files.quote(url))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  p:close()
  return out
end

-- a ball moving along x at 1 m/s from (0, 0), no gravity; frames every 0.1 s
local function moving_ball()
  local w = impact.world2d { gravity = { 0, 0 }, dt = 0.01 }
  w:add_body { shape = impact.shape2d.ball { radius = 0.5 }, position = { 0, 0 }, velocity = { 1, 0 } }
  local rec = viewer.recorder { w, every = 0.1 }
  w:run { until_time = 2 }
  rec:stop()
  return rec
end

describe("impact.viewer", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  it("writes JSON that keeps numbers and escapes what could end a script", function()
    assert.are.equal('{"a":[1,2.5,-3],"b":"x\\u003c/script\\u003e","c":true}',
      viewer.json { a = { 1, 2.5, -3 }, b = "x</script>", c = true })
    assert.error_matches(function() viewer.json { 0 / 0 } end, "not finite")
  end)

  it("embeds the run in one page that needs no network", function()
    local rec = moving_ball()
    assert.are.equal(21, rec:count())
    local file = rec:write { file = dir .. "/run.html", title = "ball" }
    local page = assert(io.open(file)):read("a")
    assert.is_nil(page:find("IMPACT_RUN_DATA", 1, true))
    assert.is_nil(page:find("https?://"))         -- nothing fetched from anywhere
    assert.is_nil(page:find("<script src", 1, true))
    local data = page:match('<script id="run%-data" type="application/json">(.-)</script>')
    assert.matches('^{"bodies":%[', data)
    assert.matches('"title":"ball"', data)
  end)

  it("shows the frame asked for in headless Chromium, the ball where it was #slow", function()
    local browser = chromium()
    if not browser then
      pending("Chromium is not installed (apt-get install chromium)")
      return
    end
    local rec = moving_ball()
    -- view {-1, -1, 3, 1} in 400 x 200 pixels: 100 px per m, x = 100 (wx + 1), y = 100 (1 - wy)
    local file = rec:write { file = dir .. "/run.html", size = { 400, 200 }, view = { -1, -1, 3, 1 } }
    local url = "file://" .. file .. "#frame=15"
    local dom = headless(browser, dir, url, "--dump-dom", nil, { 400, 300 })
    local status = dom:match('<pre id="status">(.-)</pre>')
    assert.is_not_nil(status, dom)
    assert.matches('"frame":15', status)
    assert.matches('"time":1.5', status)
    assert.matches('"drawn":1', status)
    local png = dir .. "/shot.png"
    headless(browser, dir, url, "--screenshot", png, { 400, 300 })
    local img = draw.read_png(png)
    -- at t = 1.5 s the ball (radius 0.5 m) is centred at (1.5, 0): pixel (250, 100)
    local function color_at(wx, wy)
      return img.pixel(math.floor(100 * (wx + 1)), math.floor(100 * (1 - wy)))
    end
    local r, g, b = color_at(1.5, 0.3)
    local c = draw.color(draw.pick(1))
    assert.is_true(math.abs(r - 255 * c[1]) < 4 and math.abs(g - 255 * c[2]) < 4
      and math.abs(b - 255 * c[3]) < 4,
      string.format("inside the ball: %d %d %d", r, g, b))
    r, g, b = color_at(1.5 - 0.6, 0)
    assert.are.same({ 255, 255, 255 }, { r, g, b })
    r, g, b = color_at(0, 0)        -- where the ball started: empty now
    assert.are.same({ 255, 255, 255 }, { r, g, b })
  end)

  it("draws a 3D run in headless Chromium #slow", function()
    local browser = chromium()
    if not browser then
      pending("Chromium is not installed (apt-get install chromium)")
      return
    end
    local w = impact.world3d { gravity = { 0, 0, 0 } }
    w:add_body { shape = impact.shape3d.sphere { radius = 1 }, position = { 0, 0, 0 } }
    w:add_body { shape = impact.shape3d.box { size = 0.5 }, position = { 3, 0, 0 },
      angular_velocity = { 0, 0, 1 } }
    local rec = viewer.recorder { w, every = 0.1 }
    w:run { until_time = 1 }
    -- seen from +y (yaw = pi/2, pitch = 0) the screen shows x to the left, z up, orthographic,
    -- the scene's bounding box (over the run) centred with its half diagonal R fitting 0.95 of
    -- half the canvas: screen x = 150 + s (x - cx) * -1 ... with right = (-1, 0, 0)
    local rb = 0.5 * math.sqrt(3) * 0.5                  -- the cube's bounding radius
    local lo, hi = { -1, -1, -1 }, { 3 + rb, 1, 1 }
    local cx = (lo[1] + hi[1]) / 2
    local R = 0.5 * math.sqrt((hi[1] - lo[1]) ^ 2 + (hi[2] - lo[2]) ^ 2 + (hi[3] - lo[3]) ^ 2)
    local s = 0.95 * 300 / (2 * R)
    local function screen(x, z) return math.floor(150 - s * (x - cx)), math.floor(150 - s * z) end
    local file = rec:write { file = dir .. "/run3.html", size = { 300, 300 } }
    local png = dir .. "/shot3.png"
    headless(browser, dir, "file://" .. file .. "#frame=5&yaw=1.5707963267948966&pitch=0",
      "--screenshot", png,
      { 300, 400 })
    local img = draw.read_png(png)
    local function blank(x, z)
      local r, g, b = img.pixel(screen(x, z))
      return r == 255 and g == 255 and b == 255
    end
    assert.is_false(blank(0, 0.5), "the sphere is drawn")
    assert.is_true(blank(0, 1.15), "above the sphere is empty")
    assert.is_false(blank(3, 0), "the cube is drawn")
    assert.is_true(blank(3, 0.45), "above the cube is empty")
    assert.is_true(blank(1.5, 0), "between them is empty")
    local dom = headless(browser, dir, "file://" .. file .. "#frame=5", "--dump-dom", nil, { 300, 400 })
    assert.matches('"drawn":%d', dom)
    assert.matches('"bodies":2', dom)
  end)
end)
