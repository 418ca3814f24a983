-- Tree-job commands of jobtrees.md §5.3, §5.5-§5.7.

local T = Q.tree

-- Empty Lua tables encode as {}, which §5.3 asks for lists too.
local function hash_table(key)
  local flat, t = redis.call('hgetall', key), {}
  for i = 1, #flat, 2 do t[flat[i]] = flat[i + 1] end
  return t
end

C['tree.get'] = function(now, args)
  local jid = Q.jid('Tree.get', 'jid', args[1])
  local key = Q.jkey(jid)
  if redis.call('exists', key) == 0 then return false end
  T.job('Tree.get', jid)
  local f = redis.call('hmget', key, 'klass', 'queue', 'state', 'parent', 'name', 'created_by',
    'started', 'runs', 'rerun')
  local aliases = redis.call('smembers', Q.P .. 'aliases:' .. jid)
  table.sort(aliases, Q.tree.byte_less)
  -- Port options and links are stored texts, spliced in unchanged (K3).
  local head = cjson.encode({
    jid = jid, klass = f[1], queue = f[2], state = f[3], parent = f[4], name = f[5],
    children = hash_table(Q.P .. 'children:' .. jid), aliases = aliases, created_by = f[6] or '',
    started = f[7] and tonumber(f[7]) or false, runs = tonumber(f[8]) or 0, rerun = f[9] ~= false,
  })
  return string.sub(head, 1, -2) .. ',' .. T.port_fields(jid) .. '}'
end

-- A tree job running for `worker`, checked in the order of complete (P§5.8).
local function held(cmd, args)
  local jid, worker = args[1], args[2]
  T.job(cmd, jid)
  Q.need(cmd, 'worker', worker)
  return jid, worker, select(2, Q.must_be_running(cmd, jid, worker, Q.complete_texts))
end

C['job.started'] = function(now, args)
  local _, _, key = held('Job.started', args)
  redis.call('hset', key, 'started', Q.timestr(now))
  return 1
end

C['job.suspend'] = function(now, args)
  local jid, worker, key = held('Job.suspend', args)
  local f = T.fields(jid)
  redis.call('zrem', Q.qkey(f.queue, 'locks'), jid)
  redis.call('zrem', Q.wkey(worker), jid)
  Q.stat(f.queue, 'run', now, now - (Q.time_number(f.time) or now))
  redis.call('hset', key, 'time', Q.timestr(now), 'worker', '', 'expires', '0')
  Q.history(jid, now, 'suspended', nil, false, Q.history_text(now, 'suspended'))
  if f.rerun then
    -- Input that arrived during the run must not stay unread.
    redis.call('hdel', key, 'rerun')
    local state = T.requeue(jid, now, 0, f)
    T.status(jid, now, 'running', state)
    return state
  end
  redis.call('zadd', Q.qkey(f.queue, 'suspended'), now, jid)
  redis.call('hset', key, 'state', 'suspended')
  T.status(jid, now, 'running', 'suspended')
  return 'suspended'
end

local wakes = {suspended = true, complete = true, failed = true, terminated = true}

C['job.run'] = function(now, args)
  local jid = args[1]
  local key = T.job('Job.run', jid)
  local delay = Q.delay('Job.run', 'delay', args[2], 0)
  local f = T.fields(jid)
  if f.state == 'terminating' then
    Q.raise('StateError', 'Job.run(): Job ' .. jid .. ' cannot go from terminating to ' ..
      (delay > 0 and 'scheduled' or 'waiting'))
  elseif f.state == 'running' then
    redis.call('hset', key, 'rerun', '1')
    return 'running'
  elseif not wakes[f.state] then
    return f.state
  end
  T.leave(jid, f)
  if f.state == 'terminated' then T.restart(key) end
  local state = T.requeue(jid, now, delay, f)
  T.status(jid, now, f.state, state)
  return state
end
