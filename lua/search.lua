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

-- tree.walk <jid> [<count>]: the tree.get records of the job and its
-- descendants, breadth first (children by name), at most count (default
-- 200, up to 1000) and the root's state store:
-- {"nodes": [...], "truncated": bool, "state": {...}}. One call for the
-- whole drawing; nil when the job does not exist.
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
  local out = cjson.encode({nodes = nodes, truncated = record ~= nil or i < #todo})
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
