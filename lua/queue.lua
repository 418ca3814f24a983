-- Queue commands: pop (§5.6), peek (§5.7), jobs (§5.19), queues (§5.20),
-- length (§5.21), pause/unpause (§5.24), queue.forget (§5.25).

-- PROMOTE-SCHEDULED(q, now, n): up to n scheduled jobs whose time has come
-- (score in [0, now]) become waiting.
-- This module's own helpers; Q holds only what other modules use.
local Que = {
  promote_scheduled = nil,
  present = nil,
  take_work = nil,
  hand_out = nil,
  zadd_all = nil,
  any_deps = nil,
  hand_out_all = nil,
  prints_g17 = nil,
  repeats = nil,
  jobs_by_state = nil,
  counts = nil,
  names = nil,
}

Que.promote_scheduled = function(queue, now, n)
  if n <= 0 then return end
  local key = Q.qkey(queue, 'scheduled')
  local jids = redis.call('zrangebyscore', key, 0, now, 'LIMIT', 0, n)
  for _, jid in ipairs(jids) do
    local priority = tonumber(redis.call('hget', Q.jkey(jid), 'priority')) or 0
    Q.work_add(queue, jid, priority, now)
    redis.call('zrem', key, jid)
    redis.call('hset', Q.jkey(jid), 'state', 'waiting')
  end
end

-- One EXISTS instead of a ZRANGEBYSCORE of each set a pop reads, which are
-- usually absent: whether the queue has templates (its -recur or -cron set)
-- and whether it has a -scheduled set. It also fills the tracked memo and,
-- when no option is stored, the config memo (no HGETALL then). Each group
-- of keys is named as many times as the others can count at most, plus
-- one (templates 0-2, scheduled 3, tracked 6, config 12: 23 names, where
-- powers of two took 30), so the count tells them apart. A key of another
-- type counts as present, so the read that follows still refuses it with
-- WRONGTYPE before any write.
Que.present = function(queue)
  local s, t, c = Q.qkey(queue, 'scheduled'), Q.P .. 'tracked', Q.P .. 'config'
  local count = redis.call('exists', Q.qkey(queue, 'recur'), Q.qkey(queue, 'cron'), s, s, s,
    t, t, t, t, t, t, c, c, c, c, c, c, c, c, c, c, c, c)
  local templates = count % 3
  local rest = (count - templates) / 3
  Q.memo_tracked = rest % 4 >= 2
  if rest < 4 and Q.memo_config == nil then Q.memo_config = Q.none end
  return templates > 0, rest % 2 == 1
end

-- Appends up to n jids from the top of the work set (highest score first).
Que.take_work = function(queue, n, out)
  if n <= 0 then return out end
  for _, jid in ipairs(redis.call('zrevrange', Q.qkey(queue, 'work'), '0', Q.int_arg(n - 1))) do
    out[#out + 1] = jid
  end
  return out
end

-- Whether a jid appears twice in jids.
Que.repeats = function(jids)
  local seen = {}
  for i = 1, #jids do
    if seen[jids[i]] then return true end
    seen[jids[i]] = true
  end
  return false
end

-- Hands one job to a worker (§5.6 step 9).
Que.hand_out = function(queue, jid, worker, now, expires)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'time', 'history')
  Q.history(jid, now, 'popped', {worker = worker}, f[2] or true)
  local last = tonumber(f[1]) or now
  Q.stat(queue, 'wait', now, now - last)
  redis.call('zadd', Q.wkey(worker), expires, jid)
  redis.call('hset', key, 'time', Q.timestr(now), 'worker', worker, 'expires', expires, 'state', 'running')
  redis.call('zadd', Q.qkey(queue, 'locks'), expires, jid)
  Q.track_event(jid, 'popped')
end

-- ZADD of distinct `members`, all with the same score, in slices that stay
-- within Lua's unpack limit. The score is passed as %.17g text, which ZADD
-- reads back as the same double. The members go in descending order: a
-- small sorted set is a listpack that ZADD scans from the head, parsing
-- each score it passes, up to the insertion point; a member smaller than
-- those of equal score already there stops the scan at the first of them,
-- where ascending or random order would walk (and parse) the whole run.
-- The set ends the same whatever the order.
-- `members` is sorted in place unless it already is in descending order
-- (as pop takes jobs of equal score from the work set).
Que.zadd_all = function(key, score, members)
  local text = Q.score(score)
  local m = #members
  local first, last, step = 1, m, 1
  for i = 2, m do
    if members[i - 1] < members[i] then
      table.sort(members)
      first, last, step = m, 1, -1
      break
    end
  end
  local args, n = {}, 0
  for i = first, last, step do
    args[n + 1] = text
    args[n + 2] = members[i]
    n = n + 2
    if n >= 2000 then
      redis.call('zadd', key, unpack(args, 1, n))
      n = 0
    end
  end
  if n > 0 then redis.call('zadd', key, unpack(args, 1, n)) end
