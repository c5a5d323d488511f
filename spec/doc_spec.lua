-- The reference is complete: config.ld takes every module and manual chapter, every module has
-- its @module tag, every option the world and body constructors accept, every World, Body and
-- Shape method has its entry, and the options once found only in source comments are
-- documented. LDoc itself runs only when installed (`make docs` installs it); the rest reads
-- the sources.
local impact = require("impact")
local files = require("spec.support.files")

local function lines_of(cmd)
  local out = {}
  local p = assert(io.popen(cmd))
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

-- the whole documentation's sources as one text: the modules, doc/api, the manual
local function all_sources()
  local parts = {}
  for _, path in ipairs(lines_of("ls lua/impact/*.lua doc/api/*.luadoc doc/manual/*.md")) do
    parts[#parts + 1] = files.read(path)
  end
  return table.concat(parts, "\n")
end

-- the accepted keys an unknown-option error lists
local function accepted(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  local list = assert(tostring(err):match("%(accepted: (.-)%)"), tostring(err))
  local keys = {}
  for k in list:gmatch("[%w_]+") do keys[#keys + 1] = k end
  return keys
end

describe("the reference (make docs)", function()
  it("config.ld takes every module and every manual chapter", function()
    local config = files.read("config.ld")
    assert.matches('"lua/impact"', config, 1, true)
    assert.matches('"doc/api"', config, 1, true)
    assert.matches('dir = "doc"', config, 1, true)
    for _, path in ipairs(lines_of("ls doc/manual/*.md")) do
      assert.is_truthy(config:find('"' .. path .. '"', 1, true), path .. " is not a topic of config.ld")
    end
  end)

  it("tags every Lua module with its name", function()
    for _, path in ipairs(lines_of("ls lua/impact/*.lua")) do
      local name = path:match("lua/impact/(.-)%.lua$")
      local module = name == "init" and "impact" or "impact." .. name
      local text = files.read(path)
      assert.is_truthy(text:find("\n%-%- @module " .. module:gsub("%p", "%%%0") .. "\n"),
        path .. " has no '-- @module " .. module .. "'")
    end
  end)

  it("documents every option of impact.world2d/world3d, w:add_body and w:add_spring", function()
    local world_doc = files.read("doc/api/world.luadoc")
    local body_doc = files.read("doc/api/body.luadoc")
    for _, ctor in ipairs { impact.world2d, impact.world3d } do
      for _, k in ipairs(accepted(function() ctor { not_an_option = 1 } end)) do
        assert.is_truthy(world_doc:find("@field " .. k .. " ", 1, true), "world option " .. k)
      end
      local w = ctor {}
      for _, k in ipairs(accepted(function() w:add_body { not_an_option = 1 } end)) do
        assert.is_truthy(body_doc:find("@field " .. k .. " ", 1, true), "add_body option " .. k)
      end
      local spring_doc = files.read("doc/api/spring.luadoc")
      for _, k in ipairs(accepted(function() w:add_spring { not_an_option = 1 } end)) do
        assert.is_truthy(spring_doc:find("@field " .. k .. " ", 1, true), "add_spring option " .. k)
      end
    end
  end)

  it("has an entry for every World, Body and Shape method", function()
    local docs = all_sources()
    local function documented(class, name)
      return docs:find("@function " .. class .. ":" .. name .. "\n", 1, true)
        or docs:find("%-%-%-[^\n]*\n[ \t]*function " .. class .. ":" .. name .. "%(")
        or docs:find("%-%-[^\n]*\n[ \t]*function " .. class .. ":" .. name .. "%(")
    end
    local w = impact.world2d {}
    local b = w:add_body { shape = impact.shape2d.ball { radius = 1 }, mass = 1 }
    local classes = {
      World = impact.core.World,
      Body = impact.core.Body,
      Shape = getmetatable(b.shape).methods,
    }
    for class, methods in pairs(classes) do
      for name, v in pairs(methods) do
        if type(v) == "function" and not name:match("^_") then
          assert.is_truthy(documented(class, name), class .. ":" .. name .. " has no entry")
        end
      end
    end
  end)

  it("documents the options once found only in source comments", function()
    local docs = all_sources()
    for _, needle in ipairs {
      "`friction` | `{[t] = k, ...}`",           -- the LCP friction format (doc/manual/07-lcp.md)
      "impact.batch.params()", "impact.batch.result", -- parameter sweeps
      "Every engine takes a `label`",             -- dem engines' labels
      "dem.lua_engine{label =, fn =}",
      "dem.load(path, {functions = {label = fn, ...}})",
      "dem.newton{track_energy = true}",
      "Returns **two tables**",                   -- Shape:bounds
      "the smaller of the two",                    -- the friction combination rule
    } do
      assert.is_truthy(docs:find(needle, 1, true), "not documented: " .. needle)
    end
  end)

  it("links from the README to the manual chapters that exist", function()
    local readme = files.read("README.md")
    local n = 0
    for target in readme:gmatch("%]%(([^)#]+)%)") do
      if not target:match("^https?:") then
        n = n + 1
        assert.is_truthy(io.open(target, "r"), "README links to a missing " .. target)
      end
    end
    assert.is_true(n >= 5, "the README links to the reference")
    for example in readme:gmatch("examples/([%w_]+%.lua)") do
      assert.is_truthy(io.open("examples/" .. example, "r"), "README names a missing examples/" .. example)
    end
  end)

  it("is written by LDoc into doc/ (when LDoc is installed)", function()
    if os.execute("command -v ldoc >/dev/null 2>&1") ~= true then
      pending("ldoc is not installed (make docs installs lua-ldoc)")
      return
    end
    local dir = files.tmpdir()
    -- (without the sanitizers' runtimes that make sanitize preloads: ldoc's wrapper is no test)
    local p = assert(io.popen("LD_PRELOAD= ldoc -d " .. dir .. " . 2>&1"))
    local out = p:read("a")
    local ok = p:close()
    assert.is_true(ok == true, out)
    assert.is_nil(out:find("[Ww]arning"), out)
    for _, page in ipairs { "index.html", "classes/World.html", "classes/Body.html", "classes/Shape.html",
                            "classes/Spring.html",
                            "modules/impact.dem.html", "modules/impact.lcp.html",
                            "topics/05-dem.md.html" } do
      assert.is_truthy(io.open(dir .. "/" .. page, "r"), page .. " was not written")
    end
    local world = files.read(dir .. "/classes/World.html")
    assert.is_truthy(world:find("World:run", 1, true))
    os.execute("rm -rf '" .. dir .. "'")
  end)
end)
