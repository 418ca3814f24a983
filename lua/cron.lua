-- Cron expressions (schedules.md §2): parsing with the exact error texts,
-- normalisation, which days match, and FIRST/PREV searched field by field in
-- integer UTC seconds. Walking days or years instead of seconds keeps every
-- search within the bound of §2.9 however far away the answer is.

local CRON_END = 32503680000   -- 3000-01-01T00:00:00Z: no fire time at or after it
local DAY = 86400

local MACROS = {
  ['@yearly'] = '0 0 1 1 *', ['@annually'] = '0 0 1 1 *', ['@monthly'] = '0 0 1 * *',
  ['@weekly'] = '0 0 * * 0', ['@daily'] = '0 0 * * *', ['@midnight'] = '0 0 * * *',
  ['@hourly'] = '0 * * * *',
}

local MONTH_NAMES = {JAN = 1, FEB = 2, MAR = 3, APR = 4, MAY = 5, JUN = 6, JUL = 7, AUG = 8,
  SEP = 9, OCT = 10, NOV = 11, DEC = 12}
local DAY_NAMES = {SUN = 0, MON = 1, TUE = 2, WED = 3, THU = 4, FRI = 5, SAT = 6}

-- Bounds and names of each field, by the name error messages use.
local FIELDS = {
  year = {1970, 2999}, month = {1, 12, MONTH_NAMES}, ['day-of-month'] = {1, 31},
  ['day-of-week'] = {0, 7, DAY_NAMES}, hour = {0, 23}, minute = {0, 59}, second = {0, 59},
}
local SEVEN = {'year', 'month', 'day-of-month', 'day-of-week', 'hour', 'minute', 'second'}
local FIVE = {'minute', 'hour', 'day-of-month', 'month', 'day-of-week'}

-- Calendar (§2.8) ---------------------------------------------------------------

local MONTH_LEN = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

local function leap(y)
  return (y % 4 == 0 and y % 100 ~= 0) or y % 400 == 0
end

local function month_len(y, m)
  if m == 2 and leap(y) then return 29 end
  return MONTH_LEN[m]
end

