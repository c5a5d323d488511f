-- myPhysicsLab's SpeedTest scenes (src/test/SpeedTest.ts) under the 2D engine, checked against
-- closed forms and beside myPhysicsLab's own figures.
local impact = require("impact")
local shape2d = impact.shape2d
local speed_scenes = require("spec.support.myphysicslab_speed")

-- The ball of ball_vs_wall with every collision exactly at the half gap: linear damping
-- (v' = -k v, k = c / m) between reflections off the lines |x|, |y| = L (the inner faces less
-- the radius and the half gap), each multiplying the normal velocity by -e. Event-driven, in
-- closed form. Returns the position, the velocity and the number of reflections at time T.
local function ideal_ball_in_box(p, v, k, e, L, T)
  p, v = { p[1], p[2] }, { v[1], v[2] }
  local t, n = 0, 0
  local function drift(s)
    for i = 1, 2 do
      p[i] = p[i] + v[i] * (1 - math.exp(-k * s)) / k
      v[i] = v[i] * math.exp(-k * s)
    end
  end
  while true do
    local best, axis = math.huge, nil
    for i = 1, 2 do
      local q = ((v[i] > 0 and L or -L) - p[i]) * k / v[i]
      if q < 1 then
        local s = -math.log(1 - q) / k
        if s < best then best, axis = s, i end
      end
    end
    if t + best > T then
      drift(T - t)
      return p, v, n
    end
    drift(best)
    p[axis] = v[axis] > 0 and L or -L
    v[axis] = -e * v[axis]
    t, n = t + best, n + 1
  end
end

