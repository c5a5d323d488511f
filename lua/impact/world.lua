--- impact.world: the parts of the World interface written in Lua: stepping with events,
--- run{}, on/off, body lookup. The C binding (src/lua/lua_world.c) supplies the rest.
-- @module impact.world
local core = require("impact.core")
local options = require("impact.options")
local describe = options.describe

local World = core.World

local M = {}

-- Worlds stepped from Lua (the dem engine list, lua/impact/dem.lua) register a stepper here;
-- the others step in C.
M.steppers = setmetatable({}, { __mode = "k" })
local function c_step(w, n)
  local stepper = M.steppers[w]
  if stepper then return stepper(w, n) end
  return World._step(w, n)
end

-- events a world can deliver now, with what each handler receives
local event_names = {
  step = "fn(world) after every step",
  contact_begin = "fn(event) when two bodies start touching (compliant, impulse, contact)",
  contact_end = "fn(event) when they stop touching (compliant, impulse, contact)",
  collision = "fn(event) after a collision impulse (impulse and contact strategies)",
  sleep = "fn(event) when a body falls asleep (worlds with sleep = true)",
  wake = "fn(event) when a sleeping body wakes (worlds with sleep = true)",
}
-- the events only a sleeping world delivers
local sleep_events = { sleep = true, wake = true }
local function sleeps(w)
  local ok, on = pcall(function() return w.sleep end)
  return ok and on == true
end

-- listeners[world][event] = { fn, ... }; an ephemeron table, so worlds are still collected
local listeners = setmetatable({}, { __mode = "k" })
local dispatching = setmetatable({}, { __mode = "k" })

local function callable(f)
  if type(f) == "function" then return true end
  local mt = getmetatable(f)
  return mt ~= nil and type(mt) == "table" and mt.__call ~= nil
end

-- the events the steps build only while asked (World:_contact_events; a new world has them off)
local contact_events = { "contact_begin", "contact_end", "collision" }

-- the world builds contact events while one of their handlers is there (a step's walk of its
-- contact points, skipped without them); on a closed world _contact_events does nothing
local function want_contact_events(w, per_world)
  local on = false
  for _, k in ipairs(contact_events) do
    if per_world[k] and #per_world[k] > 0 then on = true end
  end
  w:_contact_events(on)
end

