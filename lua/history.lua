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
-- entries (for n >= 3), so it is skipped below that; n = 1 and n = 2 follow
-- the literal rule.
Q.history = function(jid, t, what, extras)
  Q.history_migrate(jid)
  local key = Q.hkey(jid)
  local n = math.floor(Q.config_number('max-job-history', 100))
  if n > 0 then
    local len = redis.call('llen', key)
    if (n >= 3 and len >= n) or (n == 1 and len >= 2) then
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
  redis.call('rpush', key, cjson.encode(entry))
end

-- Rendered history: list of objects, extras plus `when` and `what`.
Q.history_render = function(jid)
  Q.history_migrate(jid)
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
