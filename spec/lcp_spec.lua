-- Specs of impact.lcp.solve: closed forms, invariants (a recomputed here), PSD-singular
-- stacks (compare a and J^T f, never f), bilateral rows, infeasibility, friction on a slope,
-- the Siconos data files, and the argument errors.
local impact = require("impact")
local lcp = impact.lcp

local G = 9.81

-- a = A f + b, and the invariants of lcp.md section 4.1 at relative tolerance tau
local function residuals(A, b, f, bilateral)
  local n, sA, sb, sf = #b, 0, 0, 0
  local a = {}
  for i = 1, n do
    local s = b[i]
    for j = 1, n do
      s = s + A[i][j] * f[j]
      sA = math.max(sA, math.abs(A[i][j]))
    end
    a[i] = s
    sb = math.max(sb, math.abs(b[i]))
    sf = math.max(sf, math.abs(f[i]))
  end
  local sa = sb + sA * sf
  local worst = 0
  for i = 1, n do
    if bilateral and bilateral[i] then
      worst = math.max(worst, math.abs(a[i]) / sa)
    else
      worst = math.max(worst, -f[i] / math.max(sf, 1e-300), -a[i] / math.max(sa, 1e-300),
        math.abs(f[i] * a[i]) / math.max(sf * sa, 1e-300))
    end
  end
  return a, worst, sf, sa
end

-- A = J M^-1 J^T, b = J M^-1 F for sparse rows {{body, coeffs...}, ...}
local function form(rows, minv, fext, dof)
  local n = #rows
  local A, b = {}, {}
  for i = 1, n do
    A[i] = {}
    for j = 1, n do
      local s = 0
      for _, ei in ipairs(rows[i]) do
        for _, ej in ipairs(rows[j]) do
          if ei.body == ej.body then
            for c = 1, dof do
              s = s + ei.j[c] * minv[ei.body][c] * ej.j[c]
            end
          end
        end
      end
      A[i][j] = s
    end
    local s = 0
    for _, e in ipairs(rows[i]) do
      for c = 1, dof do s = s + e.j[c] * minv[e.body][c] * fext[e.body][c] end
    end
    b[i] = s
  end
  return A, b
end

-- net constraint wrench J^T f per body
local function wrench(rows, f, nb, dof)
  local w = {}
  for k = 1, nb do
    w[k] = {}
    for c = 1, dof do w[k][c] = 0 end
  end
  for i, row in ipairs(rows) do
    for _, e in ipairs(row) do
      for c = 1, dof do w[e.body][c] = w[e.body][c] + e.j[c] * f[i] end
    end
  end
  return w
end

-- a 2D unit block (mass 1, I = 1/6) on a slope at theta, in the slope's frame (x uphill, y
-- normal), corners at (+-0.5, -0.5): its inverse mass, gravity, and the rows n1, t1, n2, t2
local function slope_block(theta)
  local minv = { { 1, 1, 12 / 2 } }
  local fext = { { -G * math.sin(theta), -G * math.cos(theta), 0 } }
  local rows = {
    { { body = 1, j = { 0, 1, -0.5 } } }, { { body = 1, j = { 1, 0, 0.5 } } },
    { { body = 1, j = { 0, 1, 0.5 } } }, { { body = 1, j = { 1, 0, 0.5 } } },
  }
  return minv, fext, rows
end

