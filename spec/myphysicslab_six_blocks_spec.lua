-- myPhysicsLab's StraightStraightTest six_blocks_4, 9, 10 and 12: six 1 x 3 blocks in the box
-- of its Walls.make, started from recorded states (its setup_six_blocks: damping 0.05, walls
-- first but for _12), each asserting no state, only the energy change over the run and the
-- number of collisions (its CollisionTotals, reset after its runTest's advance(0), which
-- returns at once: CollisionAdvance.advance does nothing for a step below 1e-16). _4, _10 and
-- _12 handle the collisions found at the start in the setup (findCollisions,
-- handleCollisions): here w:handle_collisions(), which draws from the generator as its
-- handling does; the energy is counted after it. Its count is of collisions as its
-- CollisionAdvance counts them (at each handling, numClose: the records close enough and
-- approaching that need handling or are no contact), which impact counts the same way under
-- conventions = "myphysicslab" only. Run under both conventions: these are physical outcomes
-- (the energy a damped, inelastic pile loses), not a choice of its formulas. Its figures not
-- met are pending, with the measured values (a trajectory through tens of impacts: its
-- energy to 1e-3 over 12 s needs its impacts in its order).
local straight = require("spec.support.myphysicslab_straight")
local six_blocks = straight.six_blocks

local CONVENTIONS = { "impact", "myphysicslab" }

-- the energy change and the collisions over a run to t
local function run(w, t)
  local e0, c0 = w:energy().total, w:stats().collisions
  w:run { until_time = t }
  return w:energy().total - e0, w:stats().collisions - c0
end

-- its second runTest of _4 and _9: to t the energy kept to 1e-6 and no collision
local function at_rest_until(w, t)
  local de, n = run(w, t)
  assert.near(0, de, 1e-6)
  assert.equal(0, n)
end

-- the blocks in state v with the collisions found at the start handled, as its setup does
local function handled_at_start(v, walls_last, conventions)
  local w = six_blocks(v, 0.05, walls_last, conventions)
  w:handle_collisions()
  return w
end

local SIX_4 = straight.SIX_4
local SIX_9 = straight.SIX_9
local SIX_10 = straight.SIX_10
local SIX_12 = straight.SIX_12