local function accepted_events(w)
  local names = {}
  for k in pairs(event_names) do
    if not sleep_events[k] or sleeps(w) then names[#names + 1] = k end
  end
  table.sort(names)
  return table.concat(names, ", ")
end

--- w:on(event, fn): calls fn after each occurrence of event: "step" (fn(world)),
--- "contact_begin" and "contact_end" (fn(event), event = {kind, time, body1, body2, point,
--- normal, normal_velocity}; normal_velocity, the approach speed along the normal when the
--- contact began, for contact_begin only; overlap, under compliant, the depth of a pair found
--- interpenetrated deeper than a hundredth of the smaller bounding radius at the start or after
--- an edit: a warning), "collision" (the same fields, impulse = the normal
--- impulse in N s and normal_velocity < 0 before the impact; impulse and contact strategies,
--- 2D and 3D), "sleep" and "wake" in worlds with sleep = true (fn(event), event = {kind, time,
--- body1 = the body, body2 = the background, point = its position}: a body fell asleep at the
--- step's end, or woke during the step or since the last one). Events of a step are delivered in
--- the order they happened, then the step handlers.
--- Returns fn, so it can be passed to w:off. Handlers run between steps, never inside one.
function World:on(event, fn)
  if type(event) ~= "string" or not event_names[event] or (sleep_events[event] and not sleeps(self)) then
    local shown = type(event) == "string" and string.format("%q", event) or tostring(event)
    error(string.format("World:on: unknown event %s (accepted: %s)", shown, accepted_events(self)), 2)
  end
  if not callable(fn) then
    error("World:on: the handler must be a function, got " .. type(fn), 2)
  end
  local per_world = listeners[self]
  if not per_world then
    per_world = {}
    listeners[self] = per_world
  end
  local list = per_world[event] or {}
  per_world[event] = list
  list[#list + 1] = fn
  want_contact_events(self, per_world)
  return fn
end

--- w:off(event, fn): removes a handler added by w:on. Returns true when it was found.
function World:off(event, fn)
  local list = listeners[self] and listeners[self][event]
  if not list then return false end
  for i = #list, 1, -1 do
    if list[i] == fn then
      table.remove(list, i)
      want_contact_events(self, listeners[self])
      return true
    end
  end
  return false
end

-- true when the world has handlers for any event
local function has_handlers(w)
  local per_world = listeners[w]
  if not per_world then return false end
  for _, list in pairs(per_world) do
    if #list > 0 then return true end
  end
  return false
end

local function call_all(w, list, arg)
  if not list or #list == 0 then return end
  local snapshot = table.move(list, 1, #list, 1, {})
  for i = 1, #snapshot do
    local ok, err = pcall(snapshot[i], arg)
    if not ok then
      dispatching[w] = nil
      error(err, 0)
    end
  end
end

-- paused[w]: w:pause() (or w.paused = true) was called; the step or run in progress stops after
-- the current step, and w.paused stays true until the next w:step or w:run
M.paused = setmetatable({}, { __mode = "k" })
local paused = M.paused

--- w:pause(): stops the w:step(n) or w:run in progress after the current step (call it from a
--- step handler, a run's fn or a dem engine); w.paused is then true until the next w:step/w:run.
function World:pause() paused[self] = true end

-- w.paused: read and set from Lua (the field is kept here, src/lua/lua_world.c asks for it)
core.world_fields.paused = {
  get = function(w) return paused[w] == true end,
  set = function(w, v)
    if type(v) ~= "boolean" then
      error("World.paused must be a boolean, got " .. options.shown(v), options.user_level())
    end
    paused[w] = v or nil
  end,
}

-- stepping[w]: a step of w is running (from World:step); a Lua engine of the dem strategy or
-- a handler stepping w again is refused
local stepping = setmetatable({}, { __mode = "k" })

local function step_with_handlers(self, n)
  local per_world = listeners[self]
  for _ = 1, n do
    c_step(self, 1)
    dispatching[self] = true
    if (per_world.contact_begin and #per_world.contact_begin > 0)
        or (per_world.contact_end and #per_world.contact_end > 0)
        or (per_world.collision and #per_world.collision > 0)
        or (per_world.sleep and #per_world.sleep > 0) or (per_world.wake and #per_world.wake > 0) then
      for _, e in ipairs(self:_events()) do
        call_all(self, per_world[e.kind], e)
      end
    end
    call_all(self, per_world.step, self)
    dispatching[self] = nil
    if paused[self] then break end
  end
end

--- w:step([n]): n steps of dt (default 1), delivering "step" events after each.
--- On a failure the world keeps its last good state and the error says when and which bodies.
function World:step(n)
  n = n or 1
  if math.type(n) ~= "integer" or n < 0 then
    error("World:step: the number of steps must be an integer >= 0, got " .. describe(n), 2)
  end
  if dispatching[self] then
    error("World:step: cannot step the world from inside one of its 'step' handlers", 2)
  end
  if stepping[self] then
    error("World:step: cannot step the world from inside one of its own steps (an engine or "
      .. "a handler run by the step)", 2)
  end
  stepping[self] = true
  paused[self] = nil
  local ok, err = pcall(has_handlers(self) and step_with_handlers or c_step, self, n)
  stepping[self] = nil
  dispatching[self] = nil
  if not ok then error(err, 0) end
end

local run_keys = { until_time = true, duration = true, steps = true, every = true, fn = true,
                   progress = true }

local function number_option(opts, key, positive)
  local v = options.number("World:run", opts, key, nil, { min = positive and 0 or nil, level = 3 })
  return v
end

--- w:run{until_time = T | duration = D | steps = N, every = dt_sample, fn = f}
--- Steps the world; f(w), when given, is called at the start and then each time the
--- simulated time passes a multiple of `every` after the start (every = 0: after each step).
function World:run(opts)
  options.check_keys("World:run", opts, run_keys)
  local until_time = number_option(opts, "until_time")
  local duration = number_option(opts, "duration", true)
  local every = number_option(opts, "every", true) or 0
  local steps = opts.steps
  local given = (until_time and 1 or 0) + (duration and 1 or 0) + (steps and 1 or 0)
  if given ~= 1 then
    error("World:run: give exactly one of until_time, duration, steps", 2)
  end
  options.integer("World:run", opts, "steps", nil, { min = 0 })
  local fn = options.func("World:run", opts, "fn", nil)
  local dt, t0 = self.dt, self.time
  if until_time and until_time < t0 then
    error(string.format("World:run: until_time = %s has already passed (the world's time is "
      .. "%s); give a later time, or duration = D to run on from now", options.describe(until_time),
      options.describe(t0)), 2)
  end
  if not steps then
    local t_end = until_time or (t0 + duration)
    local count = math.max(0, math.ceil((t_end - t0) / dt - 1e-9))
    steps = math.tointeger(count)
    if not steps or steps > 2 ^ 53 then
      error(string.format("World:run: %s = %g asks for %g steps of dt = %g; at most 2^53 steps "
        .. "are accepted", until_time and "until_time" or "duration", until_time or duration,
        count, dt), 2)
    end
  end
  local progress = opts.progress
  if progress ~= nil and type(progress) ~= "boolean" then
    error("World:run: option 'progress' must be a boolean, got " .. options.shown(progress), 2)
  end
  if not fn and not progress then return self:step(steps) end
  local report
  if progress then
    local reporter = require("impact.progress")
    report = reporter.reporter(reporter.stderr_is_terminal() and "bar" or "lines", t0, t0 + steps * dt)
  end
  local ok, err = pcall(function()
    if fn then fn(self) end
    local slack = 1e-9 * dt
    local next_sample = t0 + every
    local done, adaptive = 0, 1
    while done < steps do
      local batch = 1
      if not fn then
        batch = math.min(adaptive, steps - done)  -- batches of about 20 ms between reports
      elseif every > 0 then
        batch = math.max(1, math.ceil((next_sample - self.time) / dt - 1e-9))
        batch = math.min(batch, steps - done)
      end
      local started = report and core.clock()
      self:step(batch)
      done = done + batch
      if not fn then
        local took = core.clock() - started
        if took < 0.01 then
          adaptive = adaptive * 2
        elseif took > 0.04 and adaptive > 1 then
          adaptive = adaptive // 2
        end
      elseif every == 0 then
        fn(self)
      elseif self.time >= next_sample - slack then
        fn(self)
        next_sample = t0 + (math.floor((self.time - t0) / every + 1e-9) + 1) * every
      end
      if report then report(self, done, false) end
      if paused[self] then break end
    end
    if report then report(self, done, true) end
  end)
  if not ok then
    if report then io.stderr:write("\n") end
    error(err, 0)
  end
end

--- w:body(name): the first body with that name, or nil.
function World:body(name)
  for _, b in ipairs(self:bodies()) do
    if b.name == name then return b end
  end
  return nil
end

local polyhedra = require("impact.polyhedra")
polyhedra.install(World)
require("impact.world_file").install(World)  -- w:save(path)

--- impact.world2d{...} and impact.world3d{...}: the options are listed in doc/api/world.luadoc
--- (make docs: the World page) and doc/manual/01-worlds-bodies-shapes.md.
function M.world2d(opts)
  if type(opts) == "table" and opts.polyhedra ~= nil then
    error("impact.world2d: option 'polyhedra' is for 3D worlds", 2)
  end
  return core.world_new(2, opts)
end
function M.world3d(opts)
  local settings = polyhedra.settings(opts, 2)
  local w = core.world_new(3, opts)
  polyhedra.set(w, settings)
  return w
end

--- Queries (written in C: src/lua/lua_query.c, src/query/), in 2D and 3D worlds of every strategy:
--- w:ray_cast(from, to): the first body the segment from -> to enters, as
---   {body, point, normal, fraction} (point = from + fraction (to - from), normal outward), or nil;
---   a segment starting inside a body hits it at fraction 0, point = from, normal against the
---   segment (Box2D ignores such a body; impact reports it). w:ray_cast(from, to, {all = true}):
---   every body entered, one hit each, sorted by fraction then body (an empty table for none).
--- w:query_box(lo, hi): the bodies whose bounding boxes overlap the box [lo, hi], by slot.
--- w:query_point(p): the bodies whose material contains p, by slot.
--- Exact for 2D polygons (straight and circular edges), spheres, walls, sharp boxes, hulls and
--- polyhedra; conservative advancement to 1e-10 of the shape's size for the other smooth 3D
--- shapes. They run on a box hierarchy built at the first query after the bodies moved (the
--- time, the state or the bodies changed: O(n log^2 n)), reused by every query until then
--- (O(log n) per body crossed); w:query_tree_builds() counts the builds.

M.World = World
M.Body = core.Body
return M