-- 3D stack of N unit cubes, 4 bottom-corner contacts per box (A has rank 3N)
local function stack3d(N)
  local rows, minv, fext = {}, {}, {}
  local I = 2 / 12
  for k = 1, N do
    minv[k] = { 1, 1, 1, 1 / I, 1 / I, 1 / I }
    fext[k] = { 0, 0, -G, 0, 0, 0 }
    for c = 0, 3 do
      local rx = (c % 2 == 1) and 0.5 or -0.5
      local ry = (c >= 2) and 0.5 or -0.5
      local row = { { body = k, j = { 0, 0, 1, ry, -rx, 0 } } }
      if k > 1 then row[2] = { body = k - 1, j = { 0, 0, -1, -ry, rx, 0 } } end
      rows[#rows + 1] = row
    end
  end
  return rows, minv, fext
end

local function read_siconos(name)
  local path = "spec/data/lcp/siconos/" .. name .. ".dat"
  local fh = assert(io.open(path, "r"), "cannot open " .. path)
  local text = fh:read("a")
  fh:close()
  local tok = {}
  for t in text:gmatch("%S+") do tok[#tok + 1] = t end
  local pos = 0
  local function num()
    pos = pos + 1
    return assert(tonumber(tok[pos]), "bad token in " .. path)
  end
  local n = num()
  assert(num() == 0, "only the dense storage is read here")
  local s0, s1 = num(), num()
  num(); num() -- sizes repeated
  local A = {}
  for i = 1, n do A[i] = {} end
  for k = 0, s0 * s1 - 1 do -- column-major: value k is M[k % s0][k // s0]
    A[k % s0 + 1][k // s0 + 1] = num()
  end
  local b = {}
  for i = 1, n do b[i] = num() end
  return A, b
end

describe("impact.lcp.solve", function()
  it("solves the 2x2 closed form and a diagonal problem", function()
    local f, a, info = lcp.solve({ { 2, 1 }, { 1, 2 } }, { -5, -6 })
    assert.is_true(info.ok)
    assert.equal("ok", info.status)
    assert.near({ 4 / 3, 7 / 3 }, f, 1e-14)
    assert.near({ 0, 0 }, a, 1e-14)
    assert.same({ "clamped", "clamped" }, info.state)
    local A, b = {}, {}
    for i = 1, 8 do
      A[i] = {}
      for j = 1, 8 do A[i][j] = (i == j) and i or 0 end
      b[i] = (i % 2 == 0) and -i * i or i
    end
    f = lcp.solve(A, b)
    for i = 1, 8 do assert.near(math.max(0, -b[i] / i), f[i], 1e-14) end
  end)

  it("returns f = 0 with no pivot when every row separates", function()
    local f, a, info = lcp.solve({ { 1, 0.5 }, { 0.5, 1 } }, { 1, 2 })
    assert.same({ 0, 0 }, f)
    assert.same({ 1, 2 }, a)
    assert.equal(0, info.pivots)
  end)

  it("balances a 3D stack of 20 boxes (singular A): a = 0 and J^T f = -F", function()
    local N = 20
    local rows, minv, fext = stack3d(N)
    local A, b = form(rows, minv, fext, 6)
    local f, a, info = lcp.solve(A, b)
    assert.is_true(info.ok, info.message)
    local a2, worst, sf = residuals(A, b, f)
    assert.is_true(worst <= 1e-9)
    assert.near(a2, a, 1e-9 * sf)
    for i = 1, #a do assert.near(0, a[i], 1e-9 * sf) end
    local w = wrench(rows, f, N, 6)
    for k = 1, N do
      for c = 1, 6 do assert.near(0, w[k][c] + fext[k][c], 1e-9 * sf) end
    end
  end)

  it("solves bilateral rows: a hanging chain's tensions", function()
    local N = 6
    local A, b, bil = {}, {}, {}
    for i = 1, N do
      A[i] = {}
      for j = 1, N do
        A[i][j] = (i == j) and ((i == 1) and 1 or 2) or ((math.abs(i - j) == 1) and -1 or 0)
      end
      -- link i (row v_i - v_(i-1), v_0 the fixed pivot) pulls mass i up and mass i-1 down;
      -- gravity on every mass: b_i = -G + G = 0 except for the first link
      b[i] = (i == 1) and -G or 0
      bil[i] = true
    end
    local f, a, info = lcp.solve(A, b, { bilateral = bil })
    assert.is_true(info.ok, info.message)
    for i = 1, N do
      assert.near(0, a[i], 1e-12)
      assert.near((N - i + 1) * G, f[i], 1e-11)
    end
  end)

  it("reports an infeasible problem instead of hanging", function()
    local f, _, info = lcp.solve({ { 1, -1 }, { -1, 1 } }, { -1, -1 })
    assert.is_false(info.ok)
    assert.equal("infeasible", info.status)
    assert.is_string(info.message)
    for i = 1, 2 do assert.is_true(f[i] == f[i]) end
    _, _, info = lcp.solve({ { 2, 1 }, { 1, 2 } }, { -5, -6 }, { max_pivots = 1 })
    assert.equal("pivot_limit", info.status)
  end)

  it("warm-starts from a previous state with no pivot", function()
    local rows, minv, fext = stack3d(8)
    local A, b = form(rows, minv, fext, 6)
    local _, a1, info1 = lcp.solve(A, b)
    local _, a2, info2 = lcp.solve(A, b, { warm_start = info1.state })
    assert.is_true(info2.ok and info2.warm_started)
    assert.equal(0, info2.pivots)
    assert.near(a1, a2, 1e-9)
  end)

  it("holds a block on a slope below tan(theta) = mu and lets it slide above (auto, general, box)", function()
    -- rows: n1, t1, n2, t2 with |t| <= mu n
    local mu = 0.5
    for _, method in ipairs({ "auto", "general", "box" }) do
      for _, theta in ipairs({ 0.3, 0.5, 0.6 }) do
        local minv, fext, rows = slope_block(theta)
        local A, b = form(rows, minv, fext, 3)
        local f, a, info = lcp.solve(A, b, { friction = { [2] = 1, [4] = 3 }, mu = mu, method = method })
        assert.is_true(info.ok, info.message)
        -- auto: the box steps solved it (#23)
        assert.equal(method == "general" and "general" or "box", info.method)
        local w = wrench(rows, f, 1, 3)
        local ax = minv[1][1] * (fext[1][1] + w[1][1])
        assert.near(G * math.cos(theta), f[1] + f[3], 1e-10)
        assert.near(0, minv[1][3] * w[1][3], 1e-10) -- no tipping
        if math.tan(theta) <= mu then
          assert.near(0, ax, 1e-10)
          assert.near(G * math.sin(theta), f[2] + f[4], 1e-10)
          for i = 1, 4 do assert.near(0, a[i], 1e-10) end
        else
          assert.near(-G * math.sin(theta) + mu * G * math.cos(theta), ax, 1e-10)
          assert.near(mu * (f[1] + f[3]), f[2] + f[4], 1e-10)
        end
      end
    end
  end)

  it("applies dynamic friction to a sliding block (Baraff's sliding column)", function()
    local mu, theta = 0.5, 0.3
    local minv, fext, rows = slope_block(theta)
    local A, b = form(rows, minv, fext, 3)
    -- sliding downhill (-x): kinetic friction pushes uphill and decelerates the block
    local f, _, info = lcp.solve(A, b, { friction = { [2] = 1, [4] = 3 }, mu = mu,
      sliding = { [2] = -1, [4] = -1 } })
    assert.is_true(info.ok, info.message)
    assert.same("sliding", info.state[2])
    local w = wrench(rows, f, 1, 3)
    assert.near(-G * math.sin(theta) + mu * G * math.cos(theta), fext[1][1] + w[1][1], 1e-10)
  end)

  it("solves the Siconos files lcp_deudeu, lcp_mmc, lcp_CPS_1 and reports lcp_Pang_isolated_sol_perturbed",
    function()
      local A, b = read_siconos("lcp_deudeu")
      local f = lcp.solve(A, b)
      assert.near({ 4 / 3, 7 / 3 }, f, 1e-14)
      A, b = read_siconos("lcp_mmc")
      local _, info
      f, _, info = lcp.solve(A, b)
      assert.is_true(info.ok)
      local ref = {}
      for line in io.lines("spec/data/lcp/siconos/solutions/lcp_mmc.z.txt") do
        ref[#ref + 1] = tonumber(line)
      end
      local worst, sf
      _, worst, sf = residuals(A, b, f)
      assert.is_true(worst <= 1e-9)
      assert.near(ref, f, 1e-9 * sf)
      A, b = read_siconos("lcp_CPS_1")
      f = lcp.solve(A, b)
      assert.near(1, f[1] + f[2], 1e-14)
      A, b = read_siconos("lcp_Pang_isolated_sol_perturbed")
      _, _, info = lcp.solve(A, b)
      assert.is_false(info.ok)
    end)

  it("falls back to Lemke's method for the non-PSD Siconos files and checks their answers",
    function()
      -- lcp_CPS_2: unique (0, 1, 3) (README); lcp_Pang_isolated_sol: unique (1, 0, 0)
      local A, b = read_siconos("lcp_CPS_2")
      local f, a, info = lcp.solve(A, b)
      assert.is_true(info.ok, info.message)
      assert.same("lemke", info.method)
      assert.near({ 0, 1, 3 }, f, 1e-12)
      assert.near({ 2, 0, 0 }, a, 1e-12)
      A, b = read_siconos("lcp_Pang_isolated_sol")
      f = lcp.solve(A, b)
      assert.near({ 1, 0, 0 }, f, 1e-12)
      -- lcp_CPS_3 (bimatrix game): one of the three documented solutions
      A, b = read_siconos("lcp_CPS_3")
      local f3, _, info3 = lcp.solve(A, b)
      f = f3
      assert.is_true(info3.ok, info3.message)
      local sols = { { 0.1, 0, 0.1, 0 }, { 0, 1 / 15, 0, 1 / 15 }, { 1 / 90, 2 / 45, 1 / 90, 2 / 45 } }
      local best = math.huge
      for _, z in ipairs(sols) do
        local d = 0
        for i = 1, 4 do d = math.max(d, math.abs(z[i] - f[i])) end
        best = math.min(best, d)
      end
      assert.is_true(best < 1e-12)
      -- lcp_inf_sol_perturbed: by hand every (1, t, t + 1e-4), t >= 0, solves it
      A, b = read_siconos("lcp_inf_sol_perturbed")
      f = lcp.solve(A, b)
      assert.near(1, f[1], 1e-12)
      assert.near(1e-4, f[3] - f[2], 1e-15)
      -- lcp_tobenna (n = 40, degenerate game): a valid solution at 1e-9
      A, b = read_siconos("lcp_tobenna")
      local ft, _, infot = lcp.solve(A, b, { method = "lemke" })
      assert.is_true(infot.ok, infot.message)
      local _, worst = residuals(A, b, ft)
      assert.is_true(worst <= 1e-9)
      -- no solution: reported as infeasible (row 1 reads a = -f2 - f3 - 1e-4 < 0)
      A, b = read_siconos("lcp_Pang_isolated_sol_perturbed")
      local _, _, infop = lcp.solve(A, b)
      assert.same("infeasible", infop.status)
      assert.has_error(function() lcp.solve({ { 1, 0 }, { 0, 1 } }, { -1, -1 },
        { method = "lemke", bilateral = { true, false } }) end,
        "impact.lcp.solve: Lemke's method takes no friction rows and no bilateral rows")
    end)

  it("gives the directions of a polyhedral friction cone and its error", function()
    local dirs, factor, err = lcp.cone(4)
    assert.equal(4, #dirs)
    for j = 1, 4 do
      local phi = (j - 1) * math.pi / 4
      assert.near({ math.cos(phi), math.sin(phi) }, dirs[j], 1e-15)
    end
    assert.near(math.tan(math.pi / 8), factor, 1e-15)
    assert.near(1 / math.cos(math.pi / 8) - 1, err, 1e-15)
    local _, f2, e2 = lcp.cone(8, { inscribed = true })
    assert.near(math.sin(math.pi / 16), f2, 1e-15)
    assert.near(1 - math.cos(math.pi / 16), e2, 1e-15)
    assert.has_error(function() lcp.cone(1) end,
      "impact.lcp.cone: argument 1 (k, directions per contact) must be an integer in 2..64, got 1")
    assert.has_error(function() lcp.cone(4, { inscribe = true }) end)
  end)

  it("rejects bad arguments with errors naming them", function()
    local A = { { 1, 0 }, { 0, 1 } }
    assert.has_error(function() lcp.solve(A, { 1, "x" }) end,
      'impact.lcp.solve: b[2] must be a finite number, got "x"')
    assert.has_error(function() lcp.solve({ { 1, 0 } }, { 1, 2 }) end,
      "impact.lcp.solve: A has 1 rows but b has 2 entries")
    assert.has_error(function() lcp.solve({ { 1, 0 }, { 0, 0 / 0 } }, { 1, 2 }) end,
      "impact.lcp.solve: A[2][2] must be a finite number, got nan")
    assert.has_error(function() lcp.solve(A, { 1, 2 }, { bilateral = { true } }) end,
      "impact.lcp.solve: option 'bilateral' must be an array of 2 booleans, got table")
    assert.has_error(function() lcp.solve(A, { 1, 2 }, { friction = { [2] = 2 }, mu = 0.5 }) end,
      "impact.lcp.solve: friction_normal index out of range")
    assert.has_error(function() lcp.solve(A, { 1, 2 }, { method = "fast" }) end)
    assert.has_error(function() lcp.solve(A, { 1, 2 }, { mu = -1 }) end)
  end)
end)
