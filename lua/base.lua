-- Shared namespace and small helpers used by every other module.
--
-- Redis 7 makes the global table read-only, so nothing here is global: the
-- helpers several modules use live in the local table Q, a module's own
-- helpers in one local table of that module, and all command handlers in the
-- local table C (filled by the other modules, dispatched from api.lua).
-- Tables rather than local functions keep the main chunk far below Lua 5.1's
-- limits of 200 locals and 60 upvalues per function, and keep each closure's
-- upvalues few (EVALSHA rebuilds every closure on each call).
--
-- Only functions and constant tables are defined at load time; no Redis call
-- happens until a command runs (FUNCTION LOAD forbids it, and EVALSHA re-runs
-- this chunk on every call, so it must stay cheap).
local Q = {}
local C = {}
local Base = {bin = nil, day = nil, int_texts = nil, decimal = nil, exists_args = {},
  lasting = redis.register_function ~= nil, strict = nil, strict_rest = nil}

-- Written to ql:features beside each feature a database comes to hold
-- (cron templates, tree jobs), so a client can tell which script wrote it.
local SCRIPT_VERSION = '0.1.0'

-- An empty list for values read but never written (absent options, tags,
-- dependencies): saves a table per command on the hot paths. Never modify.
Q.none = {}

-- Errors ----------------------------------------------------------------------

-- Raises an error reply: "[<kind>] <msg>". The kind is one of Q.kinds (the
-- exception class names of QLESS_ERRORS in common.h, generated into
-- error_kinds.lua): clients map the error by that token, never by wording.
-- Level 2 puts Lua's "<chunk>:<line>:" in front of the text
-- ("user_script:N:" under EVAL, "user_function:N:" under FCALL), as the
-- original qless script's error(msg) did: its clients recognise script errors
-- by that prefix. A kind outside the list is a bug in this script: it is
-- refused as a ProtocolError naming the bad kind, so tests catch the typo.
Q.raise = function(kind, msg)
  if not Q.kinds[kind] then
    error('[ProtocolError] Q.raise(): unknown error kind ' .. tostring(kind) .. ' for: ' .. tostring(msg), 2)
  end
  error('[' .. kind .. '] ' .. msg, 2)
end

-- Argument checks, run before a command's first write. `cmd` is the display
-- name ("Put"), `name` the argument. A missing argument is nil; an empty
-- string counts as given. Every argument is valid UTF-8 by the time a
-- handler runs (the dispatcher checks them all), so messages may quote it.
Q.need = function(cmd, name, value)
  if value == nil then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" missing')
  end
  return value
end

-- Parses a finite number like Lua's tonumber (which also reads "nan",
-- "inf" and "1e999": such values would poison every later command that
-- scores, encodes or formats them). With `default` ~= nil a missing value
-- yields the default; otherwise a missing value is an error.
Q.number = function(cmd, name, value, default)
  if value == nil then
    if default ~= nil then return default end
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" missing or not a number: nil')
  end
  local n = tonumber(value)
  if n == nil then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" not a number: ' .. tostring(value))
  end
  -- n - n is 0 for every finite number, NaN for NaN and the infinities
  -- (no read of the global math, which costs a Functions library more).
  if n - n ~= 0 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" not a finite number: ' .. value)
  end
  return n
end

-- Counts, offsets, retries: whole numbers from 0 to `max` (default 2^31-1,
-- so any sum Redis is handed stays an integer it parses).
Q.whole = function(cmd, name, value, default, max)
  local n = Q.number(cmd, name, value, default)
  max = max or 2147483647
  if n < 0 or n > max or n ~= math.floor(n) then
    Q.raise('InvalidArgument',
      cmd .. '(): Arg "' .. name .. '" must be a whole number from 0 to ' .. max .. ': ' .. value)
  end
  -- -0 would reach Redis as "-0", which it does not take for an integer.
  if n == 0 then return 0 end
  return n
end

