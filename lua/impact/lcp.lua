--- impact.lcp: the contact linear complementarity problem solver on its own.
--
--   local f, a, info = impact.lcp.solve(A, b, opts)
--
-- Finds f with a = A f + b, f >= 0, a >= 0, f.a = 0 row by row (Baraff 1994's pivoting
-- method; A = J M^-1 J^T, symmetric positive semidefinite, may be singular). A is a table of
-- n rows of n numbers, b an array of n numbers. Options (all optional):
--   bilateral  = {true, false, ...}       joint rows: f free, a = 0
--   friction   = {[t] = k}                row t is a friction row bounded by mu * f[k]
--   mu         = 0.5 or {[t] = 0.5}       friction coefficient(s)
--   sliding    = {[t] = -1 or 1}          dynamic friction: row t already slides along -/+t,
--                                          f[t] = -sliding * mu * f[k]
--   method     = "auto" | "symmetric" | "general" | "lemke" | "box"
--                                        auto: Baraff's method for symmetric A, Lemke's
--                                        method when A is not symmetric PSD (no bilateral
--                                        or friction rows); friction with a symmetric A:
--                                        box steps (lcp_box.c), then the general method
--   order      = "greedy" | "index"       which violated row is driven next
--   tolerance = 1e-9, pivot_tolerance = 1e-11, max_pivots = 50 n + 1000
--   warm_start = info.state from an earlier solve
-- Returns f, a (arrays) and info: ok, status ("ok", "infeasible", "pivot_limit",
-- "numerical", "outside_class"), message, method, pivots, additions, removals,
-- set_changes, max_clamped, clamped, warm_started, min_f, min_a, max_comp, max_bilateral,
-- max_friction, natural_residual, scale_f, scale_a, state (per row: "free", "clamped",
-- "lower", "upper", "sliding", "redundant"). A failed solve is reported in info, not raised.
-- @module impact.lcp
local core = require("impact.core")

local lcp = {}

--- Solves the LCP (A, b) with the options above; returns f, a, info.
function lcp.solve(A, b, opts)
  return core.lcp_solve(A, b, opts or {})
end

--- The polyhedral friction cone for 3D contacts with k tangent directions per contact:
--   local dirs, mu_factor, max_error = impact.lcp.cone(k, {inscribed = false})
-- dirs[j] = {cos, sin} of the angle (j - 1) pi / k in the contact's tangent basis (t1, t2).
-- Give each direction a friction row (J row = d_j . relative velocity) bounded by
-- mu_factor * mu times the normal force. The reachable friction forces form a regular
-- 2k-gon: by default it contains the Coulomb disc (mu_factor = tan(pi/2k); the friction
-- limit in any direction is within [mu f_n, mu f_n / cos(pi/2k)]); with inscribed = true
-- it lies inside it (mu_factor = sin(pi/2k); limit within [mu f_n cos(pi/2k), mu f_n]).
-- max_error is that relative deviation (k = 8: about 2%).
function lcp.cone(k, opts)
  return core.lcp_cone(k, opts)
end

--- 3D contact with exact Coulomb friction (the true cone; include/impact/coulomb.h):
--   local r, u, info = impact.lcp.coulomb{M = M, q = q, mu = 0.5}
-- Finds r with u = M r + q such that every contact (three rows: normal, tangent 1,
-- tangent 2) obeys Coulomb's law: r in the cone |r_T| <= mu r_N, u_N >= 0, r_N u_N = 0,
-- sticking (u_T = 0) inside the cone, sliding on its edge with the friction opposite to
-- the slip; bilateral (joint) rows have u = 0. Fields:
--   M          dense rows {{...}, ...} or sparse triplets {n = n, i = {...}, j = {...},
--              v = {...}} (1-based, duplicates summed)
--   q          n numbers;  mu = one number, or one per contact
--   bilateral  a list of row numbers {4, 5} or n booleans (the other rows form the contacts,
--              three consecutive ones each)
--   tol = 1e-10 (Siconos' error measure), method = "auto" | "newton" | "nsgs",
--   max_iterations = 200 (Newton), max_sweeps = 2000 (Gauss-Seidel; 100000 for "nsgs"),
--   max_time (processor seconds, default none), warm_start = r from an earlier solve
-- Returns r, u and info: ok, status ("ok", "max_iterations", "time_limit"), message, method
-- ("newton", "nsgs", "newton+nsgs": what produced the answer), error (Siconos'
-- fc3d_compute_error of r), tolerance, iterations, sweeps, fallbacks, contacts, sticking,
-- sliding, open. A solve that does not reach tol returns the best answer found, with
-- info.ok false; bad arguments raise errors.
function lcp.coulomb(problem)
  return core.lcp_coulomb(problem)
end

return lcp
