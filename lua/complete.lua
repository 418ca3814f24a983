-- complete (§5.8), completed-job purge (§12.1) and dependent release.

-- Checks that `jid` exists, is running and is held by `worker`; returns the
-- job's state/worker/queue fields. `texts` holds the command-specific wording
-- of the state/worker errors; `texts.no_owner` also rejects a job whose
-- worker field is empty (heartbeat); `texts.terminating` also accepts a
-- terminating tree job during its shutdown run (jobtrees.md §3.3). `extra` lists more fields to read
-- (returned from f[4] on). Also returns the job's key.
-- This module's own helpers; Q holds only what other modules use.
local Done = {
  forget_job = nil,
  purge_completed = nil,
  release_dependents = nil,
  started = nil,
  args = nil,
  advance = nil,
  fields = nil,
}

Q.must_be_running = function(cmd, jid, worker, texts, extra)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'state', 'worker', 'queue', unpack(extra or Q.none))
  local state, owner = f[1], f[2]
  if not state then
    Q.raise('NotFound', cmd .. '(): Job ' .. jid .. ' does not exist')
  elseif state ~= 'running' and not (texts.terminating and state == 'terminating') then
    Q.raise('LockLost', cmd .. '(): Job ' .. jid .. texts.state .. state)
  elseif owner ~= worker or (texts.no_owner and owner == '') then
    -- job.terminate took a running tree job from its worker: it waits for
    -- a worker to run its shutdown, and no one holds it yet.
    if state == 'terminating' and owner == '' then
      Q.raise('LockLost', cmd .. '(): Job ' .. jid .. texts.state .. 'terminating (no worker holds it)')
    end
    Q.raise('LockLost', cmd .. '(): Job ' .. jid .. texts.worker .. tostring(owner))
  end
  return f, key
end

-- Deletes a completed job's hash and history and unindexes its tags.
-- A tree job is never purged (jobtrees.md §3.3): input may wake it later,
-- so only its ql:completed entry goes (the caller removes those).
Done.forget_job = function(jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'tags', 'tree')
  if f[2] then return end
  Q.unindex_tag_list(jid, Q.decode_or(f[1], Q.none))
  Q.search_forget(jid)
  redis.call('del', key, Q.hkey(jid))
end

-- PURGE-COMPLETED: by age (jobs-history), then by count (jobs-history-count).
-- `key` is ql:completed. Returns whether it removed any job.
Done.purge_completed = function(now, key)
  local age = Q.config_number('jobs-history', 604800)
  local count = math.floor(Q.config_number('jobs-history-count', 50000))
  local old = redis.call('zrangebyscore', key, '0', Q.score(now - age))
  if #old > 0 then
    for _, jid in ipairs(old) do
      Done.forget_job(jid)
    end
    redis.call('zremrangebyscore', key, 0, now - age)
  end
  local cache = Q.cache
  if count ~= cache.keep_count then
    cache.keep_count, cache.keep_rank = count, Q.int_arg(-1 - count)
  end
  local extra = redis.call('zrange', key, '0', cache.keep_rank)
  if #extra > 0 then
    for _, jid in ipairs(extra) do
      Done.forget_job(jid)
    end
    redis.call('zremrangebyrank', key, 0, -1 - count)
  end
  return #old > 0 or #extra > 0
end

-- Releases the jobs waiting for `jid`: those with no dependency left become
-- scheduled (if a delay was pending) or waiting. Called when the set exists.
Done.release_dependents = function(jid, now)
  local key = Q.jkey(jid) .. '-dependents'
  local dependents = redis.call('smembers', key)
  if #dependents == 0 then return end
  for _, d in ipairs(dependents) do
    local dkey = Q.jkey(d)
    redis.call('srem', dkey .. '-dependencies', jid)
    if redis.call('scard', dkey .. '-dependencies') == 0 then
      local f = redis.call('hmget', dkey, 'queue', 'scheduled', 'priority')
      local dq = f[1]
      if dq then
        redis.call('zrem', Q.qkey(dq, 'depends'), d)
        if f[2] then
          redis.call('zadd', Q.qkey(dq, 'scheduled'), f[2], d)
          redis.call('hset', dkey, 'state', 'scheduled')
          redis.call('hdel', dkey, 'scheduled')
        else
          Q.work_add(dq, d, tonumber(f[3]) or 0, now)
          redis.call('hset', dkey, 'state', 'waiting')
        end
      end
    end
  end
  redis.call('del', key)
