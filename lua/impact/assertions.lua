--- impact.assertions: numeric assertions for busted specs.
--
--   require "impact.assertions"
--   assert.near(expected, actual, tol)
--
-- expected and actual are numbers or (nested) arrays of numbers of the same shape. tol is a
-- number (absolute tolerance) or a table { abs = a, rel = r }: each element must satisfy
-- |actual - expected| <= abs + rel * |expected|. NaN is never near anything.
-- assert.conserved(world, quantity, tol, duration) runs the world and checks a quantity.
-- @module impact.assertions
local luassert = require("luassert")
local say = require("say")
local util = require("luassert.util")

local M = {}

local function tolerances(tol)
  if type(tol) == "number" then return tol, 0 end
  if type(tol) == "table" then return tol.abs or 0, tol.rel or 0 end
  error("assert.near: tolerance must be a number or { abs =, rel = }, got " .. tostring(tol), 3)
end

--- Largest violation of the tolerance between expected and actual, as a string, or nil when
--- they are near.
function M.near_failure(expected, actual, abs, rel, path)
  path = path or ""
  if type(expected) == "number" then
    if type(actual) ~= "number" then
      return string.format("%s: expected a number, got %s", path ~= "" and path or "value", type(actual))
    end
    local diff = math.abs(actual - expected)
    -- written so that NaN is never near
    if not (diff <= abs + rel * math.abs(expected)) then  -- luacheck: ignore 581
      return string.format("%s%s differs by %.6g (allowed %.6g)", path ~= "" and path or "value",
        path ~= "" and "" or "", diff, abs + rel * math.abs(expected))
    end
    return nil
  end
  if type(expected) ~= "table" or type(actual) ~= "table" then
    return string.format("%s: cannot compare %s with %s", path ~= "" and path or "value",
      type(expected), type(actual))
  end
  if #expected ~= #actual then
    return string.format("%s: lengths differ (%d vs %d)", path ~= "" and path or "value",
      #expected, #actual)
  end
  for i = 1, #expected do
    local f = M.near_failure(expected[i], actual[i], abs, rel, path .. "[" .. i .. "]")
    if f then return f end
  end
  return nil
end

local function near(state, args)
  local expected, actual = args[1], args[2]
  local abs, rel = tolerances(args[3])
  local failure = M.near_failure(expected, actual, abs, rel)
  state.failure_message = failure and ("Expected values to be near: " .. failure) or nil
  args[1], args[2] = actual, expected
  args.n = 2
  return failure == nil
end

say:set("assertion.near.positive", "Expected values to be near.\nPassed in:\n%s\nExpected:\n%s")
say:set("assertion.near.negative", "Expected values not to be near.\nPassed in:\n%s\nDid not expect:\n%s")
luassert:register("assertion", "near", near, "assertion.near.positive", "assertion.near.negative")

-- quantity readers for assert.conserved
local readers = {
  energy = function(w) return w:energy().total end,
  momentum = function(w) return w:momentum() end,
  angular_momentum = function(w) return w:angular_momentum() end,
}

local function conserved(state, args)
  local w, quantity, tol, duration = args[1], args[2], args[3], args[4]
  local read = type(quantity) == "function" and quantity or readers[quantity]
  if not read then
    error("assert.conserved: quantity must be 'energy', 'momentum', 'angular_momentum' or a function, got "
      .. tostring(quantity), 3)
  end
  local abs, rel = tolerances(tol)
  local start = read(w)
  local failure
  local function check(ww)
    if failure then return end
    local f = M.near_failure(start, read(ww), abs, rel)
    if f then failure = string.format("at t = %.6g: %s", ww.time, f) end
  end
  w:run { until_time = w.time + (duration or 1), every = 0, fn = check }
  check(w)
  state.failure_message = failure and ("Expected " .. tostring(quantity) .. " to be conserved: "
    .. failure) or nil
  args.n = 0
  return failure == nil
end

say:set("assertion.conserved.positive", "Expected the quantity to be conserved")
say:set("assertion.conserved.negative", "Expected the quantity not to be conserved")
luassert:register("assertion", "conserved", conserved, "assertion.conserved.positive",
  "assertion.conserved.negative")

M.util = util
return M
