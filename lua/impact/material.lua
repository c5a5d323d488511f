--- impact.material and impact.contact_pair: the palette of solid materials and the
--- contact-pair materials used by the compliant strategy.
---
---   impact.material.define("rubber", { E = 1e7, nu = 0.45, density = 1100 })
---   impact.contact_pair.define("steel", "rubber", { cor = 0.8, mu_k = 0.5, mu_r = 0.01,
---                                                   vsmall = 0.01, wsmall = 0.01 })
---
--- E in N/m^2, nu (Poisson's ratio) in [0, 0.5), density in kg/m^3. cor in [0, 1]; mu_k
--- (sliding friction) and mu_r (rolling resistance) >= 0; vsmall (m/s) and wsmall (rad/s) > 0,
--- default 0.01. A body takes a material by name: w:add_body{ ..., material = "steel" }; its
--- density then defaults to the material's.
-- @module impact.material
local core = require("impact.core")
local options = require("impact.options")

local registry = { materials = {}, pairs = {}, version = 0 }
core.material_registry(registry)

-- impact.options' checks, naming properties, erroring at the caller of the public function
local function check_number(what, key, v, lo, hi, lo_open, hi_open)
  local r = options.check_number(what, key, v, { min = lo, max = hi, min_open = lo_open, max_open = hi_open,
    noun = "property", level = 3 })
  return r
end

local function check_keys(what, props, accepted)
  options.check_keys(what, props, accepted, { noun = "property", level = 3 })
end

local material = {}

local material_keys = { E = true, nu = true, density = true }

--- Defines (or redefines) a solid material.
function material.define(name, props)
  local what = "impact.material.define"
  if type(name) ~= "string" or name == "" or name:find("|", 1, true) then
    error(what .. ": the name must be a non-empty string without '|', got " .. tostring(name), 2)
  end
  check_keys(what, props, material_keys)
  registry.materials[name] = {
    E = check_number(what, "E", props.E, 0, nil, true),
    nu = check_number(what, "nu", props.nu, 0, 0.5, false, true),
    density = check_number(what, "density", props.density, 0, nil, true),
  }
  registry.version = registry.version + 1
end

--- The properties of a material, or nil.
function material.get(name)
  local m = registry.materials[name]
  return m and { E = m.E, nu = m.nu, density = m.density } or nil
end

--- The names of the defined materials, sorted.
function material.names()
  local names = {}
  for n in pairs(registry.materials) do names[#names + 1] = n end
  table.sort(names)
  return names
end

local contact_pair = {}

local pair_keys = { cor = true, mu_k = true, mu_r = true, vsmall = true, wsmall = true }

local function pair_key(a, b)
  if a > b then a, b = b, a end
  return a .. "|" .. b
end

--- Defines the contact-pair material of two materials (in either order).
function contact_pair.define(a, b, props)
  local what = "impact.contact_pair.define"
  for _, n in ipairs { a, b } do
    if type(n) ~= "string" or not registry.materials[n] then
      error(string.format("%s: unknown material %s (known: %s)", what,
        type(n) == "string" and string.format("%q", n) or tostring(n),
        table.concat(material.names(), ", ")), 2)
    end
  end
  check_keys(what, props, pair_keys)
  registry.pairs[pair_key(a, b)] = {
    cor = check_number(what, "cor", props.cor, 0, 1),
    mu_k = check_number(what, "mu_k", props.mu_k or 0, 0),
    mu_r = check_number(what, "mu_r", props.mu_r or 0, 0),
    vsmall = check_number(what, "vsmall", props.vsmall or 0.01, 0, nil, true),
    wsmall = check_number(what, "wsmall", props.wsmall or 0.01, 0, nil, true),
  }
  registry.version = registry.version + 1
end

--- The contact-pair material of two materials, or nil.
function contact_pair.get(a, b)
  local p = registry.pairs[pair_key(a, b)]
  if not p then return nil end
  local copy = {}
  for k, v in pairs(p) do copy[k] = v end
  return copy
end

-- The built-in palette (values of Modia3D's palettes; rubber and glass from handbooks).
material.define("steel", { E = 2.0e11, nu = 0.30, density = 8000 })
material.define("aluminium", { E = 6.9e10, nu = 0.32, density = 2700 })
material.define("wood", { E = 1.1e10, nu = 0.40, density = 700 })
material.define("rubber", { E = 1.0e7, nu = 0.45, density = 1100 })
material.define("glass", { E = 7.0e10, nu = 0.22, density = 2500 })
material.define("billiard_ball", { E = 5.4e9, nu = 0.34, density = 1768 })
material.define("billiard_table", { E = 1.1e10, nu = 0.40, density = 700 })
material.define("billiard_cushion", { E = 1.1e10, nu = 0.40, density = 700 })

contact_pair.define("steel", "steel", { cor = 0.7, mu_k = 0.5, mu_r = 0.001 })
contact_pair.define("aluminium", "aluminium", { cor = 0.7, mu_k = 0.5, mu_r = 0.001 })
contact_pair.define("wood", "wood", { cor = 0.6, mu_k = 0.3, mu_r = 0.001 })
contact_pair.define("billiard_ball", "billiard_ball", { cor = 1.0, mu_k = 0, mu_r = 0 })
contact_pair.define("billiard_ball", "billiard_table", { cor = 0.0, mu_k = 0.8, mu_r = 0.01 })
contact_pair.define("billiard_ball", "billiard_cushion", { cor = 0.98, mu_k = 0, mu_r = 0 })

return { material = material, contact_pair = contact_pair }
