-- Tree jobs (jobtrees.md §2.2-§4): the checks, state classes and shared
-- procedures that the tree commands, put and later modules (ports,
-- channels) use. Everything lives in Q.tree so the surface stays one table.

local T = {}
Q.tree = T

-- §4 STATUS compares classes, not names: a move inside the queue is silent.
local class_of = {
  waiting = 'queued', scheduled = 'queued', depends = 'queued', stalled = 'queued',
}
local function class(state)
  return class_of[state] or state
end

-- Byte-wise order (K4): Lua's `<` on strings follows the server's locale.
T.byte_less = function(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- "J" of §5.1: an existing tree job. Returns its hash key.
T.job = function(cmd, jid)
  jid = Q.jid(cmd, 'jid', jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, 'state', 'tree')
  if not f[1] then
    Q.raise('NotFound', cmd .. '(): Job ' .. jid .. ' does not exist')
  elseif not f[2] then
    Q.raise('StateError', cmd .. '(): Job ' .. jid .. ' is not a tree job')
  end
  return key
end

-- Log events go to one channel; `tree-log` 0 silences all but `error`.
T.log = function(message, always)
  if always or Q.config('tree-log') ~= '0' then
    redis.call('publish', Q.P .. 'ch:/qless/log', message)
  end
end

-- `error` events are published whatever `tree-log` says.
T.error = function(jid, now, text)
  T.log('{"event":"error","time":' .. cjson.encode(now) .. ',"job":' .. Q.jstr(jid) ..
    ',"error":' .. Q.jstr(text) .. '}', true)
end

T.status = function(jid, now, from, to)
  if class(from) == class(to) then return end
  T.log('{"event":"status","time":' .. cjson.encode(now) .. ',"job":' .. Q.jstr(jid) ..
    ',"from":' .. Q.jstr(from) .. ',"to":' .. Q.jstr(to) .. '}')
end

-- §4 LEAVE. A job at rest (suspended, complete, failed, terminated) sits
-- in one set of its own, so only those are cleared; any other state may sit
-- in several of the queue's sets (a terminating job in -work or -locks too).
local rest_sets = {'suspended', 'terminated'}
local all_sets = {'work', 'scheduled', 'depends', 'locks', 'suspended', 'terminating', 'terminated'}
local at_rest = {suspended = true, complete = true, failed = true, terminated = true}
local held = {running = true, terminating = true}

T.leave = function(jid, f)
  local queue = f.queue or ''
  if queue ~= '' then
    Q.unqueue(queue, jid, at_rest[f.state] and rest_sets or all_sets)
  end
  if f.state == 'complete' then
    redis.call('zrem', Q.P .. 'completed', jid)
  elseif f.state == 'failed' then
    Q.unfail_one(jid, f.failure, queue)
  end
  -- K6: the worker's list loses the jid whatever the state; only a holder
  -- is told, as a put moving a running job tells it.
  local worker = f.worker or ''
  if worker ~= '' then
    redis.call('zrem', Q.wkey(worker), jid)
    if held[f.state] then Q.lock_lost(jid, worker) end
  end
end

-- §4 REQUEUE; returns the new state. The wake's record is the status event,
-- so ql:log gets no `put` (K10).
T.requeue = function(jid, now, delay, f)
  local key, queue = Q.jkey(jid), f.queue
  Q.history(jid, now, 'put', nil, false, Q.history_text(now, 'put', 'q', queue))
  local state = delay > 0 and 'scheduled' or 'waiting'
  redis.call('hset', key, 'state', state, 'worker', '', 'expires', '0',
    'remaining', Q.int_arg(tonumber(f.retries) or 0), 'time', Q.timestr(now))
  if delay > 0 then
    redis.call('zadd', Q.qkey(queue, 'scheduled'), now + delay, jid)
  else
    Q.work_add(queue, jid, tonumber(f.priority) or 0, now)
  end
  Q.register_queue(queue, now)
  Q.track_event(jid, 'put')
  return state
end

-- The fields the procedures above read, as a table.
T.fields = function(jid)
  local v = redis.call('hmget', Q.jkey(jid), 'state', 'queue', 'worker', 'retries', 'priority',
    'failure', 'rerun', 'started', 'time')
  return {state = v[1], queue = v[2], worker = v[3], retries = v[4], priority = v[5],
    failure = v[6], rerun = v[7], started = v[8], time = v[9]}
end

-- §3.3: a restart from `terminated` begins the job's life again.
T.restart = function(key)
  redis.call('hdel', key, 'started', 'rerun')
  redis.call('hset', key, 'runs', '0', 'rate_count', '0')
end

-- put/requeue options of §5.2: `tree`, `by`, `inports`, `outports`,
-- `parent`, `name` and `aliases`. Returns
-- whether the put makes (or keeps) a tree job, checked before any write.
T.put_args = function(cmd, opts, p)
  if opts.tree ~= nil and opts.tree ~= '1' then
    Q.raise('InvalidArgument', cmd .. '(): Arg "tree" must be 1')
  end
  p.tree = opts.tree ~= nil
  p.by = opts.by
  T.put_ports_args(cmd, opts, p)
  T.put_parent(cmd, opts, p)
  if opts.aliases ~= nil then
    p.aliases = Q.aliases.parse(cmd, opts.aliases)
    p.tree = true
  end
  if p.aliases then Q.aliases.check_free(cmd, p.jid, p.aliases) end
end

-- From the job's stored `tree` and `state` fields (false or nil: none),
-- read by the put's own HMGET before its first write, so a plain put pays
-- no extra call: whether it was a tree job, and the refusal to move a
-- terminating one.
T.put_check = function(p, tree, state)
  p.was_tree = tree ~= nil and tree ~= false
  if (p.tree or p.was_tree) and state == 'terminating' then
    local to = p.delay > 0 and 'scheduled' or 'waiting'
    if #p.depends > 0 then to = 'depends' end
    Q.raise('StateError', p.cmd .. '(): Job ' .. p.jid .. ' cannot go from terminating to ' .. to)
  end
end

-- Effects of §5.2 after P§5.4's; `old` holds the job's state and queue
-- before the put (false for a new job).
T.put = function(now, p, old_state, old_queue)
  local key = Q.jkey(p.jid)
  if old_queue and old_queue ~= '' then
    Q.unqueue(old_queue, p.jid, {'suspended', 'terminated'})
  end
  if not p.was_tree then
    redis.call('hset', key, 'tree', '1', 'created_by', p.by or p.worker or '', 'runs', '0')
    -- K2: an older script would blank, purge or cancel tree jobs. Every
    -- tree job was made by a put, so marking at creation is enough.
    redis.call('hset', Q.P .. 'features', 'tree', SCRIPT_VERSION)
  elseif old_state == 'terminated' then
    T.restart(key)
  end
  T.put_ports(p, not p.was_tree)
  if p.parent then T.attach(p.parent, p.name, p.jid) end
  if p.aliases then Q.aliases.add(p.jid, p.aliases) end
  redis.call('hdel', key, 'rerun')
  T.status(p.jid, now, old_state or 'new', redis.call('hget', key, 'state'))
end
