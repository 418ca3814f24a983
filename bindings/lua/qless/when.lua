-- qless.when: English time text read by libqless (no server, UTC), and the
-- error helpers the layer's modules share.
local core = require "qless_core"

local M = {}

local KINDS = { [core.QLESS_WHEN_AT] = "at", [core.QLESS_WHEN_INTERVAL] = "interval", [core.QLESS_WHEN_CRON] = "cron" }

-- Raises a plain message for a value of the wrong type, as SWIG's own
-- checks and the option tables do (values of the right type that make no
-- sense are InvalidArgument).
function M.type_error(what, expected, value)
  error(string.format("%s must be %s, not %s", what, expected, type(value)), 0)
end

-- Calls f(...); its error (a qless error, or a plain message) gets
-- "<where>: " before its message, naming the call and argument.
function M.named(where, f, ...)
  local results = table.pack(pcall(f, ...))
  if results[1] then return table.unpack(results, 2, results.n) end
  local err = results[2]
  if type(err) == "string" then err = where .. ": " .. err end
  if type(err) == "table" and type(err.message) == "string" then err.message = where .. ": " .. err.message end
  error(err, 0)
end

-- qless.when(text[, now]) -> {kind = "at"|"interval"|"cron", at, interval, cron}
function M.when(text, now)
  if type(text) ~= "string" then M.type_error("qless.when: text", "a string", text) end
  if now ~= nil and type(now) ~= "number" then M.type_error("qless.when: now", "a number", now) end
  local w = core.qless_when()
  M.named("qless.when", core.qless_when_parse, text, now or core.time(), w)
  return { kind = KINDS[w.kind], at = w.at, interval = w.interval, cron = w.cron }
end

return M
