-- Failing and retrying running jobs, and the failure listings:
-- fail (§5.9), retry (§5.10), failed (§5.22), unfail (§5.23).

-- Message used when a job runs out of retries without a given message.
Q.exhausted_message = function(queue)
  return 'Job exhausted retries in queue "' .. tostring(queue) .. '"'
end

C.fail = function(now, args)
  local cmd = 'Fail'
  local jid = Q.jid(cmd, 'jid', args[1])
  local worker = Q.need(cmd, 'worker', args[2])
  local group = Q.need(cmd, 'group', args[3])
  local message = Q.need(cmd, 'message', args[4])
  local data = nil
  if args[5] ~= nil then data = Q.json(cmd, 'data', args[5]) end
  local f = Q.must_be_running(cmd, jid, worker, {
    state = ' not currently running: ',
    worker = ' running with another worker: ',
  }, {'tree'})
  local queue = f[3] or ''
  local key = Q.jkey(jid)

  Q.log_event(Q.msg_failed(jid, group, message, worker))
  Q.track_event(jid, 'failed')
  redis.call('zrem', Q.wkey(worker), jid)
  Q.history(jid, now, 'failed', {worker = worker, group = group})
  Q.unqueue(queue, jid, {'work', 'locks', 'scheduled'})
  if data ~= nil then
    redis.call('hset', key, 'data', cjson.encode(data))
  end
  redis.call('hset', key, 'state', 'failed', 'worker', '', 'expires', '',
    'failure', cjson.encode({group = group, message = message,
      when = math.floor(now), worker = worker}))
  Q.add_failure(jid, group, now, queue)
  if f[4] then
    Q.tree.status(jid, now, 'running', 'failed')
    Q.tree.error(jid, now, group .. ': ' .. message)
  end
  return jid
end

C.retry = function(now, args)
  local cmd = 'Retry'
  local jid = Q.jid(cmd, 'jid', args[1])
  local queue = Q.need(cmd, 'queue', args[2])
  local worker = Q.need(cmd, 'worker', args[3])
  local delay = Q.delay(cmd, 'delay', args[4], 0)
  local group, message = args[5], args[6]
  local f = Q.must_be_running(cmd, jid, worker, {
    state = ' is not currently running: ',
    worker = ' has been given to another worker: ',
  }, {'tree'})
  local tree = f[4]
  local key = Q.jkey(jid)
  local job_queue = f[3] or ''

  local remaining = redis.call('hincrby', key, 'remaining', -1)
  redis.call('hdel', key, 'grace')
  redis.call('zrem', Q.qkey(job_queue, 'locks'), jid)
  redis.call('zrem', Q.wkey(worker), jid)

  local explained = group ~= nil and message ~= nil
  local failure = nil
  if explained then
    failure = {group = group, message = message, when = math.floor(now), worker = worker}
  end

  if remaining < 0 then
    local g = group or ('failed-retries-' .. queue)
    Q.history(jid, now, 'failed', {group = g})
    if not explained then
      failure = {group = g, message = Q.exhausted_message(job_queue), when = now, worker = ''}
    end
    redis.call('hset', key, 'state', 'failed', 'worker', '', 'expires', '',
      'failure', cjson.encode(failure))
    Q.track_event(jid, 'failed')
    Q.add_failure(jid, g, now, queue)
    if tree then Q.tree.status(jid, now, 'running', 'failed') end
    return remaining
  end

  if delay > 0 then
    redis.call('zadd', Q.qkey(queue, 'scheduled'), now + delay, jid)
    redis.call('hset', key, 'state', 'scheduled')
  else
    local priority = tonumber(redis.call('hget', key, 'priority')) or 0
    Q.work_add(queue, jid, priority, now)
    redis.call('hset', key, 'state', 'waiting')
  end
  if failure then
    redis.call('hset', key, 'failure', cjson.encode(failure))
  end
  if tree then Q.tree.status(jid, now, 'running', delay > 0 and 'scheduled' or 'waiting') end
  return remaining
end

C.failed = function(now, args)
  local group = args[1]
  local start = Q.whole('Failed', 'start', args[2], 0)
  local limit = Q.whole('Failed', 'limit', args[3], 25)
  if group == nil then
    local out = {}
    for _, g in ipairs(redis.call('smembers', Q.P .. 'failures')) do
      out[g] = redis.call('llen', Q.P .. 'f:' .. g)
    end
    return cjson.encode(out)
  end
  return cjson.encode({
    total = redis.call('llen', Q.P .. 'f:' .. group),
    jobs = redis.call('lrange', Q.P .. 'f:' .. group, start, start + limit - 1),
  })
end

C.unfail = function(now, args)
  local queue = Q.need('Unfail', 'queue', args[1])
  local group = Q.need('Unfail', 'group', args[2])
  local count = Q.whole('Unfail', 'count', args[3], 25)
  -- LRANGE -0 -1 would be the whole list.
  if count == 0 then return 0 end
  local list = Q.P .. 'f:' .. group
  local jids = redis.call('lrange', list, -count, -1)
  for _, jid in ipairs(jids) do
    local key = Q.jkey(jid)
    Q.history(jid, now, 'put', {q = queue})
    local f = redis.call('hmget', key, 'retries', 'priority', 'tree')
    redis.call('hset', key, 'state', 'waiting', 'worker', '', 'expires', 0,
      'queue', queue, 'remaining', tonumber(f[1]) or 5)
    Q.work_add(queue, jid, tonumber(f[2]) or 0, now)
    if f[3] then Q.tree.status(jid, now, 'failed', 'waiting') end
  end
  redis.call('ltrim', list, 0, -count - 1)
  if redis.call('llen', list) == 0 then
    redis.call('srem', Q.P .. 'failures', group)
  end
  return #jids
end
