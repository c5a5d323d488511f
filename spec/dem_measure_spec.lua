-- The bulk measures of a dem packing against hand calculations on static lattices: the
-- Love-Weber stress of a cubic lattice compressed along one axis or all three follows from the
-- linear contact law (fn = kn overlap, kn = E R for equal spheres, branch 2R - overlap), the
-- fabric tensor and coordination number from the lattice's contacts, the porosity from the
-- sphere volumes. The engines compute forces without moving anything (no integrator).
local impact = require("impact")
local dem = impact.dem

local E, r, n = 1e8, 0.01, 4

-- n^3 spheres on a lattice with spacings a = {ax, ay, az}; forces computed, nothing moved
local function lattice(a, opts)
  opts = opts or {}
  local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
  for i = 0, n - 1 do
    for j = 0, n - 1 do
      for k = 0, n - 1 do
        w:add_body { shape = impact.shape3d.sphere { radius = r }, density = 2600,
                     position = { i * a[1], j * a[2], k * a[3] } }
      end
    end
  end
  if opts.wall then
    w:add_body { shape = impact.shape3d.wall { normal = { 0, 0, 1 } }, fixed = true,
                 position = { 0, 0, -r + opts.wall } }
  end
  w.engines = { dem.force_resetter(), dem.collider {},
                dem.interaction_loop { physics = { dem.frict { young = E } } } }
  w.dt = 0.1 * w:p_wave_dt()
  w:step(1)
  return w
end

describe("dem measures", function()
  it("a lattice compressed along z: stress, fabric, coordination by hand", function()
    local delta = 1e-4
    local a = { 2 * r + 1e-4, 2 * r + 1e-4, 2 * r - delta }
    local w = lattice(a)
    local V = (n * a[1]) * (n * a[2]) * (n * a[3])
    local s = w:stress { volume = V }
    -- n^2 (n - 1) contacts along z, each fn = E r delta with the branch 2r - delta
    local szz = -n * n * (n - 1) * E * r * delta * (2 * r - delta) / V
    assert.near(szz, s[3][3], 1e-9 * math.abs(szz))
    for i = 1, 3 do
      for j = 1, 3 do
        if not (i == 3 and j == 3) then assert.near(0, s[i][j], 1e-9 * math.abs(szz)) end
      end
    end
    assert.same({ { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 1 } }, w:fabric())
    assert.near(2 * n * n * (n - 1) / n ^ 3, w:coordination(), 1e-15)
    local cols = dem.measure_columns { volume = V }
    assert.near(-szz / 3, cols.p(w), 1e-9 * math.abs(szz))
    assert.near(math.abs(szz), cols.q(w), 1e-9 * math.abs(szz))
    assert.near(szz, cols.szz(w), 1e-9 * math.abs(szz))
  end)

  it("an isotropic lattice: equal normal stresses, fabric I / 3, coordination 6 (n - 1) / n",
    function()
      local delta = 2e-5
      local a = 2 * r - delta
      local w = lattice { a, a, a }
      local V = (n * a) ^ 3
      local s = w:stress { box = { { -a / 2, -a / 2, -a / 2 }, { (n - 0.5) * a, (n - 0.5) * a,
                                                                 (n - 0.5) * a } } }
      local sii = -n * n * (n - 1) * E * r * delta * (2 * r - delta) / V
      for i = 1, 3 do
        assert.near(sii, s[i][i], 1e-9 * math.abs(sii))
        for j = 1, 3 do
          if i ~= j then assert.near(0, s[i][j], 1e-9 * math.abs(sii)) end
        end
      end
      local f = w:fabric()
      for i = 1, 3 do
        for j = 1, 3 do assert.near(i == j and 1 / 3 or 0, f[i][j], 1e-15) end
      end
      assert.near(6 * (n - 1) / n, w:coordination(), 1e-15)
    end)

  it("a wall's contacts count with the sphere's arm r - overlap / 2", function()
    local delta = 1e-4
    local a = { 2 * r + 1e-4, 2 * r + 1e-4, 2 * r + 1e-4 }  -- no sphere/sphere contacts
    local w = lattice(a, { wall = delta })
    local V = 1
    local s = w:stress { volume = V }
    -- n^2 spheres of the bottom layer on the wall: fn = E r delta (the wall counts with the
    -- sphere's radius), arm r - delta / 2
    local szz = -n * n * E * r * delta * (r - delta / 2) / V
    assert.near(szz, s[3][3], 1e-9 * math.abs(szz))
    assert.near(n * n / n ^ 3, w:coordination(), 1e-15)
    assert.same({ { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } }, w:fabric())
  end)

  it("porosity of a touching cubic lattice in its box is 1 - pi / 6", function()
    local spheres = dem.regular { box = { { 0, 0, 0 }, { 0.08, 0.08, 0.08 } }, radius = r }
    local w = impact.world3d { strategy = "dem", gravity = { 0, 0, 0 } }
    dem.add_spheres(w, spheres, { density = 2600 })
    assert.near(1 - math.pi / 6, w:porosity(), 1e-12)  -- the spheres' own box
    assert.near(1 - math.pi / 6, w:porosity { box = { { 0, 0, 0 }, { 0.08, 0.08, 0.08 } } }, 1e-12)
    assert.near(1 - 64 * 4 / 3 * math.pi * r ^ 3 / 2, w:porosity { volume = 2 }, 1e-12)
  end)

  it("records through impact.recorder and checks its options", function()
    local w = lattice { 2 * r - 1e-5, 2 * r - 1e-5, 2 * r - 1e-5 }
    local rec = impact.recorder { w, every_steps = 1, columns = dem.measure_columns { volume = 1 } }
    w:step(2)
    assert.equals(3, #rec:series("p"))
    assert.is_true(rec:series("p")[3] > 0)
    assert.has_error(function() w:stress { volume = -1 } end)
    assert.has_error(function() w:stress { volume = 1, box = { { 0, 0, 0 }, { 1, 1, 1 } } } end)
    assert.has_error(function() w:porosity { size = 1 } end)
    local empty = impact.world3d { strategy = "dem" }
    assert.has_error(function() empty:stress() end)
    assert.equals(0, empty:coordination())
  end)
end)