describe("myPhysicsLab StraightStraightTest six_blocks_4, 9, 10, 12", function()
  for _, conventions in ipairs(CONVENTIONS) do
    local mpl = conventions == "myphysicslab"
    it("six_blocks_4 (" .. conventions .. "): blocks tumbling onto the pile, 8 s"
      .. (mpl and ": its own code's -1.751934748 to 1e-6 and 7 collisions"
              or ": its energy change -1.7 to 0.1")
      .. "; then to 12 s at rest: energy kept to 1e-6, no collision", function()
      local w = handled_at_start(SIX_4, false, conventions)
      local de, n = run(w, 8)
      if mpl then
        -- the reference system's output: its own code at its commit run under node
        -- (/work/mplref, session 17) gives -1.751934748 and 7 collisions, and impact follows
        -- its states to 2.4e-11 over the 320 steps (its test asserts -1.7 +- 0.1, met, and 5
        -- collisions, which its code no longer gives: a stale figure). One branch of its
        -- model: under round-off changes (tools/mpl_roundoff.lua six_blocks_4, 147 runs) it
        -- ends between -1.8027 and -1.7431 with 4 to 7 collisions (5 in 36 runs), 145 within
        -- its -1.7 +- 0.1; a last-bit change on this path moves it, and then its band is the
        -- assertion to keep, not these digits.
        assert.near(-1.751934748, de, 1e-6)
        assert.equal(7, n)
      else
        assert.near(-1.7, de, 0.1)
      end
      at_rest_until(w, 12)
    end)

    it("six_blocks_9 (" .. conventions .. "): 12 s, its energy change -0.319377 to its model's "
      .. "round-off spread, 0.045" .. (mpl and ", 2 to 5 collisions" or "")
      .. "; then to 20 s at rest: energy kept to 1e-6, no collision", function()
      local w = six_blocks(SIX_9, 0.05, false, conventions)
      local de, n = run(w, 12)
      -- its figure; the tolerance is what its model itself leaves open: under changes at the
      -- level of round-off (one unit in the last place of one coordinate of this state, 1e-15
      -- relative, the time step's last bit, fma or the order of RK4's sum: 144 runs,
      -- spec/myphysicslab_roundoff_spec.lua) impact under its conventions, which follows its
      -- code's states to 1e-14, ends between -0.35996 and -0.29419 (std 0.0141; its figure
      -- and Chrome's each met to 2e-10 by one run, its code's under node, -0.313721, to 3e-7),
      -- after 2 to 5 collisions. The runs agree to 1e-14 up to 9.375 s, where a serial handling
      -- takes its focus from a random order of the records, drawn from a generator that an
      -- earlier round-off tie moved on by one round; the seeds 1 to 40 spread the energy as
      -- much (-0.359 to -0.305; impact's conventions -0.368 to -0.288). Its 1e-3 is one draw's.
      assert.near(-0.319376774, de, 0.045)
      if mpl then
        assert.is_true(n >= 2 and n <= 5, ("%d collisions"):format(n))
      end
      at_rest_until(w, 20)
    end)

    it("six_blocks_10 (" .. conventions .. "): an imminent collision while handling another, "
      .. "20 s: its energy change -3.3865 to 0.01", function()
      assert.near(-3.386498527, (run(handled_at_start(SIX_10, false, conventions), 20)), 0.01)
    end)

    it("six_blocks_12 (" .. conventions .. "): walls added last, two upright blocks closing, "
      .. "2 s: the energy lost" .. (mpl and ": its -0.160986774 to 1e-3, its 2 collisions" or ""),
      function()
      local de, n = run(handled_at_start(SIX_12, true, conventions), 2)
      assert.is_true(de < 0, "a damped, inelastic pile loses energy")
      if mpl then
        -- -0.160986774 measured, its states followed to 4.7e-14 over the 80 steps (its own
        -- code under node, /work/mplref, session 17)
        assert.near(-0.160986774, de, 1e-3)
        assert.equal(2, n)  -- the two corners of the faces meeting at 0.0294 s
      end
    end)
  end

  -- measured (its setups, the energy counted after the initial impulses; under the
  -- conventions its order of the records, imp_engine2d_mpl_pair_before, also for the setup's
  -- handling): six_blocks_4 -1.7820 under impact's conventions (87 collisions counted as
  -- impact counts them, every record that took an impulse above 1e-4), -1.751935 (7) under
  -- myPhysicsLab's; six_blocks_10 -3.3843 (173) and -3.3887 (31); six_blocks_12 -0.16632 (4)
  -- and -0.160987 (2); six_blocks_9 -0.30283 and -0.31518 (2). Its own code run under node
  -- (/work/mplref): _12 -0.160987 with 2 collisions and _10 -3.386816, as its tests assert;
  -- _4 -1.751935 with 7 collisions (its test's 5 not given) and _9 -0.313721 with 3 (its
  -- test's -0.319377 not given). Compared step by step under the conventions (session 17):
  -- _12 and _4 follow its states to 4.7e-14 and 2.4e-11 to the end; _9 to 1.2e-14 up to
  -- 9.375 s and _10 to 2.6e-14 up to 6.15 s, where its serial focus is drawn from a
  -- generator that stands elsewhere: in an earlier contact-force solve (_9 at 2.425 s, _10
  -- at 6.1125 s) ComputeForces' smallest-acceleration choice met a tie of floor contacts at
  -- -3 +- 4e-15 (round-off of b), took the rows in another order and deferred one row more
  -- (or one less) than impact's solve, the forces the same, one more round of n draws.
  -- Reaching its figures there needs its b to the last bit, and would give one draw: see
  -- the pending below and spec/myphysicslab_roundoff_spec.lua (session 19).
  pending("six_blocks_9: its energy change to 12 s, -0.319376774 (Chrome -0.318193758) to "
    .. "0.001, 3 (Chrome 2) collisions: not a property of its model. Under round-off changes "
    .. "(one ulp of one initial coordinate, 1e-15 relative, dt's last bit, fma, RK4's sum "
    .. "order; 144 runs, tools/mpl_roundoff.lua) the same model ends between -0.35996 and "
    .. "-0.29419 (std 0.0141) with 2 to 5 collisions; its three figures are three of those "
    .. "outcomes (its and Chrome's met to 2e-10 by a perturbed run, node's to 3e-7). "
    .. "Unperturbed: -0.31517 (2) under myPhysicsLab's conventions, -0.30283 under impact's "
    .. "(no spread under round-off there, 1.2e-12; its seeds 1 to 40: -0.368 to -0.288)")
  pending("six_blocks_12 (impact): its energy change to 2 s, -0.160986774 to 0.001: measured "
    .. "-0.16632 (4 collisions). Under myPhysicsLab's conventions it is met once a corner "
    .. "within distance_tol of a face is a contact whatever its shape, as its "
    .. "findVertexContact takes it (from 1.375 s the rocking block's lower corner 0.0095 from "
    .. "the lying block's end face); impact's corner tests leave out a corner whose own side "
    .. "runs into the face first")
end)
