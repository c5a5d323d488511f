--- impact: rigid-body contact simulation. `local impact = require "impact"`.
local core = require("impact.core")

local impact = {
  _NAME = "impact",
  _VERSION = "impact scm",
  core = core,
}

--- 2D shapes: impact.shape2d.ball{radius}, impact.shape2d.block{width, height}.
impact.shape2d = require("impact.shape2d")
--- 3D shapes: impact.shape3d.sphere{radius}, impact.shape3d.box{size}.
impact.shape3d = require("impact.shape3d")
--- The contact LCP solver on its own: impact.lcp.solve(A, b, opts) -> f, a, info.
impact.lcp = require("impact.lcp")

return impact
