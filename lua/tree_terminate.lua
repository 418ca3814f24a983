-- Ending tree jobs (jobtrees.md §4 TERMINATE, TERMINATED-NOW,
-- FORCE-TERMINATED; §5.8 job.terminate, §5.9 job.terminated).

local T = Q.tree

-- TERMINATED-NOW; `extras` go into the `terminated` history entry.
T.terminated_now = function(jid, now, queue, extras)
  Q.unqueue(queue, jid, {'terminating', 'work', 'locks'})
  redis.call('zadd', Q.qkey(queue, 'terminated'), now, jid)
  redis.call('hset', Q.jkey(jid), 'state', 'terminated', 'worker', '', 'expires', '0')
  Q.history(jid, now, 'terminated', extras)
  T.status(jid, now, 'terminating', 'terminated')
end

-- FORCE-TERMINATED: a terminating job that cannot finish its shutdown.
T.force_terminated = function(jid, now, queue, worker, why)
  if worker and worker ~= '' then redis.call('zrem', Q.wkey(worker), jid) end
  T.terminated_now(jid, now, queue)
  T.error(jid, now, why)
end

-- K1: a terminated job never completes, so a job waiting on others stops
-- waiting (its dependencies keep no link to it).
local function drop_dependencies(jid)
  local key = Q.jkey(jid) .. '-dependencies'
  for _, d in ipairs(redis.call('smembers', key)) do
    redis.call('srem', Q.jkey(d) .. '-dependents', jid)
  end
  redis.call('del', key)
end

-- TERMINATE; returns whether the job changed. A job whose startup never
-- completed has nothing to shut down, so it ends at once.
T.terminate = function(jid, now)
  local f = T.fields(jid)
  if f.state == 'terminating' or f.state == 'terminated' then return false end
  local key = Q.jkey(jid)
  if f.state == 'depends' then drop_dependencies(jid) end
  T.leave(jid, f)
  Q.history(jid, now, 'terminating')
  redis.call('hset', key, 'worker', '', 'expires', '0')
  T.status(jid, now, f.state, 'terminating')
  if not f.started then
    T.terminated_now(jid, now, f.queue)
    return true
  end
  redis.call('zadd', Q.qkey(f.queue, 'terminating'), now, jid)
  Q.work_add(f.queue, jid, tonumber(f.priority) or 0, now)
  redis.call('hset', key, 'state', 'terminating', 'remaining', Q.int_arg(tonumber(f.retries) or 0))
  return true
end

-- The job and its descendants in depth-first pre-order, children in byte
-- order of their names; a loop over an explicit stack (K9). `seen` guards
-- against links a hand edit might have looped.
local function subtree(jid)
  local order, stack, seen = {}, {jid}, {}
  while #stack > 0 do
    local node = table.remove(stack)
    if not seen[node] then
      seen[node] = true
      order[#order + 1] = node
      local flat = redis.call('hgetall', Q.P .. 'children:' .. node)
      local names, child = {}, {}
      for i = 1, #flat, 2 do
        names[#names + 1] = flat[i]
        child[flat[i]] = flat[i + 1]
      end
      table.sort(names, T.byte_less)
      for i = #names, 1, -1 do stack[#stack + 1] = child[names[i]] end
    end
  end
  return order
end

C['job.terminate'] = function(now, args)
  local jid, mode = args[1], args[2]
  T.job('Job.terminate', jid)
  if mode ~= nil and mode ~= 'recursive' then
    Q.raise('InvalidArgument', 'Job.terminate(): Arg "mode" must be recursive')
  end
  local jobs = {jid}
  if mode then
    jobs = subtree(jid)
    -- All checked before the first write (T1); a child deleted by hand
    -- is skipped rather than failing the whole tree.
    local present = {}
    for _, j in ipairs(jobs) do
      if redis.call('hexists', Q.jkey(j), 'tree') == 1 then present[#present + 1] = j end
    end
    jobs = present
  end
  local changed = 0
  for _, j in ipairs(jobs) do
    if T.terminate(j, now) then changed = changed + 1 end
  end
  return changed
end

C['job.terminated'] = function(now, args)
  local cmd, jid, worker = 'Job.terminated', args[1], args[2]
  T.job(cmd, jid)
  Q.need(cmd, 'worker', worker)
  local f = T.fields(jid)
  if f.state ~= 'terminating' then
    Q.raise('StateError', cmd .. '(): Job ' .. jid .. ' is not terminating: ' .. f.state)
  elseif (f.worker or '') == '' then
    Q.raise('LockLost', cmd .. '(): Job ' .. jid .. ' is not currently running: terminating')
  elseif f.worker ~= worker then
    Q.raise('LockLost', cmd .. '(): Job ' .. jid .. ' has been handed out to another worker: ' .. f.worker)
  end
  redis.call('zrem', Q.wkey(worker), jid)
  Q.stat(f.queue, 'run', now, now - (Q.time_number(f.time) or now))
  T.terminated_now(jid, now, f.queue)
  return 'terminated'
end
