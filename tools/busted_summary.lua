-- busted output handler: plainTerminal's report, then "N passed, N failed" (failed counts
-- failures and errors) as the last line.
return function(options)
  local busted = require("busted")
  local inner = require("busted.outputHandlers.plainTerminal")(options)
  busted.subscribe({ "suite", "end" }, function()
    local failed = inner.failuresCount + inner.errorsCount
    io.write(string.format("specs: %d passed, %d failed", inner.successesCount, failed))
    if inner.pendingsCount > 0 then io.write(string.format(" (%d pending)", inner.pendingsCount)) end
    io.write("\n")
    io.flush()
    return nil, true
  end)
  return inner
end