end

-- The number of the job's `time` field (`now` if absent). A serial
-- worker's settle completes the job its previous call popped, whose time
-- Q.timestr wrote and still remembers with its number: no parse then
-- (%.17g text reads back as the very number).
Done.started = function(text, now)
  local c = Q.cache
  if text ~= nil and text == c.time_text then return c.time_num end
  return Q.time_number(text) or now
end

-- Parses complete's options; a trailing name without a value is ignored.
-- Returns nil when no option is given (a plain completion).
-- The usual arguments pass the checks without a call each (a jid without
-- '-', the data last found valid); any other goes through them in order.
Done.args = function(args)
  local cmd = 'Complete'
  local jid, data = args[1], args[4]
  if jid == nil or string.find(jid, '-', 1, true) then Q.jid(cmd, 'jid', jid) end
  if args[2] == nil then Q.need(cmd, 'worker', nil) end
  if args[3] == nil then Q.need(cmd, 'queue', nil) end
  if data == nil or data ~= Q.cache.valid_json then Q.json_valid(cmd, 'data', data) end
  if #args < 6 then return nil end
  local c = {
    jid = args[1],
    worker = args[2],
    queue = args[3],
    data = args[4],
    depends = {},
  }
  local opts = {}
  for i = 5, #args - 1, 2 do
    opts[args[i]] = args[i + 1]
  end
  c.next = opts.next
  c.delay = Q.delay(cmd, 'delay', opts.delay, 0)
  if opts.depends ~= nil then c.depends = Q.json_list(cmd, 'depends', opts.depends, true, true) end
  if opts.delay ~= nil and c.next == nil then
    Q.raise('InvalidArgument', 'Complete(): "delay" cannot be used without a "next".')
  end
  if opts.depends ~= nil and c.next == nil then
    Q.raise('InvalidArgument', 'Complete(): "depends" cannot be used without a "next".')
  end
  return c
end

-- Moves a completed job on to the `next` queue; returns the reply.
Done.advance = function(now, c, key)
  local jid, nextq = c.jid, c.next
  Q.log_event(Q.msg_advanced(jid, nextq, c.queue))
  Q.history(jid, now, 'put', nil, false, Q.history_text(now, 'put', 'q', nextq))
  Q.register_queue(nextq, now)
  local f = redis.call('hmget', key, 'retries', 'priority')
  redis.call('hset', key, 'state', 'waiting', 'worker', '', 'failure', '{}',
    'queue', nextq, 'expires', 0, 'remaining', tonumber(f[1]) or 0)
  if c.delay > 0 and #c.depends == 0 then
    -- Sits in -scheduled while its state reads `waiting` (§4 exception).
    redis.call('zadd', Q.qkey(nextq, 'scheduled'), now + c.delay, jid)
    return 'scheduled'
  end
  local linked = false
  for _, d in ipairs(c.depends) do
    if Q.link(jid, d) then linked = true end
  end
  if linked then
    redis.call('zadd', Q.qkey(nextq, 'depends'), now, jid)
    redis.call('hset', key, 'state', 'depends')
    if c.delay > 0 then
      redis.call('hset', key, 'scheduled', now + c.delay)
    end
    return 'depends'
  end
  Q.work_add(nextq, jid, tonumber(f[2]) or 0, now)
  return 'waiting'
