-- spec/support/dem_overlaps.lua: no contact without its interaction (the dem colliders' Verlet
-- skips, spec/dem_cell_spec.lua and spec/dem_collider_spec.lua): every pair of spheres
-- overlapping by more than a thousandth of the smaller radius has an interaction.
local M = {}

-- the keys "id1:id2" (both orders) of a list of interactions
function M.keys(interactions)
  local have = {}
  for _, I in ipairs(interactions) do
    have[I.body1.id .. ":" .. I.body2.id], have[I.body2.id .. ":" .. I.body1.id] = true, true
  end
  return have
end

-- balls: the spheres; radius(i): balls[i]'s radius; distance(a, b): their centres' distance
-- (through the nearest image in a cell); have: M.keys of the interactions. Returns the number
-- of overlapping pairs and, when one lacks its interaction, a message naming it.
function M.check(balls, radius, distance, have)
  local checked = 0
  for i = 1, #balls do
    local a = balls[i]
    for j = i + 1, #balls do
      local b = balls[j]
      local ra, rb, d = radius(i), radius(j), distance(a, b)
      if d < ra + rb - 1e-3 * math.min(ra, rb) then
        checked = checked + 1
        if not have[a.id .. ":" .. b.id] then
          return checked, ("pair %d-%d overlaps by %.3g m without an interaction"):format(a.id,
            b.id, ra + rb - d)
        end
      end
    end
  end
  return checked
end

return M
