--- impact.cli: the command-line runner behind bin/impact.
---
---   impact run scene.lua [--until T] [--every S] [--record out.csv] [--plot out.svg]
---              [--svg dir] [--png dir] [--film out.gif] [--vtk dir] [--viewer out.html] [--quiet]
---
--- A scene is a Lua file that returns its world, or a table { world = w, until_time = T,
--- every = S, columns = {...} (recorder columns for --record), view = {xmin, ymin, xmax, ymax}
--- (2D pictures), contacts = function(w) -> list }. The scene runs with `arg` holding the
--- arguments after "--".
-- @module impact.cli
local M = {}

M.usage = [[
usage: impact run SCENE.lua [options] [-- scene arguments]
       impact spec [busted options] [spec files or folders]
       impact batch SWEEP.lua [options]   (impact batch --help)
       impact --help | --version

impact spec runs busted under Lua 5.4 with impact's module paths set (the Debian busted
command starts the default `lua`, which may be Lua 5.1 and cannot load impact); without
files it runs the specs in ./spec. Its exit code is busted's.

Runs a scene: a Lua file that returns its world, or a table
  { world = w, until_time = T, every = S, columns = {...}, view = {...}, contacts = fn }.

options:
  --until T        run until simulated time T (s); default: the scene's until_time
  --every S        sample every S seconds of simulated time for the outputs below
                   (default: the scene's every, else the run's length / 200, at least one step)
  --record FILE    CSV of the samples: the scene's columns, else time, steps, energies and
                   every body's position (up to 20 bodies)
  --plot FILE      a plot (.svg or .png) of the recorded columns against time
  --svg DIR        2D: a picture per sample, DIR/frame_00000.svg, ...
  --png DIR        2D: the same as PNG
  --film FILE      2D: a film (.gif or .mp4) of the PNG frames (needs ffmpeg)
  --vtk DIR        VTK files for ParaView: DIR/run.pvd and DIR/run_00000.vtp, ...
  --viewer FILE    an HTML page that plays the run in a browser
  --quiet          no progress and no summary
  -h, --help       this text

A progress bar (simulated time, steps/s, time left) goes to stderr on a terminal, plain lines
otherwise. The exit code is 0 on success, 1 when the scene fails (the error on stderr),
2 for a wrong command line.]]

local value_options = { ["--until"] = "until_time", ["--every"] = "every", ["--record"] = "record",
  ["--plot"] = "plot", ["--svg"] = "svg", ["--png"] = "png", ["--film"] = "film", ["--vtk"] = "vtk",
  ["--viewer"] = "viewer" }

--- Parses the command line; returns a table of options, or nil and a message.
function M.parse(args)
  local o = { scene_args = {} }
  if args[1] == "-h" or args[1] == "--help" or args[1] == "help" then return { help = true } end
  if args[1] == "--version" or args[1] == "version" then return { version = true } end
  if args[1] == "spec" then return { spec = { table.unpack(args, 2) } } end
  if args[1] ~= "run" then
    return nil, args[1] and string.format("unknown command %q (expected: run, spec or batch)", args[1])
      or "no command given"
  end
  local i = 2
  while i <= #args do
    local a = args[i]
    local key, inline = a:match("^(%-%-[%w-]+)=(.*)$")
    key = key or a
    if a == "--" then
      table.move(args, i + 1, #args, 1, o.scene_args)
      break
    elseif a == "-h" or a == "--help" then
      o.help = true
    elseif key == "--quiet" or key == "-q" then
      o.quiet = true
    elseif value_options[key] then
      local v = inline
      if v == nil then
        i = i + 1
        v = args[i]
      end
      if v == nil or v == "" then return nil, "option " .. key .. " needs a value" end
      if key == "--until" or key == "--every" then
        local n = tonumber(v)
        if not n or n ~= n or math.abs(n) == math.huge or (key == "--every" and n <= 0) then
          return nil, string.format("option %s must be a %snumber, got %q", key,
            key == "--every" and "positive " or "", v)
        end
        v = n
      end
      o[value_options[key]] = v
    elseif a:sub(1, 1) == "-" then
      return nil, string.format("unknown option %q", a)
    elseif o.scene then
      return nil, string.format("one scene at a time (got %q and %q)", o.scene, a)
    else
      o.scene = a
    end
    i = i + 1
  end
  if not o.scene and not o.help then return nil, "no scene file given" end
  return o
end

local function is_world(w)
  return type(w) == "userdata" and type(w.bodies) == "function" and type(w.step) == "function"
end

--- Loads a scene file: returns a table { world =, until_time =, ... }; raises with a message.
function M.load_scene(path, scene_args)
  local chunk, err = loadfile(path, "t")
  if not chunk then error(err, 0) end
  local saved_arg = _G.arg
  _G.arg = { [0] = path, table.unpack(scene_args or {}) }
  local ok, result = xpcall(chunk, debug.traceback, table.unpack(scene_args or {}))
  _G.arg = saved_arg
  if not ok then
    -- the traceback down to the scene's own frames (the runner's frames say nothing to the user)
    error((tostring(result):gsub("\n%s*%[C%]: in function 'xpcall'.*$", "")), 0)
  end
  if is_world(result) then return { world = result } end
  if type(result) == "table" and is_world(result.world) then return result end
  error(string.format("%s must return its world, or a table { world = w, ... }; it returned %s", path,
    type(result)), 0)
