-- Worker registry (§5.26, §5.27, §12.2): ql:workers scores each worker by
-- its last pop/heartbeat; ql:w:<worker>:jobs scores its jobs by lock expiry.

-- Forgets workers not seen for max-worker-age seconds.
-- This module's own helpers; Q holds only what other modules use.
local Wk = {forget_old_workers = nil}

Wk.forget_old_workers = function(now)
  local cutoff = now - Q.config_number('max-worker-age', 86400)
  for _, worker in ipairs(redis.call('zrangebyscore', Q.P .. 'workers', 0, cutoff)) do
    redis.call('del', Q.wkey(worker))
  end
  redis.call('zremrangebyscore', Q.P .. 'workers', 0, cutoff)
end

C.workers = function(now, args)
  Wk.forget_old_workers(now)
  -- Jobs whose lock runs out within the next 100 days are held; jobs whose
  -- lock has already run out (score <= now) are stalled.
  local horizon = now + 8640000
  local worker = args[1]
  if worker ~= nil then
    local key = Q.wkey(worker)
    return cjson.encode({
      jobs = redis.call('zrevrangebyscore', key, horizon, now),
      stalled = redis.call('zrevrangebyscore', key, now, 0),
    })
  end
  local out = {}
  for _, name in ipairs(redis.call('zrevrange', Q.P .. 'workers', 0, -1)) do
    local key = Q.wkey(name)
    out[#out + 1] = {
      name = name,
      jobs = redis.call('zcount', key, now, horizon),
      stalled = redis.call('zcount', key, 0, now),
    }
  end
  return cjson.encode(out)
end

C['worker.deregister'] = function(now, args)
  Q.need('Worker.deregister', 'worker', args[1])
  redis.call('zrem', Q.P .. 'workers', unpack(args))
  return nil
end
