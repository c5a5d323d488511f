std = "lua54"
max_line_length = 110
codes = true
include_files = { "lua/**/*.lua", "spec/**/*.lua", "examples/**/*.lua", "bench/**/*.lua",
                  "tools/**/*.lua", "rockspec/*.rockspec", ".busted", ".luacheckrc" }
exclude_files = { "rocks/", "build/", "build-san/", "build-vg/" }
files["spec/"] = { std = "+busted" }
files["rockspec/"] = { std = "+rockspec" }