describe("engine2d myPhysicsLab SpeedTest", function()
  for _, strategy in ipairs({ "impulse", "contact" }) do
    it("ball_vs_wall (" .. strategy .. "): a fast small ball stays in a box of 0.01 thick walls",
       function()
      -- r 0.2, m 0.1, from (-5, 0) at (200, 153) m/s, elasticity 0.95, damping 0.05 (rotation
      -- 0.15 of it), walls 12 x 12 inside, RK4 with dt 0.025, 10 s
      local w = impact.world2d { strategy = strategy, dt = 0.025, gravity = { 0, 0 },
                                 collision_handling = "serial",
                                 damping = { linear = 0.05, angular = 0.05 * 0.15 } }
      local th, side = 0.01, 12
      local function wall(x, y, wd, ht)
        w:add_body { shape = shape2d.block { width = wd, height = ht }, position = { x, y },
                     fixed = true, elasticity = 1 }
      end
      wall(0, -side / 2 - th / 2, side + 2 * th, th)
      wall(side / 2 + th / 2, 0, th, side + 2 * th)
      wall(0, side / 2 + th / 2, side + 2 * th, th)
      wall(-side / 2 - th / 2, 0, th, side + 2 * th)
      local ball = w:add_body { shape = shape2d.ball { radius = 0.2 }, mass = 0.1,
                                position = { -5, 0 }, velocity = { 200, 153 }, elasticity = 0.95 }
      w:run { until_time = 10 }
      local p, v, n = ideal_ball_in_box({ -5, 0 }, { 200, 153 }, 0.05 / 0.1, 0.95,
                                        side / 2 - 0.2 - 0.005, 10)
      assert.equal(37, n)  -- myPhysicsLab's count
      assert.equal(n, w:stats().collisions)
      assert.equal(0, w:stats().binary_searches)
      -- the velocity depends only on the time and the number of reflections: v0 e^(-k t) (-e)^n
      -- per axis; myPhysicsLab's (0.4830918, -0.4310427)
      assert.near(v, ball.velocity, 1e-8)
      assert.near({ 0.4830918, -0.4310427 }, ball.velocity, 1e-7)
      -- the position: each collision is handled within the accuracy band (0.6 of the half gap)
      -- of the half gap, so the ball is within a few of those of the ideal path
      assert.near(p, ball.position, 1e-3)
      -- and where myPhysicsLab handles them: after a back-up the record is moved back to the
      -- saved state and the half gap's time solved with a constant normal acceleration from
      -- there (its updateCollision); its ImpulseSim ends at (-4.349276, 4.4247788), asserted
      -- to 1e-5. Its ContactSim also abandons a Runge-Kutta step at the first stage that finds
      -- a penetration, as impact's contact strategy does, its stages detecting the path from
      -- the step's start (the ball crosses a wall within a stage): it ends at (-4.3493183,
      -- 4.4248186), asserted to 1e-5 (4.2e-5 off while impact's stages detected statically).
      if strategy == "impulse" then
        assert.near({ -4.349276, 4.4247788 }, ball.position, 1e-5)
      else
        assert.near({ -4.3493183, 4.4248186 }, ball.position, 1e-5)
      end
    end)
  end

  for _, strategy in ipairs({ "impulse", "contact" }) do
    it("small_small (" .. strategy .. "): a fast diamond through a small block within a step",
       function()
      -- a 1 x 1 block turned 45 degrees at 100 m/s crosses the 1 x 1.3 block's width in less
      -- than one 0.1 s step (modified Euler: no evaluation in the middle); elastic, equal
      -- masses: they exchange velocities when the diamond's corner is at the half gap from
      -- the face x = 4.5, i.e. its centre at 4.495 - sqrt(1/2), at t = (that + 30) / 100
      local w = impact.world2d { strategy = strategy, dt = 0.1, gravity = { 0, 0 },
                                 integrator = "modified_euler", collision_handling = "serial" }
      local a = w:add_body { shape = shape2d.block { width = 1, height = 1 }, mass = 1,
                             position = { -30, 0 }, angle = math.pi / 4, velocity = { 100, 0 },
                             elasticity = 1 }
      local b = w:add_body { shape = shape2d.block { width = 1, height = 1.3 }, mass = 1,
                             position = { 5, 0 }, elasticity = 1 }
      local e0 = w:energy().total
      w:run { until_time = 1 }
      local xc = 4.495 - math.sqrt(0.5)
      local tc = (xc + 30) / 100
      assert.near({ xc, 0 }, a.position, 1e-9)
      assert.near({ 0, 0 }, a.velocity, 1e-9)
      assert.near(math.pi / 4, a.angle, 1e-12)
      assert.near({ 5 + 100 * (1 - tc), 0 }, b.position, 1e-9)
      assert.near({ 100, 0 }, b.velocity, 1e-9)
      -- myPhysicsLab: 3.7878932 and 71.2121068 (tolerance 1e-5), 1 collision, energy kept
      assert.near(3.7878932, a.position[1], 1e-5)
      assert.near(71.2121068, b.position[1], 1e-5)
      assert.equal(1, w:stats().collisions)
      assert.near(e0, w:energy().total, 1e-9 * e0)
    end)
  end

  -- ball_vs_circle_0: the ball of ball_vs_wall (elasticity 0.95 for every body: its
  -- setElasticity) in the same box around a fixed disk of radius 4 at the centre, its
  -- ContactSim with extra acceleration "velocity_and_distance", 10 s. It asserts the state at
  -- 10 s to 1e-5 with 52 collisions, or under Chrome (-5.6805659, 5.6022192), velocity
  -- (-0.1123115, 0.2347565), with 55. Its own code (CircularEdge and its circle/straight and
  -- circle/circle tests ported to the reference build, session 18) gives under node (V8, as
  -- Chrome) the Chrome figure to 4.6e-8 with 55 collisions and its 6 searches: the other
  -- figure is another JavaScript engine's rounding of the same code. Checked for both
  -- conventions, whatever the rounding: the ball never crosses a wall nor enters the disk (at
  -- every step its centre at least the radius less the gap from each), and the energy never
  -- rises, but under myPhysicsLab's conventions by its ContactSim's push of a contact closer
  -- than the half gap (2 v h + x0) / h^2, which may give a slow touching ball up to 2 x0 / h
  -- (0.4 m/s; at 9.05 s, 3.8e-5 J).
  local function ball_vs_circle(conventions)
    return speed_scenes.ball_vs_circle { conventions = conventions }
  end
  for _, conventions in ipairs { "impact", "myphysicslab" } do
    it("ball_vs_circle_0 (" .. conventions .. "): the fast ball stays in the box and out of the "
      .. "fixed disk for 10 s, its energy never rising (but by myPhysicsLab's contact push)",
      function()
      local w, ball, side = ball_vs_circle(conventions)
      local e = w:energy().total
      local gap = 0.01
      while w.time < 10 - 1e-9 do
        w:step()
        local x, y = ball.position[1], ball.position[2]
        local to_wall = side / 2 - 0.2 - math.max(math.abs(x), math.abs(y))
        local to_disk = math.sqrt(x * x + y * y) - 4.2
        assert.is_true(to_wall >= -gap, ("out of the box at t = %g: (%g, %g)"):format(w.time, x, y))
        assert.is_true(to_disk >= -gap, ("in the disk at t = %g: (%g, %g)"):format(w.time, x, y))
        if w:energy().total > e + 1e-12 * math.abs(e) then
          local speed = math.sqrt(ball.velocity[1] ^ 2 + ball.velocity[2] ^ 2)
          assert.is_true(conventions == "myphysicslab" and math.min(to_wall, to_disk) < gap
                         and speed <= 2 * (gap / 2) / 0.025,
                         ("the energy rose at t = %g"):format(w.time))
        end
        e = w:energy().total
      end
      -- the collisions in 10 s: its figures 52 and 55 (two browsers); the same model under
      -- changes at the level of round-off (tools/mpl_roundoff.lua, 36 runs) 49 to 54 (51 to
      -- 54 under impact's conventions)
      local n = w:stats().collisions
      assert.is_true(n >= 49 and n <= 55, ("%d collisions"):format(n))
    end)
  end
  -- Under conventions = "myphysicslab" impact follows its code step by step (session 18:
  -- CircularEdge's detection, its addCollision's similar records, its estimate from the
  -- centres' line): the strikes at its times (the first at 0.0042242330729100 s, as its),
  -- positions and velocities within 1e-9 up to 0.1 s and 4.3e-6 at 0.5 s (its ball's spin,
  -- round-off of its impulses' lever arms, 1.2e-6 rad/s then; impact's 1e-11), its 55
  -- collisions in 10 s (session 18, before the back-up estimate's rule for records not
  -- approaching; with it, 52: past 0.52 s the count is round-off's, as the state). Its state at
  -- 0.5 s (node), from the reference build, and its 20 collisions by then (its trace: 20
  -- handlings of one record each, the last at 0.4931 s):
  it("ball_vs_circle_0 (myphysicslab): its code's state at 0.5 s to its 1e-5 and its 20 "
    .. "collisions by then", function()
    local w, ball = ball_vs_circle("myphysicslab")
    while w.time < 0.5 - 1e-9 do
      w:step()
    end
    local want = { 3.5060163929651766, 5.1488466256962209, -8.7822192999511945e-7,
                   -32.707884040199325, -94.093086595285229, -0.0000012261116342747748 }
    local got = { ball.position[1], ball.position[2], ball.angle, ball.velocity[1],
                  ball.velocity[2], ball.spin }
    for k = 1, 6 do
      assert.near(want[k], got[k], 1e-5)
    end
    assert.equal(20, w:stats().collisions)
  end)
  pending("ball_vs_circle_0: its code's state at 10 s (node = Chrome: (-5.6805659, 5.6022192)) "
    .. "to 1e-5: not a property of its model. Under changes at the level of round-off (one ulp "
    .. "of one initial coordinate, 1e-15 relative, dt's last bit, fma, RK4's sum order; 36 "
    .. "runs, tools/mpl_roundoff.lua) runs 6e-10 apart at 0.5 s (median) part as e^(12.5 t) "
    .. "(median fit; 5.3 to 12.8 /s), pass 1e-5 at 1.04 s (0.93 to 2.4) and end 5.3 to 14.5 "
    .. "from its Chrome state (7.1 to 13.9 from its other browser's), with 49 to 54 "
    .. "collisions; unperturbed (-4.1927, -0.9245), 6.71 away, 52 collisions (impact's "
    .. "conventions: 11.7 /s, 6.4 to 15.4 away, 51 to 54 collisions)")
end)
