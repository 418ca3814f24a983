-- cancel (§5.13) and depends (§5.14): removing jobs and editing the
-- dependency graph.

-- Deletes one job that is not complete, with its events (§5.13 step 2).
local function cancel_one(jid)
  local key = jkey(jid)
  local f = redis.call('hmget', key, 'queue', 'worker', 'state', 'failure')
  local queue, worker, state = f[1], f[2], f[3]

  local message = msg_canceled(jid, queue, worker)
  log_event(message)
  if worker and worker ~= '' then
    redis.call('zrem', wkey(worker), jid)
    publish('ql:w:' .. worker, message)
  end
  if queue then
    unqueue(queue, jid, {'work', 'locks', 'scheduled', 'depends'})
  end
  for _, d in ipairs(redis.call('smembers', key .. '-dependencies')) do
    redis.call('srem', jkey(d) .. '-dependents', jid)
  end
  redis.call('del', key .. '-dependencies')
  if state == 'failed' then
    unfail_one(jid, f[4], queue or '')
  end
  unindex_tags(jid)
  track_event(jid, 'canceled')
  redis.call('del', key, Q.hkey(jid))
end

C.cancel = function(now, args)
  -- Safety check first: a job may only go together with all its dependents.
  local listed = {}
  for _, jid in ipairs(args) do listed[jid] = true end
  for _, jid in ipairs(args) do
    for _, d in ipairs(redis.call('smembers', jkey(jid) .. '-dependents')) do
      if not listed[d] then
        raise('Cancel(): ' .. jid .. ' is a dependency of ' .. d ..
          ' but is not mentioned to be canceled')
      end
    end
  end
  for _, jid in ipairs(args) do
    if redis.call('hget', jkey(jid), 'state') ~= 'complete' then
      cancel_one(jid)
    end
  end
  return args
end

-- Makes a depends-state job waiting once it has no dependency left.
local function depends_release(jid, key, now)
  local f = redis.call('hmget', key, 'queue', 'priority')
  if f[1] then
    redis.call('zrem', qkey(f[1], 'depends'), jid)
    work_add(f[1], jid, tonumber(f[2]) or 0, now)
    redis.call('hset', key, 'state', 'waiting')
  end
end

C.depends = function(now, args)
  local jid = need('Depends', 'jid', args[1])
  local sub = need('Depends', 'command', args[2])
  local key = jkey(jid)
  local state = redis.call('hget', key, 'state')
  if state ~= 'depends' then
    raise('Depends(): Job ' .. jid .. ' not in the depends state: ' .. tostring(state))
  end
  if sub == 'on' then
    for i = 3, #args do
      link(jid, args[i])
    end
  elseif sub == 'off' then
    if args[3] == 'all' then
      for _, d in ipairs(redis.call('smembers', key .. '-dependencies')) do
        unlink(jid, d)
      end
      redis.call('del', key .. '-dependencies')
      depends_release(jid, key, now)
    else
      for i = 3, #args do
        unlink(jid, args[i])
        if redis.call('scard', key .. '-dependencies') == 0 then
          depends_release(jid, key, now)
        end
      end
    end
  else
    raise('Depends(): Argument "command" must be "on" or "off": ' .. sub)
  end
  return 1
end
