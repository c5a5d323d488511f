--- spec.support.fclib: a reader of Siconos' frictional contact problems in its text format
-- (the .dat files of numerics/src/FrictionContact/test/data, kept in ../shared/data/fclib),
-- and Siconos' error measure.
--
-- Format (Siconos' frictionContact_printInFile), whitespace-separated numbers:
--   dimension (3), number of contacts nc, then the matrix (a NumericsMatrix):
--     storage 0 (dense): size0 size1, again size0 size1, then the entries column by column;
--     storage 1 (sparse block, SBM): size0 size1, number of blocks, block rows, block
--       columns, the cumulative block sizes of the rows and of the columns, the lengths of
--       the row-pointer and column-index arrays, both arrays (0-based), then per block its
--       number and its entries column by column;
--   then q (3 nc numbers) and mu (nc numbers).
-- read(path) returns {nc =, n =, M = {n =, i =, j =, v =} (1-based triplets, zeros left
-- out), q =, mu =}, or nil and a message.
local fclib = {}

function fclib.read(path)
  local fh, msg = io.open(path, "r")
  if not fh then return nil, msg end
  local text = fh:read("a")
  fh:close()
  local next_token = text:gmatch("%S+")
  local function num()
    local t = next_token()
    local v = t and tonumber(t)
    if not v then error(path .. ": unexpected end or token " .. tostring(t)) end
    return v
  end
  local function int() return math.tointeger(num()) or error(path .. ": an integer was expected") end
  local dim, nc, storage = int(), int(), int()
  assert(dim == 3, path .. ": only 3D problems are read")
  local s0, s1 = int(), int()
  local n = 3 * nc
  assert(s0 == n and s1 == n, path .. ": the matrix is not 3 nc square")
  local I, J, V = {}, {}, {}
  local function push(i, j, v)
    if v ~= 0.0 then
      local e = #V + 1
      I[e], J[e], V[e] = i, j, v
    end
  end
  if storage == 0 then
    assert(int() == s0 and int() == s1, path .. ": dense sizes disagree")
    for j = 1, n do
      for i = 1, n do push(i, j, num()) end
    end
  elseif storage == 1 then
    local _, br, bc = int(), int(), int()
    local rs, cs = {[0] = 0}, {[0] = 0}
    for k = 1, br do rs[k] = int() end
    for k = 1, bc do cs[k] = int() end
    local f1, f2 = int(), int()
    local p1, p2 = {}, {}
    for k = 1, f1 do p1[k] = int() end
    for k = 1, f2 do p2[k] = int() end
    for bi = 1, f1 - 1 do
      for k = p1[bi] + 1, p1[bi + 1] do
        local bj = p2[k] + 1
        int() -- the block's number
        local r0, c0 = rs[bi - 1], cs[bj - 1]
        for jj = 1, cs[bj] - c0 do
          for ii = 1, rs[bi] - r0 do push(r0 + ii, c0 + jj, num()) end
        end
      end
    end
  else
    error(path .. ": unknown matrix storage " .. storage)
  end
  local q, mu = {}, {}
  for i = 1, n do q[i] = num() end
  for c = 1, nc do mu[c] = num() end
  return {nc = nc, n = n, M = {n = n, i = I, j = J, v = V}, q = q, mu = mu}
end

--- u = M r + q for the problem's triplets
function fclib.velocity(p, r)
  local u = {}
  for i = 1, p.n do u[i] = p.q[i] end
  local I, J, V = p.M.i, p.M.j, p.M.v
  for e = 1, #V do u[I[e]] = u[I[e]] + V[e] * r[J[e]] end
  return u
end

local sqrt, max = math.sqrt, math.max

local function project_cone(x0, x1, x2, m)
  local nt = sqrt(x1 * x1 + x2 * x2)
  if m * nt <= -x0 then return 0.0, 0.0, 0.0 end
  if nt <= m * x0 then return x0, x1, x2 end
  local p = (m * nt + x0) / (m * m + 1.0)
  return p, m * p * x1 / nt, m * p * x2 / nt
end

--- Siconos' fc3d_compute_error of r (u recomputed), written again here from its definition
function fclib.error(p, r)
  local u = fclib.velocity(p, r)
  local e2, nr, nu, nq = 0.0, 0.0, 0.0, 0.0
  for c = 1, p.nc do
    local i, m = 3 * c - 2, p.mu[c]
    local w0, w1, w2 = project_cone(r[i] - u[i] - m * sqrt(u[i + 1] ^ 2 + u[i + 2] ^ 2),
                                    r[i + 1] - u[i + 1], r[i + 2] - u[i + 2], m)
    e2 = e2 + (r[i] - w0) ^ 2 + (r[i + 1] - w1) ^ 2 + (r[i + 2] - w2) ^ 2
  end
  for i = 1, p.n do nr, nu, nq = nr + r[i] ^ 2, nu + u[i] ^ 2, nq + p.q[i] ^ 2 end
  local s = max(sqrt(nq), sqrt(nr), sqrt(nu))
  return s > 2.220446049250313e-16 and sqrt(e2) / s or sqrt(e2), u
end

return fclib
