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

local SIX_4 = {
  -3.3545261663555896, -0.355180346288018, -4.4091676608815025, 0.01888840410875564,
  -0.33441693630855124, 0.78578131361648, -1.5175707648198662, 0.003206135053147014,
  -5.4907362257189956, 5.436678584988201E-6, -4.712417858395409, -3.6244872808309476E-6,
  -5.030329202688726, -0.9844534862980994, -3.109909451638245, -0.17187889001353449,
  -0.3350299277503665, 0.7861778657011144, -4.422188956281887, -0.06277409660041239,
  -4.40909237120817, 0.020106263134300622, 21.655729079144088, 0.7861180509905386,
  1.4901049976435212, 0.0023613793610671716, -5.490185485906266, 0.0056322362177322945,
  -7.853916200558516, 0.0016857384982070047, 4.490161555800651, 1.5819651323954016E-4,
  -5.4900738791375066, 0.0040804895964462965, -1.570843916633821, -0.0027203695546943584 }

local SIX_9 = {
  -1.4098834956330757, -0.011021823548695726, -4.901190292092527, 0.06896168332172642,
  -1.1329171003184435, 0.06015134284633006, 1.1048833769390685, -0.2383595895375249,
  -5.490575648872165, -5.985483064997513E-23, -4.7121628015794945, 1.061957734850305E-22,
  1.6703348810645853, -0.021994369069460246, -4.481173864069186, 5.869360705162414E-5,
  -1.570496969228481, 6.504411289860808E-6, -4.490089724681169, -8.470329472543003E-22,
  -5.490535827441271, 2.309033496920736E-5, 20.4202774547725, 0.0,
  4.115016540060451, -0.23835958953752487, -5.491084890522951, 0.0,
  -7.854124817129153, 0.0, 4.413957328404009, -4.263125237630913E-4,
  -3.9479177969108523, -0.004412366070905673, 1.1755736147755107, 0.00367304369690573 }

local SIX_10 = {
  -4.112367787413438, 0.39026511526212854, -3.47432218043552, -0.04844606751715124,
  -0.01681971028050594, 0.15444140342140358, -4.4902665319358945, 0.009708687447405103,
  -5.492362116791236, 0.04110771891404174, -1.5703141789281565, -0.019389331575013213,
  -1.1117912478988092, -0.08180869895105755, -4.472560662315691, -0.05278060856444347,
  -1.5653868372165212, -0.4933976799463698, -0.2864037845545129, -0.021580789346602885,
  -5.48855328848715, -0.5111254210373286, -1.5667732606816016, -0.005675550346695361,
  1.4297966380301976, -0.6222954049493852, -4.380312958037922, -1.3388667898420845,
  0.7202422536661243, 0.3569620001764969, 4.358511630657416, -0.1897987425234288,
  -5.492781293281953, 1.5820678100908484E-16, -1.5724773538024814, 2.7755575615628914E-17 }

local SIX_12 = {
  -3.9795534864733946, 0.5603947124399835, -4.494999999999999, -1.5563590077982844E-14,
  -7.348187395995754E-16, -2.9029394275278674E-16, -2.950617113946953, -0.2553017864528158,
  -4.494999999999999, -5.3058849962594086E-15, -1.7908831144300597E-15, 6.608018768607392E-14,
  -0.5200000006730288, -9.7046021848972E-19, -5.494999999999999, -7.96944081510657E-15,
  -1.5707963267948968, 8.726266789357274E-16, 2.4849999993269716, -2.154014466284064E-15,
  -5.494999999999999, -9.922729685802491E-15, 1.5707963267948963, -2.6256274349643637E-15,
  4.489999999326985, 2.1562780968094406E-15, -4.494999999999999, -1.2431040096932952E-14,
  9.528498640341283E-16, -4.800359450590645E-14, 5.494999999380792, -1.2931512186863026E-18,
  -4.494999999999999, -6.99044503042167E-15, -1.974518458830297E-16, -5.007438423172913E-16 }

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
        -- collisions, which its code no longer gives: a stale figure)
        assert.near(-1.751934748, de, 1e-6)
        assert.equal(7, n)
      else
        assert.near(-1.7, de, 0.1)
      end
      at_rest_until(w, 12)
    end)

    it("six_blocks_9 (" .. conventions .. "): from 12 s to 20 s at rest: energy kept to 1e-6, "
      .. "no collision", function()
      local w = six_blocks(SIX_9, 0.05, false, conventions)
      local de = run(w, 12)
      assert.is_true(de < 0, "a damped, inelastic pile loses energy")
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
  -- Reaching its figures there needs its b to the last bit.
  pending("six_blocks_9: its energy change to 12 s, -0.319376774 (Chrome -0.318193758) to "
    .. "0.001, 3 (Chrome 2) collisions: measured -0.30283 under impact's conventions, -0.31518 "
    .. "(2 collisions) under myPhysicsLab's; its own code under node gives -0.313721 (3), "
    .. "followed to 1.2e-14 up to 9.375 s, where its serial focus differs: its generator moved "
    .. "apart at 2.425 s, a contact-force solve that broke a round-off tie (-3 +- 4e-15) of "
    .. "floor contacts another way and drew one more round")
  pending("six_blocks_12 (impact): its energy change to 2 s, -0.160986774 to 0.001: measured "
    .. "-0.16632 (4 collisions). Under myPhysicsLab's conventions it is met once a corner "
    .. "within distance_tol of a face is a contact whatever its shape, as its "
    .. "findVertexContact takes it (from 1.375 s the rocking block's lower corner 0.0095 from "
    .. "the lying block's end face); impact's corner tests leave out a corner whose own side "
    .. "runs into the face first")
end)