end

-- True unless none of the jids has a -dependents or -dependencies set
-- (one EXISTS per 500 jids instead of two SMEMBERS per job).
Que.any_deps = function(jids)
  if #jids == 1 then
    local key = Q.jkey(jids[1])
    return redis.call('exists', key .. '-dependents', key .. '-dependencies') > 0
  end
  local keys, n = {}, 0
  for i = 1, #jids do
    local key = Q.jkey(jids[i])
    keys[n + 1] = key .. '-dependents'
    keys[n + 2] = key .. '-dependencies'
    n = n + 2
    if n >= 1000 or i == #jids then
      if redis.call('exists', unpack(keys, 1, n)) > 0 then return true end
      n = 0
    end
  end
  return false
end

-- Whether Redis writes a Lua number argument as %.17g text (7.0; later
-- versions print the shortest digits), asked once by ECHO: where it does,
-- Q.score's text of a number is what HSET would store for the number
-- itself, and Redis is spared a print per argument. Q.cache outlives the
-- call in the Functions library, so this is one ECHO per load there.
Que.prints_g17 = function()
  local c = Q.cache
  if c.prints_g17 == nil then c.prints_g17 = redis.call('echo', 0.1) == '0.10000000000000001' end
  return c.prints_g17
end

-- What pop reads of a job before handing it out: the first twelve of
-- Q.view_fields, then `tree`.
local pop_fields = {}
for i = 1, 12 do pop_fields[i] = Q.view_fields[i] end
pop_fields[13] = 'tree'

