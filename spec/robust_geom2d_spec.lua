-- Issue #15 for the 2D geometry: no crash, no hang, no silent nonsense. Arc vertex counts
-- bounded by the arc's angle whatever its size or the spacing, sizes out of range refused
-- with the option, the value and the accepted range, mass properties that come out usable.
local impact = require("impact")
local s2 = impact.shape2d
-- the CPU bounds below are the optimized build's, scaled under the sanitizers and valgrind
local SLOW = require("spec.support.soak").slowdown()

local function raises(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.is_truthy(tostring(err):find(pattern, 1, true), "got: " .. tostring(err))
end

local function timed(f)
  local t = os.clock()
  local r = f()
  return r, os.clock() - t
end

local function decorated_count(s)
  local n = 0
  for _, v in ipairs(s2.vertices(s, { decorated = true })) do
    if v.decorated then n = n + 1 end
  end
  return n
end

local function usable(s)
  local a, j = s:area(), s:inertia(1)
  return a > 0 and a < math.huge and j > 0 and j < math.huge
end

describe("2D arcs of any size get a bounded number of vertices", function()
  it("a huge rounded block builds (its arc vertex count overflowed an int: heap overflow)", function()
    local s, dt = timed(function()
      return s2.rounded_block { width = 9e11, height = 2.7e11, corner_radius = 8e10 }
    end)
    assert.is_true(dt < 1 * SLOW)
    assert.is_true(usable(s))
    -- 256 pieces per quarter turn at most: 255 decorated vertices per corner
    assert.are.equal(4 * 255, decorated_count(s))
    assert.near(9e11 * 2.7e11 - (4 - math.pi) * 8e10 ^ 2, s:area(), { rel = 1e-12 })
  end)

  it("a ball of radius 1e12 builds at once (was out of memory, an abort under ASan)", function()
    local s, dt = timed(function() return s2.ball { radius = 1e12 } end)
    assert.is_true(dt < 1 * SLOW)
    assert.are.equal(1023, decorated_count(s))
    assert.near(math.pi * 1e24, s:area(), { rel = 1e-15 })
  end)

  it("detection between two discs of radius 1e4 takes no time (ran over 8 minutes)", function()
    local a = s2.ball { radius = 1e4 }
    local hits, dt = timed(function()
      return s2.detect(
        { shape = a, position = { 0, 0 }, previous = { position = { 0, -1 } }, velocity = { 0, 1 }, id = 1 },
        { shape = a, position = { 0, 2e4 - 0.5 }, previous = { position = { 0, 2e4 + 1 } },
          velocity = { 0, -1 }, id = 2 })
    end)
    assert.is_true(dt < 1 * SLOW)
    assert.is_true(#hits >= 1)
    assert.are.equal("collision", hits[1].kind)
    assert.near(-0.5, hits[1].distance, 1e-9)
  end)

  it("ordinary arcs keep one decorated vertex every spacing", function()
    assert.are.equal(math.ceil(math.pi / 0.3) - 1, decorated_count(s2.ball { radius = 0.5 }))
    local b = s2.path():move_to(40, 0):arc_to(40, 0, { center = { 0, 0 } }):close():build()
    assert.are.equal(math.ceil(2 * math.pi * 40 / 0.3) - 1, decorated_count(b))
    -- a large one is capped at 1024 pieces a turn
    local big = s2.path():move_to(100, 0):arc_to(100, 0, { center = { 0, 0 } }):close():build()
    assert.are.equal(1023, decorated_count(big))
  end)

  it("a polygon of 100000 sides builds in bounded time (the crossing test was O(E^2))", function()
    local s, dt = timed(function() return s2.ngon { sides = 100000, radius = 1 } end)
    assert.is_true(dt < 5 * SLOW)
    assert.near(math.pi, s:area(), { rel = 1e-8 })
  end)
end)

describe("2D sizes out of range are refused with the option, value and range", function()
  local range = "must be a length in [1e-60, 1e+60], got "

  it("a denormal spacing (an infinite vertex count before)", function()
    raises("impact.shape2d.rounded_block: option 'spacing' " .. range .. "9.99989e-321", function()
      s2.rounded_block { width = 1, height = 1, corner_radius = 0.1, spacing = 1e-320 }
    end)
    raises("impact.shape2d.path:build: option 'spacing' " .. range .. "1e+100", function()
      s2.path():move_to(0, 0):line_to(1, 0):line_to(0, 1):close():build { spacing = 1e100 }
    end)
  end)

  it("denormal, tiny and huge sizes for every constructor option", function()
    local cases = {
      { "ball", "radius", {} },
      { "block", "width", { height = 1 } },
      { "block", "height", { width = 1 } },
      { "ngon", "radius", { sides = 5 } },
      { "rounded_block", "width", { height = 1e70, corner_radius = 0.1 } },
      { "rounded_block", "corner_radius", { width = 1, height = 1 } },
      { "frame", "outer_width", { outer_height = 1, thickness = 0.1 } },
      { "frame", "thickness", { outer_width = 1, outer_height = 1 } },
      { "convex_top_block", "height", { width = 1, radius = 1 } },
      { "concave_top_block", "radius", { width = 1, height = 1 } },
    }
    for _, c in ipairs(cases) do
      for _, v in ipairs { 1e-320, 1e-61, 1e61, 1e300 } do
        local opts = {}
        for k, x in pairs(c[3]) do opts[k] = x end
        opts[c[2]] = v
        raises(string.format("impact.shape2d.%s: option '%s' %s%g", c[1], c[2], range, v), function()
          s2[c[1]](opts)
        end)
      end
    end
    -- zero, negative, NaN and inf keep their message
    raises("option 'radius' must be a positive finite number, got inf", function()
      s2.ball { radius = math.huge }
    end)
    raises("option 'corner_radius' must be a positive finite number, got 0", function()
      s2.rounded_block { corner_radius = 0 }
    end)
  end)

  it("the ends of the range build with usable mass properties", function()
    assert.is_true(usable(s2.ball { radius = 1e60 }))
    assert.is_true(usable(s2.ball { radius = 1e-60 }))
    assert.is_true(usable(s2.block { width = 1e-60, height = 1e-60 }))
    assert.is_true(usable(s2.block { width = 1e60, height = 1e52 }))
    assert.is_true(usable(s2.frame { outer_width = 1e60, outer_height = 1e60, thickness = 1e59 }))
  end)

  it("sizes too far apart for the builder's tolerance name both", function()
    raises("impact.shape2d.block: height (1e-60) must be more than 2e-09 times width (1e+60): "
      .. "shorter edges count as zero length", function() s2.block { width = 1e60, height = 1e-60 } end)
    raises("corner_radius (1e-10) must be more than 2e-09 times max(width, height) (1)", function()
      s2.rounded_block { width = 1, height = 1, corner_radius = 1e-10 }
    end)
    raises("thickness (1e-12) must be more than 2e-09 times max(outer_width, outer_height) (1)",
      function() s2.frame { outer_width = 1, outer_height = 1, thickness = 1e-12 } end)
    raises("height (1e-05) must be more than 2e-09 times max(width, height, radius) (100000)", function()
      s2.convex_top_block { width = 1, height = 1e-5, radius = 1e5 }
    end)
    raises("the concave top (depth 0.5) must be shallower than the height (0.5)", function()
      s2.concave_top_block { width = 1, height = 0.5, radius = 0.5 }
    end)
  end)

  it("sizes that pass but give a degenerate outline say so (found by fuzzing)", function()
    local msg = "these sizes give a degenerate outline (path 2 encloses no area): too thin for the "
      .. "largest size, radii included (edges under 1e-9 of it, areas under 1e-12 of its square "
      .. "count as none)"
    raises("impact.shape2d.frame: " .. msg, function()
      s2.frame { outer_width = 1.0864151279862211, outer_height = 1.0864100018179237,
        thickness = 0.54320498354059928 }
    end)
    raises("impact.shape2d.convex_top_block: these sizes give a degenerate outline (path 1 encloses no area)",
      function()
        s2.convex_top_block { height = 1.1865231556003345e-16, radius = 7.0596446368420587e-09,
          width = 3.2832055950018826e-16 }
      end)
    raises("impact.shape2d.convex_top_block: these sizes give a degenerate outline", function()
      s2.convex_top_block { height = 3.7556193951827754e-05, radius = 6688.5570794073492,
        width = 0.025012203972469293 }
    end)
  end)

  it("a corner radius a hair below half the side leaves no zero-length side", function()
    for _, f in ipairs { 1e-17, 1e-12, 1e-10, 1e-9 } do
      local s = s2.rounded_block { width = 1, height = 2, corner_radius = 0.5 * (1 - f) }
      assert.is_true(usable(s))
      assert.near(2 - (4 - math.pi) * 0.25, s:area(), { rel = 1e-8 })
    end
  end)

  it("relations between sizes print the numbers with %g", function()
    raises("option 'corner_radius' must be at most min(width, height) / 2 = 0.5, got 0.6", function()
      s2.rounded_block { width = 1, height = 1, corner_radius = 0.6 }
    end)
    raises("option 'radius' must be at least width / 2 = 1e-05, got 1e-06", function()
      s2.convex_top_block { width = 2e-5, height = 1, radius = 1e-6 }
    end)
  end)

  it("a path whose coordinates or arc radii are out of range", function()
    raises("impact.shape2d.path:build: coordinates and arc radii must be at most 1e+60 in size, got 1e+61",
      function() s2.path():move_to(0, 0):line_to(1e61, 0):line_to(0, 1e61):close():build() end)
    raises("impact.shape2d.path:build: coordinates and arc radii must be at most 1e+60 in size, got 1e+300",
      function()
        s2.path():move_to(0, 0):arc_to(1, 0, { center = { 0.5, -1e300 } }):close():build()
      end)
    raises("impact.shape2d.path:build: the shape spans 1e-70: shapes must span at least 1e-60", function()
      s2.path():move_to(0, 0):line_to(1e-70, 0):line_to(0, 1e-70):close():build()
    end)
  end)

  it("too many paths is an error, not a quadratic nesting test", function()
    local p = s2.path()
    for k = 0, 10000 do
      local x = 3 * k
      p:move_to(x, 0):line_to(x + 1, 0):line_to(x + 1, 1):line_to(x, 1):close():path()
    end
    raises("impact.shape2d.path:build: too many paths: 10001 (at most 10000)", function() p:build() end)
  end)
end)

describe("2D mass properties come out usable", function()
  it("a slab under a shallow arc of a huge radius has a positive polar moment (was negative)", function()
    local w, h, R = 286.20367483886736, 0.0069848436985629836, 919034.6865140415
    local s = s2.convex_top_block { width = w, height = h, radius = R }
    local c = w / 2
    local f = c * c / (R + math.sqrt(R * R - c * c)) -- sagitta
    local seg = 4 / 3 * c * f
    assert.near(w * h + seg, s:area(), { rel = 1e-6 })
    assert.near(w * h * w * w / 12 + seg * c * c / 5, s:inertia(1), { rel = 1e-3 })
    -- a tall block with a barely concave top (its polar moment came out negative): about w h (w^2 + h^2) / 12
    local bw, bh = 2.2371690845648478, 35.014268107329897
    local d = s2.concave_top_block { width = bw, height = bh, radius = 212773.38354374361 }
    assert.is_true(usable(d))
    assert.near(bw * bh * (bw * bw + bh * bh) / 12, d:inertia(1), { rel = 1e-4 })
  end)
end)

describe("2D detection and distance between polygons of many edges", function()
  -- each polygon's edges sit in a bounding-volume tree built with the shape: the pair queries
  -- skip the edges that cannot count (detection was O(V E), the distance O(E^2))
  local function body(s, id, x, y, angle, px)
    return { shape = s, id = id, position = { x, y }, angle = angle,
             previous = { position = { px or x, y }, angle = angle }, velocity = { 0.1, 0 } }
  end
  local b_pose = { position = { 0.5, 0.3 }, angle = 0.1 }
  local far_pose = { position = { 2.5, 0.3 }, angle = 0.1 }

  it("two overlapping 16000-gons: detection and distance in bounded time (1.7 s and 3.5 s)", function()
    local s = s2.ngon { sides = 16000, radius = 1 }
    local hits, dt = timed(function()
      return s2.detect(body(s, 1, 0, 0, 0), body(s, 2, 0.5, 0.3, 0.1, 0.49))
    end)
    assert.is_true(dt < 1 * SLOW, "detect took " .. dt)
    assert.is_true(#hits > 1000)
    for _, h in ipairs(hits) do
      assert.is_true(h.distance <= 0.01)
    end
    local d, dt2 = timed(function() return (s2.distance(s, {}, s, b_pose)) end)
    assert.is_true(dt2 < 1 * SLOW, "distance took " .. dt2)
    -- the least translation separating two equal discs of radius 1 whose centres are 0.583 apart
    assert.near(-(2 - math.sqrt(0.34)), d, 1e-6)
    local far, dt3 = timed(function() return (s2.distance(s, {}, s, far_pose)) end)
    assert.is_true(dt3 < 1 * SLOW, "distance took " .. dt3)
    assert.near(math.sqrt(2.5 ^ 2 + 0.3 ^ 2) - 2, far, 1e-6)
  end)

  it("two overlapping 100000-gons, the most sides allowed (about 1 and 2 minutes before) #slow", function()
    local s = s2.ngon { sides = 100000, radius = 1 }
    local hits, dt = timed(function()
      return s2.detect(body(s, 1, 0, 0, 0), body(s, 2, 0.5, 0.3, 0.1, 0.49))
    end)
    assert.is_true(dt < 20 * SLOW, "detect took " .. dt)
    assert.is_true(#hits > 10000)
    local d, dt2 = timed(function() return (s2.distance(s, {}, s, b_pose)) end)
    assert.is_true(dt2 < 20, "distance took " .. dt2)
    assert.near(-(2 - math.sqrt(0.34)), d, 1e-6)
  end)

  it("a point in a polygon of 100000 sides: containment looks at the edges near the ray", function()
    local s = s2.ngon { sides = 100000, radius = 1 }
    local inside, dt = timed(function()
      local n = 0
      for k = 1, 2000 do
        local a = 2 * math.pi * k / 2000
        if s2.contains(s, { 0.99 * math.cos(a), 0.99 * math.sin(a) }) then n = n + 1 end
        if s2.contains(s, { 1.01 * math.cos(a), 1.01 * math.sin(a) }) then n = n + 1 end
      end
      return n
    end)
    assert.is_true(dt < 1 * SLOW, "2000 containment tests took " .. dt)
    assert.are.equal(2000, inside)
  end)
end)
