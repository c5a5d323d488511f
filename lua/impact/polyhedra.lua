--- impact.polyhedra: queries between the polyhedral bodies of a 3D world, over the volumetric
--- intersection of convex polyhedra (Solfec; src/polyhedra/polytope_intersect.c,
--- src/polyhedra/contact_polyhedral.c) and Solfec's sparsification of contact points
--- (src/polyhedra/contact_sparsify.c).
---
---   impact.world3d { polyhedra = { epsilon = nil, minarea = 0, threshold = 0.01, mindist = 1e-6 } }
---   w:intersection(a, b)          the intersection and contact of two bodies, or nil, distance
---   w:polyhedral_contacts()       the contacts between all polyhedral bodies, sparsified
---
--- epsilon is the geometric epsilon: bodies within it touch, with gap 0 (default: 1e-6 of the
--- two bodies' size, the sum of their bounding radii). Polyhedral bodies: polyhedra, unsmoothed
--- convex hulls and unsmoothed boxes.
-- @module impact.polyhedra
local options = require("impact.options")
local shape3d = require("impact.shape3d")

local M = {}

local settings_of = setmetatable({}, { __mode = "k" })
local keys = { epsilon = true, minarea = true, threshold = true, mindist = true }
local defaults = { minarea = 0, threshold = 0.01, mindist = 1e-6 }

--- Validates the world option 'polyhedra' of opts (level: the error level of the caller).
function M.settings(opts, level)
  local p = type(opts) == "table" and opts.polyhedra or nil
  local out = { minarea = defaults.minarea, threshold = defaults.threshold, mindist = defaults.mindist }
  if p == nil then return out end
  local what = "impact.world3d"
  if type(p) ~= "table" then
    options.check_number(what, "polyhedra", p, { level = level + 1,
      text = "a table {epsilon =, minarea =, threshold =, mindist =}" })
  end
  options.check_keys(what, p, keys, { parent = "polyhedra", level = level + 1 })
  for k in pairs(keys) do
    out[k] = options.number(what, p, k, out[k], { parent = "polyhedra", min = 0, level = level + 1 })
  end
  return out
end

function M.set(w, settings) settings_of[w] = settings end
--- The world's settings as set (nil: the defaults), for World:save (lua/impact/world_file.lua).
function M.get(w) return settings_of[w] end

local function settings(w)
  return settings_of[w] or { minarea = defaults.minarea, threshold = defaults.threshold,
    mindist = defaults.mindist }
end

local function pose(b) return { position = b.position, orientation = b.orientation } end

local function polyhedral(shape)
  if shape == nil or shape.dim ~= 3 then return false end
  local p = shape3d.parameters(shape)
  if p.kind == "box" then return (p.smoothing or 0) == 0 end
  if p.kind == "convex" then return (p.smoothing or 0) == 0 end
  return p.kind == "polyhedron"
end

-- pairs of topologically adjacent surfaces of a shape: faces sharing an edge (a box: every
-- pair of faces but the opposite ones); cached per shape
local adjacency_cache = setmetatable({}, { __mode = "k" })
local function adjacency(shape)
  local cached = adjacency_cache[shape]
  if cached then return cached end
  local pairs_out = {}
  if shape3d.parameters(shape).kind == "box" then
    for i = 1, 6 do
      for j = i + 1, 6 do
        if not (i % 2 == 1 and j == i + 1) then pairs_out[#pairs_out + 1] = { i, j } end
      end
    end
  else
    local faces, _, surfaces = shape3d.faces(shape)
    local edge_owner, seen = {}, {}
    for fi, face in ipairs(faces) do
      for k = 1, #face do
        local u, v = face[k], face[k % #face + 1]
        if u > v then u, v = v, u end
        local key = u .. ":" .. v
        local other = edge_owner[key]
        if other then
          local s1, s2 = surfaces[other], surfaces[fi]
          if s1 ~= s2 then
            if s1 > s2 then s1, s2 = s2, s1 end
            local pk = s1 .. ":" .. s2
            if not seen[pk] then
              seen[pk] = true
              pairs_out[#pairs_out + 1] = { s1, s2 }
            end
          end
        else
          edge_owner[key] = fi
        end
      end
    end
  end
  adjacency_cache[shape] = pairs_out
  return pairs_out
end

local function check_body(w, body, i, what)
  if type(body) ~= "userdata" or getmetatable(body) ~= getmetatable(w.background)
      or body.world ~= w then
    error(string.format("%s: argument #%d must be a body of this world", what, i), 3)
  end
end

function M.install(World)
  --- w:intersection(a, b [, {epsilon = e}]): for two 3D bodies with polyhedral shapes, their
  --- volumetric intersection and Solfec's contact: {volume, point, normal (out of a), area,
  --- gap, vertices, faces, surfaces, ...} (see impact.shape3d.intersection); nil and the
  --- distance when they do not touch. epsilon defaults to the world's polyhedra.epsilon.
  function World:intersection(a, b, opts)
    local what = "World:intersection"
    if self.dim ~= 3 then error(what .. ": polyhedra are 3D; this world is 2D", 2) end
    check_body(self, a, 1, what)
    check_body(self, b, 2, what)
    if not a.shape or not b.shape then error(what .. ": both bodies need a shape", 2) end
    local o = opts or {}
    if o.epsilon == nil and settings(self).epsilon then o = { epsilon = settings(self).epsilon } end
    local ok, r = pcall(shape3d.intersection, a.shape, pose(a), b.shape, pose(b), o)
    if not ok then
      local msg = options.without_position(r):gsub("^impact%.shape3d%.intersection: ", "")
        :gsub("argument #1 %(shape_a%)", "body a's shape"):gsub("argument #3 %(shape_b%)", "body b's shape")
      error(what .. ": " .. msg, 2)
    end
    if r.status == "contact" then return r end
    if r.status == "separated" then return nil, r.distance end
    error(what .. ": " .. tostring(r.message or r.status), 2)
  end

  --- w:polyhedral_contacts(): the contacts between every two polyhedral bodies of the world
  --- (not both fixed) whose bounds overlap, each {body1, body2, point, normal, area, gap,
  --- surfaces = {s1, s2}, volume}, sparsified with the world's polyhedra settings (minarea,
  --- threshold with the surfaces' adjacency, mindist). O(n^2) bounding-box tests in Lua:
  --- for scenes of modest size.
  function World:polyhedral_contacts()
    if self.dim ~= 3 then error("World:polyhedral_contacts: polyhedra are 3D; this world is 2D", 2) end
    local bodies, boxes = {}, {}
    for _, b in ipairs(self:bodies()) do
      if polyhedral(b.shape) then
        bodies[#bodies + 1] = b
        local lo, hi = b.shape:bounds(pose(b))
        boxes[#bodies] = { lo, hi }
      end
    end
    local found = {}
    local margin = settings(self).epsilon or 0
    for i = 1, #bodies do
      for j = i + 1, #bodies do
        local a, b, ba, bb = bodies[i], bodies[j], boxes[i], boxes[j]
        local overlap = not (a.fixed and b.fixed)
        for k = 1, 3 do
          overlap = overlap and ba[1][k] <= bb[2][k] + margin and bb[1][k] <= ba[2][k] + margin
        end
        if overlap then
          local r = self:intersection(a, b)
          if r then
            found[#found + 1] = { body1 = a, body2 = b, point = r.point, normal = r.normal,
              area = r.area, gap = r.gap, surfaces = r.surfaces, volume = r.volume }
          end
        end
      end
    end
    if #found == 0 then return found end
    local s = settings(self)
    local input, adjacent, listed = {}, {}, {}
    for i, c in ipairs(found) do
      input[i] = { point = c.point, area = c.area, bodies = { c.body1.id, c.body2.id },
        objects = { c.surfaces[1], c.surfaces[2] }, new = true }
      for _, body in ipairs { c.body1, c.body2 } do
        if not listed[body] then
          listed[body] = true
          for _, pr in ipairs(adjacency(body.shape)) do
            adjacent[#adjacent + 1] = { body.id, pr[1], pr[2] }
          end
        end
      end
    end
    local kept = shape3d.sparsify(input, { threshold = s.threshold, minarea = s.minarea,
      mindist = s.mindist, adjacent = adjacent })
    local out = {}
    for i, c in ipairs(found) do
      if kept[i] then out[#out + 1] = c end
    end
    return out
  end
end

return M