-- How many items a listing returns (cron.next, recur.next, schedule.list):
-- a whole number from 1 to 1000, `default` when absent; anything else gets
-- the one message, so a bad count reads the same in every command.
Q.count = function(cmd, value, default)
  if value == nil then return default end
  local n = tonumber(value)
  if not n or n ~= math.floor(n) or n < 1 or n > 1000 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "count" must be between 1 and 1000')
  end
  return n
end

-- Delays: finite numbers >= 0.
Q.delay = function(cmd, name, value, default)
  local n = Q.number(cmd, name, value, default)
  if n < 0 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" must be a finite number >= 0: ' .. value)
  end
  return n
end

-- A jid names keys ql:j:<jid>, <jid>-history, -dependents and -dependencies:
-- one ending in such a suffix would share another job's keys.
Q.jid = function(cmd, name, value)
  Q.need(cmd, name, value)
  if string.find(value, '-', 1, true) then
    local suffix = string.match(value, '%-history$') or string.match(value, '%-dependents$') or
      string.match(value, '%-dependencies$')
    if suffix then
      Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" must not end in "' .. suffix .. '": ' .. value)
    end
  end
  return value
end

-- Q.jid of args[first..] (variadic jid lists).
Q.jids = function(cmd, args, first)
  for i = first, #args do Q.jid(cmd, 'jid', args[i]) end
  return args
end

