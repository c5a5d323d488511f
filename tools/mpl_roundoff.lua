--- tools/mpl_roundoff.lua: how far myPhysicsLab's figures six_blocks_9 (energy change to 12 s,
--- its 1e-3) and ball_vs_circle_0 (state at 10 s, its 1e-5), and beside them the met figures of
--- six_blocks_4, 10 and 12, move under changes at the level of round-off
--- (spec/support/myphysicslab_roundoff.lua lists them). The claim it checks: if the
--- spread is wider than the tolerance, the figure is one program's round-off, not the model's.
---
---   LUA_CPATH_5_4="./build/?.so;;" lua5.4 tools/mpl_roundoff.lua [options] [scene ...]
---
--- scenes: six_blocks_9, ball_vs_circle_0 (the default), six_blocks_4, _10, _12. Options:
--- --conventions C (default myphysicslab), --list (one line per run), --seeds N (the six-blocks
--- scenes' unperturbed run under the generator's seeds 1 to N instead of the perturbations).
--- MPL_ROUNDOFF_BUILDS="name=dir ..." adds the unperturbed run of each other build of impact
--- (its dir/?.so: e.g. one built with -mfma -ffp-contract=fast) to the ensemble, run as a
--- child process (--dump).
package.path = "./?.lua;./lua/?.lua;./lua/?/init.lua;" .. package.path
local study = require("spec.support.myphysicslab_roundoff")

