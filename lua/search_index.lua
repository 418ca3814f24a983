-- The dashboard's shared pieces (docs/web.md) and the search index. The
-- page, tree, metrics, search and reindex files that follow use them
-- through Q.dash, so what several of them need lives once here. Nothing
-- existing changes: put, cancel and completed-job expiry call the two
-- index hooks at the end of this file.
--
-- The index: one sorted set, all scores 0, read by ZRANGEBYLEX:
--   "j:<jid>"               every job  (jid exact and prefix search)
--   "k:<klass>\0<jid>"      by class   (class search)
-- Put adds both members in one ZADD; deletion removes both in one ZREM.

local S = {fields = {'jid', 'klass', 'queue', 'state', 'priority', 'worker', 'tags', 'expires',
  'retries', 'remaining', 'failure'}}
Q.dash = S

-- Every key these files name is built here. Q.P is the call's key prefix
-- where the script has namespaces ('{NAME}:ql:'); 'ql:' where it has none.
S.key = function(rest) return (Q.P or 'ql:') .. rest end
S.index = function() return S.key('s:index') end
S.jid_member = function(jid) return 'j:' .. jid end
S.class_member = function(klass, jid) return 'k:' .. klass .. '\0' .. jid end

-- One job's summary table, or nil when the job is gone.
S.summary = function(jid)
  local f = redis.call('hmget', Q.jkey(jid), unpack(S.fields))
  if not f[2] and not f[4] then return nil end
  local out = {
    jid = jid, klass = f[2] or '', queue = f[3] or '', state = f[4] or '',
    priority = tonumber(f[5]) or 0, worker = f[6] or '', tags = Q.decode_or(f[7], {}),
    expires = tonumber(f[8]) or 0, retries = tonumber(f[9]) or 0,
    remaining = math.floor(tonumber(f[10]) or 0),
  }
  local failure = Q.decode_or(f[11], Q.none)
  if type(failure) == 'table' and failure.group then
    out.failure = {group = failure.group, message = failure.message or ''}
  end
  return out
end

S.summaries = function(jids)
  local out = {}
  for _, jid in ipairs(jids) do
    local s = S.summary(jid)
    if s then out[#out + 1] = s end
  end
  return out
end

-- {"total": n, "jobs": [...]} (an empty list encodes as {}: the server reads both).
S.reply = function(total, jids)
  return cjson.encode({total = total, jobs = S.summaries(jids)})
end

-- A zset's members by rank: `rev` for highest score first.
S.rank = function(key, offset, count, rev)
  if count <= 0 then return {} end
  return redis.call(rev and 'zrevrange' or 'zrange', key, offset, offset + count - 1)
end

-- Called once per put (one ZADD). A requeue under another class leaves the
-- old class member: search skips it, as it checks every candidate's fields.
Q.search_index = function(jid, klass)
  redis.call('zadd', S.index(), 0, S.jid_member(jid), 0, S.class_member(klass, jid))
end

-- Called before a job's hash is deleted (one HGET and one ZREM).
Q.search_forget = function(jid)
  local klass = redis.call('hget', Q.jkey(jid), 'klass')
  if klass then
    redis.call('zrem', S.index(), S.jid_member(jid), S.class_member(klass, jid))
  else
    redis.call('zrem', S.index(), S.jid_member(jid))
  end
end