-- Days from 1970-01-01 to (y, m, d).
local function days(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - 400 * era
  local doy = math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1
  return 146097 * era + 365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
end

-- The inverse of days().
local function civil(n)
  local z = n + 719468
  local era = math.floor(z / 146097)
  local doe = z - 146097 * era
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + 400 * era
  if m <= 2 then y = y + 1 end
  return y, m, d
end

-- A time as YYYY-MM-DDTHH:MM:SSZ; clamped so absurd inputs still format.
local function iso(t)
  t = math.max(math.min(t, 1e15), -1e15)
  local n = math.floor(t / DAY)
  local sod = t - n * DAY
  local y, m, d = civil(n)
  return string.format('%04d-%02d-%02dT%02d:%02d:%02dZ', y, m, d, math.floor(sod / 3600),
    math.floor(sod % 3600 / 60), sod % 60)
end

-- Parsing (§2.1-§2.6) -----------------------------------------------------------

-- Reasons show at most this many bytes of a token or value, cut between
-- characters and followed by "...": a reason quoting a 1000-byte token
-- would not fit the library's message (qless_cron_check, whose reasons
-- are these word for word).
local SHOWN_MAX = 64
local ESCAPES = {['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t', ['"'] = '\\"', ['\\'] = '\\\\'}

local function clipped(text)
  if #text <= SHOWN_MAX then return text, '' end
  local n = SHOWN_MAX
  while n > 0 and string.byte(text, n + 1) >= 0x80 and string.byte(text, n + 1) < 0xC0 do n = n - 1 end
  return string.sub(text, 1, n), '...'
end

-- Digits as error messages show them (no leading zeros).
local function shown(digits)
  local s = string.gsub(digits, '^0+', '')
  if s == '' then s = '0' end
  local kept, cut = clipped(s)
  return kept .. cut
end

-- A token as error messages show it: quoted, control characters, quotes
-- and backslashes escaped (Redis turns CR and LF in an error into spaces).
local function quoted(token)
  local kept, cut = clipped(token)
  local body = string.gsub(kept, '[%z\1-\31\127"\\]', function(c)
    return ESCAPES[c] or string.format('\\x%02x', string.byte(c))
  end)
  return '"' .. body .. '"' .. cut
end

-- A value of the field: digits, or a name where the field has names.
-- Returns the number and the text to show for it, or nil if not a value.
local function value_of(spec, text)
  if string.find(text, '^%d+$') then return tonumber(text), shown(text) end
  local n = spec[3] and spec[3][text]
  if n then return n, tostring(n) end
  return nil
end

local function in_range(name, spec, n, text)
  if n < spec[1] or n > spec[2] then
    return name .. ' field: value ' .. text .. ' out of range ' .. spec[1] .. '-' .. spec[2]
  end
end

-- Adds a, a+step, ... <= b to the field's value set and widens its
-- lo..hi span.
local function add_values(f, a, b, step)
  for v = a, b, step do f.set[v] = true end
  local last = a
  if step <= b - a then last = a + math.floor((b - a) / step) * step end
  f.lo, f.hi = math.min(f.lo or a, a), math.max(f.hi or last, last)
end

-- Parses one item of a list into f; returns an error reason or nil.
local function parse_item(name, spec, f, item)
  local bad = name .. ' field: bad token ' .. quoted(item)
  local dow = name == 'day-of-week'
  local top = dow and 6 or spec[2]
  if item == '*' then
    -- Every year: a span, not 1,030 values to set and list on each parse.
    if name == 'year' then
      f.all, f.lo, f.hi = true, spec[1], spec[2]
      return
    end
    return add_values(f, spec[1], top, 1)
  end
  local step = string.match(item, '^%*/(%d+)$')
  if step then
    if tonumber(step) < 1 then return name .. ' field: step must be at least 1' end
    return add_values(f, spec[1], top, tonumber(step))
  end
  if item == 'L' then
    if name ~= 'day-of-month' then return bad end
    f.last = true
    return
  end
  local v, special, arg
  if dow then v, special, arg = string.match(item, '^(%w-)([L#])(%d*)$') end
  if v and v ~= '' then
    if (special == 'L') ~= (arg == '') then return bad end
    local n, text = value_of(spec, v)
    if not n then return bad end
    local err = in_range(name, spec, n, text)
    if err then return err end
    if special == 'L' then
      f.last_wd[n % 7] = true
      return
    end
    local k = tonumber(arg)
    if k < 1 or k > 5 then
      return 'day-of-week field: occurrence ' .. shown(arg) .. ' out of range 1-5'
    end
    f.nth[n % 7] = f.nth[n % 7] or {}
    f.nth[n % 7][k] = true
    return
  end
  local a, b, s = string.match(item, '^(%w+)%-(%w+)/(%d+)$')
  if not a then a, b = string.match(item, '^(%w+)%-(%w+)$') end
  if not a then a, s = string.match(item, '^(%w+)/(%d+)$') end
  if not a then a = string.match(item, '^(%w+)$') end
  if not a then return bad end
  local na, ta = value_of(spec, a)
  if not na then return bad end
  local err = in_range(name, spec, na, ta)
  if err then return err end
  local nb = na
  if b then
    local tb
    nb, tb = value_of(spec, b)
    if not nb then return bad end
    err = in_range(name, spec, nb, tb)
    if err then return err end
    if na > nb then return name .. ' field: range ' .. na .. '-' .. nb .. ' is reversed' end
  end
  local n = 1
  if s then
    n = tonumber(s)
    if n < 1 then return name .. ' field: step must be at least 1' end
    if dow and not b then
      -- v/n counts occurrences of weekday v in the month (WorkKit).
      local list = f.every[na % 7] or {}
      list[#list + 1] = n
      f.every[na % 7] = list
      return
    end
    if not b then nb = spec[2] end
  end
  add_values(f, na, nb, n)
end

-- Parses a field's text; returns the field or nil and a reason.
local function parse_field(name, text)
  local spec = FIELDS[name]
  local f = {set = {}, star = string.sub(text, 1, 1) == '*', last_wd = {}, nth = {}, every = {}}
  local start = 1
  while true do
    local comma = string.find(text, ',', start, true)
    local err = parse_item(name, spec, f, string.sub(text, start, (comma or 0) - 1))
    if err then return nil, err end
    if not comma then break end
    start = comma + 1
  end
  if name == 'day-of-week' and f.set[7] then
    f.set[0], f.set[7] = true, nil
  end
  return f
end

-- The ascending list of a field's values.
local function sorted(set, lo, hi)
  local list = {}
  for v = lo, hi do
    if set[v] then list[#list + 1] = v end
  end
  return list
end

-- NORM(E) (§2.5).
local function normalise(text)
  local norm = string.gsub(string.gsub(string.gsub(text, '^[ \t]+', ''), '[ \t]+$', ''), '[ \t]+', ' ')
  if string.sub(norm, 1, 1) == '@' and not string.find(norm, ' ', 1, true) then
    return string.lower(norm)
  end
  return string.upper(norm)
end

-- Parses an expression. Returns the compiled expression, or nil and the
-- §2.6 reason.
local function compile(text)
  if not string.find(text, '[^ \t]') then return nil, 'empty expression' end
  if #text > 1024 then return nil, 'expression longer than 1024 bytes' end
  local norm = normalise(text)
  local words = {}
  for word in string.gmatch(norm, '[^ ]+') do words[#words + 1] = word end
  if #words == 1 and string.sub(norm, 1, 1) == '@' then
    local expansion = MACROS[norm]
    if not expansion then return nil, 'unknown macro ' .. quoted(norm) end
    words = {}
    for word in string.gmatch(expansion, '[^ ]+') do words[#words + 1] = word end
  end
  local order = #words == 7 and SEVEN or #words == 5 and FIVE
  if not order then return nil, 'expected 5 or 7 fields, got ' .. #words end
  local f = {}
  for i, name in ipairs(order) do
    local field, err = parse_field(name, words[i])
    if not field then return nil, err end
    f[name] = field
  end
  if #words == 5 then
    f.year, f.second = {all = true, lo = 1970, hi = 2999}, {set = {[0] = true}}
  end
  local dom, dow = f['day-of-month'], f['day-of-week']
  local E = {
    norm = norm,
    year_all = f.year.all, year_set = f.year.set or Q.none, year_lo = f.year.lo, year_hi = f.year.hi,
    months = sorted(f.month.set, 1, 12),
    hours = sorted(f.hour.set, 0, 23), minutes = sorted(f.minute.set, 0, 59),
    seconds = sorted(f.second.set, 0, 59), month_set = f.month.set,
    dom = dom.set, dom_last = dom.last, dow = dow.set, last_wd = dow.last_wd, nth = dow.nth,
    every = dow.every, both = dom.star or dow.star, kinds = {},
  }
  E.tod_min = E.hours[1] * 3600 + E.minutes[1] * 60 + E.seconds[1]
  E.tod_max = E.hours[#E.hours] * 3600 + E.minutes[#E.minutes] * 60 + E.seconds[#E.seconds]
  return E
end

-- Matching (§2.4) ---------------------------------------------------------------

-- Whether day d (weekday w) of a month of len days matches.
local function day_matches(E, d, w, len)
  local dom = E.dom[d] or (E.dom_last and d == len) or false
  local dow = E.dow[w] or (E.last_wd[w] and d + 7 > len) or false
  if not dow then
    local week = math.floor((d - 1) / 7)
    local nth = E.nth[w]
    if nth and nth[week + 1] then
      dow = true
    else
      for _, n in ipairs(E.every[w] or Q.none) do
        if week % n == 0 then
          dow = true
          break
        end
      end
    end
  end
  if E.both then return dom and dow end
  return dom or dow
end

-- HASDAY for the kind of year (is_leap, weekday of 1 January); memoised in
-- the compiled expression, as it depends on nothing else.
local function kind_has_day(E, is_leap, jan1)
  local key = jan1 * 2 + (is_leap and 1 or 0)
  local known = E.kinds[key]
  if known ~= nil then return known end
  local found = false
  local offset = 0   -- days from 1 January to the 1st of month m
  for m = 1, 12 do
    local len = MONTH_LEN[m]
    if m == 2 and is_leap then len = 29 end
    if E.month_set[m] then
      for d = 1, len do
        if day_matches(E, d, (jan1 + offset + d - 1) % 7, len) then
          found = true
          break
        end
      end
    end
    if found then break end
    offset = offset + len
  end
  E.kinds[key] = found
  return found
end

local function year_has_day(E, y)
  return kind_has_day(E, leap(y), (days(y, 1, 1) + 4) % 7)
end

-- The first element of a sorted list in direction dir (1 up, -1 down).
local function edge(list, dir)
  if dir > 0 then return list[1] end
  return list[#list]
end

-- TOD (§2.9) for dir = 1: seconds of the day of the first listed time
-- >= h:mi:s; for dir = -1 the last listed time <= h:mi:s; or nil.
local function tod(E, h, mi, s, dir)
  local hours, minutes, seconds = E.hours, E.minutes, E.seconds
  local up = dir > 0
  for i = up and 1 or #hours, up and #hours or 1, dir do
    local H = hours[i]
    if (H - h) * dir > 0 then return H * 3600 + edge(minutes, dir) * 60 + edge(seconds, dir) end
    if H == h then
      for j = up and 1 or #minutes, up and #minutes or 1, dir do
        local M = minutes[j]
        if (M - mi) * dir > 0 then return H * 3600 + M * 60 + edge(seconds, dir) end
        if M == mi then
          for k = up and 1 or #seconds, up and #seconds or 1, dir do
            if (seconds[k] - s) * dir >= 0 then return H * 3600 + M * 60 + seconds[k] end
          end
        end
      end
    end
  end
end

-- The fire time of year y nearest to its start (dir = 1) or end (dir = -1).
-- In t0's own year, Mo/D/sod are t0's month, day and second of the day:
-- the search starts there; they are nil in other years.
local function search_year(E, y, dir, Mo, D, sod)
  local months = E.months
  local up = dir > 0
  for j = up and 1 or #months, up and #months or 1, dir do
    local m = months[j]
    if not Mo or (m - Mo) * dir >= 0 then
      local len = month_len(y, m)
      local base = days(y, m, 1) - 1
      for d = m == Mo and D or (up and 1 or len), up and len or 1, dir do
        if day_matches(E, d, (base + d + 4) % 7, len) then
          local T = up and E.tod_min or E.tod_max
          if m == Mo and d == D then
            T = tod(E, math.floor(sod / 3600), math.floor(sod % 3600 / 60), sod % 60, dir)
          end
          if T then return (base + d) * DAY + T end
        end
      end
    end
  end
end

-- The fire time nearest to t0 (an integer in [0, CRON_END)) in direction
-- dir: listed years from t0's on (at most 1,030), skipping years of a kind
-- without a matching day, then listed months and days.
local function search(E, t0, dir)
  local today = math.floor(t0 / DAY)
  local Y, Mo, D = civil(today)
  local up = dir > 0
  local from = up and math.max(Y, E.year_lo) or math.min(Y, E.year_hi)
  for y = from, up and E.year_hi or E.year_lo, dir do
    local found
    if E.year_all or E.year_set[y] then
      if y == Y then
        found = search_year(E, y, dir, Mo, D, t0 - today * DAY)
      elseif year_has_day(E, y) then
        found = search_year(E, y, dir)
      end
    end
    if found then return found end
  end
  return nil
end

-- FIRST(E, t): the smallest fire time >= t, or nil.
local function first(E, t)
  local t0 = math.max(math.ceil(t), 0)
  if t0 >= CRON_END then return nil end
  return search(E, t0, 1)
end

-- PREV(E, t): the largest fire time <= t, or nil.
local function prev(E, t)
  if t < 0 then return nil end
  return search(E, math.min(math.floor(t), CRON_END - 1), -1)
end

-- Shared with cron templates: one entry of Q, the cron namespace ----------------

Q.cron = {}
Q.cron.first = first
Q.cron.prev = prev

-- The compiled expression of text, or nil and the §2.6 reason. The last
-- one is remembered: a pop spawning a template parses the same text each
-- time. Callers never modify the result.
Q.cron.compile = function(text)
  local cache = Q.cache
  if text ~= cache.cron_text then
    cache.cron_text, cache.cron_compiled, cache.cron_reason = text, compile(text)
  end
  return cache.cron_compiled, cache.cron_reason
end

-- The compiled expression of argument `cron` of cmd; raises §2.6 errors.
Q.cron.parse = function(cmd, text)
  Q.need(cmd, 'cron', text)
  local E, reason = Q.cron.compile(text)
  if not E then Q.raise('InvalidArgument', cmd .. '(): Arg "cron" invalid: ' .. reason) end
  return E
end

-- §2.7: raises unless E fires at or after now; returns FIRST(E, now).
Q.cron.due = function(cmd, E, now)
  local prefix = cmd .. '(): Arg "cron" invalid: never fires'
  local t0 = math.ceil(now)
  local Y = civil(math.floor(math.max(math.min(t0, 1e15), -1e15) / DAY))
  if E.year_hi < Y then
    Q.raise('InvalidArgument', prefix .. ': every allowed year is before ' .. string.format('%d', Y))
  end
  local any = false
  for jan1 = 0, 6 do
    any = any or kind_has_day(E, false, jan1) or kind_has_day(E, true, jan1)
  end
  if not any then Q.raise('InvalidArgument', prefix .. ': no allowed day exists in the allowed months') end
  local due = first(E, now)
  if not due then Q.raise('InvalidArgument', prefix .. ' at or after ' .. iso(t0)) end
  return due
end


-- Up to count fire times: `due`, then FIRST after each previous one.
Q.cron.series = function(E, due, count)
  local out = {}
  while due and #out < count do
    out[#out + 1] = due
    due = first(E, due + 1)
  end
  return out
end

-- cron.next <now> <expr> [<count>] (§3.6): pure, no keys.
C['cron.next'] = function(now, args)
  local cmd = 'Cron.next'
  local E = Q.cron.parse(cmd, args[1])
  local count = Q.count(cmd, args[2], 1)
  return cjson.encode(Q.cron.series(E, Q.cron.due(cmd, E, now), count))
end
