-- job.delete (jobtrees.md §5.10 with K1 and K9): removes a terminated job
-- and all its descendants with every key they own. The tree is walked with
-- an explicit stack and every job is checked before the first write, so a
-- deep tree can neither overflow Lua's call stack nor be half deleted.

local T = Q.tree

-- The job and its descendants, parents before children. The seen-set only
-- guards against links written by hand: attaching refuses cycles.
local function subtree(root)
  local jobs, seen, stack = {}, {[root] = true}, {root}
  while #stack > 0 do
    local jid = stack[#stack]
    stack[#stack] = nil
    jobs[#jobs + 1] = jid
    for _, child in ipairs(redis.call('hvals', Q.P .. 'children:' .. jid)) do
      if not seen[child] then
        seen[child] = true
        stack[#stack + 1] = child
      end
    end
  end
  return jobs, seen
end

-- Every job of the subtree must be terminated; a child whose hash is gone
-- has nothing left to shut down, and its leftover keys go with the rest.
-- Returns each job's queue (false when none) for the writes.
local function check_terminated(jobs)
  local queues = {}
  for _, jid in ipairs(jobs) do
    local f = redis.call('hmget', Q.jkey(jid), 'state', 'queue')
    if f[1] and f[1] ~= 'terminated' then
      Q.raise('StateError', 'Job.delete(): Job ' .. jid .. ' is not terminated: ' .. f[1])
    end
    queues[jid] = f[2]
  end
  return queues
end

-- K1: a dependent outside the subtree is released as `depends … off`
-- would release it, instead of the delete being refused.
local function unlink_dependencies(jid, doomed, now)
  local key = Q.jkey(jid)
  for _, d in ipairs(redis.call('smembers', key .. '-dependencies')) do
    Q.unlink(jid, d)
  end
  for _, d in ipairs(redis.call('smembers', key .. '-dependents')) do
    if not doomed[d] then
      local dkey = Q.jkey(d)
      Q.unlink(d, jid)
      if redis.call('hget', dkey, 'state') == 'depends' and
          redis.call('scard', dkey .. '-dependencies') == 0 then
        Q.depends_release(d, dkey, now)
      end
    end
  end
end

-- The value lists of §2.1: every defined port but `*` may hold some.
local function port_keys(jid)
  local keys = {}
  for _, dir in ipairs({'in', 'out'}) do
    for _, port in ipairs(redis.call('hkeys', Q.P .. dir .. 'ports:' .. jid)) do
      if port ~= '*' then keys[#keys + 1] = Q.P .. dir .. ':' .. port .. ':' .. jid end
    end
  end
  return keys
end

-- Only input ports subscribe: their channel lists name the ql:subs sets.
local function unsubscribe(jid)
  local subs = redis.call('hgetall', Q.P .. 'inchannels:' .. jid)
  for i = 1, #subs, 2 do
    local ok, channels = pcall(cjson.decode, subs[i + 1])
    if ok and type(channels) == 'table' then
      for _, c in ipairs(channels) do
        redis.call('srem', Q.P .. 'subs:' .. tostring(c), subs[i] .. ':' .. jid)
      end
    end
  end
end

local function unalias(jid)
  for _, a in ipairs(redis.call('smembers', Q.P .. 'aliases:' .. jid)) do
    if redis.call('hget', Q.P .. 'aliases', a) == jid then
      redis.call('hdel', Q.P .. 'aliases', a)
    end
  end
end

-- The keys a job may own that must be read before they go: most jobs of
-- a big tree have none, and one EXISTS then saves six reads.
local function owns_links(jid)
  local key = Q.jkey(jid)
  return redis.call('exists', key .. '-dependencies', key .. '-dependents', Q.P .. 'aliases:' .. jid,
    Q.P .. 'inchannels:' .. jid, Q.P .. 'inports:' .. jid, Q.P .. 'outports:' .. jid) > 0
end

local function delete_one(jid, queue, doomed, now)
  local key, keys = Q.jkey(jid), {}
  Q.unindex_tags(jid)
  Q.search_forget(jid)   -- reads the class: before the hash goes
  if owns_links(jid) then
    unlink_dependencies(jid, doomed, now)
    unalias(jid)
    unsubscribe(jid)
    keys = port_keys(jid)
  end
  local P = Q.P
  for _, kind in ipairs({'inports:', 'outports:', 'inchannels:', 'outchannels:',
      'state:', 'children:', 'aliases:'}) do
    keys[#keys + 1] = P .. kind .. jid
  end
  for _, k in ipairs({key, Q.hkey(jid), key .. '-dependencies', key .. '-dependents'}) do
    keys[#keys + 1] = k
  end
  for i = 1, #keys, 1000 do
    redis.call('del', unpack(keys, i, math.min(i + 999, #keys)))
  end
  if queue and queue ~= '' then
    redis.call('zrem', Q.qkey(queue, 'terminated'), jid)
  end
end

C['job.delete'] = function(now, args)
  local root = args[1]
  local key = T.job('Job.delete', root)
  local jobs, doomed = subtree(root)
  local queues = check_terminated(jobs)
  local f = redis.call('hmget', key, 'parent', 'name')
  local parent, name = f[1], f[2]
  for _, jid in ipairs(jobs) do
    delete_one(jid, queues[jid], doomed, now)
  end
  if parent and not doomed[parent] and redis.call('hget', Q.P .. 'children:' .. parent, name) == root then
    redis.call('hdel', Q.P .. 'children:' .. parent, name)
  end
  return #jobs
end
