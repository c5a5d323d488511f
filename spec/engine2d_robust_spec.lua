-- Robustness of the 2D engine's detection and collision advance in degenerate but legal scenes:
-- exactly touching, exactly aligned boxes (corner on corner, corner on an edge's interior, a
-- side flush with a fixed block's end), a penetrating pair moving apart, and a resting stack
-- whose contacts drift by round-off. Each scene is checked against statics (the weight above
-- an interface is carried by it, equal halves where symmetry fixes them) and free motion.
local impact = require("impact")
local shape2d = impact.shape2d
local scenes2d = require("spec.support.scenes2d")

local g = 10
local solvers = { "lcp", "pgs" }
local steppings = { "ode", "symplectic_euler" }
local policies = { "none", "velocity", "velocity_and_distance", "velocity_joints",
                   "velocity_and_distance_joints" }

local function world(solver, stepping, extra, strategy)
  return impact.world2d { strategy = strategy or "contact", dt = 0.01, gravity = { 0, -g },
                          contact_solver = solver, time_stepping = stepping, extra_accel = extra,
                          pgs_iterations = 100 }
end

-- the contacts between two bodies: count, total force, and the normal from a toward b
local function between(w, a, b)
  local n, force, normals = 0, 0, {}
  for _, c in ipairs(w:contacts()) do
    local s = 0
    if c.body1.id == a.id and c.body2.id == b.id then s = 1 end
    if c.body1.id == b.id and c.body2.id == a.id then s = -1 end
    if s ~= 0 then
      n = n + 1
      force = force + c.force
      normals[#normals + 1] = { s * c.normal[1], s * c.normal[2] }
    end
  end
  return n, force, normals
end

-- the policies with a distance term push touching pairs apart to the half gap (0.005)
local function has_distance_term(extra)
  return extra:find("distance") ~= nil
end

describe("engine2d robustness", function()
  describe("equal boxes stacked exactly touching, corner on corner", function()
    for _, solver in ipairs(solvers) do
      for _, stepping in ipairs(steppings) do
        for _, extra in ipairs(policies) do
          it(string.format("stand (%s, %s, extra_accel %s)", solver, stepping, extra), function()
            local w = world(solver, stepping, extra)
            local floor = w:add_body { shape = shape2d.block { width = 10, height = 1 },
                                       position = { 0, -0.5 }, fixed = true }
            local boxes, m = {}, 1
            for i = 1, 3 do -- gaps 0: the floor's top is y = 0, each box 1 high
              boxes[i] = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = m,
                                      position = { 0, i - 0.5 }, elasticity = 0 }
            end
            w:run { duration = 2 }
            -- PGS leaves residuals that no policy without a distance term corrects: its
            -- stack may drift, by far less than the touching band, over the 2 s
            local exact = solver == "lcp"
            local lo, hi = exact and -1e-8 or -1e-6, has_distance_term(extra) and 0.0051 or 1e-6
            local below = floor
            for i, b in ipairs(boxes) do
              -- upright, over the box below, each interface within the touching band (or at
              -- the half gap when the policy pushes it there)
              assert.near(0, b.position[1], exact and 1e-9 or 1e-5)
              assert.near(0, b.angle, exact and 1e-9 or 1e-5)
              local gap = (b.position[2] - 0.5) - (i == 1 and 0 or boxes[i - 1].position[2] + 0.5)
              assert.is_true(gap > lo and gap < hi, string.format("gap %d: %.3g", i, gap))
              -- two contacts per interface, one at each end of the shared edge, both vertical,
              -- together carrying the weight of the boxes above (4 - i) m g
              local n, force, normals = between(w, below, b)
              assert.equal(2, n)
              for _, nv in ipairs(normals) do assert.near({ 0, 1 }, nv, exact and 1e-9 or 1e-5) end
              assert.near((4 - i) * m * g, force, exact and 1e-6 or { rel = 1e-3 })
              below = b
            end
            assert.near(0, w:energy().kinetic, 1e-9)
          end)
        end
      end
    end
  end)

  for _, solver in ipairs(solvers) do
    it("a box over two touching boxes, offset half a width: corners on edge interiors (" .. solver
      .. ")", function()
      for _, stepping in ipairs(steppings) do
        local w = world(solver, stepping, "velocity")
        local floor = w:add_body { shape = shape2d.block { width = 10, height = 1 },
                                   position = { 0, -0.5 }, fixed = true }
        local left = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                  position = { -0.5, 0.5 }, elasticity = 0 }
        local right = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                   position = { 0.5, 0.5 }, elasticity = 0 }
        local top = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                 position = { 0, 1.5 }, elasticity = 0 }
        w:run { duration = 2 }
        for _, b in ipairs({ left, right, top }) do assert.near(0, b.angle, 1e-6) end
        assert.near({ 0, 1.5 }, top.position, 1e-6)
        assert.near({ -0.5, 0.5 }, left.position, 1e-6)
        -- the top box rests on both with its weight; the floor carries all three
        local _, fl = between(w, left, top)
        local _, fr = between(w, right, top)
        assert.near(g, fl + fr, solver == "lcp" and 1e-6 or { rel = 1e-3 })
        local _, f1 = between(w, floor, left)
        local _, f2 = between(w, floor, right)
        assert.near(3 * g, f1 + f2, solver == "lcp" and 1e-6 or { rel = 1e-3 })
      end
    end)
  end

  it("a box flush with the end of a fixed block: two contacts, m g / 2 each", function()
    for _, solver in ipairs(solvers) do
      for _, stepping in ipairs(steppings) do
        local w = world(solver, stepping, "velocity")
        local block = w:add_body { shape = shape2d.block { width = 10, height = 1 },
                                   position = { 0, -0.5 }, fixed = true }
        -- its right side on the line x = 5 of the block's right end, touching its top
        local box = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 2,
                                 position = { 4.5, 0.5 }, elasticity = 0 }
        w:run { duration = 1 }
        assert.near({ 4.5, 0.5 }, box.position, 1e-8)
        local n, force, normals = between(w, block, box)
        assert.equal(2, n)
        for _, nv in ipairs(normals) do assert.near({ 0, 1 }, nv, 1e-9) end
        assert.near(2 * g, force, solver == "lcp" and 1e-6 or { rel = 1e-3 })
        -- one contact at each end of the box's bottom, (4, 0) and (5, 0), each m g / 2 when
        -- solved exactly (two rows, a statically determinate support)
        local xs = {}
        for _, c in ipairs(w:contacts()) do
          assert.near(0, c.point[2], 1e-9)
          xs[#xs + 1] = c.point[1]
          if solver == "lcp" then assert.near(g, c.force, 1e-6) end
        end
        table.sort(xs)
        assert.near({ 4, 5 }, xs, 1e-9)
      end
    end
  end)
  describe("a penetrating pair moving apart faster than velocity_tol", function()
    -- the box starts 0.02 deep in the fixed block (a step of 0.01 s at 1 m/s leaves it
    -- inside: backing up could never undo it) and rises freely: no impulse, no force
    for _, strategy in ipairs({ "impulse", "contact" }) do
      for _, solver in ipairs(solvers) do
        for _, stepping in ipairs(steppings) do
          it(string.format("is left to separate (%s, %s, %s)", strategy, solver, stepping), function()
            local w = world(solver, stepping, "velocity", strategy)
            w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 },
                         fixed = true }
            local y0, v0, t = 0.5 - 0.02, 1, 0.1
            local box = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                                     position = { 0.3, y0 }, velocity = { 0, v0 }, elasticity = 0.5 }
            w:run { duration = t }
            -- free flight under gravity: RK4 is exact for it; semi-implicit Euler gives
            -- v0 t - g t (t + h) / 2 for uniform acceleration (first order, h = dt)
            local h = stepping == "ode" and 0 or 0.01
            assert.near(y0 + v0 * t - g * t * (t + h) / 2, box.position[2], 1e-12)
            assert.near(v0 - g * t, box.velocity[2], 1e-12)
            assert.near(0.3, box.position[1], 1e-12)
            assert.equal(0, w:stats().backups)
            assert.equal(0, w:stats().collisions)
          end)
        end
      end
    end

    it("two free boxes overlapping and flying apart keep momentum and energy", function()
      local w = impact.world2d { strategy = "impulse", dt = 0.01, gravity = { 0, 0 } }
      local a = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                             position = { 0, 0 }, velocity = { -0.8, 0 }, elasticity = 1 }
      local b = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 3,
                             position = { 0.97, 0.2 }, velocity = { 0.6, 0 }, elasticity = 1 }
      w:run { duration = 0.5 }
      -- uniform motion: no impulse acted
      assert.near({ -0.4, 0 }, a.position, 1e-12)
      assert.near({ 0.97 + 0.3, 0.2 }, b.position, 1e-12)
      assert.near(0.5 * 1 * 0.8 ^ 2 + 0.5 * 3 * 0.6 ^ 2, w:energy().kinetic, 1e-12)
      assert.equal(0, w:stats().collisions)
    end)
  end)

  describe("resting contacts drifting past the round-off band (exact LCP)", function()
    -- a block resting d deep in the floor with no velocity: an overlap left by drift, not a
    -- collision; shallower than the advance's accuracy band (0.6 * 0.005 = 0.003) it is a
    -- contact: held with m g (no distance term) or pushed back to the half gap
    for _, depth in ipairs({ 1.5e-8, 1e-4, 0.002 }) do
      for _, stepping in ipairs(steppings) do
        it(string.format("a block %g deep is a resting contact (%s)", depth, stepping), function()
          for _, extra in ipairs({ "velocity", "velocity_and_distance" }) do
            local w = world("lcp", stepping, extra)
            local floor = w:add_body { shape = shape2d.block { width = 10, height = 1 },
                                       position = { 0, -0.5 }, fixed = true }
            local m = 2
            local box = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = m,
                                     position = { 0.3, 0.5 - depth }, elasticity = 0 }
            w:run { duration = 1 }
            if extra == "velocity" then
              assert.near(0.5 - depth, box.position[2], 1e-12)
            else
              assert.near(0.505, box.position[2], 1e-8)
            end
            assert.near(0.3, box.position[1], 1e-12)
            assert.near(0, box.angle, 1e-12)
            local n, force = between(w, floor, box)
            assert.equal(2, n)
            assert.near(m * g, force, 1e-6)
            assert.equal(0, w:stats().backups)
          end
        end)
      end
    end

    it("an overlap deeper than the accuracy band still fails, naming the bodies", function()
      local w = world("lcp", "ode", "velocity")
      w:add_body { shape = shape2d.block { width = 10, height = 1 }, position = { 0, -0.5 },
                   fixed = true }
      w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 2,
                   position = { 0.3, 0.5 - 0.004 }, elasticity = 0 }
      local ok, err = pcall(function() w:run { duration = 0.1 } end)
      assert.is_false(ok)
      assert.matches("bodies #1 and #2 was not resolved", tostring(err))
    end)

    -- the pyramid of the benchmark (touching boxes with friction), 4 rows: its contacts
    -- drift past 1e-8 m with zero velocity under the exact solver
    for _, case in ipairs({ { "symplectic_euler", "velocity" }, { "symplectic_euler", "none" },
                            { "ode", "velocity" } }) do
      it(string.format("a pyramid of 10 touching boxes stands (%s, extra_accel %s)", case[1],
        case[2]), function()
        local w = impact.world2d { strategy = "contact", dt = 1 / 60, gravity = { 0, -g },
                                   time_stepping = case[1], extra_accel = case[2],
                                   collision_handling = "simultaneous" }
        scenes2d.ground(w, 200)
        local boxes, start = scenes2d.pyramid(w, 4, { mass = 1 })
        w:run { duration = 2 }
        -- no stuck step; no box moved by more than 1e-4 m or turned by 1e-4 rad (the friction
        -- rows' residuals, uncorrected without a distance term, let it creep by 1e-5)
        for k, b in ipairs(boxes) do
          assert.near(start[k], b.position, 1e-4)
          assert.near(0, b.angle, 1e-4)
        end
        assert.near(0, w:energy().kinetic, 1e-8)
      end)
    end
  end)
end)
