-- busted output handler: plainTerminal's report, then "N passed, N failed" (failed counts
-- failures and errors) as the last line. With IMPACT_SPEC_TIMES=path, each spec file's CPU
-- seconds (os.clock) are written to that file, heaviest first (to keep the CI run's budget).
return function(options)
  local busted = require("busted")
  local inner = require("busted.outputHandlers.plainTerminal")(options)
  local times_path = os.getenv("IMPACT_SPEC_TIMES")
  local times, started = {}, nil
  if times_path and times_path ~= "" then
    busted.subscribe({ "file", "start" }, function()
      started = os.clock()
      return nil, true
    end)
    busted.subscribe({ "file", "end" }, function(file)
      if started then times[#times + 1] = { name = file.name, cpu = os.clock() - started } end
      return nil, true
    end)
  end
  busted.subscribe({ "suite", "end" }, function()
    if #times > 0 then
      table.sort(times, function(a, b) return a.cpu > b.cpu end)
      local f = assert(io.open(times_path, "w"))
      for _, t in ipairs(times) do f:write(string.format("%8.2f %s\n", t.cpu, t.name)) end
      f:close()
    end
    local failed = inner.failuresCount + inner.errorsCount
    io.write(string.format("specs: %d passed, %d failed", inner.successesCount, failed))
    if inner.pendingsCount > 0 then io.write(string.format(" (%d pending)", inner.pendingsCount)) end
    io.write("\n")
    io.flush()
    return nil, true
  end)
  return inner
end
