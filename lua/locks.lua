-- Locks (§7): heartbeat, timeout and the processing of expired locks that
-- pop performs (REAP-LOCKS with grace periods).

-- This module's own helpers; Q holds only what other modules use.
local Lk = {notice = nil, handout = nil}

C.heartbeat = function(now, args)
  local cmd = 'Heartbeat'
  local jid = Q.jid(cmd, 'jid', args[1])
  local worker = Q.need(cmd, 'worker', args[2])
  local data = nil
  if args[3] ~= nil then data = Q.json(cmd, 'data', args[3]) end
  local f = Q.must_be_running(cmd, jid, worker, {
    state = ' not currently running: ',
    worker = ' given out to another worker: ',
    no_owner = true,
    terminating = true,
  })
  local queue = f[3] or ''
  local key = Q.jkey(jid)
  local expires = now + Q.heartbeat(queue)
  if data ~= nil then
    redis.call('hset', key, 'expires', expires, 'worker', worker, 'data', cjson.encode(data))
  else
    redis.call('hset', key, 'expires', expires, 'worker', worker)
  end
  -- Scores as Q.score text (the same doubles), made once per batch.
  local score = Q.score(expires)
  redis.call('zadd', Q.wkey(worker), score, jid)
  redis.call('zadd', Q.P .. 'workers', Q.score(now), worker)
  redis.call('zadd', Q.qkey(queue, 'locks'), score, jid)
  return expires
end

C.timeout = function(now, args)
  Q.need('Timeout', 'jid', args[1])
  Q.jids('Timeout', args, 1)
  -- Every job is checked before the first is timed out.
  -- (A jid given twice is no longer running the second time.)
  -- A terminating tree job counts as running while a worker holds it.
  local fields, seen = {}, {}
  for i, jid in ipairs(args) do
    local f = redis.call('hmget', Q.jkey(jid), 'state', 'queue', 'worker', 'tree')
    local held = f[1] == 'running' or (f[1] == 'terminating' and (f[3] or '') ~= '')
    if not f[1] then
      Q.raise('NotFound', 'Timeout(): Job ' .. jid .. ' does not exist')
    elseif not held or seen[jid] then
      Q.raise('StateError', 'Timeout(): Job ' .. jid .. ' not running')
    end
    fields[i], seen[jid] = f, true
  end
  for i, jid in ipairs(args) do
    local key = Q.jkey(jid)
    local f = fields[i]
    local queue, worker = f[2] or '', f[3] or ''
    Q.history(jid, now, 'timed-out')
    redis.call('zrem', Q.qkey(queue, 'locks'), jid)
    redis.call('zadd', Q.qkey(queue, 'work'), '+inf', jid)
    if f[1] == 'terminating' then
      -- It stays terminating, and the old worker no longer holds it (K6).
      redis.call('hset', key, 'expires', 0, 'worker', '')
      redis.call('zrem', Q.wkey(worker), jid)
    else
      redis.call('hset', key, 'state', 'stalled', 'expires', 0)
    end
    Q.lock_lost(jid, worker)
    if f[4] and f[1] == 'running' then Q.tree.status(jid, now, 'running', 'stalled') end
  end
  return nil
end

-- First lock expiry: warn the worker and extend the lock by the grace period.
Lk.notice = function(queue, jid, worker, now, grace)
  Q.track_event(jid, 'stalled')
  Q.history(jid, now, 'timed-out')
  redis.call('hset', Q.jkey(jid), 'grace', 1)
  Q.lock_lost(jid, worker)
  redis.call('zadd', Q.qkey(queue, 'locks'), now + grace, jid)
  redis.call('hincrby', Q.statkey('stats', now, queue), 'retries', 1)
end

-- Lock expired after its notice: consume a retry. Returns true if the job
-- may be handed out again, false if it failed for lack of retries (a
-- terminating tree job is then terminated instead: its shutdown keeps
-- failing). `tree` and `state` are the job's fields.
Lk.handout = function(queue, jid, worker, now, tree, state)
  local key = Q.jkey(jid)
  redis.call('hdel', key, 'grace')
  local remaining = redis.call('hincrby', key, 'remaining', -1)
  if remaining >= 0 then return true end
  if tree and state == 'terminating' then
    Q.tree.force_terminated(jid, now, queue, worker, 'shutdown exhausted its retries')
    return false
  end

  Q.unqueue(queue, jid, {'work', 'locks', 'scheduled'})
  local job_queue = redis.call('hget', key, 'queue') or ''
  local group = 'failed-retries-' .. job_queue
  local message = Q.exhausted_message(queue)
  Q.history(jid, now, 'failed', {group = group})
  redis.call('hset', key, 'state', 'failed', 'worker', '', 'expires', '',
    'failure', cjson.encode({group = group, message = message, when = now, worker = ''}))
  redis.call('sadd', Q.P .. 'failures', group)
  redis.call('lpush', Q.P .. 'f:' .. group, jid)
  Q.track_event(jid, 'failed')
  Q.log_event(Q.msg_failed(jid, group, message, worker))
  local stats = Q.statkey('stats', now, queue)
  redis.call('hincrby', stats, 'failures', 1)
  redis.call('hincrby', stats, 'failed', 1)
  if tree then Q.tree.status(jid, now, state, 'failed') end
  return false
end

-- REAP-LOCKS(q, now, n): examines up to n expired locks in expiry order and
-- returns the jids to hand out again (§7.3).
Q.reap_locks = function(queue, now, n)
  local out = {}
  if n <= 0 then return out end
  -- Texts, not numbers: Redis 7.0 prints each number argument with %.17g.
  -- Q.score(now) is pop's text for the workers set too.
  local expired = redis.call('zrangebyscore', Q.qkey(queue, 'locks'), '-inf', Q.score(now), 'LIMIT', '0',
    Q.int_arg(n))
  if #expired == 0 then return out end
  Q.check_pop_sets(queue)
  local grace = Q.config_number('grace-period', 10)
  for _, jid in ipairs(expired) do
    local f = redis.call('hmget', Q.jkey(jid), 'worker', 'grace', 'tree', 'state')
    local worker = f[1] or ''
    redis.call('zrem', Q.wkey(worker), jid)
    local notice = f[2] ~= '1'
    local handout = not notice
    if grace <= 0 then notice, handout = true, true end
    if notice then
      Lk.notice(queue, jid, worker, now, grace)
    end
    if handout and Lk.handout(queue, jid, worker, now, f[3], f[4]) then
      out[#out + 1] = jid
    end
  end
  return out
end
