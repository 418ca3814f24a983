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

-- qless.when(text[, now[, {day_first = true}]]) -> {kind = "at"|"interval"|"cron", at, interval, cron
-- [, warning]}; warning (only when there is one): what the text was read as that it may not mean (a weekday
-- that is not the date's: the date is used). day_first: 27/5/1979 is day/month/year.
function M.when(text, now, opts)
  if type(text) ~= "string" then M.type_error("qless.when: text", "a string", text) end
  if now ~= nil and type(now) ~= "number" then M.type_error("qless.when: now", "a number", now) end
  if opts ~= nil and type(opts) ~= "table" then M.type_error("qless.when: options", "a table", opts) end
  for k in pairs(opts or {}) do
    if k ~= "day_first" then error(string.format("qless.when: unknown option %s", tostring(k)), 0) end
  end
  local day_first = opts and opts.day_first
  if day_first ~= nil and type(day_first) ~= "boolean" then
    M.type_error("qless.when: day_first", "a boolean", day_first)
  end
  local w = core.qless_when()
  w.flags = day_first and core.QLESS_WHEN_DAY_FIRST or 0
  M.named("qless.when", core.qless_when_parse, text, now or core.time(), w)
  local warning = core.qless_when_warning()
  return { kind = KINDS[w.kind], at = w.at, interval = w.interval, cron = w.cron,
           warning = warning ~= "" and warning or nil }
end

return M
