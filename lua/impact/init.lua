--- impact: rigid-body simulation scripted in Lua. `local impact = require "impact"`.
---
---   impact.world2d{...}, impact.world3d{...}   worlds (lua/impact/world.lua, src/lua/lua_world.c)
---   w:save(path), impact.load(path)           saved worlds (lua/impact/world_file.lua)
---   impact.shape2d.*, impact.shape3d.*         shapes
---   impact.recorder{w, every =, columns =}     recorded series and CSV
---   impact.material, impact.contact_pair      the compliant strategy's materials
---   impact.lcp.solve(A, b, opts)              the contact LCP solver on its own
---   impact.dem.*                              Yade-style engines of the dem strategy
---   impact.batch{script =, params =, jobs =}   parameter sweeps in worker processes
---   impact.plot{...}, impact.picture, impact.vtk, impact.viewer   plots, pictures, films, exports
-- @module impact
local core = require("impact.core")
-- errors raised in C point at the nearest line outside these files (the user's)
core.set_library_source(debug.getinfo(1, "S").source:match("^(@.*[/\\])") or "@impact/")
local world = require("impact.world")
local materials = require("impact.material")

-- the version: rockspec/impact-scm-1.rockspec builds the source tree as it is
local version = "0.1.0-scm"

local impact = {
  _NAME = "impact",
  _VERSION = "impact " .. version,
  version = version,
  core = core,
  world2d = world.world2d,
  world3d = world.world3d,
  load = require("impact.world_file").load,
  shape2d = require("impact.shape2d"),
  shape3d = require("impact.shape3d"),
  recorder = require("impact.recorder"),
  material = materials.material,
  contact_pair = materials.contact_pair,
  lcp = require("impact.lcp"),
  dem = require("impact.dem"),
  batch = require("impact.batch"),
  plot = require("impact.plot"),
  picture = require("impact.picture"),
  vtk = require("impact.vtk"),
  viewer = require("impact.viewer"),
}

return impact
