-- A small, strict XML reader for the specs: checks well-formedness (one root, matching and
-- properly nested tags, quoted and unique attributes, known entities, nothing but space around
-- the root) and returns the tree { name =, attrs = {}, children = {}, text = "" }. Raises on the
-- first error with its byte offset. Enough for SVG, VTK and PVD files; not a validating parser.
local M = {}

local entities = { amp = "&", lt = "<", gt = ">", quot = '"', apos = "'" }

local function unescape(s, at)
  return (s:gsub("&(#?x?%w*);?", function(e)
    if entities[e] then return entities[e] end
    local hex = e:match("^#x(%x+)$")
    local dec = e:match("^#(%d+)$")
    if hex then return utf8.char(tonumber(hex, 16)) end
    if dec then return utf8.char(tonumber(dec)) end
    error(string.format("xml: unknown entity &%s; near byte %d", e, at), 0)
  end))
end

function M.parse(text)
  local pos, root, stack = 1, nil, {}
  local function fail(msg) error(string.format("xml: %s at byte %d", msg, pos), 0) end
  local function add_text(s)
    if s == "" then return end
    if #stack == 0 then
      if s:match("%S") then fail("text outside the root element") end
      return
    end
    if s:find("<", 1, true) then fail("'<' in text") end
    local top = stack[#stack]
    top.text = top.text .. unescape(s, pos)
  end
  while pos <= #text do
    local lt = text:find("<", pos, true)
    if not lt then
      add_text(text:sub(pos))
      break
    end
    add_text(text:sub(pos, lt - 1))
    pos = lt
    if text:sub(pos, pos + 3) == "<!--" then
      local e = text:find("-->", pos + 4, true) or fail("unclosed comment")
      pos = e + 3
    elseif text:sub(pos, pos + 1) == "<?" then
      local e = text:find("?>", pos + 2, true) or fail("unclosed processing instruction")
      pos = e + 2
    elseif text:sub(pos, pos + 8) == "<!DOCTYPE" then
      local e = text:find(">", pos, true) or fail("unclosed DOCTYPE")
      pos = e + 1
    elseif text:sub(pos, pos + 1) == "</" then
      local name, e = text:match("^</([%w_:%.%-]+)%s*>()", pos)
      if not name then fail("bad closing tag") end
      local top = table.remove(stack)
      if not top or top.name ~= name then
        fail(string.format("closing tag </%s> does not match <%s>", name, top and top.name or "nothing"))
      end
      pos = e
    else
      local name, p = text:match("^<([%a_:][%w_:%.%-]*)()", pos)
      if not name then fail("bad tag") end
      local el = { name = name, attrs = {}, children = {}, text = "" }
      while true do
        local ws, after_ws = text:match("^(%s*)()", p)
        p = after_ws
        if text:sub(p, p + 1) == "/>" then
          p = p + 2
          el.closed = true
          break
        elseif text:sub(p, p) == ">" then
          p = p + 1
          break
        end
        if ws == "" then fail("attributes must be separated by space in <" .. name .. ">") end
        local key, q, after = text:match("^([%a_:][%w_:%.%-]*)%s*=%s*([\"'])()", p)
        if not key then fail("bad attribute in <" .. name .. ">") end
        local close = text:find(q, after, true) or fail("unclosed attribute value")
        local value = text:sub(after, close - 1)
        if value:find("<", 1, true) then fail("'<' in an attribute value") end
        if el.attrs[key] ~= nil then fail("attribute " .. key .. " given twice") end
        el.attrs[key] = unescape(value, p)
        p = close + 1
      end
      pos = p
      if #stack == 0 then
        if root then fail("a second root element <" .. name .. ">") end
        root = el
      else
        local parent = stack[#stack]
        parent.children[#parent.children + 1] = el
      end
      if not el.closed then stack[#stack + 1] = el end
    end
  end
  if #stack > 0 then error("xml: <" .. stack[#stack].name .. "> is never closed", 0) end
  if not root then error("xml: no root element", 0) end
  return root
end

-- every descendant element named name, in document order
function M.find_all(el, name, out)
  out = out or {}
  for _, c in ipairs(el.children) do
    if c.name == name then out[#out + 1] = c end
    M.find_all(c, name, out)
  end
  return out
end

-- the numbers in an element's text
function M.numbers(el)
  local out = {}
  for w in el.text:gmatch("%S+") do out[#out + 1] = assert(tonumber(w), "not a number: " .. w) end
  return out
end

return M