end

local function default_columns(w)
  local cols = { { "t", "time" }, { "steps", "steps" }, { "kinetic", "energy.kinetic" },
    { "rotational", "energy.rotational" }, { "potential", "energy.potential" }, { "energy", "energy.total" } }
  local axes = w.dim == 2 and { "x", "y" } or { "x", "y", "z" }
  local seen = {}
  for n, b in ipairs(w:bodies()) do
    if n > 20 then break end
    local name = b.name and tostring(b.name):gsub("[,%s]", "_") or ("body" .. b.id)
    if seen[name] then name = name .. "_" .. b.id end
    seen[name] = true
    for k, axis in ipairs(axes) do
      cols[#cols + 1] = { name .. "." .. axis, { b, "position", k } }
    end
  end
  return cols
end

-- runs the scene with its outputs; returns a summary line; raises on failure (after writing the
-- outputs gathered so far)
local function run(o)
  local impact = require("impact")
  local core = require("impact.core")
  local scene = M.load_scene(o.scene, o.scene_args)
  local w = scene.world
  local t0 = w.time
  local t_end = o.until_time or scene.until_time
  if type(t_end) ~= "number" then
    error("no end time: give --until T, or until_time = T in the table the scene returns", 0)
  end
  if t_end < t0 then
    error(string.format("the end time %g is before the world's time %g", t_end, t0), 0)
  end
  local every = o.every or scene.every or math.max(w.dt, (t_end - t0) / 200)
  local is2d = w.dim == 2
  for _, opt in ipairs({ "svg", "png", "film" }) do
    if o[opt] and not is2d then
      error(string.format("--%s draws 2D worlds; this world is 3D (use --vtk or --viewer)", opt), 0)
    end
  end
  local outputs, finish = {}, {}
  local rec
  if o.record or o.plot then
    rec = impact.recorder { w, every = every, columns = scene.columns or default_columns(w) }
    finish[#finish + 1] = function()
      rec:stop()
      if o.record then outputs[#outputs + 1] = rec:write_csv(o.record) end
      if o.plot then
        rec:plot { file = o.plot, title = o.scene }
        outputs[#outputs + 1] = o.plot
      end
    end
  end
  local picture = (o.svg or o.png or o.film) and require("impact.picture")
  local view = scene.view or (picture and picture.fit(w, 0.25))
  for _, fmt in ipairs({ "svg", "png" }) do
    if o[fmt] then
      local film = picture.film { w, every = every, dir = o[fmt], format = fmt, view = view }
      finish[#finish + 1] = function()
        film:stop()
        outputs[#outputs + 1] = string.format("%s (%d frames)", o[fmt], #film.files)
      end
    end
  end
  if o.film then
    local dir = o.film:gsub("%.%w+$", "") .. "_frames"
    local film = picture.film { w, every = every, dir = dir, format = "png", view = view }
    finish[#finish + 1] = function()
      film:stop()
      outputs[#outputs + 1] = film:encode { file = o.film, fps = 25 }
    end
  end
  if o.vtk then
    local series = require("impact.vtk").series { w, every = every, dir = o.vtk, contacts = scene.contacts }
    finish[#finish + 1] = function() outputs[#outputs + 1] = series:stop() end
  end
  if o.viewer then
    local vrec = require("impact.viewer").recorder { w, every = every, contacts = scene.contacts }
    finish[#finish + 1] = function()
      vrec:stop()
      outputs[#outputs + 1] = vrec:write { file = o.viewer, title = o.scene, view = scene.view }
    end
  end

  local steps = math.max(0, math.ceil((t_end - t0) / w.dt - 1e-9))
  local progress = require("impact.progress")
  local mode = o.quiet and "none" or (progress.stderr_is_terminal() and "bar" or "lines")
  local report = mode ~= "none" and progress.reporter(mode, t0, t_end, core.clock) or nil
  local started = core.clock()
  local done, batch = 0, 1
  local ok, err = pcall(function()
    while done < steps do
      local n = math.min(batch, steps - done)
      local t_batch = core.clock()
      w:step(n)
      done = done + n
      -- batches of about 20 ms keep the progress fresh without costing time
      local took = core.clock() - t_batch
      if took < 0.01 then batch = batch * 2 elseif took > 0.04 and batch > 1 then batch = batch // 2 end
      if report then report(w, done, false) end
    end
  end)
  if report then report(w, done, true) end
  local finish_err
  for _, f in ipairs(finish) do
    local fok, ferr = pcall(f)
    if not fok and not finish_err then finish_err = ferr end
  end
  if not ok then
    error(tostring(err) .. (#outputs > 0 and "\n(written up to the failure: " .. table.concat(outputs, ", ")
      .. ")" or ""), 0)
  end
  if finish_err then error(finish_err, 0) end
  local seconds = core.clock() - started
  local line = string.format("%s: t = %.6g s, %d steps in %.3g s (%.0f steps/s)", o.scene, w.time, done,
    seconds, seconds > 0 and done / seconds or 0)
  if #outputs > 0 then line = line .. "\nwrote " .. table.concat(outputs, ", ") end
  return line
end

-- a word quoted for sh
local function quoted(a)
  return "'" .. tostring(a):gsub("'", "'\\''") .. "'"
end

--- The command that runs busted under this Lua with this process's module paths (the paths
--- go through LUA_PATH_5_4 / LUA_CPATH_5_4: busted's --lpath is cut at ';' when it re-executes
--- itself). Returns the command line, or nil and a message when busted is not installed.
function M.spec_command(args, env)
  env = env or {}
  local busted = env.busted
  if not busted then
    local p = io.popen("command -v busted 2>/dev/null")
    busted = p and p:read("l")
    if p then p:close() end
  end
  if not busted or busted == "" then
    return nil, "busted is not installed (Debian: apt-get install lua-busted)"
  end
  local lua = env.lua or (arg and arg[-1]) or "lua5.4"
  if not lua:match("5%.4") then lua = "lua5.4" end
  local words = { "LUA_PATH_5_4=" .. quoted(env.path or package.path),
    "LUA_CPATH_5_4=" .. quoted(env.cpath or package.cpath), quoted(lua), quoted(busted) }
  local any_file = false
  for _, a in ipairs(args) do
    words[#words + 1] = quoted(a)
    if a:sub(1, 1) ~= "-" then any_file = true end
  end
  if not any_file then words[#words + 1] = "spec" end
  return table.concat(words, " ")
end

--- Runs the command line args; returns the exit code (0, 1 scene failed, 2 bad command line).
function M.main(args)
  if args and args[1] == "batch" then return require("impact.batch_cli").main(args) end
  local o, err = M.parse(args or {})
  if not o then
    io.stderr:write("impact: ", err, "\n", M.usage, "\n")
    return 2
  end
  if o.help then
    io.stdout:write(M.usage, "\n")
    return 0
  end
  if o.version then
    io.stdout:write(require("impact")._VERSION, " (", _VERSION, ")\n")
    return 0
  end
  if o.spec then
    local cmd, why = M.spec_command(o.spec)
    if not cmd then
      io.stderr:write("impact: ", why, "\n")
      return 1
    end
    local ok, how, code = os.execute(cmd)
    if ok then return 0 end
    return how == "exit" and code or 1
  end
  local ok, result = pcall(run, o)
  if not ok then
    io.stderr:write("impact: ", tostring(result), "\n")
    return 1
  end
  if not o.quiet then io.stdout:write(result, "\n") end
  return 0
end

return M
