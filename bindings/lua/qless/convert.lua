-- qless.convert: the few conversions every layer file needs between the
-- generated proxies and Lua values (string lists, job lists, job data).
local core = require "qless_core"
local json = require "qless.codec"

local M = {}

-- Raises the same error object the core raises for a bad argument.
function M.invalid(message)
  error(core.new_error(core.QLESS_EINVAL, message), 0)
end

-- StrList proxy -> {strings}, {numbers} (nil -> empty tables).
function M.strings(list)
  local items, numbers = {}, {}
  for i = 0, (list and list:size() or 0) - 1 do
    items[i + 1], numbers[i + 1] = list:get(i), list:number(i)
  end
  return items, numbers
end

-- TimeList proxy (cron.next, recur.next) -> {epoch seconds, ...}.
function M.times(list)
  local t = {}
  for i = 0, list:size() - 1 do t[i + 1] = list:get(i) end
  return t
end

-- Arguments given either as one table of strings or as several strings
-- (job:tag("a", "b") or job:tag{"a", "b"}) -> one table.
function M.list(first, ...)
  if type(first) == "table" and select("#", ...) == 0 then return first end
  return { first, ... }
end

-- Job data for the core: a string is passed as is (it must already hold
-- JSON; the core checks it), a table is encoded, nil means {}.
function M.data(value)
  if value == nil or type(value) == "string" then return value end
  local ok, text = pcall(json.encode, value)
  if not ok then M.invalid("job data: " .. text) end
  return text
end

-- Decodes JSON text from the core; nil stays nil.
function M.decode(text)
  if text == nil then return nil end
  return json.decode(text)
end

-- Seconds (Lua idiom) -> milliseconds (C); nil -> nil (the core's
-- default), negative -> -1 (wait forever).
function M.ms(seconds)
  if seconds == nil then return nil end
  if seconds < 0 then return -1 end
  return math.max(1, math.floor(seconds * 1000 + 0.5))
end

-- JobList proxy -> table of objects made by wrap, each owning its job.
function M.jobs(list, wrap)
  local jobs = {}
  for i = 0, (list and list:size() or 0) - 1 do jobs[#jobs + 1] = wrap(list:take(i)) end
  return jobs
end

return M
