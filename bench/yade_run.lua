-- yade_run.lua: what bench/dem_bounce_yade.lua and bench/dem_triax_yade.lua share to run a scene
-- on Yade beside impact, one thread each: running the bench again under OMP_NUM_THREADS=1,
-- finding why Yade cannot run, writing the spheres to a scene file, running `yade -n -x -j1`
-- on a script of bench/ and reading the lines it prints ("TAG key=value ..." or "TAG v1 v2 ...").
-- Loaded with dofile from the benches' directory:
--
--   local yade_run = dofile((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/yade_run.lua")
local yade_run = {}

-- OpenMP reads OMP_NUM_THREADS when the process starts: unless it is 1, run this bench again
-- with it set, with the same arguments, and exit with its status
function yade_run.one_thread()
  if os.getenv("OMP_NUM_THREADS") == "1" then return end
  local words = { "OMP_NUM_THREADS=1", arg[-1] or "lua5.4", arg[0] }
  for i = 1, #arg do words[#words + 1] = string.format("%q", arg[i]) end
  local ok = os.execute(table.concat(words, " "))
  os.exit(ok and 0 or 1)
end

-- why Yade cannot run `script` (a path from the top directory), or nil when it can
function yade_run.why_not(script)
  if os.getenv("DEM_BENCH_YADE") == "0" then return "DEM_BENCH_YADE=0" end
  if not os.execute("command -v yade > /dev/null 2>&1") then
    return "Yade is not installed: apt-get install --no-install-recommends yade"
  end
  local f = io.open(script)
  if not f then return script .. " not found: run from the top" end
  f:close()
end

-- a scene file for the Yade scripts: the line `head`, then one sphere a line, "x y z r"; returns
-- its path (a temporary file: run() removes it)
function yade_run.scene_file(head, spheres)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(head, "\n")
  for _, s in ipairs(spheres) do
    local c = s.center
    f:write(string.format("%.17g %.17g %.17g %.17g\n", c[1], c[2], c[3], s.radius))
  end
  f:close()
  return path
end

-- runs `yade -n -x -j1 script args...` (one thread; the scene file first in args), then removes
-- the scene file; returns, for each tag of `tags` seen at the start of a line, either a table
-- of its key=value fields (numbers, and `version` as text) or, for the tags listed in `lists`,
-- the array of the numbers on its line; nil and the command when the run printed none of them
function yade_run.run(script, scene, args, tags, lists)
  local words = { "OMP_NUM_THREADS=1 yade -n -x -j1", script, scene }
  for _, a in ipairs(args or {}) do
    words[#words + 1] = type(a) == "number" and string.format("%.17g", a) or tostring(a)
  end
  local cmd = table.concat(words, " ")
  local pipe = assert(io.popen(cmd .. " 2>&1"))
  local found, any = {}, false
  for line in pipe:lines() do
    local tag = line:match("^(%S+)")
    if tag and lists and lists[tag] then
      local values = {}
      for v in line:sub(#tag + 2):gmatch("%S+") do values[#values + 1] = tonumber(v) end
      found[tag], any = values, true
    elseif tag and tags[tag] then
      local fields = { version = line:match("version=(%S+)") }
      for k, v in line:gmatch("([%w_]+)=([-%d.e+]+)") do
        if k ~= "version" then fields[k] = tonumber(v) end
      end
      found[tag], any = fields, true
    end
  end
  pipe:close()
  os.remove(scene)
  if not any then return nil, cmd end
  return found
end

-- the whole comparison's Yade side: `script` on the scene `head` + `spheres` with `args`; prints
-- why when Yade is not run or its run printed not every tag of `tags` and `lists` (then returns
-- nil), else returns run()'s table
function yade_run.beside(script, head, spheres, args, tags, lists)
  local why_not = yade_run.why_not(script)
  if why_not then
    print("  Yade: not run (" .. why_not .. "): no comparison")
    return nil
  end
  local out, cmd = yade_run.run(script, yade_run.scene_file(head, spheres), args, tags, lists)
  for _, set in ipairs { tags, lists or {} } do
    for tag in pairs(set) do
      if out and not out[tag] then out, cmd = nil, script end
    end
  end
  if not out then print("  Yade: the run failed (" .. cmd .. "): no comparison") end
  return out
end

return yade_run