local args, conventions, list, dump, seeds = {}, "myphysicslab", false, nil, nil
do
  local i = 1
  while arg[i] do
    local a = arg[i]
    if a == "--conventions" then i = i + 1; conventions = arg[i]
    elseif a == "--list" then list = true
    elseif a == "--seeds" then i = i + 1; seeds = tonumber(arg[i])
    elseif a == "--dump" then i = i + 1; dump = arg[i]
    else args[#args + 1] = a end
    i = i + 1
  end
end

local function literal(v)
  if type(v) == "table" then
    local parts = {}
    for k, x in pairs(v) do
      parts[#parts + 1] = (type(k) == "string" and k .. " = " or "") .. literal(x)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return type(v) == "number" and ("%.17g"):format(v):gsub("inf", "math.huge") or tostring(v)
end

if dump then  -- the unperturbed run, as a Lua literal
  local scene = assert(study.scenes[dump], "no scene " .. dump)
  local m, traj = scene.run(scene.state, scene.dt, conventions)
  io.write("return { measure = ", literal(m), ", traj = {")
  for _, s in ipairs(traj) do io.write(literal(s), ",\n") end
  io.write("} }\n")
  return
end

local function other_builds(name)
  local out = {}
  for build, dir in (os.getenv("MPL_ROUNDOFF_BUILDS") or ""):gmatch("(%w+)=(%S+)") do
    local cmd = ("LUA_CPATH_5_4='%s/?.so;;' %s %s --conventions %s --dump %s"):format(dir,
      arg[-1] or "lua5.4", arg[0], conventions, name)
    local f = assert(io.popen(cmd))
    local r = assert(load(f:read("a")))()
    f:close()
    out[#out + 1] = { name = "build " .. build, measure = r.measure, traj = r.traj }
  end
  return out
end

local function median(t)
  if #t == 0 then return nil end
  table.sort(t)
  return #t % 2 == 1 and t[(#t + 1) // 2] or (t[#t // 2] + t[#t // 2 + 1]) / 2
end

local function show_spread(runs, key, label)
  local measures = {}
  for _, r in ipairs(runs) do measures[#measures + 1] = r.measure end
  local s = study.spread(measures, key)
  print(("  %-34s min %.9g max %.9g (spread %.3g) mean %.9g std %.3g (%d runs)"):format(label,
    s.min, s.max, s.max - s.min, s.mean, s.std, s.n))
  return s
end

local function histogram(runs, key, label)
  local h, keys = {}, {}
  for _, r in ipairs(runs) do
    local v = r.measure[key]
    if not h[v] then h[v] = 0; keys[#keys + 1] = v end
    h[v] = h[v] + 1
  end
  table.sort(keys)
  local parts = {}
  for _, v in ipairs(keys) do parts[#parts + 1] = ("%s: %d"):format(tostring(v), h[v]) end
  print(("  %-34s %s"):format(label, table.concat(parts, ", ")))
end

local function growth(runs, dt, times)
  local base = runs[1].traj
  local slopes, firsts, at, apart = {}, {}, {}, {}
  for _, t in ipairs(times) do at[t], apart[t] = {}, 0 end
  for i = 2, #runs do
    local sep = study.separation(base, runs[i].traj)
    local slope, first = study.growth(sep, dt, 1e-13, 1e-3, 1e-5)
    if slope then slopes[#slopes + 1] = slope end
    if first then firsts[#firsts + 1] = first end
    for _, t in ipairs(times) do
      local s = sep[math.floor(t / dt + 0.5)]
      at[t][#at[t] + 1] = s and s > 0 and math.log(s, 10) or -math.huge
      if s and s > 1e-5 then apart[t] = apart[t] + 1 end
    end
  end
  local parts = {}
  for _, t in ipairs(times) do
    parts[#parts + 1] = ("%g s %.1f (%d)"):format(t, median(at[t]), apart[t])
  end
  print("  separation from the unperturbed run, median log10 (runs apart by more than 1e-5): "
    .. table.concat(parts, ", "))
  local lyap = median(slopes)
  print(("  growth rate of ln(separation) between 1e-13 and 1e-3 (median of %d fits): %s /s"
    .. " (min %s, max %s)"):format(#slopes, lyap and ("%.3g"):format(lyap) or "-",
    slopes[1] and ("%.3g"):format(slopes[1]) or "-",
    slopes[1] and ("%.3g"):format(slopes[#slopes]) or "-"))
  local m = median(firsts)
  print(("  first above 1e-5 in %d of %d runs: at %s s (min %s, max %s)"):format(#firsts,
    #runs - 1, m and ("%.4g"):format(m) or "-", m and ("%.4g"):format(firsts[1]) or "-",
    m and ("%.4g"):format(firsts[#firsts]) or "-"))
  return lyap
end

local report = {}

local function report_six_blocks(runs, scene)
  local s = show_spread(runs, "de", ("energy change to %g s"):format(scene.t_end))
  for _, f in ipairs(scene.figures) do
    local best, inside = nil, 0
    for _, r in ipairs(runs) do
      if math.abs(r.measure.de - f[2]) <= scene.tol then inside = inside + 1 end
      if not best or math.abs(r.measure.de - f[2]) < math.abs(best.measure.de - f[2]) then
        best = r
      end
    end
    print(("  %s %.9g: %d runs within its %g; nearest %s, %.9f (%.2g away, %d collisions)"):format(
      f[1], f[2], inside, scene.tol, best.name, best.measure.de,
      math.abs(best.measure.de - f[2]), best.measure.n))
  end
  histogram(runs, "n", ("collisions to %g s"):format(scene.t_end))
  if scene.t_rest then
    show_spread(runs, "rest_de", ("energy change %g-%g s"):format(scene.t_end, scene.t_rest))
    histogram(runs, "rest_n", ("collisions %g-%g s"):format(scene.t_end, scene.t_rest))
  end
  local times = {}
  for k = 1, 8 do times[k] = scene.t_end * k / 8 end
  growth(runs, scene.dt, times)
  print(("  claim: the spread %.3g is %s than the tolerance's band (%g)"):format(
    s.max - s.min, s.max - s.min > 2 * scene.tol and "wider" or "narrower", 2 * scene.tol))
end
for _, name in ipairs { "six_blocks_4", "six_blocks_9", "six_blocks_10", "six_blocks_12" } do
  report[name] = function(runs) report_six_blocks(runs, study.scenes[name]) end
end

function report.ball_vs_circle_0(runs)
  show_spread(runs, "x", "x at 10 s")
  show_spread(runs, "y", "y at 10 s")
  local c = show_spread(runs, "chrome", "distance from Chrome's state")
  show_spread(runs, "other", "distance from the other figure")
  histogram(runs, "n", "collisions to 10 s")
  show_spread(runs, "min_wall", "least clearance to the walls")
  show_spread(runs, "min_disk", "least clearance to the disk")
  show_spread(runs, "rise", "largest energy rise in a step")
  local near = 0
  for _, r in ipairs(runs) do
    if r.measure.chrome <= 1e-5 or r.measure.other <= 1e-5 then near = near + 1 end
  end
  print(("  runs within 1e-5 of either figure: %d"):format(near))
  growth(runs, 0.025, { 0.1, 0.25, 0.5, 0.75, 1, 2, 4, 6, 8, 10 })
  print(("  claim: the states at 10 s spread over %.3g (distance from Chrome's %.3g to %.3g),"
    .. " %s than the tolerance 1e-5"):format(c.max - c.min, c.min, c.max,
    c.max - c.min > 1e-5 and "wider" or "narrower"))
end

for _, name in ipairs(#args > 0 and args or { "six_blocks_9", "ball_vs_circle_0" }) do
  local scene = assert(study.scenes[name], "no scene " .. name)
  local runs
  if seeds then
    runs = study.seeds(scene, conventions, seeds)
  else
    runs = study.ensemble(scene, conventions)
    for _, r in ipairs(other_builds(name)) do runs[#runs + 1] = r end
  end
  print(("%s (conventions = %q): %d runs"):format(name, conventions, #runs))
  if list then
    for _, r in ipairs(runs) do
      local keys, parts = {}, {}
      for k in pairs(r.measure) do keys[#keys + 1] = k end
      table.sort(keys)
      for _, k in ipairs(keys) do parts[#parts + 1] = ("%s %.9g"):format(k, r.measure[k]) end
      print(("    %-16s %s"):format(r.name, table.concat(parts, " ")))
    end
  end
  report[name](runs)
end
