-- search.reindex (docs/web.md): adds to the search index the jobs put
-- before the index existed, a bounded slice per call.

local S = Q.dash

-- The places a job lives, walked in this order: each queue's sets (queues
-- by name), each failure group's list (groups by name), the completed
-- jobs. A place is {p = phase, n = name, k = kind}; reindex cursors name
-- the place they stopped in, so one that has gone meanwhile (an emptied
-- queue) resumes at the next place after it.
S.KINDS = {'work', 'locks', 'scheduled', 'depends', 'suspended', 'terminating', 'terminated'}

S.places = function()
  local out = {}
  local queues = redis.call('zrange', S.key('queues'), 0, -1)
  table.sort(queues, Q.tree.byte_less)
  for _, q in ipairs(queues) do
    for k, kind in ipairs(S.KINDS) do out[#out + 1] = {p = 1, n = q, k = k, key = Q.qkey(q, kind)} end
  end
  local groups = redis.call('smembers', S.key('failures'))
  table.sort(groups, Q.tree.byte_less)
  for _, g in ipairs(groups) do out[#out + 1] = {p = 2, n = g, k = 1, key = S.key('f:' .. g), list = true} end
  out[#out + 1] = {p = 3, n = '', k = 1, key = S.key('completed'), rev = true}
  return out
end

S.place_less = function(a, b)
  if a.p ~= b.p then return a.p < b.p end
  if a.n ~= b.n then return Q.tree.byte_less(a.n, b.n) end
  return a.k < b.k
end

-- The cursor a reindex call gave (JSON), or a start for ''.
S.reindex_cursor = function(text)
  if text == nil or text == '' then return nil end
  local ok, c = pcall(cjson.decode, text)
  if not (ok and type(c) == 'table' and type(c.p) == 'number' and type(c.n) == 'string' and
      type(c.k) == 'number' and type(c.o) == 'number' and c.o >= 0 and c.o == math.floor(c.o)) then
    Q.raise('InvalidArgument', 'Search.reindex(): Arg "cursor" is not one search.reindex gave: ' .. text)
  end
  return c
end

-- Up to n jids of a place from offset o. Sets are read in the order that
-- keeps offsets valid while the queues run: waiting jobs leave from the
-- high end (read from the low), completed jobs expire from the oldest
-- (read newest first), failures are pushed at the head (read from the tail).
S.place_read = function(place, o, n)
  if place.list then return redis.call('lrange', place.key, -(o + n), -(o + 1)) end
  return S.rank(place.key, o, n, place.rev)
end

-- Where to resume in a sorted set: right after the last job seen if it is
-- still there (jobs that left before it shift the ranks), else at offset.
S.resume = function(place, c)
  if place.list or type(c.j) ~= 'string' then return c.o end
  local rank = redis.call(place.rev and 'zrevrank' or 'zrank', place.key, c.j)
  return rank and rank + 1 or c.o
end

-- Adds the index members of the jobs that still exist; returns how many
-- were new to the index.
S.index_jobs = function(jids)
  local js, ks = {}, {}
  for _, jid in ipairs(jids) do
    local klass = redis.call('hget', Q.jkey(jid), 'klass')
    if klass then
      js[#js + 1], js[#js + 2] = 0, S.jid_member(jid)
      ks[#ks + 1], ks[#ks + 2] = 0, S.class_member(klass, jid)
    end
  end
  local added = 0
  for i = 1, #js, 1000 do
    added = added + redis.call('zadd', S.index(), unpack(js, i, math.min(i + 999, #js)))
    redis.call('zadd', S.index(), unpack(ks, i, math.min(i + 999, #ks)))
  end
  return added
end

-- search.reindex <cursor> [<count>]: adds to the search index the jobs put
-- before it existed, looking at no more than count jobs and places (1 to
-- 5000, default 1000) per call; '' starts. Answers {"looked", "added" (jobs
-- new to the index), "next": the cursor to pass back, or false when done,
-- "at": where it stopped}. Repeating it is harmless (members already there
-- stay); a job that moves while it runs may be missed, so run it again on
-- a busy server.
C['search.reindex'] = function(now, args)
  local cursor = S.reindex_cursor(args[1])
  local count = Q.whole('Search.reindex', 'count', args[2], 1000, 5000)
  if count < 1 then
    Q.raise('InvalidArgument', 'Search.reindex(): Arg "count" must be a whole number from 1 to 5000: ' .. args[2])
  end
  local places, i, offset = S.places(), 1, 0
  if cursor then
    while places[i] and S.place_less(places[i], cursor) do i = i + 1 end
    local p = places[i]
    if p and p.p == cursor.p and p.n == cursor.n and p.k == cursor.k then offset = S.resume(p, cursor) end
  end
  local looked, steps, added, last = 0, 0, 0, nil
  while places[i] and looked + steps < count do
    local want = count - looked - steps
    local jids = S.place_read(places[i], offset, want)
    steps, looked = steps + 1, looked + #jids
    added = added + S.index_jobs(jids)
    if #jids < want then
      i, offset, last = i + 1, 0, nil
    else
      offset, last = offset + #jids, jids[#jids]
    end
  end
  local p = places[i]
  local out = {looked = looked, added = added, next = false, at = 'done'}
  if p then
    out.next = cjson.encode({p = p.p, n = p.n, k = p.k, o = offset, j = last})
    out.at = (p.p == 1 and ('queue ' .. p.n .. ' ' .. S.KINDS[p.k])) or (p.p == 2 and ('failed ' .. p.n)) or 'completed'
  end
  return cjson.encode(out)
end
