-- Dashboard pages and search (docs/web.md): each command answers one page
-- of job summaries with work bounded by the page (and a scan budget),
-- whatever the number of jobs. Nothing existing changes: put, cancel and
-- completed-job expiry call the two index hooks at the end of this file.
--
-- The index: one sorted set, all scores 0, read by ZRANGEBYLEX:
--   "j:<jid>"               every job  (jid exact and prefix search)
--   "k:<klass>\0<jid>"      by class   (class search)
-- Put adds both members in one ZADD; deletion removes both in one ZREM.

local S = {fields = {'jid', 'klass', 'queue', 'state', 'priority', 'worker', 'tags', 'expires',
  'retries', 'remaining', 'failure'}}

-- Every key this file names is built here. Q.P is the call's key prefix
-- where the script has namespaces ('{NAME}:ql:'); 'ql:' where it has none.
S.key = function(rest) return (Q.P or 'ql:') .. rest end
S.index = function() return S.key('s:index') end

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

-- The page of one state of a queue: {total, jids}.
S.state_page = {
  waiting = function(q, now, o, c)
    return redis.call('zcard', Q.qkey(q, 'work')), S.rank(Q.qkey(q, 'work'), o, c, true)
  end,
  running = function(q, now, o, c)
    local key = Q.qkey(q, 'locks')
    return redis.call('zcount', key, '(' .. now, '+inf'),
      redis.call('zrangebyscore', key, '(' .. now, '+inf', 'LIMIT', o, c)
  end,
  stalled = function(q, now, o, c)
    local key = Q.qkey(q, 'locks')
    return redis.call('zcount', key, '-inf', now), redis.call('zrangebyscore', key, '-inf', now, 'LIMIT', o, c)
  end,
}
-- The sets listed oldest first (FUNCTION LOAD allows no loop at load time).
S.by_time = function(kind)
  return function(q, now, o, c)
    return redis.call('zcard', Q.qkey(q, kind)), S.rank(Q.qkey(q, kind), o, c, false)
  end
end
S.state_page.scheduled = S.by_time('scheduled')
S.state_page.depends = S.by_time('depends')
S.state_page.suspended = S.by_time('suspended')
S.state_page.terminating = S.by_time('terminating')
S.state_page.terminated = S.by_time('terminated')

-- jobs.page <state> <queue> <offset> <count>: one page of a queue's state
-- (waiting, running, stalled, scheduled, depends, suspended, terminating,
-- terminated; recurring gives the templates as recur.get objects with
-- their next three due times as "next") or of
-- complete (queue ignored), with the state's total.
C['jobs.page'] = function(now, args)
  local state = Q.need('Jobs.page', 'state', args[1])
  local queue = Q.need('Jobs.page', 'queue', args[2])
  local offset = Q.whole('Jobs.page', 'offset', args[3], 0)
  local count = Q.whole('Jobs.page', 'count', args[4], 25, 500)
  if state == 'complete' then
    return S.reply(redis.call('zcard', S.key('completed')), S.rank(S.key('completed'), offset, count, true))
  end
  if state == 'recurring' then
    local total = redis.call('zcard', Q.qkey(queue, 'recur')) + redis.call('zcard', Q.qkey(queue, 'cron'))
    local items = {}
    for _, jid in ipairs(C.jobs(now, {'recurring', queue, offset, count})) do
      local text = C['recur.get'](now, {jid})
      if text then
        local t = cjson.decode(text)
        t.next = cjson.decode(C['recur.next'](now, {jid, 3}))
        items[#items + 1] = t
      end
    end
    return cjson.encode({total = total, jobs = items})
  end
  local page = S.state_page[state]
  if not page then
    Q.raise('InvalidArgument', 'Jobs.page(): Arg "state" must be one of waiting, running, stalled, ' ..
      'scheduled, depends, recurring, suspended, terminating, terminated, complete: ' .. state)
  end
  return S.reply(page(queue, now, offset, count))
end

-- jobs.summaries <jid>...: the summaries of the jobs that exist, in order.
C['jobs.summaries'] = function(now, args)
  return cjson.encode(S.summaries(Q.jids('Jobs.summaries', args, 1)))
end

-- tagged.page <tag> <offset> <count>; tracked.page <offset> <count>.
C['tagged.page'] = function(now, args)
  local key = S.key('t:' .. Q.need('Tagged.page', 'tag', args[1]))
  local offset = Q.whole('Tagged.page', 'offset', args[2], 0)
  local count = Q.whole('Tagged.page', 'count', args[3], 25, 500)
  return S.reply(redis.call('zcard', key), S.rank(key, offset, count, false))
end

C['tracked.page'] = function(now, args)
  local key = S.key('tracked')
  local offset = Q.whole('Tracked.page', 'offset', args[1], 0)
  local count = Q.whole('Tracked.page', 'count', args[2], 25, 500)
  return S.reply(redis.call('zcard', key), S.rank(key, offset, count, false))
end

-- failed.page <group> <offset> <count>: newest first, as `failed` lists them.
C['failed.page'] = function(now, args)
  local group = Q.need('Failed.page', 'group', args[1])
  local offset = Q.whole('Failed.page', 'offset', args[2], 0)
  local count = Q.whole('Failed.page', 'count', args[3], 25, 500)
  local listed = cjson.decode(C.failed(now, {group, offset, count}))
  return S.reply(listed.total, listed.jobs)
end

-- worker.page <worker> <count>: the worker's running and stalled jobs (at
-- most count of each).
C['worker.page'] = function(now, args)
  local key = Q.wkey(Q.need('Worker.page', 'worker', args[1]))
  local count = Q.whole('Worker.page', 'count', args[2], 100, 500)
  return cjson.encode({
    jobs = S.summaries(redis.call('zrangebyscore', key, '(' .. now, '+inf', 'LIMIT', 0, count)),
    stalled = S.summaries(redis.call('zrangebyscore', key, '-inf', now, 'LIMIT', 0, count)),
  })
