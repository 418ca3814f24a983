-- Queue commands: pop (§5.6), peek (§5.7), jobs (§5.19), queues (§5.20),
-- length (§5.21), pause/unpause (§5.24), queue.forget (§5.25).

-- PROMOTE-SCHEDULED(q, now, n): up to n scheduled jobs whose time has come
-- (score in [0, now]) become waiting.
Q.promote_scheduled = function(queue, now, n)
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

-- Appends up to n jids from the top of the work set (highest score first).
Q.take_work = function(queue, n, out)
  if n <= 0 then return out end
  for _, jid in ipairs(redis.call('zrevrange', Q.qkey(queue, 'work'), 0, n - 1)) do
    out[#out + 1] = jid
  end
  return out
end

-- Counts are used as LIMIT arguments: whole and not negative.
Q.count_arg = function(cmd, value)
  local n = math.floor(Q.number(cmd, 'count', value))
  if n < 0 then n = 0 end
  return n
end

-- Hands one job to a worker (§5.6 step 9).
Q.hand_out = function(queue, jid, worker, now, expires)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'time', 'history')
  Q.history(jid, now, 'popped', {worker = worker}, not f[2])
  local last = tonumber(f[1]) or now
  Q.stat(queue, 'wait', now, now - last)
  redis.call('zadd', Q.wkey(worker), expires, jid)
  redis.call('hmset', key, 'time', Q.timestr(now), 'worker', worker, 'expires', expires, 'state', 'running')
  redis.call('zadd', Q.qkey(queue, 'locks'), expires, jid)
  Q.track_event(jid, 'popped')
end

C.pop = function(now, args)
  local queue = Q.need('Pop', 'queue', args[1])
  local worker = Q.need('Pop', 'worker', args[2])
  local count = Q.count_arg('Pop', args[3])
  local expires = now + Q.heartbeat(queue)

  if redis.call('sismember', 'ql:paused_queues', queue) == 1 then
    return '{}'
  end
  redis.call('zadd', 'ql:workers', now, worker)

  -- Concurrency cap: only unexpired locks count as running.
  local cap = tonumber(Q.config_stored()[queue .. '-max-concurrency']) or 0
  if cap > 0 then
    local running = redis.call('zcount', Q.qkey(queue, 'locks'), now, '+inf')
    count = math.min(count, math.max(0, math.floor(cap - running)))
    if count == 0 then return '{}' end
  end

  local jids = Q.reap_locks(queue, now, count)
  Q.spawn_recurring(queue, now, count - #jids)
  Q.promote_scheduled(queue, now, count - #jids)
  Q.take_work(queue, count - #jids, jids)

  for _, jid in ipairs(jids) do
    Q.hand_out(queue, jid, worker, now, expires)
  end
  Q.zrem_all(Q.qkey(queue, 'work'), jids)
  return Q.job_list(jids)
end

C.peek = function(now, args)
  local queue = Q.need('Peek', 'queue', args[1])
  local count = Q.count_arg('Peek', args[2])
  local jids = {}
  if count > 0 then
    jids = redis.call('zrangebyscore', Q.qkey(queue, 'locks'), '-inf', now, 'LIMIT', 0, count)
  end
  Q.spawn_recurring(queue, now, count - #jids)
  Q.promote_scheduled(queue, now, count - #jids)
  Q.take_work(queue, count - #jids, jids)
  return Q.job_list(jids)
end

-- jobs <state> listings (§5.19).
Q.jobs_by_state = {
  running = function(queue, now, offset, count)
    return redis.call('zrangebyscore', Q.qkey(queue, 'locks'), now, '+inf', 'LIMIT', offset, count)
  end,
  stalled = function(queue, now, offset, count)
    return redis.call('zrangebyscore', Q.qkey(queue, 'locks'), '-inf', now, 'LIMIT', offset, count)
  end,
  scheduled = function(queue, now, offset, count)
    local key = Q.qkey(queue, 'scheduled')
    Q.promote_scheduled(queue, now, redis.call('zcard', key))
    return redis.call('zrange', key, offset, offset + count - 1)
  end,
  depends = function(queue, now, offset, count)
    return redis.call('zrange', Q.qkey(queue, 'depends'), offset, offset + count - 1)
  end,
  recurring = function(queue, now, offset, count)
    return redis.call('zrangebyscore', Q.qkey(queue, 'recur'), 0, '+inf', 'LIMIT', offset, count)
  end,
}

C.jobs = function(now, args)
  local state = Q.need('Jobs', 'state', args[1])
  if state == 'complete' then
    local offset = Q.number('Jobs', 'offset', args[2], 0)
    local count = Q.number('Jobs', 'count', args[3], 25)
    return redis.call('zrevrange', 'ql:completed', offset, offset + count - 1)
  end
  local queue = Q.need('Jobs', 'queue', args[2])
  local offset = Q.number('Jobs', 'offset', args[3], 0)
  local count = Q.number('Jobs', 'count', args[4], 25)
  local list = Q.jobs_by_state[state]
  if not list then
    Q.raise('Jobs(): Unknown type "' .. state .. '"')
  end
  return list(queue, now, offset, count)
end

-- The per-queue counts object of `queues`.
Q.queue_counts = function(queue, now)
  local stalled = redis.call('zcount', Q.qkey(queue, 'locks'), 0, now)
  Q.promote_scheduled(queue, now, redis.call('zcard', Q.qkey(queue, 'scheduled')))
  return {
    name = queue,
    waiting = redis.call('zcard', Q.qkey(queue, 'work')),
    stalled = stalled,
    running = redis.call('zcard', Q.qkey(queue, 'locks')) - stalled,
    scheduled = redis.call('zcard', Q.qkey(queue, 'scheduled')),
    depends = redis.call('zcard', Q.qkey(queue, 'depends')),
    recurring = redis.call('zcard', Q.qkey(queue, 'recur')),
    paused = redis.call('sismember', 'ql:paused_queues', queue) == 1,
  }
end

C.queues = function(now, args)
  if args[1] ~= nil then
    return cjson.encode(Q.queue_counts(args[1], now))
  end
  local out = {}
  for _, queue in ipairs(redis.call('zrange', 'ql:queues', 0, -1)) do
    out[#out + 1] = Q.queue_counts(queue, now)
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
Q.queue_names = function(cmd, args)
  Q.need(cmd, 'queue', args[1])
  return args
end

C.pause = function(now, args)
  redis.call('sadd', 'ql:paused_queues', unpack(Q.queue_names('Pause', args)))
  return nil
end

C.unpause = function(now, args)
  redis.call('srem', 'ql:paused_queues', unpack(Q.queue_names('Unpause', args)))
  return nil
end

C['queue.forget'] = function(now, args)
  redis.call('zrem', 'ql:queues', unpack(Q.queue_names('Queue.forget', args)))
  return nil
end
