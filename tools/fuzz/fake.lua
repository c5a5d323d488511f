--- tools/fuzz/fake.lua: a stand-in for impact in the fuzzer's own spec (FUZZ_FAKE=1). Every
--- field and every call gives another proxy; calling a world's step after its close "crashes"
--- (os.exit(3)), and impact.dem.load hangs (a Lua loop), so the spec knows the minimal
--- reproducers the fuzzer must print.
local state = { closed = false }

local function proxy(path)
  return setmetatable({}, {
    __index = function(_, k) return proxy(path .. "." .. tostring(k)) end,
    __newindex = function() end,
    __call = function()
      if path:match("^impact%.world%dd%(%)%.close$") then state.closed = true end
      if path:match("^impact%.world%dd%(%)%.step$") and state.closed then os.exit(3) end
      if path:match("^impact%.dem%.load$") then
        while true do end  -- luacheck: ignore 512
      end
      return proxy(path .. "()")
    end,
    __len = function() return 0 end,
    __tostring = function() return path end,
  })
end

return { impact = proxy("impact"), reset = function() state.closed = false end }
