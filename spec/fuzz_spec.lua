-- The fuzzer itself (tools/fuzz/): its generator is deterministic and makes valid Lua, its
-- delta debugging finds minimal subsets, and on a fake target (tools/fuzz/fake.lua: a world's
-- step after its close "crashes" the process, impact.dem.load hangs) it prints minimal
-- reproducers and the closing lines in the promised format.
package.path = "./tools/fuzz/?.lua;" .. package.path
local gen = require("gen")
local fuzz = require("fuzz")

describe("the fuzzer's generator", function()
  it("makes the same case from the same seed and index, other cases from others", function()
    local a, b, c = gen.case(7, 3, 30), gen.case(7, 3, 30), gen.case(7, 4, 30)
    assert.are.equal(#a, #b)
    local same, differ = true, false
    for i = 1, #a do
      if a[i].src ~= b[i].src then same = false end
      if c[i] == nil or a[i].src ~= c[i].src then differ = true end
    end
    assert.is_true(same)
    assert.is_true(differ)
  end)

  it("makes valid Lua, reaches every entry of the table and marks values to refuse", function()
    local seen, bad = {}, 0
    for case = 0, 150 do
      for _, call in ipairs(gen.case(1, case, 40)) do
        assert.is_truthy(load(call.src, "call", "t", {}), call.src)
        seen[call.entry] = true
        if call.bad then bad = bad + 1 end
      end
    end
    assert.is_true(bad > 100)
    for _, name in ipairs({ "impact.world2d", "impact.world3d", "World:add_body", "World:step", "World:run",
      "impact.shape2d.rounded_block", "impact.shape3d.sphere", "impact.shape3d.polyhedron", "impact.dem.load",
      "impact.dem.add_facet_box", "impact.lcp.solve", "impact.recorder", "World:add_joint", "World:on",
      "World.gravity =", "Body.position =", "World:close", "impact.material.define", "F.damage" }) do
      assert.is_true(seen[name] ~= nil, name)
    end
  end)

  it("marks spheres of infinite or zero volume as ones to refuse", function()
    local big, small = 0, 0
    for seed = 1, 3 do
      for case = 0, 300 do
        for _, call in ipairs(gen.case(seed, case, 40)) do
          local r = call.entry == "impact.shape3d.sphere"
            and tonumber(call.src:match("radius = ([%d.e+-]+)[,}]"))
          if r and r >= 1e154 then
            big = big + 1
            assert.is_truthy(call.bad, call.src)
            if not call.src:find("[%[_]") then assert.are.equal("volume overflows (infinite)", call.bad) end
          elseif r and r > 0 and r <= 1e-160 then
            small = small + 1
            assert.is_truthy(call.bad, call.src)
            -- (an unknown key drawn beside the radius is the first verdict)
            if not call.src:find("[%[_]") then assert.are.equal("volume is zero", call.bad) end
          end
        end
      end
    end
    assert.is_true(big >= 1 and small >= 1)
  end)
end)

describe("the fuzzer's minimiser", function()
  it("ddmin returns a 1-minimal subset", function()
    local items = {}
    for i = 1, 30 do items[i] = i end
    local tests = 0
    local result = fuzz.ddmin(items, function(list)
      tests = tests + 1
      local has = {}
      for _, x in ipairs(list) do has[x] = true end
      return has[4] and has[17] and has[29]
    end)
    assert.are.same({ 4, 17, 29 }, result)
    assert.is_true(tests < 120)
  end)

  it("slices a call's case down to the calls that share its objects", function()
    local calls = { { src = "w = impact.world2d{}" }, { src = "s2 = impact.shape2d.ball{}" },
      { src = "_ = impact.lcp.cone(3)" }, { src = "b3 = w:add_body{shape = s2}" }, { src = "w:step()" } }
    assert.are.same({ 1, 2, 4 }, fuzz.slice(calls, 5))
  end)
end)

describe("the fuzzer on a fake target", function()
  local out_dir = os.tmpname()
  os.remove(out_dir)
  local cfg = { fake = "1", preload = "", build = "build", out = out_dir, seed = 1, case_calls = 40,
      hang = 0.2,
    min_time = 20, dir = "tools/fuzz", lua = "lua5.4" }
  teardown(function() os.execute("rm -rf '" .. out_dir .. "'") end)

  it("minimises a crash to the world, its close and the step", function()
    local calls = gen.case(1, 0, 16)
    table.insert(calls, 6, { src = "w:close()", entry = "World:close" })
    calls[#calls + 1] = { src = "w:step()", entry = "World:step" }
    -- the finding as a lane reports it: the case of these calls, the call in progress
    local o = fuzz.replay(fuzz.config(cfg), 0, calls, {}, "spec", 1)
    assert.is_true(o.rc == 3)
    local f = { kind = "crash", sig = o.sig, case = 0, call = o.call }
    local saved = gen.case
    gen.case = function() return calls, {} end
    -- the deadline bounds a stuck minimisation only: a loaded machine (replays in fresh
    -- sanitized workers) took more than 20 s and left 5 calls
    local list = fuzz.minimise(fuzz.config(cfg), f, os.time() + 180, "spec")
    gen.case = saved
    local src = {}
    for i, c in ipairs(list) do src[i] = c.src end
    assert.are.equal(3, #list)
    assert.is_truthy(src[1]:match("^w = impact%.world[23]d"))
    -- the crash is at the first step after the close
    assert.are.equal("w:close()", src[2])
    assert.are.equal(calls[o.call].src, src[3])
    assert.is_truthy(src[3]:match("^w:step"))
  end)

  it("prints the findings and ends with the counts", function()
    local lines = {}
    -- (its 6 cases: one dem.load, one step after close); the minimisation's deadline bounds a
    -- stuck run only, as above: at 20 s a machine at load 25 left the crash "partly minimised"
    local over = { calls = 240, seed = 23, min_time = 180 }
    for k, v in pairs(cfg) do over[k] = over[k] or v end
    local r = fuzz.main(over, function(s) lines[#lines + 1] = s end)
    local text = table.concat(lines, "\n")
    assert.is_truthy(lines[#lines]:match("^%d+ calls, %d+ crashes, %d+ hangs$"), text)
    assert.is_truthy(lines[#lines - 1]:match("^%d+ silent acceptances$"))
    assert.are.equal(string.format("%d calls, %d crashes, %d hangs", r.calls, r.crash, r.hang), lines[#lines])
    assert.is_true(r.calls >= 200)
    assert.is_true(r.hang >= 1, text)  -- impact.dem.load hangs in the fake
    assert.is_truthy(text:find("hang at impact.dem.load", 1, true), text)
    assert.are.equal(1, r.crash, text)
    assert.is_truthy(text:find("w:close()\n    w:step", 1, true), text)
    assert.is_truthy(text:find("\n    local impact = require \"impact\"\n", 1, true), text)
  end)
end)
