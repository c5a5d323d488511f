--- impact.dem: Yade-style experiments on 3D worlds of strategy "dem".
---
---   local dem = impact.dem
---   local w = impact.world3d { strategy = "dem", gravity = {0, 0, -9.81} }
---   w.engines = {                                          -- or w:set_engines { ... }
---     dem.force_resetter(),
---     dem.collider { verlet_distance = -0.1 },           -- < 0: that factor of the smallest radius
---     dem.interaction_loop { geometry = {"sphere_sphere", "wall_sphere"},
---                            physics = { dem.frict { young = 1e7, ks_ratio = 0.3,
---                                                    friction_angle = 0.5 } },
---                            law = {"cundall_strack"} },
---     dem.newton { damping = 0.2 },
---     dem.every { iterations = 100, fn = function(w) ... end },
---   }
---   w.dt = 0.5 * w:p_wave_dt()
---   w:run { steps = 20000 }
---
--- The engine list is data: engines are tables whose fields (damping, verlet_distance, dead,
--- ...) may be changed between steps, each assignment checked as at construction (a bad value
--- or an unknown field is an error where it is made); a Lua function (or a table with a run
--- method) is an engine too and may sit anywhere in the list. A step whose contacts hold a
--- sphere with dt above 10 times its P-wave step (w:p_wave_dt()) is an error (the state would
--- blow up); above its P-wave step a warning is given (w:dem_warnings); without contacts any
--- dt steps. The per-interaction work is in C (src/dem_*.c). Without an engine list a dem
--- world steps the default list in C (Yade's defaults: damping 0.2, young 1e9, ks_ratio
--- 0.25, friction angle 0.5; verlet distance -0.1).
---
--- Bodies: spheres (impact.shape3d.sphere), fixed infinite walls (impact.shape3d.wall: the
--- half-space behind the plane, one-sided), fixed facets (dem.add_facet, dem.add_facet_box;
--- both sides), clumps of spheres (w:add_clump, dem.clump: rigid unions of spheres). E comes
--- from a body's material (impact.material), else from the physics functor's `young`; the mass
--- from the density or the material.
---
--- Queries on a dem world: w:interactions{all = false}, w:erase_interaction(b1, b2),
--- w:p_wave_dt(), w:unbalanced_force(), w:dem_energy(), w:dem_stats(), w:pause(),
--- w.engines, w:engine(label), b:members(). dem.save(w, path) / dem.load(path) keep the whole scene and
--- continue bit-identically (dem.load reads the file as data and checks every field).
--- impact.recorder records dem worlds like any other; impact.batch runs parameter sweeps.
---
--- Samples (impact.dem_packing, dem_compaction, dem_stl): dem.cloud{box, psd, porosity, num,
--- seed} (Yade's makeCloud), dem.regular{box, radius, kind = "cubic" | "hexagonal"},
--- dem.dense_pack{box, psd, ...} (compaction), dem.add_spheres(w, list, {density}),
--- dem.import_stl(w, {file}) and dem.add_facet_box. Measures (impact.dem_measure): w:stress{},
--- w:porosity{}, w:coordination(), w:fabric(), dem.measure_columns{} for impact.recorder and
--- impact.plot.live. w:dem_warnings{dt, handler}: the dt warning.
---
--- Loading (impact.dem_triax): dem.peri_triax{goal, stress_mask, strain_rate, ...} (Yade's
--- PeriTriaxController), dem.triax{walls, goal, ...} with dem.aabb_walls (TriaxialStressController),
--- w:set_velocity(b, v) (a fixed body moves with it), w:force_on(b); contact laws: dem.frict's
--- rolling, twisting, cohesion and set_cohesion_now, w:bond_all{normal, shear}, w:bond_count().
-- @module impact.dem
local options = require("impact.options")
local core = require("impact.core")
local world = require("impact.world")
local literal = require("impact.literal")

local World = core.World
local Body = core.Body
-- the C step, kept where a second load of this module (specs clearing package.loaded) finds
-- it rather than the wrapper the first load installed (below)
World._dem_c_step = World._dem_c_step or World._step
local c_step = World._dem_c_step

local dem = {}

-- Engines are proxies: their fields live in fields_of[e], and every assignment (at
-- construction, later edits, dem.load) goes through the field's check (engine_checks below),
-- so an edit between steps is validated where it is made.
local Engine = {}
local fields_of = setmetatable({}, { __mode = "k" })

-- a value as messages show it: numbers as short as reads back exactly (options.describe)
local function shown(v)
  if type(v) == "string" then return string.format("%q", v) end
  return options.describe(v)
end

-- a list's entries shown, {a, b, ...} (other values as shown)
local function shown_list(v)
  if type(v) ~= "table" then return shown(v) end
  local t = {}
  for k = 1, math.max(#v, 1) do t[k] = shown(v[k]) end
  return "{" .. table.concat(t, ", ") .. "}"
end

-- the option checks of impact.options, erroring at the caller of the public function
local function check_keys(what, opts, accepted)
  local checked = options.check_keys(what, opts, accepted, { optional = true, level = 3 })
  return checked
end

local function number(what, opts, key, default, lo, hi)
  local v = options.number(what, opts, key, default, { min = lo, max = hi, level = 3 })
  return v
end

local function callable(f)
  if type(f) == "function" then return true end
  local mt = getmetatable(f)
  return type(mt) == "table" and mt.__call ~= nil
end

-- checks of a field's value: nil when accepted, else what is accepted
local function finite(v, lo, hi, below)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge or (lo and v < lo)
      or (hi and v > hi) or (below and v >= below) then
    if below then return string.format("a finite number in [%g, %g)", lo, below) end
    if lo and hi then return string.format("a finite number in [%g, %g]", lo, hi) end
    if lo then return string.format("a finite number >= %g", lo) end
    return "a finite number"
  end
end
local function boolean(v) if type(v) ~= "boolean" then return "a boolean" end end
local function optional(check)
  return function(v, e) if v ~= nil then return check(v, e) end end
end
local function callable_check(v) if not callable(v) then return "a function" end end

local geometry_bits = { sphere_sphere = 1, wall_sphere = 2, facet_sphere = 4 }
local laws = { cundall_strack = { law = 0, physics = "frict" },
               hertz_mindlin = { law = 1, physics = "mindlin" },
               viscoelastic = { law = 2, physics = "viscel" } }

local function names_of(t)
  local names = {}
  for k in pairs(t) do names[#names + 1] = k end
  table.sort(names)
  return table.concat(names, ", ")
end

-- a list of names from accepted (a plain table, checked entry by entry)
local function name_list_check(accepted, exactly_one)
  return function(v)
    local what = "a list of " .. (exactly_one and "one of " or "") .. names_of(accepted)
    if type(v) ~= "table" or getmetatable(v) ~= nil then return what end
    local n = 0
    for k in pairs(v) do
      if math.type(k) ~= "integer" or k < 1 then return what end
      n = math.max(n, k)
    end
    if n ~= #v or (exactly_one and n ~= 1) then return what end
    for _, name in ipairs(v) do
      if type(name) ~= "string" or not accepted[name] then return what end
    end
  end
end

-- a cohesion {normal = Pa, shear = Pa} (both finite and >= 0; a plain table)
local function cohesion_check(v)
  local what = "a table {normal = Pa, shear = Pa} of finite numbers >= 0"
  if type(v) ~= "table" or getmetatable(v) ~= nil then return what end
  for k, x in pairs(v) do
    if (k ~= "normal" and k ~= "shear") or finite(x, 0) then
      return what .. string.format(" (the entry %s = %s is not)", shown(k), shown(x))
    end
  end
  if v.normal == nil or v.shear == nil then return what .. " (give both)" end
end

-- physics functors (dem.frict, dem.mindlin): proxies too
local Functor = {}
local functor_checks = {
  frict = { young = function(v) return finite(v, 0) end,
            ks_ratio = function(v) return finite(v, 0) end,
            friction_angle = function(v) return finite(v, 0, math.pi / 2) end,
            poisson = function(v) return finite(v, 0, 0.5) end,
            rolling = function(v) return finite(v, 0) end,
            twisting = function(v) return finite(v, 0) end,
            wall_friction_angle = optional(function(v) return finite(v, 0, math.pi / 2) end),
            cohesion = function(v) return cohesion_check(v) end,
            set_cohesion_now = boolean },
  viscel = { young = function(v) return finite(v, 0) end,
             ks_ratio = function(v) return finite(v, 0) end,
             friction_angle = function(v) return finite(v, 0, math.pi / 2) end,
             wall_friction_angle = optional(function(v) return finite(v, 0, math.pi / 2) end),
             en = function(v)
               if type(v) ~= "number" or not (v > 0 and v <= 1) then
                 return "a finite number in (0, 1]"
               end
             end,
             tangential_damping = boolean },
  mindlin = { young = function(v) return finite(v, 0) end,
              poisson = function(v) return finite(v, 0, 0.5) end,
              en = function(v) return finite(v, 0, 1) end,
              friction_angle = function(v) return finite(v, 0, math.pi / 2) end,
              ks_ratio = function(v) return finite(v, 0) end },
}

local function set_field(what, checks, store, k, v, owner, level)
  if k == "kind" or k == "functor" then
    error(string.format("%s: field '%s' cannot be changed (make another one)", what, k), level + 1)
  end
  local check = checks[k]
  if check == nil then
    local names = {}
    for name in pairs(checks) do
      if name:sub(1, 1) ~= "_" then names[#names + 1] = name end
    end
    table.sort(names)
    error(string.format("%s: unknown field %s (accepted: %s)", what, shown(k),
      table.concat(names, ", ")), level + 1)
  end
  local accepted = check(v, owner)
  if accepted then
    error(string.format("%s: field '%s' must be %s, got %s", what, k, accepted, shown(v)),
      level + 1)
  end
  store[k] = v
end

Functor.__index = function(p, k) return fields_of[p][k] end
Functor.__newindex = function(p, k, v)
  local kind = fields_of[p].functor
  set_field("impact.dem." .. kind, functor_checks[kind], fields_of[p], k, v, p, 2)
end
Functor.__pairs = function(p) return next, fields_of[p], nil end

local function functor(kind, values)
  local p = setmetatable({}, Functor)
  fields_of[p] = { functor = kind }
  for k, v in pairs(values) do p[k] = v end
  return p
end

local function is_functor(p) return getmetatable(p) == Functor end

local every_keys = { "iterations", "time", "wall" }
local function every_period(key, check)
  return function(v, e)
    if v == nil then return nil end
    local bad = check(v)
    if bad then return bad end
    for _, k in ipairs(every_keys) do
      if k ~= key and fields_of[e][k] ~= nil then
        return "nil while '" .. k .. "' is set (give exactly one of iterations, time, wall)"
      end
    end
  end
end

local common_checks = { label = optional(function(v)
                          if type(v) ~= "string" then return "a string" end end),
                        dead = boolean }
local engine_checks = {
  force_resetter = {},
  collider = { verlet_distance = function(v) return finite(v) end,
               interaction_radius = function(v) return finite(v, 1) end },
  interaction_loop = {
    geometry = name_list_check(geometry_bits),
    law = function(v, e)
      local bad = name_list_check(laws, true)(v)
      if bad then return bad end
      local p = fields_of[e].physics
      if p ~= nil and p.functor ~= laws[v[1]].physics then
        return string.format("a law for the engine's %q physics", p.functor)
      end
    end,
    physics = function(v, e)
      if not is_functor(v) then return "dem.frict{...}, dem.mindlin{...} or dem.viscel{...}" end
      local law = fields_of[e].law
      if law ~= nil and laws[law[1]].physics ~= v.functor then
        return string.format("the %q physics of the law %q", laws[law[1]].physics, law[1])
      end
    end,
    never_erase = boolean,
    interaction_radius = function(v) return finite(v, 1) end },
  newton = { damping = function(v) return finite(v, 0, nil, 1) end, track_energy = boolean },
  every = {
    iterations = every_period("iterations", function(v)
      if math.type(v) ~= "integer" or v < 1 then return "an integer >= 1" end end),
    time = every_period("time", function(v) return finite(v, 0) end),
    wall = every_period("wall", function(v) return finite(v, 0) end),
    fn = callable_check,
    _last = optional(function(v) if type(v) ~= "number" then return "a number" end end) },
  lua = { fn = callable_check },
}
for _, checks in pairs(engine_checks) do
  for k, check in pairs(common_checks) do checks[k] = check end
end

local function engine_name(e)
  local st = fields_of[e]
  return "impact.dem." .. st.kind .. (st.label and string.format(" (%q)", st.label) or "")
end

Engine.__index = function(e, k)
  local v = fields_of[e][k]
  if v == nil then return Engine[k] end
  return v
end
Engine.__newindex = function(e, k, v)
  set_field(engine_name(e), engine_checks[fields_of[e].kind], fields_of[e], k, v, e, 2)
end
Engine.__pairs = function(e) return next, fields_of[e], nil end

local function engine(kind, label)
  options.string("impact.dem." .. kind, { label = label }, "label", nil, { level = 3 })
  local e = setmetatable({}, Engine)
  fields_of[e] = { kind = kind, label = label, dead = false }
  return e
end

--- dem.force_resetter{label}: zeroes the forces and torques (Yade's ForceResetter).
function dem.force_resetter(opts)
  opts = check_keys("impact.dem.force_resetter", opts, { label = true })
  return engine("force_resetter", opts.label)
end

--- dem.collider{verlet_distance = -0.1, interaction_radius = 1, label}: the collider (two
--- spheres are paired when their centres are closer than the sum of their radii plus twice
--- the verlet distance, as LIGGGHTS' neighbour lists with skin 2 v, found by binning into a
--- grid; a sphere and a wall or facet when their boxes grown by the verlet distance overlap,
--- Yade's InsertionSortCollider's pairs; a sweep of boxes for scenes a grid suits badly). The
--- verlet distance is in m (a negative value is that factor of the smallest radius); the
--- collider runs again only when some body moved that far; interaction_radius > 1 grows
--- spheres' boxes by that factor (distant interactions; use the same factor in the
--- interaction loop). Yade's default is -0.5; here -0.1 is faster (fewer potential
--- interactions), e.g. 2x on the 10000-sphere deposition.
function dem.collider(opts)
  local what = "impact.dem.collider"
  opts = check_keys(what, opts, { verlet_distance = true, interaction_radius = true, label = true })
  local e = engine("collider", opts.label)
  e.verlet_distance = number(what, opts, "verlet_distance", -0.1)
  e.interaction_radius = number(what, opts, "interaction_radius", 1, 1)
  return e
end

--- dem.frict{young = 1e9, ks_ratio = 0.25, friction_angle = 0.5, rolling = 0}: the frictional physics
--- functor (Yade's Ip2_FrictMat_FrictMat_FrictPhys): kn = 2 E1 R1 E2 R2 / (E1 R1 + E2 R2),
--- ks = ks_ratio kn, mu = tan(friction_angle). A body with a material (impact.material) uses
--- the material's E; `young` is for bodies without one. rolling = eta_r >= 0 (default 0: none)
--- adds rolling resistance (Yade's rolling-resistance idea): an elastic-plastic moment against
--- the relative rolling, stiffness 2 ks r1 r2, limited by eta_r min(r1, r2) fn (a sphere rolling
--- on a plane decelerates at eta_r g / 1.4); its work is not booked in w:dem_energy().
---
--- A contact's kn, ks and mu are set when it is made (Yade's Ip2 functors): changing young,
--- ks_ratio or friction_angle later reaches only the contacts made afterwards (Yade's scripts
--- call setContactFriction for the others; here, read the spheres into a new world, as
--- examples/dem_triax_dense.lua's with_friction does), while rolling and twisting act on every
--- contact at the next step.
---
--- twisting = eta_t >= 0 (default 0: none) adds twisting resistance (Yade's CohesionMoment
--- law, twist part): an elastic-plastic moment about the contact normal against the relative
--- spin about it, stiffness 2 ks r1 r2, limited by eta_t min(r1, r2) fn.
---
--- cohesion = {normal = Pa, shear = Pa} with set_cohesion_now = true (Yade's CohFrictMat
--- normalCohesion, shearCohesion and setCohesionNow): at the end of the interaction loop's
--- next run every real interaction becomes a cohesive bond (then set_cohesion_now turns
--- false), of normal adhesion normal pi r^2 and shear adhesion shear pi r^2 (r the smaller
--- radius). A bond holds tension kn |un| up to the normal adhesion and shear up to the shear
--- adhesion + mu fn, and carries elastic rolling and twisting moments (stiffness 2 ks r1 r2);
--- past either limit it breaks for good (Yade's fragile bonds) and the contact is frictional.
--- wall_friction_angle (rad, default: friction_angle) is the friction angle of walls and facets
--- against spheres, mu = tan(min(friction_angle, wall_friction_angle)) (Yade: the walls' own
--- material; frictionless platens in a triaxial test: 0).
---
--- w:bond_all{normal, shear} bonds at once; w:bond_count() counts the intact bonds. Bonds need
--- the linear law.
function dem.frict(opts)
  local what = "impact.dem.frict"
  opts = check_keys(what, opts, { young = true, ks_ratio = true, friction_angle = true,
                                  rolling = true, twisting = true, cohesion = true,
                                  set_cohesion_now = true, wall_friction_angle = true })
  local values = { young = number(what, opts, "young", 1e9, 0),
                   ks_ratio = number(what, opts, "ks_ratio", 0.25, 0),
                   friction_angle = number(what, opts, "friction_angle", 0.5, 0, math.pi / 2),
                   poisson = 0.3,
                   rolling = number(what, opts, "rolling", 0, 0),
                   twisting = number(what, opts, "twisting", 0, 0),
                   wall_friction_angle = opts.wall_friction_angle ~= nil
                     and number(what, opts, "wall_friction_angle", nil, 0, math.pi / 2) or nil,
                   set_cohesion_now = options.boolean(what, opts, "set_cohesion_now", false) }
  if opts.cohesion ~= nil then
    local bad = cohesion_check(opts.cohesion)
    if bad then
      error(string.format("%s: option 'cohesion' must be %s, got %s", what, bad,
        shown(opts.cohesion)), 2)
    end
    values.cohesion = { normal = opts.cohesion.normal, shear = opts.cohesion.shear }
  end
  if values.set_cohesion_now and values.cohesion == nil then
    error(what .. ": option 'set_cohesion_now' needs option 'cohesion' = {normal = Pa, shear = Pa}", 2)
  end
  return functor("frict", values)
end

--- dem.mindlin{young = 1e9, poisson = 0.3, friction_angle = 0.5, en = 1}: Hertz-Mindlin physics
--- (Yade's Ip2_FrictMat_FrictMat_MindlinPhys); en < 1 adds Tsuji's viscous normal damping
--- for that normal restitution (Yade's MindlinPhys en).
function dem.mindlin(opts)
  local what = "impact.dem.mindlin"
  opts = check_keys(what, opts, { young = true, poisson = true, friction_angle = true, en = true })
  return functor("mindlin", { young = number(what, opts, "young", 1e9, 0),
                              poisson = number(what, opts, "poisson", 0.3, 0, 0.5),
                              en = number(what, opts, "en", 1, 0, 1),
                              friction_angle = number(what, opts, "friction_angle", 0.5, 0,
                                                      math.pi / 2),
                              ks_ratio = 0 })
end

--- dem.viscel{young = 1e9, ks_ratio = 0.25, friction_angle = 0.5, en = 1,
--- tangential_damping = true, wall_friction_angle}: the linear viscoelastic physics (Yade's
--- Ip2_ViscElMat_ViscElMat_ViscElPhys, LIGGGHTS' hooke), for the law "viscoelastic": dem.frict's
--- kn, ks and mu with a normal dashpot, fn = kn un - cn vn, and, while the contact sticks
--- (tangential_damping), a tangential one, -ct vt added to the shear spring's force; cn = ct =
--- 2 xi sqrt(kn m*), xi = -ln en / sqrt(ln^2 en + pi^2), m* the reduced mass (against a wall,
--- a facet or a fixed sphere: the sphere's own). en in (0, 1] is the normal restitution of a
--- head-on collision (1: no dashpots). Use it with Cundall's damping 0 (dem.newton{damping =
--- 0}): the dashpots are the damping. Their losses are booked in w:dem_energy().viscous.
function dem.viscel(opts)
  local what = "impact.dem.viscel"
  opts = check_keys(what, opts, { young = true, ks_ratio = true, friction_angle = true, en = true,
                                  tangential_damping = true, wall_friction_angle = true })
  local en = opts.en
  local bad = en ~= nil and functor_checks.viscel.en(en)
  if bad then
    error(string.format("%s: option 'en' must be %s, got %s", what, bad, shown(en)), 2)
  end
  return functor("viscel", {
    young = number(what, opts, "young", 1e9, 0),
    ks_ratio = number(what, opts, "ks_ratio", 0.25, 0),
    friction_angle = number(what, opts, "friction_angle", 0.5, 0, math.pi / 2),
    wall_friction_angle = opts.wall_friction_angle ~= nil
      and number(what, opts, "wall_friction_angle", nil, 0, math.pi / 2) or nil,
    en = en or 1,
    tangential_damping = options.boolean(what, opts, "tangential_damping", true) })
end

local function name_list(what, key, v, accepted)
  if type(v) ~= "table" then
    error(string.format("%s: option '%s' must be a list, got %s", what, key, type(v)), 4)
  end
  for _, name in ipairs(v) do
    if type(name) ~= "string" or not accepted[name] then
      local names = {}
      for k in pairs(accepted) do names[#names + 1] = k end
      table.sort(names)
      error(string.format("%s: option '%s': unknown functor %s (accepted: %s)", what, key,
        shown(name), table.concat(names, ", ")), 4)
    end
  end
  return v
end

--- dem.interaction_loop{geometry = {"sphere_sphere", "wall_sphere", "facet_sphere"},
--- physics = {dem.frict{}},
--- law = {"cundall_strack"}, never_erase = false, label}: per interaction, the geometry
--- functor of its shape pair, the physics functor once when it becomes real, then the law
--- (Yade's InteractionLoop). Laws: "cundall_strack" (with dem.frict or "frict"),
--- "hertz_mindlin" (with dem.mindlin or "mindlin") and "viscoelastic" (with dem.viscel or
--- "viscel"). never_erase keeps separated contacts
--- with zero force instead of requesting their erase.
function dem.interaction_loop(opts)
  local what = "impact.dem.interaction_loop"
  opts = check_keys(what, opts, { geometry = true, physics = true, law = true,
                                  never_erase = true, label = true, interaction_radius = true })
  local e = engine("interaction_loop", opts.label)
  local geometry = name_list(what, "geometry",
    opts.geometry or { "sphere_sphere", "wall_sphere", "facet_sphere" }, geometry_bits)
  local law = name_list(what, "law", opts.law or { "cundall_strack" }, laws)
  if #law ~= 1 then
    error(what .. ": option 'law' must name exactly one law (spheres and walls share one "
      .. "geometry type)", 2)
  end
  local physics = opts.physics or { laws[law[1]].physics }
  if type(physics) ~= "table" or #physics ~= 1 then
    error(what .. ": option 'physics' must be a list of one functor", 2)
  end
  local p = physics[1]
  if p == "frict" then p = dem.frict() elseif p == "mindlin" then p = dem.mindlin()
  elseif p == "viscel" then p = dem.viscel() end
  if type(p) == "table" and not is_functor(p) and functor_checks[p.functor] then
    local values = {}  -- a plain table of the functor's fields: checked as dem.frict/mindlin do
    for k, v in pairs(p) do if k ~= "functor" then values[k] = v end end
    p = functor(p.functor, values)
  end
  if not is_functor(p) then
    error(string.format("%s: option 'physics': unknown functor %s (accepted: \"frict\", "
      .. "\"mindlin\", \"viscel\", dem.frict{...}, dem.mindlin{...}, dem.viscel{...})", what,
      shown(p)), 2)
  end
  if p.functor ~= laws[law[1]].physics then
    error(string.format("%s: the law %q needs the %q physics, got %q", what, law[1],
      laws[law[1]].physics, p.functor), 2)
  end
  e.geometry, e.law, e.physics = geometry, law, p
  e.never_erase = options.boolean(what, opts, "never_erase", false)
  e.interaction_radius = number(what, opts, "interaction_radius", 1, 1)
  return e
end

--- dem.newton{damping = 0.2, track_energy = false, label}: the leapfrog integrator with
--- gravity (the world's) and Cundall's numerical damping (Yade's NewtonIntegrator);
--- 0 <= damping < 1. track_energy books the work of gravity and the energy dissipated by the
--- damping and by sliding (w:dem_energy(); Yade's O.trackEnergy), at some cost.
function dem.newton(opts)
  local what = "impact.dem.newton"
  opts = check_keys(what, opts, { damping = true, label = true, track_energy = true })
  local e = engine("newton", opts.label)
  e.damping = options.number(what, opts, "damping", 0.2, { min = 0, max = 1, max_open = true })
  e.track_energy = options.boolean(what, opts, "track_energy", false)
  return e
end

--- dem.every{iterations = N | time = dt | wall = s, fn = function(w) end, label}: calls fn
--- when N iterations, dt of simulated time or s seconds of wall time passed since its last
--- call (Yade's PeriodicEngine: first call after one period).
function dem.every(opts)
  local what = "impact.dem.every"
  opts = check_keys(what, opts, { iterations = true, time = true, wall = true, fn = true,
                                  label = true })
  local e = engine("every", opts.label)
  local given = 0
  for _, k in ipairs({ "iterations", "time", "wall" }) do
    if opts[k] ~= nil then given = given + 1 end
  end
  if given ~= 1 then error(what .. ": give exactly one of iterations, time, wall", 2) end
  e.iterations = options.integer(what, opts, "iterations", nil, { min = 1 })
  e.time = opts.time and number(what, opts, "time", nil, 0)
  e.wall = opts.wall and number(what, opts, "wall", nil, 0)
  e.fn = options.func(what, opts, "fn", nil, { required = true })
  return e
end

--- dem.facet{vertices = {p1, p2, p3}}: a triangle shape (Yade's Facet), for fixed bodies whose
--- position is the triangle's centroid; dem.add_facet does both.
function dem.facet(opts)
  opts = check_keys("impact.dem.facet", opts, { vertices = true })
  local v = opts.vertices
  if type(v) ~= "table" or #v ~= 3 then
    error("impact.dem.facet: option 'vertices' must be a list of 3 points, got " .. shown(v), 2)
  end
  return core.dem_facet(v[1], v[2], v[3])
end

--- dem.add_facet(w, {vertices = {p1, p2, p3}, material, name}): a fixed facet body in w, its
--- vertices at the given world points (both sides touch spheres). Returns the body.
function dem.add_facet(w, opts)
  opts = check_keys("impact.dem.add_facet", opts, { vertices = true, material = true, name = true })
  local shape = dem.facet { vertices = opts.vertices }
  local v = opts.vertices
  local c = {}
  for k = 1, 3 do c[k] = (v[1][k] + v[2][k] + v[3][k]) / 3 end
  return w:add_body { shape = shape, fixed = true, position = c, material = opts.material,
                      name = opts.name }
end

--- dem.add_facet_box(w, {lo = {x, y, z}, hi = {x, y, z}, open_top = false, material}): the
--- faces of an axis-aligned box as 12 facets (10 with an open top; Yade's facetBox). Returns
--- the bodies.
function dem.add_facet_box(w, opts)
  opts = check_keys("impact.dem.add_facet_box", opts, { lo = true, hi = true, open_top = true,
                                                        material = true })
  local lo, hi = opts.lo, opts.hi
  for _, key in ipairs { "lo", "hi" } do
    local v = opts[key]
    local ok = type(v) == "table" and #v == 3
    for k = 1, 3 do ok = ok and finite(v[k]) == nil end
    if not ok then
      error(string.format("impact.dem.add_facet_box: option '%s' must be a point {x, y, z} of "
        .. "finite numbers, got %s", key, shown_list(v)), 2)
    end
  end
  for k = 1, 3 do
    if hi[k] <= lo[k] then
      error(string.format("impact.dem.add_facet_box: option 'hi' must be above 'lo' on every "
        .. "axis, got lo[%d] = %s, hi[%d] = %s", k, shown(lo[k]), k, shown(hi[k])), 2)
    end
  end
  options.boolean("impact.dem.add_facet_box", opts, "open_top", false)
  local function p(i, j, k) return { i == 0 and lo[1] or hi[1], j == 0 and lo[2] or hi[2],
                                     k == 0 and lo[3] or hi[3] } end
  -- each face as two triangles of its corners (a, b, c, d in order around the face)
  local faces = {
    { p(0, 0, 0), p(1, 0, 0), p(1, 1, 0), p(0, 1, 0) },  -- bottom
    { p(0, 0, 0), p(0, 1, 0), p(0, 1, 1), p(0, 0, 1) },  -- x = lo
    { p(1, 0, 0), p(1, 0, 1), p(1, 1, 1), p(1, 1, 0) },  -- x = hi
    { p(0, 0, 0), p(0, 0, 1), p(1, 0, 1), p(1, 0, 0) },  -- y = lo
    { p(0, 1, 0), p(1, 1, 0), p(1, 1, 1), p(0, 1, 1) },  -- y = hi
  }
  if not opts.open_top then faces[#faces + 1] = { p(0, 0, 1), p(0, 1, 1), p(1, 1, 1), p(1, 0, 1) } end
  local bodies = {}
  for _, f in ipairs(faces) do
    bodies[#bodies + 1] = dem.add_facet(w, { vertices = { f[1], f[2], f[3] }, material = opts.material })
    bodies[#bodies + 1] = dem.add_facet(w, { vertices = { f[1], f[3], f[4] }, material = opts.material })
  end
  return bodies
end

--- dem.import_stl(w, {file = path, scale = 1, shift = {0, 0, 0}, material}): fixed facet
--- bodies for the triangles of an STL file, ASCII or binary (Yade's ymport.stl; see
--- impact.dem_stl), each vertex p placed at scale * p + shift. Degenerate triangles (zero
--- area) are skipped. Returns the bodies.
function dem.import_stl(w, opts)
  local what = "impact.dem.import_stl"
  opts = check_keys(what, opts, { file = true, scale = true, shift = true, material = true })
  local path = options.string(what, opts, "file", nil, { required = true })
  local scale = number(what, opts, "scale", 1, 0)
  local shift = options.vector(what, opts, "shift", { 0, 0, 0 }, 3)
  local ok, triangles = pcall(require("impact.dem_stl").read, path)
  if not ok then error(what .. ": " .. options.without_position(triangles), 2) end
  local bodies = {}
  for _, t in ipairs(triangles) do
    local v = {}
    for i = 1, 3 do
      v[i] = { scale * t[i][1] + shift[1], scale * t[i][2] + shift[2], scale * t[i][3] + shift[3] }
    end
    local e1 = { v[2][1] - v[1][1], v[2][2] - v[1][2], v[2][3] - v[1][3] }
    local e2 = { v[3][1] - v[1][1], v[3][2] - v[1][2], v[3][3] - v[1][3] }
    local cx = e1[2] * e2[3] - e1[3] * e2[2]
    local cy = e1[3] * e2[1] - e1[1] * e2[3]
    local cz = e1[1] * e2[2] - e1[2] * e2[1]
    if cx * cx + cy * cy + cz * cz > 0 then
      bodies[#bodies + 1] = dem.add_facet(w, { vertices = v, material = opts.material })
    end
  end
  return bodies
end

dem.measure_columns = require("impact.dem_measure").measure_columns  -- and w:stress() etc.
require("impact.dem_cell")  -- w:set_cell{size | hsize, vel_grad}, w:cell()
local packing = require("impact.dem_packing")
dem.cloud = packing.cloud
dem.regular = packing.regular
--- dem.dense_pack{box, psd, num, seed, ...}: a dense random packing by compaction (see
--- impact.dem_compaction): returns the spheres and the steps taken.
function dem.dense_pack(opts)
  return require("impact.dem_compaction").dense_pack(dem, opts)
end

--- dem.add_spheres(w, spheres, {density = 2600 | mass | material, fixed = false}): a sphere
--- body for each {center = {x, y, z}, radius = r} of the list (dem.cloud, dem.regular).
--- Returns the bodies.
function dem.add_spheres(w, spheres, opts)
  local what = "impact.dem.add_spheres"
  opts = check_keys(what, opts, { density = true, material = true, fixed = true })
  if type(spheres) ~= "table" then
    error(what .. ": the spheres must be a list of {center = {x, y, z}, radius = r}, got "
      .. shown(spheres), 2)
  end
  local shape3d = require("impact.shape3d")
  local bodies = {}
  for i, s in ipairs(spheres) do
    if type(s) ~= "table" or type(s.center) ~= "table" or type(s.radius) ~= "number" then
      error(string.format("%s: spheres[%d] must be {center = {x, y, z}, radius = r}, got %s",
        what, i, shown(s)), 2)
    end
    local ok, b = pcall(w.add_body, w, { shape = shape3d.sphere { radius = s.radius },
      position = s.center, density = opts.density, material = opts.material,
      fixed = opts.fixed })
    if not ok then error(string.format("%s: spheres[%d]: %s", what, i, options.without_position(b)), 2) end
    bodies[i] = b
  end
  return bodies
end

--- dem.clump{spheres = {{center = {x, y, z}, radius = r}, ...}}: the shape of a clump (Yade's
--- Clump): a rigid union of spheres, centres in shape coordinates. Its mass properties are
--- those of the union (overlaps counted once; see doc/manual/05-dem.md). w:add_clump places one.
function dem.clump(opts)
  local what = "impact.dem.clump"
  opts = check_keys(what, opts, { spheres = true })
  local spheres = opts.spheres
  if type(spheres) ~= "table" or #spheres < 1 then
    error(what .. ": option 'spheres' must be a non-empty list of {center = {x, y, z}, radius "
      .. "= r}, got " .. shown(spheres), 2)
  end
  local centres, radii = {}, {}
  for i, sp in ipairs(spheres) do
    if type(sp) ~= "table" then
      error(string.format("%s: spheres[%d] must be a table {center =, radius =}, got %s", what,
        i, shown(sp)), 2)
    end
    for k in pairs(sp) do
      if k ~= "center" and k ~= "radius" then
        error(string.format("%s: spheres[%d]: unknown key %s (accepted: center, radius)", what,
          i, shown(k)), 2)
      end
    end
    local c, r = sp.center, sp.radius
    if type(c) ~= "table" or #c ~= 3 then
      error(string.format("%s: spheres[%d].center must be a point {x, y, z}, got %s", what, i,
        shown(c)), 2)
    end
    for k = 1, 3 do
      local x = c[k]
      if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
        error(string.format("%s: spheres[%d].center[%d] must be a finite number, got %s", what,
          i, k, shown(x)), 2)
      end
      centres[#centres + 1] = x
    end
    if type(r) ~= "number" or r ~= r or r <= 0 or r == math.huge then
      error(string.format("%s: spheres[%d].radius must be a finite number > 0, got %s", what, i,
        shown(r)), 2)
    end
    radii[i] = r
  end
  return core.dem_clump(centres, radii)
end

local clump_body_keys = { spheres = true, density = true, mass = true, material = true,
                          velocity = true, angular_velocity = true, fixed = true, name = true,
                          data = true }

--- w:add_clump{spheres = {{center = {x, y, z}, radius = r}, ...}, density = | mass = |
--- material =, velocity, angular_velocity, fixed, name, data}: a clump body whose members are
--- at the given world points (its position is their union's centre of mass, its orientation
--- the identity). Returns the body; b:members() lists the members where they are now.
function World:add_clump(opts)
  opts = check_keys("World:add_clump", opts, clump_body_keys)
  local shape = dem.clump { spheres = opts.spheres }
  local _, _, centroid = core.dem_clump_members(shape)
  local def = { shape = shape, position = centroid }
  for k, v in pairs(opts) do
    if k ~= "spheres" then def[k] = v end
  end
  return self:add_body(def)
end

--- b:members(): the members of a clump body, {{center = {x, y, z} (world), radius = r}, ...};
--- nil for other bodies.
function Body:members()
  local centres, radii, centroid = core.dem_clump_members(self.shape)
  if not centres then return nil end
  local out = {}
  for i, c in ipairs(centres) do
    out[i] = { center = self:to_world { c[1] - centroid[1], c[2] - centroid[2], c[3] - centroid[3] },
               radius = radii[i] }
  end
  return out
end

--- dem.default_engines{damping = 0.2, verlet_distance = -0.1, young = 1e9, ks_ratio = 0.25,
--- friction_angle = 0.5}: Yade's usual list for spheres and walls with the linear law.
function dem.default_engines(opts)
  local what = "impact.dem.default_engines"
  opts = check_keys(what, opts, { damping = true, verlet_distance = true, young = true,
                                  ks_ratio = true, friction_angle = true })
  return {
    dem.force_resetter(),
    dem.collider { verlet_distance = opts.verlet_distance },
    dem.interaction_loop { physics = { dem.frict { young = opts.young, ks_ratio = opts.ks_ratio,
                                                   friction_angle = opts.friction_angle } } },
    dem.newton { damping = opts.damping },
  }
end

local function configure(w, e)
  -- the lists are plain tables whose entries may have been edited in place: checked again
  for _, k in ipairs { "geometry", "law" } do
    local bad = engine_checks.interaction_loop[k](e[k], e)
    if bad then
      error(string.format("%s: field '%s' must be %s, got %s", engine_name(e), k, bad,
        shown_list(e[k])), 0)
    end
  end
  local bits = 0
  for _, g in ipairs(e.geometry) do bits = bits | geometry_bits[g] end
  local p = e.physics
  core.dem_configure(w, bits, laws[e.law[1]].law, p.young, p.ks_ratio, p.friction_angle,
    p.poisson or 0.3, e.never_erase, p.en or 1, p.rolling or 0, p.twisting or 0,
    p.set_cohesion_now and p.cohesion ~= nil, p.cohesion and p.cohesion.normal or 0,
    p.cohesion and p.cohesion.shear or 0, p.wall_friction_angle or -1,
    p.tangential_damping ~= false)
end

-- after an interaction loop that bonded its interactions (set_cohesion_now): done, once
local function cohesion_now(w, e)
  local p = e.physics
  if p.set_cohesion_now then
    p.set_cohesion_now = false
    configure(w, e)
  end
end

local runners = {
  force_resetter = function(_, w) core.dem_reset_forces(w) end,
  collider = function(e, w) core.dem_collide(w, e.verlet_distance, e.interaction_radius) end,
  interaction_loop = function(e, w)
    configure(w, e)
    core.dem_interaction_loop(w)
    cohesion_now(w, e)
  end,
  newton = function(e, w) core.dem_newton(w, e.damping, e.track_energy) end,
  every = function(e, w)
    local due
    if e.iterations then
      local it = w.steps
      e._last = e._last or it - (it % e.iterations)
      due = it - e._last >= e.iterations
      if due then e._last = it end
    elseif e.time then
      local t = w.time
      e._last = e._last or t
      due = t - e._last >= e.time
      if due then e._last = t end
    else
      if not e.wall then
        error(engine_name(e) .. ": give exactly one of iterations, time, wall (all are nil)", 0)
      end
      local t = core.dem_wall_clock()
      e._last = e._last or t
      due = t - e._last >= e.wall
      if due then e._last = t end
    end
    if due then
      e.fn(w)
      core.dem_sync(w)  -- the function may have edited bodies
    end
  end,
  lua = function(e, w)
    e.fn(w)
    core.dem_sync(w)
  end,
}

--- e:run(w): runs the engine once (the stepper calls it; user code rarely needs to).
function Engine:run(w) return runners[self.kind](self, w) end

-- engines_of[w]: the world's engine list; paused[w]: w:pause() was called (world.lua keeps it:
-- w.paused)
local engines_of = setmetatable({}, { __mode = "k" })
local paused = world.paused

local function as_engine(what, i, e, level)
  if getmetatable(e) == Engine then return e end
  if callable(e) then
    local wrapped = engine("lua")
    wrapped.fn = e
    return wrapped
  end
  if type(e) == "table" and callable(e.run) then return e end
  error(string.format("%s: entry %d must be an engine (impact.dem.*), a function or a table "
    .. "with a run method, got %s", what, i, shown(e)), level + 1)
end

-- ---- the dt warning --------------------------------------------------------------------

-- warn_of[w] = {dt = false | nil, handler = fn | nil}; warned[w]: the default handler wrote
-- its line for w (shared by every load of this module, as the C step is)
World._dem_warn_of = World._dem_warn_of or setmetatable({}, { __mode = "k" })
World._dem_warned = World._dem_warned or setmetatable({}, { __mode = "k" })
local warn_of, warned = World._dem_warn_of, World._dem_warned
local take_dt_warning = core.dem_take_dt_warning

local function default_handler(warning)
  if warned[warning.world] then return end
  warned[warning.world] = true
  io.stderr:write("impact.dem: warning: ", warning.message, "\n")
end

-- after steps of w: the dt warning, if the steps counted one and it is not silenced
local function deliver_warnings(w)
  local steps, ratio, body = take_dt_warning(w)
  if not steps then return end
  local opts = warn_of[w]
  if opts and opts.dt == false then return end
  local handler = opts and opts.handler or default_handler
  handler({ kind = "dt", world = w, steps = steps, ratio = ratio, body = body, time = w.time,
            message = string.format("dt = %g s is %.3g times the P-wave step of a sphere in "
              .. "contact%s (%d step%s up to t = %g s); the contacts may gain energy and launch "
              .. "particles: use w.dt = 0.5 * w:p_wave_dt() (= %g s), or silence this with "
              .. "w:dem_warnings{dt = false}", w.dt, ratio,
              body and body.name and string.format(" (%q)", body.name) or "", steps,
              steps == 1 and "" or "s", w.time, 0.5 * w:p_wave_dt()) })
end

--- w:dem_warnings{dt = true, handler = fn}: the warning given when a step's contacts hold a
--- sphere whose P-wave step (w:p_wave_dt(), r / sqrt(E / rho)) is below dt: the linear and
--- Hertz contacts are then on the edge of stability (above 10 times it the step is an error).
--- After each w:step / w:run batch with such steps, handler(warning) is called with warning =
--- {kind = "dt", world, steps (counted since the last one), ratio (the largest dt / step),
--- body (that sphere), time, message}; the default handler writes the message to stderr, once
--- per world. dt = false silences it. Returns nothing.
function World:dem_warnings(opts)
  opts = check_keys("World:dem_warnings", opts, { dt = true, handler = true })
  local dt = options.boolean("World:dem_warnings", opts, "dt", true)
  local handler = options.func("World:dem_warnings", opts, "handler", nil)
  warn_of[self] = { dt = dt, handler = handler }
end

-- worlds stepping the default list in C: the warning after their steps too
World._step = function(w, n)
  c_step(w, n)
  deliver_warnings(w)
end

local function step(w, n)
  local list = engines_of[w]
  if not list or w.strategy ~= "dem" then return c_step(w, n) end
  local sync, finish = core.dem_sync, core.dem_finish_step
  local domain_step = core.dem_domain_step  -- several ranks (impact.dem_mpi); else nothing
  for _ = 1, n do
    sync(w)
    domain_step(w)
    for i = 1, #list do
      local e = list[i]
      if not e.dead then
        e:run(w)
        if getmetatable(e) ~= Engine then sync(w) end  -- Lua code may have edited bodies
      end
    end
    finish(w)
    if paused[w] then break end
  end
  deliver_warnings(w)
end

-- reading w.engines gives a copy of the list (assign it back to change the list), callable so
-- that w:engines() returns it too
local EngineList = { __call = function(list) return list end }

local function list_copy(list)
  if list == nil then return nil end
  local copy = {}
  for i, e in ipairs(list) do copy[i] = e end
  return setmetatable(copy, EngineList)
end

-- installs the engine list of w (what: the caller's name for errors raised at level + 1)
local function install(w, list, what, level)
  if list == nil then
    engines_of[w] = nil
    world.steppers[w] = nil
    return nil
  end
  if type(list) ~= "table" then
    error(string.format("%s: the engine list must be a table, got %s", what, shown(list)),
      level + 1)
  end
  if w.strategy ~= "dem" then
    error(string.format("%s: the world's strategy is %q, not \"dem\"", what, w.strategy),
      level + 1)
  end
  local n = 0
  for k in pairs(list) do
    if math.type(k) ~= "integer" or k < 1 then
      error(string.format("%s: the engine list must be a sequence, found the key %s", what,
        shown(k)), level + 1)
    end
    n = math.max(n, k)
  end
  local out, seen = {}, {}
  for i = 1, n do
    local e = list[i]
    if e == nil then
      error(string.format("%s: entry %d is nil (the engine list must be a sequence)", what, i),
        level + 1)
    end
    if seen[e] then  -- an engine object keeps state (its fields, an every's last run)
      error(string.format("%s: entries %d and %d are the same engine (make another one)", what,
        seen[e], i), level + 1)
    end
    if type(e) == "table" then seen[e] = i end
    out[i] = as_engine(what, i, e, level + 1)
    if out[i].kind == "interaction_loop" then configure(w, out[i]) end
  end
  core.dem_sync(w)
  engines_of[w] = out
  world.steppers[w] = step
  return out
end

--- w:set_engines(list): the engines run in order at every step of w (nil: back to the
--- default list in C). Returns the list (entries that were functions wrapped as engines).
--- The same as w.engines = list.
function World:set_engines(list)
  return list_copy(install(self, list, "World:set_engines", 2))
end

-- w.engines = {...} (Yade's O.engines = [...]) and reading w.engines back: a field of every
-- world (src/lua/lua_dem.c); the field replaces the method w:engines(), which still works while a
-- list is set (the copy is callable)
World.engines = nil
core.dem_world_engines_field(function(w) return list_copy(engines_of[w]) end,
  function(w, list) install(w, list, "World.engines", 3) end)

--- w:engine(label): the engine with that label, or nil.
function World:engine(label)
  for _, e in ipairs(engines_of[self] or {}) do
    if e.label == label then return e end
  end
  return nil
end

-- w:pause(): lua/impact/world.lua (every strategy)

-- ---- saving and loading ----------------------------------------------------------------

-- the saved fields of engines defined by other modules (dem._define_engine)
local extra_fields = {}
local engine_fields = { kind = true, label = true, dead = true, verlet_distance = true,
                        interaction_radius = true, geometry = true, law = true, physics = true,
                        never_erase = true, damping = true, track_energy = true,
                        iterations = true, time = true, wall = true, _last = true }

--- dem.save(w, path): writes the whole scene of a dem world to a file (a Lua chunk): bodies
--- (shapes, masses, materials by name, names, exact states), interactions with their history
--- in their order, pending erasures, time, iteration, parameters and the engine list (Lua
--- functions are saved by label: dem.load takes them back in opts.functions). The collider
--- restarts its sweep at the next step, in this world as in the loaded one, so both continue
--- bit-identically.
function dem.save(w, path)
  if type(path) ~= "string" then error("impact.dem.save: the path must be a string", 2) end
  local engines = {}
  for i, e in ipairs(engines_of[w] or {}) do
    if getmetatable(e) ~= Engine or ((e.kind == "lua" or e.kind == "every") and not e.label) then
      error(string.format("impact.dem.save: engine %d runs Lua code and has no label (give it "
        .. "one, or wrap it: dem.lua_engine{label = ..., fn = ...})", i), 2)
    end
    local extra = extra_fields[e.kind]
    if extra and extra.unsaved then
      error(string.format("impact.dem.save: engine %d (%s) cannot be saved: %s", i,
        engine_name(e), extra.unsaved), 2)
    end
    if extra and e.done ~= nil and not e.label then
      error(string.format("impact.dem.save: engine %d (%s) has a done function and no label "
        .. "(give it one: dem.load takes the function back in opts.functions[label])", i,
        engine_name(e)), 2)
    end
    local saved = {}
    for k, v in pairs(e) do
      if engine_fields[k] or (extra and extra[k]) then saved[k] = v end
    end
    engines[i] = saved
  end
  local names = {}
  for _, b in ipairs(w:bodies()) do names[#names + 1] = b.name or false end
  local state = core.dem_export(w)
  local out = { "return " }
  literal.write({ format = "impact.dem 1", state = state, names = names, engines = engines,
                  has_engines = engines_of[w] ~= nil }, out, "impact.dem.save")
  local f, err = io.open(path, "wb")
  if not f then error("impact.dem.save: " .. tostring(err), 2) end
  f:write(table.concat(out), "\n")
  f:close()
end

--- dem.lua_engine{fn = f, label = "name"}: a Lua engine with a label (so it can be saved).
function dem.lua_engine(opts)
  opts = check_keys("impact.dem.lua_engine", opts, { fn = true, label = true })
  options.func("impact.dem.lua_engine", opts, "fn", nil, { required = true })
  local e = engine("lua", opts.label)
  e.fn = opts.fn
  return e
end

-- the engines of a saved scene as engine objects: every field through the engine's checks
local engine_required = {
  force_resetter = {}, collider = { "verlet_distance", "interaction_radius" },
  interaction_loop = { "geometry", "law", "physics", "never_erase", "interaction_radius" },
  newton = { "damping", "track_energy" }, every = { "fn" }, lua = { "fn" },
}
local function load_engines(saved, path, functions)
  local list = {}
  for i, fields in ipairs(saved.engines) do
    local where = string.format("impact.dem.load: %s: engines[%d]", path, i)
    if type(fields) ~= "table" or engine_required[fields.kind] == nil then
      error(string.format("%s must be an engine ({kind = \"collider\", ...}: kinds %s), got %s",
        where, names_of(engine_required), type(fields) == "table" and "kind " .. shown(fields.kind)
          or shown(fields)), 0)
    end
    local e = engine(fields.kind)
    local ok, err = pcall(function()
      e.label = fields.label  -- first: it names the engine in the errors below
      for k, v in pairs(fields) do
        if k == "physics" and type(v) == "table" and functor_checks[v.functor] then
          local values = {}
          for pk, pv in pairs(v) do if pk ~= "functor" then values[pk] = pv end end
          v = functor(v.functor, values)
        end
        if k ~= "kind" and k ~= "label" then e[k] = v end
      end
      if extra_fields[e.kind] and e.label ~= nil and functions[e.label] ~= nil then
        e.done = functions[e.label]
      end
      if e.kind == "lua" or e.kind == "every" then
        if e.label == nil then error("field 'label' must be a string (the key of its function)", 0) end
        if not callable(functions[e.label]) then
          error(string.format("needs its function: opts.functions[%q]", e.label), 0)
        end
        e.fn = functions[e.label]
      end
      for _, k in ipairs(engine_required[e.kind]) do
        if e[k] == nil then error(string.format("field '%s' is missing", k), 0) end
      end
      if e.kind == "every" and e.iterations == nil and e.time == nil and e.wall == nil then
        error("give exactly one of iterations, time, wall", 0)
      end
    end)
    if not ok then
      error(string.format("%s (%q): %s", where, e.label or e.kind,
        options.without_position(err)), 0)
    end
    list[i] = e
  end
  return list
end

--- dem.load(path, {functions = {label = fn, ...}}): the world saved by dem.save, ready to
--- continue; Lua engines get their functions back by label. The file is read as data (see
--- impact.dem_file), and every field is checked before the world is built: a damaged file
--- gives an error naming the file and the field, and no world.
function dem.load(path, opts)
  opts = check_keys("impact.dem.load", opts, { functions = true })
  if type(path) ~= "string" then
    error("impact.dem.load: the path must be a string, got " .. shown(path), 2)
  end
  local functions = opts.functions or {}
  if type(functions) ~= "table" then
    error("impact.dem.load: option 'functions' must be a table {label = fn, ...}, got "
      .. shown(functions), 2)
  end
  local f, err = io.open(path, "rb")
  if not f then error("impact.dem.load: " .. tostring(err), 2) end
  local text = f:read("a")
  f:close()
  if type(text) ~= "string" then error("impact.dem.load: cannot read " .. path, 2) end
  local dem_file = require("impact.dem_file")
  local ok, saved = pcall(dem_file.parse, text, path)
  if ok then ok, err = pcall(dem_file.check, saved, path) else err = saved end
  local list
  if ok and saved.has_engines then
    ok, list = pcall(load_engines, saved, path, functions)
    if not ok then err = list end
  end
  if not ok then error(err, 2) end
  local st = saved.state
  local w
  ok, err = pcall(function()
    w = world.world3d { strategy = "dem", gravity = st.gravity, dt = st.dt }
    local shape3d = require("impact.shape3d")
    for i, p in ipairs(st.particles) do
      local shape
      if p.kind == 0 then shape = shape3d.sphere { radius = p.radius }
      elseif p.kind == 1 then shape = shape3d.wall { normal = p.normal }
      elseif p.kind == 3 then
        local centres, radii, sp = {}, {}, p.spheres
        for m = 1, #sp // 4 do
          for k = 1, 3 do centres[#centres + 1] = sp[4 * (m - 1) + k] end
          radii[m] = sp[4 * m]
        end
        shape = core.dem_clump(centres, radii)
      else
        local v = p.vertices
        shape = core.dem_facet({ v[1], v[2], v[3] }, { v[4], v[5], v[6] }, { v[7], v[8], v[9] })
      end
      local s = p.state
      local bok, berr = pcall(w.add_body, w, { shape = shape, fixed = p.fixed,
        mass = (not p.fixed) and p.mass or nil, material = p.material,
        name = saved.names[i] or nil, position = { s[1], s[2], s[3] } })
      if not bok then error(string.format("state.particles[%d]: %s", i, tostring(berr)), 0) end
    end
    core.dem_import(w, st)
  end)
  if not ok then
    error(string.format("impact.dem.load: %s: %s", path, tostring(err)), 2)
  end
  if saved.has_engines then
    engines_of[w] = list
    world.steppers[w] = step
  end
  return w
end

-- Engines defined by other modules (impact.dem_triax): kind, the checks of their fields, the
-- runner (runner(e, w, fields): fields is the engine's store, for the values it reports), the
-- fields a saved one must have and those it saves (saved.unsaved: why it cannot be saved).
-- Returns the constructor engine(label) and the check helpers.
function dem._define_engine(kind, checks, runner, required, saved)
  for k, check in pairs(common_checks) do checks[k] = check end
  engine_checks[kind] = checks
  runners[kind] = function(e, w) return runner(e, w, fields_of[e]) end
  engine_required[kind] = required
  extra_fields[kind] = saved
  return function(label) return engine(kind, label) end
end
dem._checks = { finite = finite, boolean = boolean, optional = optional,
                callable = callable_check, shown = shown, check_keys = check_keys }

require("impact.dem_triax").install(dem)

return dem