end

-- failed.retry <group> <count>: the group's oldest count jobs back into
-- each one's own queue (unfail moves them all into one); the number moved.
C['failed.retry'] = function(now, args)
  local group = Q.need('Failed.retry', 'group', args[1])
  local count = Q.whole('Failed.retry', 'count', args[2], 25, 500)
  local list = S.key('f:' .. group)
  local done = 0
  for _ = 1, count do
    local jid = redis.call('lindex', list, -1)
    if not jid then break end
    local queue = redis.call('hget', Q.jkey(jid), 'queue')
    if not queue or queue == '' then break end   -- a failed job always has one
    done = done + C.unfail(now, {queue, group, 1})
  end
  return done
end

-- failed.cancel <group> <count>: cancels the group's oldest count jobs.
C['failed.cancel'] = function(now, args)
  local group = Q.need('Failed.cancel', 'group', args[1])
  local count = Q.whole('Failed.cancel', 'count', args[2], 25, 500)
  if count == 0 then return 0 end
  local jids = redis.call('lrange', S.key('f:' .. group), -count, -1)
  if #jids > 0 then C.cancel(now, jids) end
  return #jids
end

-- metrics.extra: what /metrics needs beyond `queues` and `stats`, in one
-- call: failed jobs in all groups, per queue the scheduled entries already
-- due (lag: nothing has moved them to waiting yet), tree jobs at rest or
-- ending by status. Work: a few ZCARD/LLEN per queue and group.
C['metrics.extra'] = function(now, args)
  local failed = 0
  for _, g in ipairs(redis.call('smembers', S.key('failures'))) do
    failed = failed + redis.call('llen', S.key('f:' .. g))
  end
  local lag, trees = {}, {suspended = 0, terminating = 0, terminated = 0}
  local any = false
  for _, q in ipairs(redis.call('zrange', S.key('queues'), 0, -1)) do
    lag[q] = redis.call('zcount', Q.qkey(q, 'scheduled'), '-inf', now)
    any = true
    for status, n in pairs(trees) do
      trees[status] = n + redis.call('zcard', Q.qkey(q, status))
    end
  end
  if not any then lag = nil end
  return cjson.encode({failed = failed, lag = lag or cjson.decode('{}'), trees = trees})
end

