-- qless.when: English time text read by libqless (no server, UTC), and the
-- time values schedules take: text or a number (epoch seconds for a time,
-- seconds for a duration).
local core = require "qless_core"
local convert = require "qless.convert"

local M = {}

local KINDS = { [core.QLESS_WHEN_AT] = "at", [core.QLESS_WHEN_INTERVAL] = "interval", [core.QLESS_WHEN_CRON] = "cron" }

-- Raises a plain message for a value of the wrong type, as SWIG's own
-- checks and the option tables do (values of the right type that make no
-- sense are InvalidArgument).
function M.type_error(what, expected, value)
  error(string.format("%s must be %s, not %s", what, expected, type(value)), 0)
end

-- err (a qless error, or a plain message) with "<where>: " before its
-- message, so that it names the call and argument it came from.
local function prefixed(where, err)
  if type(err) == "string" then return where .. ": " .. err end
  if type(err) == "table" and type(err.message) == "string" then err.message = where .. ": " .. err.message end
  return err
end

-- Calls f(...), raising its error prefixed with where.
function M.named(where, f, ...)
  local results = table.pack(pcall(f, ...))
  if results[1] then return table.unpack(results, 2, results.n) end
  error(prefixed(where, results[2]), 0)
end

local function parse(text, now)
  local w = core.qless_when()
  core.qless_when_parse(text, now, w)
  return { kind = KINDS[w.kind], at = w.at, interval = w.interval, cron = w.cron }
end

-- qless.when(text[, now]) -> {kind = "at"|"interval"|"cron", at, interval,
-- cron}: "at" runs once at `at`; "interval" every `interval` seconds, first
-- at `at`; "cron" at the fire times of `cron` (normalised; `at` is 0).
-- now: epoch seconds (default: the clock). InvalidArgument names the word
-- and column where the text went wrong.
function M.when(text, now)
  if type(text) ~= "string" then M.type_error("qless.when: text", "a string", text) end
  if now ~= nil and type(now) ~= "number" then M.type_error("qless.when: now", "a number", now) end
  return M.named("qless.when", parse, text, now or core.time())
end

-- Reads text as parse does, with word (e.g. "in", "every") put before it
-- unless it starts with it; errors name `what`, and their columns count in
-- the text as given.
local function read(what, word, text, now)
  local shift = 0
  if word and not text:lower():match("^%s*" .. word .. "%s") then
    text, shift = word .. " " .. text, #word + 1
  end
  local ok, found = pcall(parse, text, now)
  if ok then return found end
  if shift > 0 and type(found) == "table" and type(found.message) == "string" then
    found.message = found.message:gsub("at column (%d+)",
      function(column) return "at column " .. math.max(1, tonumber(column) - shift) end)
  end
  error(prefixed(what, found), 0)
end

local function one_off(what, word, value, now)
  local found = read(what, word, value, now)
  if found.kind ~= "at" then
    convert.invalid(string.format("%s: %q is not a one-off time (it is %s); use every or cron", what, value, found.kind))
  end
  return found.at
end

-- A time: epoch seconds, or text meaning one moment (not a recurrence).
function M.at(value, now, what)
  if type(value) == "number" then return value end
  if type(value) ~= "string" then M.type_error(what, "text or epoch seconds", value) end
  return one_off(what, nil, value, now)
end

-- A duration in seconds: a number, or text such as "5 minutes".
function M.duration(value, now, what)
  if type(value) == "number" then return value end
  if type(value) ~= "string" then M.type_error(what, "text or seconds", value) end
  return one_off(what, "in", value, now) - now
end

-- A recurrence: seconds (-> "interval", seconds, first 0) or text with or
-- without "every" (-> "interval", seconds, first time, or "cron", expression).
function M.every(value, now, what)
  if type(value) == "number" then return "interval", value, 0 end
  if type(value) ~= "string" then M.type_error(what, "text or seconds", value) end
  local found = read(what, "every", value, now)
  if found.kind == "cron" then return "cron", found.cron end
  if found.kind ~= "interval" then convert.invalid(string.format("%s: %q is no recurrence", what, value)) end
  return "interval", found.interval, found.at
end

return M
