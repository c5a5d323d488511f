-- The documentation cannot lie: every Lua block of README.md and of the manual (doc/manual/*.md)
-- runs, each in an empty folder, and prints exactly the output block that follows it (when one
-- does). A block may be marked on the line before its fence:
--   <!-- spec: compile -->        a listing of options or calls: it must compile, it is not run
--   <!-- spec: busted -->         a busted spec: run by `bin/impact spec` and must pass
--   <!-- spec: needs CMD -->      runs only when the command CMD is installed (pending otherwise)
-- The script runner is spec.support.files' (run_script); the README's own scenes are also
-- checked by examples_spec.lua and engine3d_api_spec.lua.
local files = require("spec.support.files")

-- the ```lua blocks of a Markdown file: { code, shown (the ``` block right after, or nil),
-- mark, line }
local function lua_blocks(path)
  local text = files.read(path)
  local list, pos = {}, 1
  while true do
    local s, e, code = text:find("```lua\n(.-)```", pos)
    if not s then break end
    local before = text:sub(1, s - 1)
    list[#list + 1] = {
      code = code,
      shown = text:match("^%s*```\n(.-)```", e + 1),
      mark = before:match("<!%-%- spec: ([^>]-) %-%->%s*$"),
      line = select(2, before:gsub("\n", "")) + 1,
    }
    pos = e + 1
  end
  return list
end

-- the @usage examples of the API reference (doc/api/*.luadoc, lua/impact/*.lua): { code, line }
local function usage_blocks(path)
  local list, current = {}, nil
  local n = 0
  for l in io.lines(path) do
    n = n + 1
    local first = l:match("^%-%-+%s*@usage%s?(.*)$")
    if first then
      current = { code = first .. "\n", line = n }
      list[#list + 1] = current
    elseif current and l:match("^%-%-") and not l:match("^%-%-+%s*@") and not l:match("^%-%-%-") then
      current.code = current.code .. l:gsub("^%-%- ?", "") .. "\n"
    else
      current = nil
    end
  end
  return list
end

local function installed(cmd)
  return os.execute("command -v " .. cmd .. " >/dev/null 2>&1") == true
end

local documents = { "README.md" }
do
  local p = assert(io.popen("ls doc/manual/*.md 2>/dev/null"))
  for path in p:lines() do documents[#documents + 1] = path end
  p:close()
end

describe("documentation blocks", function()
  it("are found: README.md and the manual have Lua blocks, every mark is known", function()
    assert.is_true(#documents >= 2, "no manual chapters in doc/manual")
    local readme = lua_blocks("README.md")
    assert.is_true(#readme >= 8, "README.md: " .. #readme .. " Lua blocks")
    for _, doc in ipairs(documents) do
      for _, b in ipairs(lua_blocks(doc)) do
        local known = b.mark == nil or b.mark == "compile" or b.mark == "busted"
          or b.mark:match("^needs %S+$")
        assert.is_truthy(known, string.format("%s:%d: unknown mark %q", doc, b.line, tostring(b.mark)))
      end
    end
  end)

  it("in README.md mostly run: at most a few are marked", function()
    local marked = 0
    for _, b in ipairs(lua_blocks("README.md")) do
      if b.mark then marked = marked + 1 end
    end
    assert.is_true(marked <= 2, marked .. " README blocks are marked")
  end)

  do
    local p = assert(io.popen("ls doc/api/*.luadoc lua/impact/*.lua"))
    local paths = {}
    for path in p:lines() do paths[#paths + 1] = path end
    p:close()
    local count = 0
    for _, path in ipairs(paths) do
      for _, u in ipairs(usage_blocks(path)) do
        count = count + 1
        it(string.format("%s:%d @usage runs", path, u.line), function()
          local dir = files.tmpdir()
          local out, ok = files.run_script('local impact = require "impact"\n' .. u.code, { dir = dir })
          os.execute("rm -rf '" .. dir .. "'")
          assert.is_true(ok, out)
        end)
      end
    end
    it("(the reference has @usage examples)", function() assert.is_true(count >= 1) end)
  end

  for _, doc in ipairs(documents) do
    for _, b in ipairs(lua_blocks(doc)) do
      local name = string.format("%s:%d %s", doc, b.line,
        b.mark or (b.shown and "prints what it shows" or "runs"))
      local needs = b.mark and b.mark:match("^needs (%S+)$")
      if needs and not installed(needs) then
        pending(name .. " (" .. needs .. " is not installed)")
      elseif b.mark == "compile" then
        it(name, function()
          local f, err = load(b.code, "=" .. doc .. ":" .. b.line)
          assert.is_not_nil(f, err)
        end)
      elseif b.mark == "busted" then
        it(name, function()
          local dir = files.tmpdir()
          local spec = dir .. "/doc_block_spec.lua"
          local f = assert(io.open(spec, "w"))
          f:write(b.code)
          f:close()
          local p = assert(io.popen("lua5.4 bin/impact spec " .. spec .. " 2>&1"))
          local out = p:read("a")
          local ok = p:close()
          os.execute("rm -rf '" .. dir .. "'")
          assert.is_true(ok == true, out)
          assert.matches("1 success / 0 failures / 0 errors", out)
        end)
      else
        it(name, function()
          local dir = files.tmpdir()
          local out, ok = files.run_script(b.code, { dir = dir })
          os.execute("rm -rf '" .. dir .. "'")
          assert.is_true(ok, out)
          if b.shown then assert.are.equal(b.shown, out) end
        end)
      end
    end
  end
end)
