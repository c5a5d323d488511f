--- impact: rigid-body simulation scripted in Lua. `local impact = require "impact"`.
---
---   impact.world2d{...}, impact.world3d{...}   worlds (lua/impact/world.lua, src/lua_world.c)
---   impact.shape2d.*, impact.shape3d.*         shapes
---   impact.recorder{w, every =, columns =}     recorded series and CSV
---   impact.plot{...}, impact.picture, impact.vtk, impact.viewer   plots, pictures, films, exports
local core = require("impact.core")
local world = require("impact.world")

local impact = {
  _NAME = "impact",
  _VERSION = "impact scm",
  core = core,
  world2d = world.world2d,
  world3d = world.world3d,
  shape2d = require("impact.shape2d"),
  shape3d = require("impact.shape3d"),
  recorder = require("impact.recorder"),
  plot = require("impact.plot"),
  picture = require("impact.picture"),
  vtk = require("impact.vtk"),
  viewer = require("impact.viewer"),
}

return impact