-- Que.hand_out of each of the (distinct) jids, then the reply, with four calls
-- per job (HMGET, RPUSH, HSET, LRANGE): what only differs by jid is written
-- once for all (the wait stats, the worker's and the queue's lock sets,
-- which hold each jid once whatever the order), the `popped` entry and the
-- `time` text are made once, and each job object is built from the fields
-- read before its hand-out plus the ones the hand-out wrote. Pub/sub and the
-- final data are those of the one-at-a-time loop.
Que.hand_out_all = function(queue, jids, worker, now, expires)
  local n = #jids
  if n == 0 then return '{}' end
  -- Q.timestr(now), which is Q.score's text (%.17g), made for the workers set.
  local time = Q.score(now)
  -- The text Redis makes of the expires number, made once for all the
  -- jobs: Q.score's where that is Redis's own, else ECHO of the number
  -- (which returns exactly what HSET would store for it) for several.
  local expires_text = expires
  if Que.prints_g17() then
    expires_text = Q.score(expires)
  elseif n > 1 then
    expires_text = redis.call('echo', expires)
  end
  local rows, waits = {}, {}
  local popped = nil
  -- Tree jobs (the `tree` field, read in the same HMGET) may be held back
  -- by the runaway guard (K11: not replaced), so jids is compacted in
  -- place to the ones handed out; `moved` holds their status events, sent
  -- after P§9's.
  local m, moved = 0, nil
  for i = 1, n do
    local jid = jids[i]
    local key = Q.jkey(jid)
    -- The first twelve fields; the hand-out writes the other three.
    local f = redis.call('hmget', key, unpack(pop_fields))
    local state, from = 'running', nil
    if f[13] then state, from = Q.tree.pop_one(jid, key, now) end
    if state then
      m = m + 1
      jids[m] = jid
      local known
      popped, known = Q.history(jid, now, 'popped', nil, f[11] or true, popped or Q.history_text(now, 'popped', 'worker', worker))
      waits[m] = now - (Q.time_number(f[12]) or now)
      redis.call('hset', key, 'time', time, 'worker', worker, 'expires', expires_text, 'state', state)
      -- As an HMGET of Q.view_fields would read it now (a legacy history
      -- field is gone after the migration; expires is passed on as JSON).
      f[11], f[13], f[14] = false, state, worker
      -- The history when the push made the list (no LRANGE for the reply).
      f.known = known
      rows[m] = f
      if from then
        moved = moved or {}
        moved[#moved + 1] = {jid, from}
      end
    end
  end
  for i = m + 1, n do jids[i] = nil end
  n = m
  if n == 0 then return '{}' end
  if n == 1 then Q.stat(queue, 'wait', now, waits[1]) else Q.stat_batch(queue, 'wait', now, waits) end
  if n == 1 then
    local score = Q.score(expires)
    redis.call('zadd', Q.wkey(worker), score, jids[1])
    redis.call('zadd', Q.qkey(queue, 'locks'), score, jids[1])
  else
    local sorted = {}
    for i = 1, n do sorted[i] = jids[i] end
    Que.zadd_all(Q.wkey(worker), expires, sorted)
    Que.zadd_all(Q.qkey(queue, 'locks'), expires, sorted)
  end
  for i = 1, n do
    Q.track_event(jids[i], 'popped')
  end
  Q.zrem_all(Q.qkey(queue, 'work'), jids)
  if moved then
    for _, j in ipairs(moved) do Q.tree.status(j[1], now, j[2], 'running') end
  end

  local memo = Q.view_memo()
  local deps = Que.any_deps(jids)
  -- The JSON of expires, remembered for the batch (one `now`, one expires;
  -- zero is never kept: 0 == -0, which cjson writes apart).
  local cache = Q.cache
  if expires ~= cache.expires_num or expires == 0 then
    cache.expires_num, cache.expires_json = expires, cjson.encode(expires)
  end
  local expires_json = cache.expires_json
  local buf, k = {'['}, 1
  for i = 1, n do
    if i > 1 then
      k = k + 1
      buf[k] = ','
    end
    k = Q.view_parts(buf, k, jids[i], rows[i], memo, expires_json, deps)
  end
  buf[k + 1] = ']'
  return table.concat(buf)
end

C.pop = function(now, args)
  local queue = Q.need('Pop', 'queue', args[1])
  local worker = Q.need('Pop', 'worker', args[2])
  local count = Q.whole('Pop', 'count', args[3])
  local templates, scheduled = Que.present(queue)
  local expires = now + Q.heartbeat(queue)

  if redis.call('sismember', Q.P .. 'paused_queues', queue) == 1 then
    return '{}'
  end

  -- Concurrency cap: only unexpired locks count as running. (No option
  -- stored, the usual case: no key name to make.)
  local stored, cap = Q.config_stored(), 0
  if stored ~= Q.none then cap = tonumber(stored[queue .. '-max-concurrency']) or 0 end
  if cap > 0 then
    local running = redis.call('zcount', Q.qkey(queue, 'locks'), now, '+inf')
    count = math.min(count, math.max(0, math.floor(cap - running)))
    if count == 0 then return '{}' end
  end

  local jids = Q.reap_locks(queue, now, count)
  if templates then Q.spawn_recurring(queue, now, count - #jids) end
  if scheduled then Que.promote_scheduled(queue, now, count - #jids) end
  Que.take_work(queue, count - #jids, jids)
  -- Registered only now: the queue's sets are read (and their first writes
  -- done) above, so a queue key of another program's (WRONGTYPE) refuses the
  -- pop before anything is written.
  redis.call('zadd', Q.P .. 'workers', Q.score(now), worker)

  if #jids > 1 and Que.repeats(jids) then
    -- A jid twice (only in a corrupt data set): one job at a time.
    for _, jid in ipairs(jids) do
      Que.hand_out(queue, jid, worker, now, expires)
    end
    Q.zrem_all(Q.qkey(queue, 'work'), jids)
    return Q.job_list(jids)
  end
  return Que.hand_out_all(queue, jids, worker, now, expires)
end

C.peek = function(now, args)
  local queue = Q.need('Peek', 'queue', args[1])
  local count = Q.whole('Peek', 'count', args[2])
  local jids = {}
  if count > 0 then
    jids = redis.call('zrangebyscore', Q.qkey(queue, 'locks'), '-inf', now, 'LIMIT', 0, count)
  end
  Q.spawn_recurring(queue, now, count - #jids)
  Que.promote_scheduled(queue, now, count - #jids)
  Que.take_work(queue, count - #jids, jids)
  return Q.job_list(jids)
end

-- jobs <state> listings (§5.19).

-- A listing of one of the queue's sets by time.
local function by_rank(kind)
  return function(queue, now, offset, count)
    return redis.call('zrange', Q.qkey(queue, kind), offset, offset + count - 1)
  end
end

Que.jobs_by_state = {
  running = function(queue, now, offset, count)
    return redis.call('zrangebyscore', Q.qkey(queue, 'locks'), now, '+inf', 'LIMIT', offset, count)
  end,
  stalled = function(queue, now, offset, count)
    return redis.call('zrangebyscore', Q.qkey(queue, 'locks'), '-inf', now, 'LIMIT', offset, count)
  end,
  scheduled = function(queue, now, offset, count)
    local key = Q.qkey(queue, 'scheduled')
    Que.promote_scheduled(queue, now, redis.call('zcard', key))
    return redis.call('zrange', key, offset, offset + count - 1)
  end,
  depends = by_rank('depends'),
  -- Tree jobs at rest or ending (jobtrees.md §3.1).
  suspended = by_rank('suspended'),
  terminating = by_rank('terminating'),
  terminated = by_rank('terminated'),
  -- Interval templates, then cron templates (schedules.md S1).
  recurring = function(queue, now, offset, count)
    local jids = redis.call('zrangebyscore', Q.qkey(queue, 'recur'), 0, '+inf', 'LIMIT', offset, count)
    if #jids < count and redis.call('exists', Q.qkey(queue, 'cron')) == 1 then
      local skip = math.max(0, offset - redis.call('zcount', Q.qkey(queue, 'recur'), 0, '+inf'))
      for _, jid in ipairs(redis.call('zrangebyscore', Q.qkey(queue, 'cron'), 0, '+inf', 'LIMIT', skip,
          count - #jids)) do
        jids[#jids + 1] = jid
      end
    end
    return jids
  end,
}

C.jobs = function(now, args)
  local state = Q.need('Jobs', 'state', args[1])
  if state == 'complete' then
    local offset = Q.whole('Jobs', 'offset', args[2], 0)
    local count = Q.whole('Jobs', 'count', args[3], 25)
    return redis.call('zrevrange', Q.P .. 'completed', offset, offset + count - 1)
  end
  local queue = Q.need('Jobs', 'queue', args[2])
  local offset = Q.whole('Jobs', 'offset', args[3], 0)
  local count = Q.whole('Jobs', 'count', args[4], 25)
  local list = Que.jobs_by_state[state]
  if not list then
    Q.raise('InvalidArgument', 'Jobs(): Unknown type "' .. state .. '"')
  end
  return list(queue, now, offset, count)
end

-- The per-queue counts object of `queues`.
Que.counts = function(queue, now)
  local stalled = redis.call('zcount', Q.qkey(queue, 'locks'), 0, now)
  Que.promote_scheduled(queue, now, redis.call('zcard', Q.qkey(queue, 'scheduled')))
  return {
    name = queue,
    waiting = redis.call('zcard', Q.qkey(queue, 'work')),
    stalled = stalled,
    running = redis.call('zcard', Q.qkey(queue, 'locks')) - stalled,
    scheduled = redis.call('zcard', Q.qkey(queue, 'scheduled')),
    depends = redis.call('zcard', Q.qkey(queue, 'depends')),
    recurring = redis.call('zcard', Q.qkey(queue, 'recur')) + redis.call('zcard', Q.qkey(queue, 'cron')),
    paused = redis.call('sismember', Q.P .. 'paused_queues', queue) == 1,
  }
end

C.queues = function(now, args)
  if args[1] ~= nil then
    return cjson.encode(Que.counts(args[1], now))
  end
  local out = {}
  for _, queue in ipairs(redis.call('zrange', Q.P .. 'queues', 0, -1)) do
    out[#out + 1] = Que.counts(queue, now)
  end
  return cjson.encode(out)
end

C.length = function(now, args)
  local queue = Q.need('Length', 'queue', args[1])
  return redis.call('zcard', Q.qkey(queue, 'locks')) +
    redis.call('zcard', Q.qkey(queue, 'work')) +
    redis.call('zcard', Q.qkey(queue, 'scheduled'))
end

-- pause, unpause and queue.forget take one or more queue names.
Que.names = function(cmd, args)
  Q.need(cmd, 'queue', args[1])
  return args
end

C.pause = function(now, args)
  redis.call('sadd', Q.P .. 'paused_queues', unpack(Que.names('Pause', args)))
  return nil
end

C.unpause = function(now, args)
  redis.call('srem', Q.P .. 'paused_queues', unpack(Que.names('Unpause', args)))
  return nil
end

C['queue.forget'] = function(now, args)
  redis.call('zrem', Q.P .. 'queues', unpack(Que.names('Queue.forget', args)))
  return nil
end
