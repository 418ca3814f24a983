-- Cron templates (schedules.md §3): their checks, spawning, and recur.next
-- for templates of either type. Interval templates stay in recurring.lua.

-- A cron template's backlog: an integer 0-1000, as the §3.2 walk costs one
-- PREV per unit (and S7 asks for an integer).
Q.cron.backlog = function(cmd, value)
  local n = Q.number(cmd, 'backlog', value, 0)
  if n ~= math.floor(n) then
    Q.raise('InvalidArgument', cmd .. '(): Arg "backlog" must be an integer')
  end
  if n < 0 or n > 1000 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "backlog" must be between 0 and 1000 for cron schedules')
  end
  if n == 0 then return 0 end
  return n
end

-- Stores a template's expression and marks the database as holding cron
-- templates, so libqless can tell (S1).
Q.cron.mark = function(rkey, E)
  redis.call('hset', rkey, 'cron', E.norm)
  redis.call('hset', Q.P .. 'features', 'cron', SCRIPT_VERSION)
end

-- recur.update interval on a cron template (§3.4): the due time stays; a
-- finished template becomes due `interval` from now.
Q.cron.to_interval = function(jid, rkey, queue, interval, now)
  local key = Q.qkey(queue, 'cron')
  local score = redis.call('zscore', key, jid)
  redis.call('zrem', key, jid)
  redis.call('hset', rkey, 'type', 'interval', 'interval', interval)
  redis.call('hdel', rkey, 'cron')
  redis.call('zadd', Q.qkey(queue, 'recur'), score or now + interval, jid)
end

-- §3.2 step 3: the first due time to spawn from, so that at most backlog + 1
-- instances (the latest due one and `backlog` missed ones) are made.
local function backlog_start(E, s, now, backlog)
  if backlog <= 0 then return s end
  local p = Q.cron.prev(E, now)
  for _ = 1, math.min(backlog, 1000) do
    if not p or p <= s then return s end
    p = Q.cron.prev(E, p - 1)
  end
  if p and p > s then return p end
  return s
end

-- How SPAWN-RECURRING reads and advances a cron template (§3.2).
Q.cron.schedule = {
  fields = {'backlog', 'type', 'queue', 'cron'},
  start = function(t, s, now, queue)
    -- A template that no longer parses, was removed or retyped by an older
    -- script, or belongs elsewhere must not break every pop of the queue.
    local E = t[7] == 'cron' and t[8] == queue and t[9] and Q.cron.compile(t[9])
    if not E then return nil end
    return backlog_start(E, s, now, tonumber(t[6]) or 0), E
  end,
  after = function(E, s) return Q.cron.first(E, s + 1) end,
}

-- recur.next <now> <jid> [<count>] (§3.5): the next due times, no writes.
C['recur.next'] = function(now, args)
  local cmd = 'Recur.next'
  local jid = Q.need(cmd, 'jid', args[1])
  local count = Q.count(cmd, args[2], 1)
  local f = redis.call('hmget', Q.rkey(jid), 'queue', 'type', 'interval', 'cron')
  if not f[1] and redis.call('exists', Q.rkey(jid)) == 0 then
    Q.raise('NotFound', cmd .. '(): Recurring job ' .. jid .. ' does not exist')
  end
  local s0 = tonumber(redis.call('zscore', Q.recur_set(f[1] or '', f[2]), jid))
  if not s0 then return '{}' end
  if f[2] == 'cron' then
    local E = f[4] and Q.cron.compile(f[4])
    if not E then return '{}' end
    return cjson.encode(Q.cron.series(E, s0, count))
  end
  local out, interval = {}, tonumber(f[3]) or 0
  for k = 0, count - 1 do out[k + 1] = s0 + k * interval end
  return cjson.encode(out)
end
