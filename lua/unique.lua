-- Unique puts and templates (schedules.md §3.7, §3.8, S4): the `unique`
-- option makes put and recur a no-op while the jid is still pending, so an
-- entry added twice runs once. Uniqueness is the jid itself (the client
-- derives it from the entry, §4): nothing extra is stored.

local U = {}

-- The `unique` option's value: nil when absent, else '1' or 'report'.
U.mode = function(cmd, value)
  if value == nil then return nil end
  if value ~= '1' and value ~= 'report' then
    Q.raise('InvalidArgument', cmd .. '(): Arg "unique" must be 1 or report')
  end
  return value
end

-- The state of a job that blocks a unique put, or nil when the put goes
-- ahead: a complete job runs again, a failed one waits for an operator.
U.blocking_state = function(jid)
  local state = redis.call('hget', Q.jkey(jid), 'state')
  if state and state ~= 'complete' then return state end
  return nil
end

-- Whether template jid is still scheduled: a finished one (in neither the
-- queue's -recur nor -cron set) counts as absent and is replaced (S4).
U.template_pending = function(jid)
  local queue = redis.call('hget', Q.rkey(jid), 'queue')
  if not queue then return false end
  return redis.call('zscore', Q.qkey(queue, 'recur'), jid) ~= false or
    redis.call('zscore', Q.qkey(queue, 'cron'), jid) ~= false
end

-- The reply of a unique command: the jid, or for `report` a JSON object with
-- its keys in the order the spec writes them (cjson's order is arbitrary).
U.reply = function(mode, jid, inserted, state)
  if mode ~= 'report' then return jid end
  local text = '{"jid":' .. Q.jstr(jid) .. ',"inserted":' .. tostring(inserted)
  if state then text = text .. ',"state":' .. Q.jstr(state) end
  return text .. '}'
end

-- put with `unique` (p from Q.put_args, p.unique set).
U.put = function(now, p)
  local f = redis.call('hmget', Q.jkey(p.jid), 'tree', 'state')
  Q.tree.put_check(p, f[1], f[2])
  local state = U.blocking_state(p.jid)
  if state then return U.reply(p.unique, p.jid, false, state) end
  local jid = Q.put(now, p)
  if p.unique ~= 'report' then return jid end
  return U.reply(p.unique, jid, true, redis.call('hget', Q.jkey(jid), 'state'))
end

Q.unique = U
