-- The dem energy books' gap over a run (spec/dem_energy_spec.lua, spec/dem_viscous_spec.lua):
-- runs w with run_opts (w:run's, e.g. {duration = s} or {steps = n}) and returns the largest
-- |kinetic + elastic + damping + plastic + viscous - gravity work - e0| after any step, over
-- scale, and the books at the end.
local gap = {}

function gap.worst(w, run_opts, e0, scale)
  local worst = 0
  local opts = { every = 0, fn = function()
    local e = w:dem_energy()
    local g = e.kinetic + e.elastic + e.damping + e.plastic + e.viscous - e.gravity_work - e0
    worst = math.max(worst, math.abs(g) / scale)
  end }
  for k, v in pairs(run_opts) do opts[k] = v end
  w:run(opts)
  return worst, w:dem_energy()
end

return gap