end

Q.complete_texts = {
  state = ' is not currently running: ',
  worker = ' has been handed out to another worker: ',
}
Done.fields = {'time', 'retries', 'history', 'tree', 'rerun'}

-- complete; with `fields`, also the job's settle fields (settle.lua's
-- SETTLE_FIELDS order) when the HSET below is known to be what they read,
-- else nil (settle then reads them). The dispatcher calls it with no
-- `fields`: its reply is the result alone.
C.complete = function(now, args, fields)
  local c = Done.args(args)
  local jid, worker, queue, data = args[1], args[2], args[3], args[4]
  local f, key = Q.must_be_running('Complete', jid, worker, Q.complete_texts, Done.fields)
  if f[3] ~= queue then
    Q.raise('StateError', 'Complete(): Job ' .. jid .. ' running in another queue: ' .. tostring(f[3]))
  end

  -- One EXISTS tells whether this job has dependents to release, whether
  -- any job is tracked (nothing below writes either before the release),
  -- whether the queue has a scheduled set (a running job is seldom also
  -- scheduled, and the ZREM from a set that does not exist is skipped) and
  -- whether any option is stored (the history limit and the purge read them).
  local scheduled = Q.qkey(queue, 'scheduled')
  local has_dependents, has_scheduled = Q.exists_and_tracked(key .. '-dependents', scheduled, true)
  Q.history(jid, now, 'done', nil, f[6] or true, Q.history_text(now, 'done'))
  redis.call('zrem', Q.qkey(queue, 'work'), jid)
  redis.call('zrem', Q.qkey(queue, 'locks'), jid)
  if has_scheduled then redis.call('zrem', scheduled, jid) end
  local started = Done.started(f[4], now)
  Q.stat(queue, 'run', now, now - started)
  redis.call('zrem', Q.wkey(worker), jid)
  Q.track_event(jid, 'completed')

  local tree = f[7]
  if tree and f[8] and (c == nil or c.next == nil) then
    -- Input arrived during the run: it runs again where it is (§3.3).
    redis.call('hdel', key, 'rerun')
    c = {jid = jid, worker = worker, queue = queue, data = data, next = queue, delay = 0, depends = Q.none}
  end
  if c ~= nil and c.next ~= nil then
    redis.call('hset', key, 'data', data, 'time', Q.timestr(now))
    local state = Done.advance(now, c, key)
    -- A delayed advance sits in -scheduled with its state `waiting`.
    if tree then Q.tree.status(jid, now, 'running', state == 'depends' and state or 'waiting') end
    return state
  end

  Q.log_event(Q.msg_completed(jid, queue))
  local retries = tonumber(f[5]) or 0
  local remaining = Q.int_arg(retries)
  redis.call('hset', key, 'data', data, 'time', Q.timestr(now), 'state', 'complete', 'worker', '',
    'failure', '{}', 'queue', tree and queue or '', 'expires', '0', 'remaining', remaining)
  -- A tree job keeps its queue: input may wake it there later (§2.2).
  if tree then Q.tree.status(jid, now, 'running', 'complete') end
  -- Q.timestr's text of `now` is Q.score's (one %.17g print, not two).
  local completed = Q.P .. 'completed'
  redis.call('zadd', completed, Q.timestr(now), jid)
  local purged = Done.purge_completed(now, completed)
  if has_dependents then Done.release_dependents(jid, now) end
  -- The hash holds what the HSET wrote unless the purge took this job or a
  -- release touched it (a job can depend on itself); a remaining count
  -- Redis formats itself (a non-integer) is read back too.
  if fields and not (tree or purged or has_dependents) and type(remaining) == 'string' then
    return 'complete', {'complete', '', '', '0', remaining, '{}'}
  end
  return 'complete'
end

-- settle's complete: result and fields (see C.complete).
Q.complete_with_fields = function(now, args)
  return C.complete(now, args, true)
end
