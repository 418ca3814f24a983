-- put and requeue (§5.4, §5.5): create a job or move an existing one.

-- Validates every argument of put/requeue before anything is written.
-- Returns a table with the parsed values.
Q.put_args = function(cmd, args)
  -- Every field a plain put sets is named here, so the table is made at
  -- its final size instead of growing (and rehashing) field by field
  -- (`cmd` names the command in Q.tree.put_check's refusal).
  local p = {
    worker = args[1],
    queue = Q.need(cmd, 'queue', args[2]),
    jid = Q.jid(cmd, 'jid', args[3]),
    klass = Q.need(cmd, 'klass', args[4]),
    data = args[5],
    delay = nil, depends = Q.none, cmd = cmd, tree = false, was_tree = false,
  }
  Q.json_valid(cmd, 'data', args[5])
  p.delay = Q.delay(cmd, 'delay', args[6])
  local opts = Q.options(cmd, args, 7)
  -- A put without options (the common one) skips their checks: about 1%
  -- of its Redis CPU.
  if opts == Q.none then return p end
  if opts.priority ~= nil then p.priority = Q.number(cmd, 'priority', opts.priority) end
  if opts.retries ~= nil then p.retries = Q.whole(cmd, 'retries', opts.retries) end
  if opts.tags ~= nil then p.tags = Q.json_list(cmd, 'tags', opts.tags, false, true) end
  if opts.depends ~= nil then p.depends = Q.json_list(cmd, 'depends', opts.depends, true, true) end
  -- requeue ignores `unique`: its purpose is to force a move.
  if cmd == 'Put' then p.unique = Q.unique.mode(cmd, opts.unique) end
  Q.tree.put_args(cmd, opts, p)
  return p
end

-- Whether jid will wait for a dependency once put with p.depends (not
-- empty): reads the dependencies' states (returned by name, for Q.link)
-- and the old set, and writes nothing. A job waits when a wanted
-- dependency is live, or was already its dependency (a kept link stays),
-- or is the job itself (it is live once put).
local function waits_after_put(jid, p, deps_key)
  local old = redis.call('smembers', deps_key)
  local kept = {}
  for _, d in ipairs(old) do kept[d] = true end
  local live, waits = {}, false
  for _, d in ipairs(p.depends) do
    if live[d] == nil then live[d] = d == jid or Q.dep_live(d) end
    waits = waits or live[d] or kept[d] == true
  end
  return waits, old, live
end

-- The sets of a queue a job can be in, which a re-put leaves.
local QUEUE_SETS = {'work', 'locks', 'depends', 'scheduled'}

-- The effects of put, in the order of §5.4, except that the first write is
-- the ZADD into the queue set the job goes to: if that key is another
-- program's (WRONGTYPE), the refusal leaves nothing written. Everything
-- before it only reads.
Q.put = function(now, p)
  local jid, queue = p.jid, p.queue
  local key = Q.jkey(jid)
  local deps_key = key .. '-dependencies'
  -- One EXISTS tells whether the -dependencies set, any tracked job and the
  -- job hash exist: a new job skips reading its old fields. Nothing below
  -- touches ql:tracked, nor the -dependencies set unless a depends list is
  -- given (checked again then).
  local has_deps, exists = Q.exists_and_tracked(deps_key, key)
  local old = Q.none
  if exists then
    old = redis.call('hmget', key, 'priority', 'tags', 'queue', 'state', 'failure', 'retries', 'worker',
      'history', 'tree')
  end
  local old_queue, old_state, old_worker = old[3], old[4], old[7]
  -- (A new job was no tree job and is not terminating: nothing to check.)
  if exists then Q.tree.put_check(p, old[9], old_state) end

  -- Most jobs have no tags ('{}' stored): nothing to decode or index then.
  local old_tags = Q.none
  if old[2] and old[2] ~= '{}' then old_tags = Q.decode_or(old[2], Q.none) end
  local priority = p.priority or tonumber(old[1]) or 0
  local tags = p.tags or old_tags
  local retries = p.retries or tonumber(old[6]) or 5
  local delay = p.delay
  local old_deps, live = Q.none, Q.none
  if #p.depends > 0 then has_deps, old_deps, live = waits_after_put(jid, p, deps_key) end

  -- A re-put also writes the other sets of its queue, of its old queue and
  -- its old worker's set: each is read first (one ZSCORE), so a key of
  -- another program's refuses the put with Redis's WRONGTYPE before anything
  -- is written. A new job pays nothing for this.
  if old_queue then
    for _, q in ipairs(old_queue == queue and {queue} or {queue, old_queue}) do
      for _, kind in ipairs(QUEUE_SETS) do redis.call('zscore', Q.qkey(q, kind), jid) end
    end
    if old_worker and old_worker ~= '' then redis.call('zscore', Q.wkey(old_worker), jid) end
  end

  -- The first write: the job's place in its queue.
  local home = has_deps and 'depends' or (delay > 0 and 'scheduled' or 'work')
  if home == 'depends' then
    redis.call('zadd', Q.qkey(queue, 'depends'), now, jid)
  elseif home == 'scheduled' then
    redis.call('zadd', Q.qkey(queue, 'scheduled'), now + delay, jid)
  else
    Q.work_add(queue, jid, priority, now)
  end

  -- Old tags leave the index; the resolved list is indexed again below.
  if next(old_tags) ~= nil then Q.unindex_tag_list(jid, old_tags) end

  -- A new non-empty depends list replaces the old one; an empty one keeps it.
  if #p.depends > 0 then
    local wanted = {}
    for _, d in ipairs(p.depends) do wanted[d] = true end
    for _, d in ipairs(old_deps) do
      if not wanted[d] then Q.unlink(jid, d) end
    end
  end

  Q.log_event(Q.msg_put(jid, queue))
  -- A new job keeps its put entry in its hash (history.lua).
  local put_entry = Q.history_text(now, 'put', 'q', queue)
  if exists then Q.history(jid, now, 'put', nil, old[8] or true, put_entry) end

  if old_queue then
    -- The set the job just went to keeps it.
    if old_queue == queue then
      for _, kind in ipairs(QUEUE_SETS) do
        if kind ~= home then redis.call('zrem', Q.qkey(queue, kind), jid) end
      end
    else
      Q.unqueue(old_queue, jid, QUEUE_SETS)
    end
  end

  if old_worker and old_worker ~= '' then
    redis.call('zrem', Q.wkey(old_worker), jid)
    if old_worker ~= p.worker then
      Q.lock_lost(jid, old_worker)
    end
  end

  if old_state == 'complete' then
    redis.call('zrem', Q.P .. 'completed', jid)
  end

  if next(tags) ~= nil then Q.index_tags(jid, tags, now) end

  if old_state == 'failed' then
    Q.unfail_one(jid, old[5], queue)
  end

  -- A new job's fields go in the order the commands after it look them up
  -- most: Redis scans a small hash front to back for each field. Fields
  -- that readers default alike when absent are left out of a new job (the
  -- key names the jid; priority 0), which saves their bytes per job.
  local retries_text = Q.int_arg(retries)
  -- The constructor holds the 22 fields every put writes (the table is
  -- made at that size): a re-put replaces an old priority, whatever the
  -- new value; a new job holds its put entry and a non-zero priority.
  local fields = {
    'state', delay > 0 and 'scheduled' or 'waiting',
    'worker', '',
    'time', Q.timestr(now),
    'queue', queue,
    'expires', '0',
    'retries', retries_text,
    'remaining', retries_text,
    'klass', p.klass,
    'data', p.data,
    'tags', next(tags) == nil and '{}' or cjson.encode(tags),
    exists and 'priority' or 'history', exists and Q.int_arg(priority) or put_entry,
  }
  if not exists and priority ~= 0 then fields[23], fields[24] = 'priority', Q.int_arg(priority) end
  redis.call('hset', key, unpack(fields))

  if #p.depends > 0 then
    for _, d in ipairs(p.depends) do Q.link(jid, d, live[d]) end
  end

  if has_deps then
    if delay > 0 then
      redis.call('hset', key, 'state', 'depends', 'scheduled', now + delay)
    else
      redis.call('hset', key, 'state', 'depends')
    end
  end

  Q.register_queue(queue, now)
  Q.search_index(jid, p.klass)
  Q.track_event(jid, 'put')
  if p.tree or p.was_tree then Q.tree.put(now, p, old_state, old_queue) end
  return jid
end

C.put = function(now, args)
  local p = Q.put_args('Put', args)
  if p.unique then return Q.unique.put(now, p) end
  return Q.put(now, p)
end

C.requeue = function(now, args)
  local jid = Q.jid('Requeue', 'jid', args[3])
  Q.must_exist('Requeue', jid)
  return Q.put(now, Q.put_args('Requeue', args))
end
