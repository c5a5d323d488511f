-- File helpers for specs that write outputs.
local M = {}

--- A new empty temporary directory.
function M.tmpdir()
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p '" .. d .. "'"))
  return d
end

--- The whole content of a file (raises when it cannot be read).
function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

--- Runs a Lua script in a fresh lua5.4 with `threads` OpenMP threads (passive waiting) and the
--- specs' module paths; raises with its output when it fails, else returns what it printed.
function M.run_with_threads(script, threads)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(script)
  f:close()
  local cmd = string.format("OMP_NUM_THREADS=%d OMP_WAIT_POLICY=passive LUA_PATH_5_4=%q "
    .. "LUA_CPATH_5_4=%q lua5.4 %s 2>&1",
    threads, package.path, package.cpath, path)
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local ok = p:close()
  os.remove(path)
  if not ok then error("the script failed: " .. out, 2) end
  return out
end

return M
