-- Job history (§3.3): list ql:j:<jid>-history of JSON arrays
-- [floor(when), what, extras?], oldest first. A new job's one `put` entry
-- waits in its hash field `history` instead (one key less per waiting job,
-- about 180 bytes); the first append moves it into the list. The field
-- tells its two layouts apart by its second character: this one is an
-- entry `[<when>,...`, old qless's an array of objects `[{...`.

-- The last key made is kept: pop appends to and then reads each job's list.
-- This module's own helpers; Q holds only what other modules use.
local Hist = {text = nil, migrate = nil, is_entry = nil, known = nil, entries = nil, entry = nil, item_json = nil,
  push = nil, keep_first_and_last = nil, quoted = {}}

Q.hkey = function(jid)
  local c = Q.cache
  if jid ~= c.hkey_jid then
    c.hkey_jid, c.hkey_text = jid, Q.P .. 'j:' .. jid .. '-history'
  end
  return c.hkey_text
end

-- Whether the hash field `history` holds one entry of this protocol (the
-- waiting put's) rather than old qless's array of objects.
Hist.is_entry = function(text)
  local b = string.byte(text, 2)
  return b ~= nil and ((b >= 48 and b <= 57) or b == 45)
end

-- §3.4: jobs written by old qless keep their history as a JSON array in the
-- hash field `history`, and a new job its put entry; either is moved to list
-- entries before any append. `text` is the field when the caller read it.
-- With `defer`, a put entry is returned for the caller to push (with its own
-- entry, in one RPUSH) instead of being pushed here.
Hist.migrate = function(jid, text, defer)
  local key = Q.jkey(jid)
  local legacy = text or redis.call('hget', key, 'history')
  if not legacy then return nil end
  if Hist.is_entry(legacy) then
    redis.call('hdel', key, 'history')
    if defer then return legacy end
    redis.call('rpush', Q.hkey(jid), legacy)
    return nil
  end
  local ok, entries = pcall(cjson.decode, legacy)
  if ok and type(entries) == 'table' then
    local hkey = Q.hkey(jid)
    local floor = math.floor
    for _, e in ipairs(entries) do
      if type(e) == 'table' then
        if e.put then
          redis.call('rpush', hkey, cjson.encode({floor(tonumber(e.put) or 0), 'put', {q = e.q}}))
        end
        if e.popped then
          redis.call('rpush', hkey, cjson.encode({floor(tonumber(e.popped) or 0), 'popped', {worker = e.worker}}))
        end
        if e.failed then
          redis.call('rpush', hkey, cjson.encode({floor(tonumber(e.failed) or 0), 'failed'}))
        end
        if e.done then
          redis.call('rpush', hkey, cjson.encode({floor(tonumber(e.done) or 0), 'done'}))
        end
      end
    end
  end
  redis.call('hdel', key, 'history')
  return nil
end

-- The stored text of one entry, cjson.encode({floor(t), what, extras}).
-- The usual entries are written by hand: cjson writes an integer below 1e14
-- as its digits (%.14g) and an object of one key in its only order, so only
-- other times (and -0) and other extras go through cjson.encode.
Hist.entry = function(t, what, extras)
  local when = math.floor(t)
  if when < 1e14 and when > -1e14 and when ~= 0 then
    local head = '[' .. string.format('%d', when) .. ',' .. cjson.encode(what)
    if extras == nil then
      return head .. ']'
    end
    local k, v = next(extras)
    if type(k) == 'string' and type(v) == 'string' and next(extras, k) == nil then
      return head .. ',{' .. cjson.encode(k) .. ':' .. cjson.encode(v) .. '}]'
    end
  end
  if extras == nil then
    return cjson.encode({when, what})
  end
  return cjson.encode({when, what, extras})
end

-- The hand-written entry text of Q.history_text. `what` and `k` are the few
-- names the script passes: each is encoded once.
Hist.text = function(when, what, k, v)
  local quoted = Hist.quoted
  local what_json = quoted[what]
  if what_json == nil then
    what_json = cjson.encode(what)
    quoted[what] = what_json
  end
  local text = '[' .. string.format('%d', when) .. ',' .. what_json
  if k == nil then return text .. ']' end
  local k_json = quoted[k]
  if k_json == nil then
    k_json = cjson.encode(k)
    quoted[k] = k_json
  end
  return text .. ',{' .. k_json .. ':' .. cjson.encode(v) .. '}]'
end

-- The entry text for `what` with no extras (k == nil) or the one string
-- extra {[k] = v}, as Hist.entry writes it, without building the extras
-- table. The last two texts made are cached (Q outlives the call): the
-- commands of one pipelined batch share their second, queue and entry kind,
-- and a serial worker's settle makes a `done` and a `popped` entry in turn.
-- Only the hand-written forms are cached (a zero time, where 0 and -0 print
-- apart, is not).
Q.history_text = function(t, what, k, v)
  local when = math.floor(t)
  if when >= 1e14 or when <= -1e14 or when == 0 then
    return Hist.entry(t, what, k ~= nil and {[k] = v} or nil)
  end
  local c = Q.cache
  if when == c.entry_when and what == c.entry_what and k == c.entry_k and v == c.entry_v then
    return c.entry_text
  end
  if when == c.entry2_when and what == c.entry2_what and k == c.entry2_k and v == c.entry2_v then
    return c.entry2_text
  end
  local text = Hist.text(when, what, k, v)
  c.entry2_when, c.entry2_what, c.entry2_k, c.entry2_v, c.entry2_text =
    c.entry_when, c.entry_what, c.entry_k, c.entry_v, c.entry_text
  c.entry_when, c.entry_what, c.entry_k, c.entry_v, c.entry_text = when, what, k, v, text
  return text
end

-- HISTORY: append [floor(t), what, extras] under the max-job-history limit.
-- The limit keeps the very first entry plus the newest n-1 (§3.3). The
-- pop/trim/push dance of the spec only changes the list once it holds n
-- entries (for n >= 3), so for n >= 3 the entry is pushed first and the
-- list trimmed only when the push made it longer than n (same result, one
-- call in the common case); n = 1 and n = 2 follow the literal rule.
-- `plain` = true: the caller read the hash and it has no `history` field,
-- so the migration check is skipped; a string: the field as the caller read
-- it (not read again).
-- `text`, when given, is the entry already encoded; the encoded entry is
-- returned (pop encodes its `popped` entry once for all the jobs it hands
-- out), then the list's entries when this push made the list (pop's reply
-- shows them without reading the list back).
-- When ql:config has not been read yet by the command, the entry is pushed
-- first and the limit read only if the list then holds 3 entries or more:
-- with at most 2, no value of the limit changes anything (n = 1 acts on a
-- list of 2 or more before the push; n >= 3 trims above n).
-- The list's entries when the push of `held` (if any) and `text` made it,
-- which its length after the push tells; else nil.
Hist.known = function(len, held, text)
  if held then
    if len == 2 then return {held, text} end
  elseif len == 1 then
    return {text}
  end
  return nil
