-- The dashboard's counts over all queues (docs/web.md): what /metrics and
-- the schedules page need, each in one call of a few reads per queue.

local S = Q.dash

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
