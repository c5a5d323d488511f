-- File helpers for specs that write outputs.
local M = {}

--- A new empty temporary directory.
function M.tmpdir()
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p '" .. d .. "'"))
  return d
end

--- The world w saved to a temporary file and loaded back (w:save, impact.load; the file is
--- removed): a new world in w's state.
function M.reloaded(w)
  local path = os.tmpname()
  w:save(path)
  local ok, loaded = pcall(require("impact").load, path)
  os.remove(path)
  if not ok then error(loaded, 2) end
  return loaded
end

--- The whole content of a file (raises when it cannot be read).
function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- the search path with "./" entries made absolute (for scripts run in another folder)
local function absolute(path, cwd)
  local parts = {}
  for entry in (path .. ";"):gmatch("([^;]*);") do
    parts[#parts + 1] = entry:sub(1, 2) == "./" and cwd .. entry:sub(2) or entry
  end
  return table.concat(parts, ";")
end

--- Runs a Lua script in a fresh lua5.4 with the specs' module paths (made absolute) in the
--- folder opts.dir (default: here), with opts.threads OpenMP threads (default 1). Returns its
--- output, whether it succeeded and its exit code (it does not raise).
function M.run_script(script, opts)
  opts = opts or {}
  local cwd = os.getenv("PWD") or "."
  -- in opts.dir, the script is opts.name (default "script.lua"), so that messages read
  -- "script.lua:3: ..." as they would for a user's file
  local path = opts.dir and (opts.dir .. "/" .. (opts.name or "script.lua")) or os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(script)
  f:close()
  local cmd = string.format("cd %q && OMP_NUM_THREADS=%d OMP_WAIT_POLICY=passive LUA_PATH_5_4=%q "
    .. "LUA_CPATH_5_4=%q lua5.4 %s 2>&1", opts.dir or ".", opts.threads or 1,
    absolute(package.path, cwd), absolute(package.cpath, cwd),
    opts.dir and (opts.name or "script.lua") or path)
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local ok, _, code = p:close()
  os.remove(path)
  return out, ok == true, code
end

--- Runs a Lua script in a fresh lua5.4 with `threads` OpenMP threads (passive waiting) and the
--- specs' module paths; raises with its output when it fails, else returns what it printed.
function M.run_with_threads(script, threads)
  local out, ok = M.run_script(script, { threads = threads })
  if not ok then error("the script failed: " .. out, 2) end
  return out
end

return M