end

-- Appends text (after the held put entry, if any) in one RPUSH; the length.
Hist.push = function(key, held, text)
  if held then return redis.call('rpush', key, held, text) end
  return redis.call('rpush', key, text)
end

-- Over n entries: the first (the put) and the newest n - 1 stay.
Hist.keep_first_and_last = function(key, n)
  local first = redis.call('lindex', key, 0)
  redis.call('ltrim', key, 1 - n, -1)
  redis.call('lpush', key, first)
end

Q.history = function(jid, t, what, extras, plain, text)
  local key = Q.hkey(jid)
  if Q.memo_config == nil then
    -- A put entry from the hash goes in with this one (same list as two
    -- pushes: the rules below only look at the length after the push).
    local held = nil
    if plain ~= true then held = Hist.migrate(jid, plain or nil, true) end
    if text == nil then text = Hist.entry(t, what, extras) end
    local len = Hist.push(key, held, text)
    if len <= 2 then return text, Hist.known(len, held, text) end
    local n = math.floor(Q.config_number('max-job-history', 100))
    if n >= 3 and len > n then
      Hist.keep_first_and_last(key, n)
    elseif n == 1 then
      -- The literal rule runs before the push: take the entry back out.
      redis.call('rpop', key)
      local first = redis.call('lpop', key)
      redis.call('ltrim', key, 1, -1)
      redis.call('lpush', key, first)
      redis.call('rpush', key, text)
    end
    return text
  end
  local n = math.floor(Q.config_number('max-job-history', 100))
  -- The held put entry joins this push unless n = 1 or 2 acts before it.
  local held = nil
  if plain ~= true then held = Hist.migrate(jid, plain or nil, n <= 0 or n >= 3) end
  if n > 0 and n < 3 then
    local len = redis.call('llen', key)
    if n == 1 and len >= 2 then
      local first = redis.call('lpop', key)
      redis.call('ltrim', key, 2 - n, -1)
      redis.call('lpush', key, first)
    end
  end
  if text == nil then text = Hist.entry(t, what, extras) end
  local len = Hist.push(key, held, text)
  if n >= 3 and len > n then
    Hist.keep_first_and_last(key, n)
    return text
  end
  -- A list of more than 2 entries is never one the push made.
  if len > 2 then return text end
  return text, Hist.known(len, held, text)
