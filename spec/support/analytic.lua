-- Closed-form helpers for the physics specs, written independently of the code under test.
local M = {}

--- Complete elliptic integral of the first kind K(k), by the arithmetic-geometric mean:
--- K(k) = pi / (2 AGM(1, sqrt(1 - k^2))).
function M.elliptic_k(k)
  local a, b = 1.0, math.sqrt(1.0 - k * k)
  for _ = 1, 60 do
    local an = 0.5 * (a + b)
    b = math.sqrt(a * b)
    a = an
    if math.abs(a - b) < 1e-16 * a then break end
  end
  return math.pi / (2 * a)
end

--- The period of a physical pendulum (moment of inertia I about the pivot, mass m, pivot to
--- centre of mass d) released from rest at amplitude th0: T = 4 sqrt(I / (m g d)) K(sin(th0 / 2)).
function M.pendulum_period(I, m, g, d, th0)
  return 4 * math.sqrt(I / (m * g * d)) * M.elliptic_k(math.sin(th0 / 2))
end

--- q* v q for a unit quaternion q = {w, x, y, z} (world vector to body frame).
function M.unrotate(q, v)
  local w, x, y, z = q[1], -q[2], -q[3], -q[4]
  -- t = 2 u x v; v' = v + w t + u x t
  local tx = 2 * (y * v[3] - z * v[2])
  local ty = 2 * (z * v[1] - x * v[3])
  local tz = 2 * (x * v[2] - y * v[1])
  return { v[1] + w * tx + (y * tz - z * ty), v[2] + w * ty + (z * tx - x * tz),
           v[3] + w * tz + (x * ty - y * tx) }
end

--- q v q* for a unit quaternion q (body vector to world frame).
function M.rotate(q, v)
  return M.unrotate({ q[1], -q[2], -q[3], -q[4] }, v)
end

--- Times at which the series ys crosses zero (linear interpolation between samples).
function M.zero_crossings(ts, ys)
  local out = {}
  for i = 2, #ys do
    if (ys[i - 1] < 0) ~= (ys[i] < 0) then
      local f = ys[i - 1] / (ys[i - 1] - ys[i])
      out[#out + 1] = ts[i - 1] + f * (ts[i] - ts[i - 1])
    end
  end
  return out
end

--- The mean period of x() while w steps until w.time reaches duration: from x's upward zero
--- crossings, each located by linear interpolation within its step.
function M.stepped_period(w, x, duration)
  local crossings, prev, tprev = {}, x(), w.time
  while w.time < duration do
    w:step()
    local now = x()
    if prev < 0 and now >= 0 then
      crossings[#crossings + 1] = tprev + (w.time - tprev) * (-prev) / (now - prev)
    end
    prev, tprev = now, w.time
  end
  return (crossings[#crossings] - crossings[1]) / (#crossings - 1)
end

--- The largest |a_i - b_i| / max(|b_i|, floor).
function M.max_rel_diff(a, b, floor)
  local m = 0
  for i = 1, #b do
    m = math.max(m, math.abs(a[i] - b[i]) / math.max(math.abs(b[i]), floor or 0))
  end
  return m
end

function M.norm(v)
  local s = 0
  for i = 1, #v do s = s + v[i] * v[i] end
  return math.sqrt(s)
end

return M