-- Whether text that cjson decoded is strict JSON with finite numbers.
-- cjson also reads NaN/Infinity words, hex and other strtod number forms,
-- leading zeros and raw control characters in strings, which other parsers
-- (jansson, Python) refuse: a job stored with such data could not be read.
local function strict_json(text)
  local find = string.find
  -- Fast path (put and complete run this per call under EVALSHA): without
  -- escapes or control characters, strings are "..." runs; outside them,
  -- only structure, true/false/null and integers of up to 15 digits with no
  -- leading zero ('n' only in null, 'e' only in true/false).
  if not find(text, '[%c\\]') then
    local t = string.gsub(text, '"[^"]*"', '')
    if not (find(t, '[^%[%]{}:, %d%-trueflsn]') or find(t, 'n[^u]') or find(t, '[^us]e') or
        find(t, '%f[%d]0%d') or find(t, '%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d')) then
      return true
    end
  end
  local t = string.gsub(text, '\\.', '')
  for str in string.gmatch(t, '"[^"]*"') do
    if string.find(str, '[%z\1-\31]') then return false end
  end
  t = string.gsub(string.gsub(t, '"[^"]*"', ''), '%a+', function(word)
    if word == 'true' or word == 'false' or word == 'null' then return '' end
  end)
  if string.find(t, '[^ \t\n\r%[%]{}:,%d%.eE+%-]') then return false end
  for num in string.gmatch(t, '[%d%.eE+%-]+') do
    local digits = string.match(num, '^%-?(%d+)')
    if not digits or (#digits > 1 and string.sub(digits, 1, 1) == '0') then return false end
    local rest = string.sub(num, #string.match(num, '^%-?%d+') + 1)
    rest = string.gsub(string.gsub(rest, '^%.%d+', '', 1), '^[eE][+-]?%d+', '', 1)
    local n = tonumber(num)
    if rest ~= '' or n == math.huge or n == -math.huge then return false end
  end
  return true
end

-- strict_json(text) for text that Base.strict decoded: that decoder already
-- refuses what strict_json looks for outside strings (words other than
-- true/false/null, hex, leading zeros and "+"), except a raw control
-- character in a string and the number forms strtod reads past the "-" or
-- digit it was handed: "-.5", "5.", "5.e3" and overflows (1e999 decodes to
-- inf, which cjson refuses to encode). A text where any of them may hide
-- gets the full check. The dispatcher has checked every argument: when all
-- are printable ASCII no control character needs looking for. A pattern
-- search costs about 100 instructions per byte; a plain one (the "." and
-- "-.") and the encoding of the decoded value are C loops.
Base.strict_rest = function(text, decoded)
  local find = string.find
  if not Q.memo_printable and find(text, '%c') then return strict_json(text) end
  if find(text, '.', 1, true) and
      (find(text, '-.', 1, true) or find(text, '%d%.%D') or string.byte(text, -1) == 46) then
    return strict_json(text)
  end
  return (pcall(Base.strict.encode, decoded))
end

-- Decodes JSON text; invalid or non-strict text is an error. Returns the
-- decoded value. `value` is an argument of this call (see Base.strict_rest).
-- In the Functions library (which lasts) a second cjson that refuses
-- non-JSON numbers is made once and does most of strict_json's work; a
-- script (whose chunk runs on every call) would pay more to make it
-- (callgrind: 25k instructions) than strict_json costs.
Q.json = function(cmd, name, value)
  if value == nil then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" missing')
  end
  local ok, decoded
  if Base.lasting then
    local strict = Base.strict
    if strict == nil then
      strict = cjson.new()
      strict.decode_invalid_numbers(false)
      Base.strict = strict
    end
    ok, decoded = pcall(strict.decode, value)
    ok = ok and Base.strict_rest(value, decoded)
  else
    ok, decoded = pcall(cjson.decode, value)
    ok = ok and strict_json(value)
  end
  if not ok then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" not JSON: ' .. tostring(value))
  end
  return decoded
end

-- Like Q.json for a caller that only needs the text to be valid JSON. The
-- last text found valid is remembered (validity depends on the text alone),
-- so a payload repeated across commands is parsed once.
Q.json_valid = function(cmd, name, value)
  if value ~= nil and value == Q.cache.valid_json then return end
  Q.json(cmd, name, value)
  Q.cache.valid_json = value
end

-- Like Q.json but the value must be a JSON object (given as {...}: cjson
-- decodes {} and [] alike).
Q.json_object = function(cmd, name, value)
  local decoded = Q.json(cmd, name, value)
  if not string.find(value, '^[ \t\n\r]*{') then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" not a JSON object: ' .. value)
  end
  return decoded
end

-- The decimal text of a finite number, as upstream qless stores a number
-- given where a name belongs: integers in plain digits (1 -> "1"), others in
-- the fewest significant digits that read back as the same number
-- (2.5 -> "2.5", 0.1 -> "0.1").
Base.decimal = function(n)
  if n == math.floor(n) and n > -1e15 and n < 1e15 then return string.format('%d', n) end
  for digits = 15, 16 do
    local text = string.format('%.' .. digits .. 'g', n)
    if tonumber(text) == n then return text end
  end
  return string.format('%.17g', n)
end

-- Like Q.json but the value must decode to a list of strings (tags,
-- depends, queues); with `jids`, each item must also pass Q.jid. With
-- `numbers` (tags and depends: upstream qless takes [1,2,3] there) a number
-- is taken as its decimal text.
Q.json_list = function(cmd, name, value, jids, numbers)
  local decoded = Q.json(cmd, name, value)
  if type(decoded) ~= 'table' or (next(decoded) ~= nil and decoded[1] == nil) then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" not a JSON array: ' .. tostring(value))
  end
  for i, item in pairs(decoded) do
    if numbers and type(item) == 'number' and type(i) == 'number' then
      item = Base.decimal(item)
      decoded[i] = item
    end
    if type(item) ~= 'string' or type(i) ~= 'number' then
      Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" must be a JSON array of ' ..
        (numbers and 'strings or numbers: ' or 'strings: ') .. value)
    end
    if jids then Q.jid(cmd, name, item) end
  end
  return decoded
end

-- Reads `key value` option pairs starting at args[first]. An option name
-- without a value is an error; later duplicates override earlier ones.
Q.options = function(cmd, args, first)
  local n = #args
  if n < first then return Q.none end
  local opts = {}
  if (n - first + 1) % 2 == 1 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. args[n] .. '" has no value')
  end
  for i = first, n - 1, 2 do
    opts[args[i]] = args[i + 1]
  end
  return opts