end

-- The stored entry texts, oldest first, without writing: a put entry in
-- the hash comes after the list (where the first append moves it); old
-- qless's field is migrated first. `plain` as for Q.history.
Hist.entries = function(jid, plain)
  local legacy = nil
  if plain ~= true then
    legacy = plain or redis.call('hget', Q.jkey(jid), 'history')
    if legacy and not Hist.is_entry(legacy) then
      Hist.migrate(jid, legacy)
      legacy = nil
    end
  end
  local entries = redis.call('lrange', Q.hkey(jid), 0, -1)
  if legacy then entries[#entries + 1] = legacy end
  return entries
end

-- Rendered history: list of objects, extras plus `when` and `what`.
-- `plain` as for Q.history.
Q.history_render = function(jid, plain)
  local out = {}
  for i, text in ipairs(Hist.entries(jid, plain)) do
    local ok, e = pcall(cjson.decode, text)
    if ok and type(e) == 'table' then
      local item = type(e[3]) == 'table' and e[3] or {}
      item.when = e[1]
      item.what = e[2]
      out[#out + 1] = item
    end
  end
  return out
end

-- The JSON text of one rendered entry (one element of the list that
-- Q.history_render builds, encoded alone: cjson writes a nested value the
-- same way wherever it sits), or false for an entry it skips.
Hist.item_json = function(text)
  local ok, e = pcall(cjson.decode, text)
  if ok and type(e) == 'table' then
    local item = type(e[3]) == 'table' and e[3] or {}
    item.when = e[1]
    item.what = e[2]
    return cjson.encode(item)
  end
  return false
end

-- The rendered history as JSON text, as cjson.encode(Q.history_render(...))
-- would write it, appended in pieces to buf after index k; returns the new
-- last index. `memo` maps entry texts to their item JSON and counts them in
-- memo[1] (Q.view_memo): the jobs of one pop, and of one pipelined batch,
-- mostly share identical entries (same `put` and `popped` second), so each
-- distinct short entry is decoded and encoded once. `known`: the entries,
-- when the caller has them (not read again).
Q.history_parts = function(buf, k, jid, plain, memo, known)
  local entries = known or Hist.entries(jid, plain)
  local first = k + 1
  buf[first] = '['
  k = first
  for i = 1, #entries do
    local text = entries[i]
    local item = memo[text]
    if item == nil then
      item = Hist.item_json(text)
      if #text <= 200 then
        memo[text] = item
        memo[1] = memo[1] + 1
      end
    end
    if item then
      if k > first then
        k = k + 1
        buf[k] = ','
      end
      k = k + 1
      buf[k] = item
    end
  end
  if k == first then
    buf[first] = '{}'
    return first
  end
  buf[k + 1] = ']'
  return k + 1
end
