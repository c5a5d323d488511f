--- impact.files: the few file-system helpers the exporters need (directories, shell quoting,
--- looking for a program), through the shell since Lua has no directory functions.
-- @module impact.files
local M = {}

--- s quoted for a POSIX shell.
function M.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- Makes directory dir and its parents; raises naming `what` when it cannot.
function M.mkdir(dir, what)
  if type(dir) ~= "string" or dir == "" then
    error(string.format("%s: a directory name must be a non-empty string, got %s", what, tostring(dir)), 3)
  end
  local ok = os.execute("mkdir -p " .. M.quote(dir) .. " 2>/dev/null")
  if not ok then error(string.format("%s: cannot make the directory %s", what, dir), 3) end
  return dir
end

--- True when the program is on PATH.
function M.have(program)
  return os.execute("command -v " .. M.quote(program) .. " >/dev/null 2>&1") == true
end

--- The whole content of a file, or nil and a message.
function M.read(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local s = f:read("a")
  f:close()
  return s
end

--- Writes s to path (replacing it); raises naming `what` when it cannot.
function M.write(path, s, what)
  local f, err = io.open(path, "wb")
  if not f then error(string.format("%s: cannot write %s", what, err), 3) end
  f:write(s)
  f:close()
  return path
end

--- dir .. "/" .. name, without doubling the slash.
function M.join(dir, name)
  if dir:sub(-1) == "/" then return dir .. name end
  return dir .. "/" .. name
end

return M
