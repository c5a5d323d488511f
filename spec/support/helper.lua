-- Loaded before every spec file (see .busted).
assert(_VERSION == "Lua 5.4", "run the specs with lua5.4 (make test), not " .. _VERSION)
require("impact.assertions")