-- The channels the walked jobs' ports link to (either direction), each
-- once, in byte order: at most SUB_CHANNELS, and whether there were more.
S.SUB_CHANNELS, S.SUB_EACH = 50, 20
S.tree_channels = function(nodes)
  local seen, list = {}, {}
  for _, rec in ipairs(nodes) do
    for _, field in ipairs({'inchannels', 'outchannels'}) do
      for _, chans in pairs(type(rec[field]) == 'table' and rec[field] or Q.none) do
        for _, c in ipairs(type(chans) == 'table' and chans or Q.none) do
          if type(c) == 'string' and not seen[c] then
            seen[c] = true
            list[#list + 1] = c
          end
        end
      end
    end
  end
  table.sort(list, Q.tree.byte_less)
  local more = #list > S.SUB_CHANNELS
  for i = #list, S.SUB_CHANNELS + 1, -1 do list[i] = nil end
  return list, more
end

-- {channel, total, jobs = [{jid, port}]}: the members of the channel's
-- subscription set (total) and up to SUB_EACH live ones, in byte order.
-- SSCAN reads a few rounds of SUB_EACH, so a channel with a million
-- subscribers costs what one with twenty does.
S.channel_subscribers = function(c)
  local key = S.key('subs:' .. c)
  local found, cursor, rounds = {}, '0', 0
  repeat
    local got = redis.call('sscan', key, cursor, 'COUNT', S.SUB_EACH)
    cursor, rounds = got[1], rounds + 1
    for _, member in ipairs(got[2]) do
      local jid, port = Q.tree.live(member, c)
      if jid then found[#found + 1] = {jid = jid, port = port} end
    end
  until cursor == '0' or #found >= S.SUB_EACH or rounds >= 4
  table.sort(found, function(a, b)
    if a.jid ~= b.jid then return Q.tree.byte_less(a.jid, b.jid) end
    return Q.tree.byte_less(a.port, b.port)
  end)
  for i = #found, S.SUB_EACH + 1, -1 do found[i] = nil end
  return {channel = c, total = redis.call('scard', key), jobs = found}
end

-- tree.walk <jid> [<count>]: the tree.get records of the job and its
-- descendants, breadth first (children by name), at most count (default
-- 200, up to 1000), the root's state store and the subscribers of the
-- channels the walked ports link to (S.tree_channels):
-- {"nodes": [...], "truncated": bool, "state": {...},
--  "subscribers": [{channel, total, jobs}], "channels_truncated": bool}.
-- One call for the whole drawing; nil when the job does not exist.
C['tree.walk'] = function(now, args)
  local jid = Q.jid('Tree.walk', 'jid', args[1])
  local max = Q.whole('Tree.walk', 'count', args[2], 200, 1000)
  local root = C['tree.get'](now, {jid})
  if not root then return false end
  local nodes, todo, i = {}, {}, 0
  local record = cjson.decode(root)
  while record and #nodes < max do
    nodes[#nodes + 1] = record
    local names = {}
    for name in pairs(type(record.children) == 'table' and record.children or Q.none) do names[#names + 1] = name end
    table.sort(names, Q.tree.byte_less)
    for _, name in ipairs(names) do todo[#todo + 1] = record.children[name] end
    record = nil
    while not record and i < #todo do
      i = i + 1
      local text = C['tree.get'](now, {todo[i]})
      if text then record = cjson.decode(text) end
    end
  end
  -- The root job's state store (values as stored: spliced in, not re-encoded).
  local channels, more = S.tree_channels(nodes)
  local subscribers = {}
  for k, c in ipairs(channels) do subscribers[k] = S.channel_subscribers(c) end
  local out = cjson.encode({nodes = nodes, truncated = record ~= nil or i < #todo,
    subscribers = subscribers, channels_truncated = more})
  return string.sub(out, 1, -2) .. ',"state":' .. C['state.get'](now, {jid}) .. '}'
end

-- schedules.list: the queues holding templates or scheduled jobs (each a
-- schedule, schedules.md) with their number of entries and the earliest
-- due time: [{"name", "entries", "next_run"}]. A few ZCARD/ZRANGE per queue.
C['schedules.list'] = function(now, args)
  local out = {}
  for _, q in ipairs(redis.call('zrange', S.key('queues'), 0, -1)) do
    local n, first = 0, nil
    for _, kind in ipairs({'recur', 'cron', 'scheduled'}) do
      local key = Q.qkey(q, kind)
      n = n + redis.call('zcard', key)
      local head = redis.call('zrange', key, 0, 0, 'withscores')
      local t = tonumber(head[2])
      if t and (not first or t < first) then first = t end
    end
    if n > 0 then out[#out + 1] = {name = q, entries = n, next_run = first} end
  end
  if #out == 0 then return '[]' end
  return cjson.encode(out)
end

-- Search ----------------------------------------------------------------------

-- Whether summary s passes every filter f.
S.matches = function(s, f, now)
  if f.jid and s.jid ~= f.jid then return false end
  if f.prefix and string.sub(s.jid, 1, #f.prefix) ~= f.prefix then return false end
  if f.class and s.klass ~= f.class then return false end
  if f.queue and s.queue ~= f.queue then return false end
  if f.worker and s.worker ~= f.worker then return false end
  if f.state then
    local state = s.state
    if state == 'running' and s.expires <= now then state = 'stalled' end
    if state ~= f.state then return false end
  end
  if f.tag then
    local found = false
    for _, t in ipairs(s.tags) do
      if t == f.tag then found = true break end
    end
    if not found then return false end
  end
  return true
end

-- The candidates' source: {next = function(cursor, n) -> jids, cursor'|nil, total}.
-- Rank sources page by offset; the lex index by the last member seen (so a
-- deep page costs what the first does).
-- A rank cursor: a whole number (anything else starts over).
S.offset = function(cursor)
  local n = tonumber(cursor)
  if not n or n < 0 or n ~= math.floor(n) or n > 2147483647 then return 0 end
  return n
end

S.by_rank = function(key, rev, total)
  return {
    total = total,
    next = function(cursor, n)
      local offset = S.offset(cursor)
      local jids = S.rank(key, offset, n, rev)
      return jids, (#jids == n) and tostring(offset + n) or nil
    end,
  }
end

-- A lex source: the members from lead (what each starts with) to past;
-- member(jid) is a jid's member. Its cursor is the last jid seen (no NUL,
-- so it travels in a URL); a cursor whose member falls outside the range
-- (not one this command gave) starts over.
S.by_lex = function(lead, past, member, strip)
  local first = '[' .. lead
  return {
    total = function() return redis.call('zlexcount', S.index(), first, past) end,
    next = function(cursor, n)
      local from = first
      if cursor then
        local m = member(cursor)
        if string.sub(m, 1, #lead) == lead then from = '(' .. m end
      end
      local members = redis.call('zrangebylex', S.index(), from, past, 'LIMIT', 0, n)
      local jids = {}
      for i, m in ipairs(members) do jids[i] = strip(m) end
      return jids, (#members == n) and jids[#jids] or nil
    end,
  }
end

S.after_nul = function(m) return string.sub(m, (string.find(m, '\0', 1, true) or 0) + 1) end
S.after_prefix = function(m) return string.sub(m, 3) end
S.jid_member = function(jid) return 'j:' .. jid end

-- The most selective source the filters allow.
S.source = function(f, now)
  if f.jid then
    return {total = nil, next = function(cursor) return cursor and {} or {f.jid}, nil end}
  end
  if f.tag then
    local key = S.key('t:' .. f.tag)
    return S.by_rank(key, false, function() return redis.call('zcard', key) end)
  end
  if f.worker then
    local key = Q.wkey(f.worker)
    return S.by_rank(key, false, function() return redis.call('zcard', key) end)
  end
  if f.class then
    local lead = 'k:' .. f.class .. '\0'
    return S.by_lex(lead, '(k:' .. f.class .. '\1', function(jid) return lead .. jid end, S.after_nul)
  end
  if f.prefix then
    return S.by_lex('j:' .. f.prefix, '(j:' .. f.prefix .. '\255', S.jid_member, S.after_prefix)
  end
  if f.queue and f.state and S.state_page[f.state] then
    local page = S.state_page[f.state]
    return {
      total = function() return (page(f.queue, now, 0, 0)) end,
      next = function(cursor, n)
        local offset = S.offset(cursor)
        local _, jids = page(f.queue, now, offset, n)
        return jids, (#jids == n) and tostring(offset + n) or nil
      end,
    }
  end
  if f.queue then
    -- Every job of a queue: its waiting, locked, scheduled and depends sets in turn.
    local kinds = {'work', 'locks', 'scheduled', 'depends'}
    return {
      total = function()
        local n = 0
        for _, k in ipairs(kinds) do n = n + redis.call('zcard', Q.qkey(f.queue, k)) end
        return n
      end,
      next = function(cursor, n)
        local set, offset = 1, 0
        if cursor then
          local a, b = string.match(cursor, '^(%d+):(%d+)$')
          set, offset = math.max(1, tonumber(a) or 1), S.offset(b)
        end
        local jids = {}
        while set <= #kinds and #jids < n do
          local got = S.rank(Q.qkey(f.queue, kinds[set]), offset, n - #jids, false)
          for _, j in ipairs(got) do jids[#jids + 1] = j end
          if #got < n then set, offset = set + 1, 0 else offset = offset + #got end
        end
        return jids, set <= #kinds and (set .. ':' .. offset) or nil
      end,
    }
  end
  if f.state == 'complete' then
    local key = S.key('completed')
    return S.by_rank(key, true, function() return redis.call('zcard', key) end)
  end
  Q.raise('InvalidArgument', 'Search(): give jid, prefix, tag, class, worker or queue ' ..
    '(state alone only as complete)')
end

-- search <cursor> <count> <budget> [<filter> <value>]...: filters jid,
-- prefix, tag, class, queue, worker, state (all must match). Looks at no
-- more than budget candidates (at most 5000); answers
-- {"jobs": [...], "next": cursor or false, "total": n or false (known only
-- when one filter alone chose the candidates)}.
C.search = function(now, args)
  local cursor = args[1]
  if cursor == '' then cursor = nil end
  local count = Q.whole('Search', 'count', args[2], 25, 500)
  local budget = Q.whole('Search', 'budget', args[3], 1000, 5000)
  local f, nf = {}, 0
  local known = {jid = true, prefix = true, tag = true, class = true, queue = true, worker = true, state = true}
  for i = 4, #args, 2 do
    local name, value = args[i], args[i + 1]
    if not known[name] then
      Q.raise('InvalidArgument', 'Search(): unknown filter "' .. name .. '"')
    end
    Q.need('Search', name, value)
    if name == 'jid' and value ~= '' then Q.jid('Search', 'jid', value) end
    if value ~= '' then
      f[name], nf = value, nf + 1
    end
  end
  local src = S.source(f, now)
  local jobs, seen = {}, 0
  while #jobs < count and seen < budget do
    local jids, after = src.next(cursor, math.min(budget - seen, math.max(count - #jobs, 50)))
    local used = #jids
    for i, jid in ipairs(jids) do
      local s = S.summary(jid)
      if s and S.matches(s, f, now) then
        jobs[#jobs + 1] = s
        if #jobs == count then
          used = i
          break
        end
      end
    end
    seen = seen + used
    if used < #jids then
      -- The page filled inside this batch: resume right after the last one looked at.
      local _, resume = src.next(cursor, used)
      after = resume
    end
    cursor = after
    if not cursor then break end
  end
  local total = false
  if nf == 1 and src.total then total = src.total() end
  return cjson.encode({jobs = jobs, next = cursor or false, total = total})
end

-- Reindex ---------------------------------------------------------------------

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
      js[#js + 1], js[#js + 2] = 0, 'j:' .. jid
      ks[#ks + 1], ks[#ks + 2] = 0, 'k:' .. klass .. '\0' .. jid
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

-- Index hooks -----------------------------------------------------------------

-- Called once per put (one ZADD). A requeue under another class leaves the
-- old class member: search skips it, as it checks every candidate's fields.
Q.search_index = function(jid, klass)
  redis.call('zadd', S.index(), 0, 'j:' .. jid, 0, 'k:' .. klass .. '\0' .. jid)
end

-- Called before a job's hash is deleted (one HGET and one ZREM).
Q.search_forget = function(jid)
  local klass = redis.call('hget', Q.jkey(jid), 'klass')
  if klass then
    redis.call('zrem', S.index(), 'j:' .. jid, 'k:' .. klass .. '\0' .. jid)
  else
    redis.call('zrem', S.index(), 'j:' .. jid)
  end
end
