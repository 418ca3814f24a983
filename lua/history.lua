-- Job history (§3.3): list ql:j:<jid>-history of JSON arrays
-- [floor(when), what, extras?], oldest first.

Q.hkey = function(jid) return 'ql:j:' .. jid .. '-history' end

-- §3.4: jobs written by old qless keep their history as a JSON array in the
-- hash field `history`; convert it to list entries before any read/append.
Q.history_migrate = function(jid)
  local key = Q.jkey(jid)
  local legacy = redis.call('hget', key, 'history')
  if not legacy then return end
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
end

-- HISTORY: append [floor(t), what, extras] under the max-job-history limit.
-- The limit keeps the very first entry plus the newest n-1 (§3.3). The
-- pop/trim/push dance of the spec only changes the list once it holds n
-- entries (for n >= 3), so for n >= 3 the entry is pushed first and the
-- list trimmed only when the push made it longer than n (same result, one
-- call in the common case); n = 1 and n = 2 follow the literal rule.
-- `plain` = true: the caller read the hash and it has no legacy `history`
-- field, so the migration check is skipped.
Q.history = function(jid, t, what, extras, plain)
  if not plain then Q.history_migrate(jid) end
  local key = Q.hkey(jid)
  local n = math.floor(Q.config_number('max-job-history', 100))
  if n > 0 and n < 3 then
    local len = redis.call('llen', key)
    if n == 1 and len >= 2 then
      local first = redis.call('lpop', key)
      redis.call('ltrim', key, 2 - n, -1)
      redis.call('lpush', key, first)
    end
  end
  local entry
  if extras == nil then
    entry = {math.floor(t), what}
  else
    entry = {math.floor(t), what, extras}
  end
  local len = redis.call('rpush', key, cjson.encode(entry))
  if n >= 3 and len > n then
    local first = redis.call('lindex', key, 0)
    redis.call('ltrim', key, 1 - n, -1)
    redis.call('lpush', key, first)
  end
end

-- Rendered history: list of objects, extras plus `when` and `what`.
-- `plain` as for Q.history.
Q.history_render = function(jid, plain)
  if not plain then Q.history_migrate(jid) end
  local out = {}
  for i, text in ipairs(redis.call('lrange', Q.hkey(jid), 0, -1)) do
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
