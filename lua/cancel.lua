-- cancel (§5.13) and depends (§5.14): removing jobs and editing the
-- dependency graph.

-- Deletes one job that is not complete, with its events (§5.13 step 2).
Q.cancel_one = function(jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'queue', 'worker', 'state', 'failure')
  local queue, worker, state = f[1], f[2], f[3]

  local message = Q.msg_canceled(jid, queue, worker)
  Q.log_event(message)
  if worker and worker ~= '' then
    redis.call('zrem', Q.wkey(worker), jid)
    Q.publish(Q.P .. 'w:' .. worker, message)
  end
  if queue then
    Q.unqueue(queue, jid, {'work', 'locks', 'scheduled', 'depends'})
  end
  for _, d in ipairs(redis.call('smembers', key .. '-dependencies')) do
    redis.call('srem', Q.jkey(d) .. '-dependents', jid)
  end
  redis.call('del', key .. '-dependencies')
  if state == 'failed' then
    Q.unfail_one(jid, f[4], queue or '')
  end
  Q.unindex_tags(jid)
  Q.track_event(jid, 'canceled')
  Q.search_forget(jid)
  redis.call('del', key, Q.hkey(jid))
end

C.cancel = function(now, args)
  Q.jids('Cancel', args, 1)
  -- Safety check first: a job may only go together with all its dependents.
  local listed = {}
  for _, jid in ipairs(args) do listed[jid] = true end
  for _, jid in ipairs(args) do
    -- Tree jobs end by termination, which runs their shutdown (jobtrees.md §3.3).
    if redis.call('hexists', Q.jkey(jid), 'tree') == 1 then
      Q.raise('StateError', 'Cancel(): ' .. jid .. ' is a tree job: terminate and delete it')
    end
    for _, d in ipairs(redis.call('smembers', Q.jkey(jid) .. '-dependents')) do
      if not listed[d] then
        Q.raise('StateError', 'Cancel(): ' .. jid .. ' is a dependency of ' .. d ..
          ' but is not mentioned to be canceled')
      end
    end
  end
  for _, jid in ipairs(args) do
    if redis.call('hget', Q.jkey(jid), 'state') ~= 'complete' then
      Q.cancel_one(jid)
    end
  end
  return args
end

-- Makes a depends-state job waiting once it has no dependency left.
Q.depends_release = function(jid, key, now)
  local f = redis.call('hmget', key, 'queue', 'priority')
  if f[1] then
    redis.call('zrem', Q.qkey(f[1], 'depends'), jid)
    Q.work_add(f[1], jid, tonumber(f[2]) or 0, now)
    redis.call('hset', key, 'state', 'waiting')
  end
end

C.depends = function(now, args)
  local jid = Q.jid('Depends', 'jid', args[1])
  local sub = Q.need('Depends', 'command', args[2])
  Q.jids('Depends', args, 3)
  local key = Q.jkey(jid)
  local state = redis.call('hget', key, 'state')
  if state ~= 'depends' then
    Q.raise('StateError', 'Depends(): Job ' .. jid .. ' not in the depends state: ' .. tostring(state))
  end
  if sub == 'on' then
    for i = 3, #args do
      Q.link(jid, args[i])
    end
  elseif sub == 'off' then
    if args[3] == 'all' then
      for _, d in ipairs(redis.call('smembers', key .. '-dependencies')) do
        Q.unlink(jid, d)
      end
      redis.call('del', key .. '-dependencies')
      Q.depends_release(jid, key, now)
    else
      for i = 3, #args do
        Q.unlink(jid, args[i])
        if redis.call('scard', key .. '-dependencies') == 0 then
          Q.depends_release(jid, key, now)
        end
      end
    end
  else
    Q.raise('InvalidArgument', 'Depends(): Argument "command" must be "on" or "off": ' .. sub)
  end
  return 1
end