end

-- Numbers, time and JSON text ---------------------------------------------------

-- The UTC day containing t; floored modulo so bin(-5) = -86400.
Base.bin = function(t)
  return t - (t % 86400)
end

-- Caches of pure number -> text conversions, one entry each. In the
-- Functions library Q outlives the call, and the commands of one pipelined
-- batch share their `now` (libqless sends one per batch), so the texts are
-- made once per batch instead of once per command. Zero is never cached
-- (0 == -0 but they print differently); NaN never matches.
Q.cache = {}

-- Day numbers in key names are written as plain integers ("0", "86400").
Base.day = function(t)
  local b = Base.bin(t)
  local cache = Q.cache
  if b ~= cache.day_bin or b == 0 then
    cache.day_bin, cache.day_text = b, string.format('%d', b)
  end
  return cache.day_text
end

-- The job field `time` (and a tree job's `started`), read back only by
-- tonumber: %.17g reads back as the very same double, in 13 bytes for a
-- time to the hundredth of a second where %.20f (old qless's) takes 31.
Q.timestr = function(t)
  local cache = Q.cache
  if t ~= cache.time_num or t == 0 then
    cache.time_num, cache.time_text = t, string.format('%.17g', t)
  end
  return cache.time_text
end

-- tonumber of a stored time text, memoised for the last text: the jobs of
-- one batch were all put (or popped) with the same `now`.
Q.time_number = function(text)
  local cache = Q.cache
  if text ~= cache.tn_text then
    cache.tn_text, cache.tn_num = text, tonumber(text)
  end
  return cache.tn_num
end

-- A score argument (ZADD, ZRANGEBYSCORE) as %.17g text: Redis parses it
-- back to the same double, so the sorted set holds the same score as when
-- the number itself is passed (and Redis printed it). The two last values
-- are kept: complete alternates between `now` and the purge cutoff.
Q.score = function(x)
  local cache = Q.cache
  if x ~= 0 then
    if x == cache.score_num then return cache.score_text end
    if x == cache.score_num2 then return cache.score_text2 end
  end
  local text = string.format('%.17g', x)
  cache.score_num2, cache.score_text2 = cache.score_num, cache.score_text
  cache.score_num, cache.score_text = x, text
  return text
end

-- A JSON string literal with cjson's escaping (so "/" becomes "\/").
Q.jstr = function(s)
  if type(s) ~= 'string' then s = tostring(s) end
  return cjson.encode(s)
end

-- Q.jstr of a queue name, remembered for the last one.
Q.jqueue = function(queue)
  local c = Q.cache
  if queue ~= c.jqueue_name then
    c.jqueue_name, c.jqueue_text = queue, Q.jstr(queue)
  end
  return c.jqueue_text
end

-- Position of `value` in list `t`, or nil.
Q.index_of = function(t, value)
  for i, v in ipairs(t) do
    if v == value then return i end
  end
  return nil
end

-- Keys ------------------------------------------------------------------------

-- Every key and channel is Q.P .. <name>: 'ql:' without a namespace,
-- '{NAME}:ql:' with one (one hash slot per namespace in a cluster). The
-- dispatcher sets it on every call from KEYS[1] (api.lua): in a Functions
-- library Q outlives the call, so nothing may keep a key made under another
-- call's prefix (Q.set_prefix forgets the key memos when it changes).
Q.P = 'ql:'
Q.set_prefix = function(prefix)
  if prefix ~= Q.P then
    local c = Q.cache
    c.qkeys_queue, c.qkeys, c.sk_kind, c.sk_key, c.hkey_jid, c.hkey_text = nil, nil, nil, nil, nil, nil
    Q.P = prefix
  end
end
Q.jkey = function(jid) return Q.P .. 'j:' .. jid end
-- Queue keys, remembered for the last queue named (a batch works on one).
Q.qkey = function(queue, kind)
  local c = Q.cache
  local keys = c.qkeys
  if queue ~= c.qkeys_queue then
    keys = {}
    c.qkeys, c.qkeys_queue = keys, queue
  end
  local key = keys[kind]
  if key == nil then
    key = Q.P .. 'q:' .. queue .. '-' .. kind
    keys[kind] = key
  end
  return key
end
Q.wkey = function(worker) return Q.P .. 'w:' .. worker .. ':jobs' end
-- The last key made is remembered: a batch updates the same day and queue.
Q.statkey = function(kind, t, queue)
  local day, c = Base.day(t), Q.cache
  if kind ~= c.sk_kind or day ~= c.sk_day or queue ~= c.sk_queue then
    c.sk_kind, c.sk_day, c.sk_queue = kind, day, queue
    c.sk_key = Q.P .. 's:' .. kind .. ':' .. day .. ':' .. queue
  end
  return c.sk_key
end

-- Shared procedures (§6) ---------------------------------------------------------

-- REGISTER-QUEUE: remember the queue name with its first-seen time.
-- (ZRANK, not ZSCORE: an integer reply, no double written out as text.)
Q.register_queue = function(queue, now)
  if not redis.call('zrank', Q.P .. 'queues', queue) then
    redis.call('zadd', Q.P .. 'queues', now, queue)
  end
end

-- WORK-ADD: higher priority first, then older first (§2.3).
Q.work_add = function(queue, jid, priority, t)
  redis.call('zadd', Q.qkey(queue, 'work'), Q.score(priority - (t / 10000000000)), jid)
end

-- The sorted sets of a queue that pop and peek read, in their order.
Q.pop_sets = {'locks', 'recur', 'cron', 'scheduled', 'work'}

-- Fails with Redis's WRONGTYPE unless each of the queue's pop_sets is a
-- sorted set or absent (one ZSCORE each). Pop reads each set before its own
-- first write there, but expired locks and due templates are written before
-- the later sets are read: on those rare paths this runs first, so a key of
-- another program's refuses the pop with nothing written.
Q.check_pop_sets = function(queue)
  for _, kind in ipairs(Q.pop_sets) do
    redis.call('zscore', Q.qkey(queue, kind), '')
  end
end

-- Removes a jid from the listed sets of a queue.
Q.unqueue = function(queue, jid, kinds)
  for _, kind in ipairs(kinds) do
    redis.call('zrem', Q.qkey(queue, kind), jid)
  end
end

-- ZREM of a whole list, in slices that stay within Lua's unpack limit.
Q.zrem_all = function(key, members)
  for i = 1, #members, 1000 do
    redis.call('zrem', key, unpack(members, i, math.min(i + 999, #members)))
  end
end

-- Per-invocation memos (Q.memo_*, reset by the dispatcher before every
-- command: in a Functions library Q outlives the call): the ql:config hash
-- and whether any job is tracked, each read at most once per command.

-- One EXISTS of `key` (named once), ql:tracked (twice), `other` (four
-- times) if given and, with `config`, ql:config (eight times): the count
-- holds a bit for each; the tracked one fills the tracked memo in the same
-- call, and an absent ql:config the config memo (no HGETALL for a database
-- without options). Returns whether `key` exists and whether `other` does.
Q.exists_and_tracked = function(key, other, config)
  local tracked, args, n = Q.P .. 'tracked', Base.exists_args, 3
  args[1], args[2], args[3] = key, tracked, tracked
  if other then
    for i = 4, 7 do args[i] = other end
    n = 7
  end
  if config then
    local c = Q.P .. 'config'
    for i = n + 1, n + 8 do args[i] = c end
    n = n + 8
  end
  local count = redis.call('exists', unpack(args, 1, n))
  Q.memo_tracked = count % 4 >= 2
  if config and count < 8 and Q.memo_config == nil then Q.memo_config = Q.none end
  return count % 2 == 1, count % 8 >= 4
end

-- Small integers as the text Redis writes for a Lua number argument (%.17g
-- on 7.0, a shortest-digits form later: plain digits either way below 1e7);
-- other numbers are passed on as numbers so Redis formats them as always.
-- Saves Redis a floating-point print per argument. The texts of 1..255
-- (retries, priorities, small counters) are memoised; a bigger memo would
-- only add to what Lua's collector walks on every cycle.
Base.int_texts = {}
Q.int_arg = function(v)
  local text = Base.int_texts[v]
  if text then return text end
  if v == math.floor(v) and v < 1e7 and v > -1e7 and v ~= 0 then
    text = string.format('%d', v)
    if v > 0 and v < 256 then Base.int_texts[v] = text end
    return text
  elseif v == 0 and 1 / v > 0 then
    return '0'
  end
  return v
end

Q.tracked = function(jid)
  local any = Q.memo_tracked
  if any == nil then
    any = redis.call('exists', Q.P .. 'tracked') == 1
    Q.memo_tracked = any
  end
  return any and redis.call('zscore', Q.P .. 'tracked', jid) ~= false
end

-- Tag index: ql:t:<tag> lists jids, ql:tags counts uses.
Q.index_tags = function(jid, tags, now)
  for _, tag in ipairs(tags) do
    redis.call('zadd', Q.P .. 't:' .. tag, now, jid)
    redis.call('zincrby', Q.P .. 'tags', 1, tag)
  end
end

Q.unindex_tag_list = function(jid, tags)
  for _, tag in ipairs(tags) do
    redis.call('zrem', Q.P .. 't:' .. tag, jid)
    redis.call('zincrby', Q.P .. 'tags', -1, tag)
  end
end

-- UNINDEX-TAGS: drop the job (by its stored tags) from the tag index.
Q.unindex_tags = function(jid)
  local text = redis.call('hget', Q.jkey(jid), 'tags')
  if text then
    local ok, tags = pcall(cjson.decode, text)
    if ok and type(tags) == 'table' then
      Q.unindex_tag_list(jid, tags)
    end
  end
end

-- LINK: jid waits for d unless d is missing or complete. Returns true if linked.
-- Whether job d is one a job can wait for (it exists and is not complete).
Q.dep_live = function(d)
  local state = redis.call('hget', Q.jkey(d), 'state')
  return state ~= false and state ~= 'complete'
end

-- Makes jid wait for d if d is live; `live` is Q.dep_live(d) when the
-- caller has read it already.
Q.link = function(jid, d, live)
  if live == nil then live = Q.dep_live(d) end
  if live then
    redis.call('sadd', Q.jkey(d) .. '-dependents', jid)
    redis.call('sadd', Q.jkey(jid) .. '-dependencies', d)
    return true
  end
  return false
end

Q.unlink = function(jid, d)
  redis.call('srem', Q.jkey(d) .. '-dependents', jid)
  redis.call('srem', Q.jkey(jid) .. '-dependencies', d)
end

-- Removes a failed job from its failure group list (and the group from
-- ql:failures when the list empties) and takes it off the `failed` counter.
Q.unfail_one = function(jid, failure_text, stat_queue)
  local ok, failure = pcall(cjson.decode, failure_text or '')
  if not ok or type(failure) ~= 'table' or failure.group == nil then
    return
  end
  local group = failure.group
  redis.call('lrem', Q.P .. 'f:' .. group, 0, jid)
  if redis.call('llen', Q.P .. 'f:' .. group) == 0 then
    redis.call('srem', Q.P .. 'failures', group)
  end
  local when = tonumber(failure.when) or 0
  redis.call('hincrby', Q.statkey('stats', when, stat_queue), 'failed', -1)
end

-- Records a failure: group list, ql:failures and the day's counters.
Q.add_failure = function(jid, group, now, stat_queue)
  redis.call('sadd', Q.P .. 'failures', group)
  redis.call('lpush', Q.P .. 'f:' .. group, jid)
  local key = Q.statkey('stats', now, stat_queue)
  redis.call('hincrby', key, 'failures', 1)
  redis.call('hincrby', key, 'failed', 1)
end
