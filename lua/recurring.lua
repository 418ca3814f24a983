-- Recurring jobs (§11, §5.30-§5.34): templates ql:r:<jid> attached to a
-- queue through ql:q:<queue>-recur (interval) or ql:q:<queue>-cron (cron,
-- schedules.md S1: older scripts must not see them), spawned lazily by pop
-- and peek.

Q.rkey = function(jid) return Q.P .. 'r:' .. jid end

-- The queue set holding a template of type `kind`.
Q.recur_set = function(queue, kind)
  return Q.qkey(queue, kind == 'cron' and 'cron' or 'recur')
end

-- Creates instance <r>-<count> of template r due at s (§11.2 step 2.4);
-- t holds the template's klass, data, priority, tags and retries. The
-- first write is the ZADD into the queue's work set: a work key of another
-- program's (WRONGTYPE) refuses the pop before the instance is half made.
local function spawn_instance(queue, r, rkey, t, tags, priority, s, now, count)
  local child = r .. '-' .. count
  Q.work_add(queue, child, priority, s)
  redis.call('hset', rkey, 'count', count)
  Q.index_tags(child, tags, now)
  Q.search_index(child, t[1] or '')
  redis.call('hset', Q.jkey(child),
    'jid', child,
    'klass', t[1] or '',
    'data', t[2] or '{}',
    'priority', t[3] or 0,
    'tags', t[4] or '{}',
    'state', 'waiting',
    'worker', '',
    'expires', 0,
    'queue', queue,
    'retries', t[5] or 0,
    'remaining', t[5] or 0,
    'time', Q.timestr(s),
    'spawned_from_jid', r)
  Q.history(child, s, 'put', {q = queue})
end

-- Spawns the due templates of the queue's set `kind` (§11.2 step 2): at
-- most n instances; returns how many. `schedule` knows one type:
-- fields, read after klass, data, priority, tags and retries;
-- start(t, s, now, queue) -> the first due time to spawn (backlog applied)
-- and a state, or nil for a template that cannot spawn (it leaves the set);
-- after(state, s) -> the next due time, or nil when there is none.
local function spawn_due(queue, kind, now, n, schedule)
  if n <= 0 then return 0 end
  local key = Q.qkey(queue, kind)
  local templates = redis.call('zrangebyscore', key, 0, now, 'LIMIT', 0, n)
  local moved = 0
  if #templates == 0 then return 0 end
  Q.check_pop_sets(queue)
  -- The instance counter is read with the fields (spawn_instance writes it).
  local fields = {'klass', 'data', 'priority', 'tags', 'retries', unpack(schedule.fields)}
  fields[#fields + 1] = 'count'
  for _, r in ipairs(templates) do
    local rkey = Q.rkey(r)
    local t = redis.call('hmget', rkey, unpack(fields))
    local count = tonumber(t[#fields]) or 0
    local s, state = schedule.start(t, math.floor(tonumber(redis.call('zscore', key, r))), now, queue)
    if not s then redis.call('zrem', key, r) end
    local priority = tonumber(t[3]) or 0
    local tags = Q.decode_or(t[4], {})
    while s and s <= now and moved < n do
      count = count + 1
      spawn_instance(queue, r, rkey, t, tags, priority, s, now, count)
      moved = moved + 1
      s = schedule.after(state, s)
      if s then
        redis.call('zadd', key, s, r)
      else
        redis.call('zrem', key, r)
      end
    end
  end
  return moved
end

local interval_schedule = {
  fields = {'interval', 'backlog'},
  start = function(t, s, now)
    local interval = tonumber(t[6]) or 0
    local backlog = tonumber(t[7]) or 0
    -- Drop occurrences beyond the backlog allowance.
    if backlog ~= 0 then
      local k = (now - s) / interval
      if k > backlog then
        s = s + math.ceil(k - backlog) * interval
      end
    end
    return s, interval
  end,
  after = function(interval, s) return s + interval end,
}

-- SPAWN-RECURRING(q, now, n): create at most n due instances (§11.2),
-- interval templates first.
Q.spawn_recurring = function(queue, now, n)
  local moved = spawn_due(queue, 'recur', now, n, interval_schedule)
  spawn_due(queue, 'cron', now, n - moved, Q.cron.schedule)
end

-- Checks a value of recur or recur.update and returns what to store;
-- recur.update checks all its values before its first write.
local function recur_value(name, value, now)
  if name == 'priority' then
    return Q.number('Recur', name, value)
  elseif name == 'retries' or name == 'backlog' then
    return Q.whole('Recur', name, value)
  elseif name == 'interval' then
    local n = Q.number('Recur', name, value)
    if n <= 0 then
      Q.raise('InvalidArgument', 'Recur(): Arg "interval" must be greater than 0: ' .. value)
    end
    return n
  elseif name == 'data' then
    Q.json('Recur', name, value)
  elseif name == 'cron' then
    local E = Q.cron.parse('Recur', value)
    return {E = E, due = Q.cron.due('Recur', E, now)}
  end
  return value
end

C.recur = function(now, args)
  local cmd = 'Recur'
  local queue = Q.need(cmd, 'queue', args[1])
  local jid = Q.need(cmd, 'jid', args[2])
  local klass = Q.need(cmd, 'klass', args[3])
  local data = args[4]
  Q.json(cmd, 'data', data)
  local kind = Q.need(cmd, 'type', args[5])
  local E, interval, offset, opts
  if kind == 'cron' then
    E, interval = Q.cron.parse(cmd, args[6]), 0
    opts = Q.options(cmd, args, 7)
  elseif kind == 'interval' then
    interval = recur_value('interval', args[6])
    offset = Q.number(cmd, 'offset', args[7])
    opts = Q.options(cmd, args, 8)
  else
    Q.raise('InvalidArgument', 'Recur(): schedule type "' .. kind .. '" unknown')
  end
  local priority = Q.number(cmd, 'priority', opts.priority, 0)
  local retries = Q.whole(cmd, 'retries', opts.retries, 0)
  local backlog
  if E then
    backlog = Q.cron.backlog(cmd, opts.backlog)
  else
    backlog = Q.whole(cmd, 'backlog', opts.backlog, 0)
  end
  local tags = {}
  if opts.tags ~= nil then tags = Q.json_list(cmd, 'tags', opts.tags, false, true) end
  local due = E and Q.cron.due(cmd, E, now) or now + offset
  local unique = Q.unique.mode(cmd, opts.unique)
  if unique and Q.unique.template_pending(jid) then return Q.unique.reply(unique, jid, false) end

  local rkey = Q.rkey(jid)
  local old = redis.call('hmget', rkey, 'count', 'queue', 'type')
  if old[2] then
    redis.call('zrem', Q.recur_set(old[2], old[3]), jid)
  end
  redis.call('hset', rkey,
    'jid', jid,
    'klass', klass,
    'data', data,
    'priority', priority,
    'tags', cjson.encode(tags),
    'state', 'recur',
    'queue', queue,
    'type', kind,
    'count', old[1] or 0,
    'interval', interval,
    'retries', retries,
    'backlog', backlog)
  if E then
    Q.cron.mark(rkey, E)
  elseif old[3] == 'cron' then
    redis.call('hdel', rkey, 'cron')
  end
  redis.call('zadd', Q.recur_set(queue, kind), due, jid)
  Q.register_queue(queue, now)
  return Q.unique.reply(unique, jid, true)
end

C['recur.get'] = function(now, args)
  local jid = Q.need('Recur.get', 'jid', args[1])
  local r = redis.call('hmget', Q.rkey(jid), 'jid', 'klass', 'state', 'queue',
    'priority', 'interval', 'retries', 'count', 'data', 'tags', 'backlog', 'type', 'cron')
  if not r[1] then return nil end
  local view = {
    jid = r[1],
    klass = r[2] or '',
    state = r[3] or 'recur',
    queue = r[4] or '',
    priority = tonumber(r[5]) or 0,
    interval = tonumber(r[6]) or 0,
    retries = tonumber(r[7]) or 0,
    count = tonumber(r[8]) or 0,
    data = r[9] or '{}',
    tags = Q.decode_or(r[10], {}),
    backlog = tonumber(r[11]) or 0,
  }
  -- Added last so an interval template's view is built as before.
  if r[12] == 'cron' and r[13] then view.cron = r[13] end
  return cjson.encode(view)
end

-- recur.update: key/value pairs applied one at a time, in order.
local recur_updaters = {
  priority = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'priority', value)
  end,
  retries = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'retries', value)
  end,
  backlog = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'backlog', value)
  end,
  interval = function(jid, rkey, new, now)
    local f = redis.call('hmget', rkey, 'interval', 'queue', 'type')
    if f[3] == 'cron' then return Q.cron.to_interval(jid, rkey, f[2] or '', new, now) end
    -- Shifts the next due time by the change of interval.
    redis.call('zincrby', Q.qkey(f[2] or '', 'recur'), new - (tonumber(f[1]) or 0), jid)
    redis.call('hset', rkey, 'interval', new)
  end,
  cron = function(jid, rkey, value, now)
    local f = redis.call('hmget', rkey, 'queue', 'type')
    redis.call('zrem', Q.recur_set(f[1] or '', f[2]), jid)
    redis.call('hset', rkey, 'type', 'cron', 'interval', 0)
    Q.cron.mark(rkey, value.E)
    redis.call('zadd', Q.qkey(f[1] or '', 'cron'), value.due, jid)
  end,
  data = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'data', value)
  end,
  klass = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'klass', value)
  end,
  queue = function(jid, rkey, value, now)
    local f = redis.call('hmget', rkey, 'queue', 'type')
    local from = Q.recur_set(f[1] or '', f[2])
    local score = redis.call('zscore', from, jid)
    redis.call('zrem', from, jid)
    if score then
      redis.call('zadd', Q.recur_set(value, f[2]), score, jid)
    end
    redis.call('hset', rkey, 'queue', value)
    Q.register_queue(value, now)
  end,
}

C['recur.update'] = function(now, args)
  local jid = Q.need('Recur', 'jid', args[1])
  local rkey = Q.rkey(jid)
  if redis.call('exists', rkey) == 0 then
    Q.raise('NotFound', 'Recur(): No recurring job ' .. jid)
  end
  local values = {}
  -- schedules.md S3: backlog is limited as for cron if any pair is cron,
  -- else by the template's type where the pair stands.
  local any_cron = false
  for i = 2, #args, 2 do any_cron = any_cron or args[i] == 'cron' end
  local cron = any_cron or redis.call('hget', rkey, 'type') == 'cron'
  for i = 2, #args, 2 do
    local name, value = args[i], args[i + 1]
    if not recur_updaters[name] then
      Q.raise('InvalidArgument', 'Recur(): Unrecognized option "' .. name .. '"')
    end
    if value == nil then
      Q.raise('InvalidArgument', 'Recur(): Arg "' .. name .. '" missing a value')
    end
    if name == 'backlog' and cron then
      values[i] = Q.cron.backlog('Recur', value)
    else
      values[i] = recur_value(name, value, now)
    end
    if name == 'interval' then cron = any_cron end
  end
  for i = 2, #args, 2 do
    recur_updaters[args[i]](jid, rkey, values[i], now)
  end
  return 1
end

-- Reads a template's tag list, raising "does not exist" for unknown jids.
local function recur_tags(cmd, jid)
  local text = redis.call('hget', Q.rkey(jid), 'tags')
  if not text and redis.call('exists', Q.rkey(jid)) == 0 then
    Q.raise('NotFound', cmd .. '(): Recurring job ' .. jid .. ' does not exist')
  end
  return Q.decode_or(text, {})
end

C['recur.tag'] = function(now, args)
  local jid = Q.need('Recur.tag', 'jid', args[1])
  local tags = recur_tags('Recur.tag', jid)
  -- Membership is checked against the list as it was before this call.
  local had = {}
  for _, tag in ipairs(tags) do had[tag] = true end
  for i = 2, #args do
    if not had[args[i]] then tags[#tags + 1] = args[i] end
  end
  local text = cjson.encode(tags)
  redis.call('hset', Q.rkey(jid), 'tags', text)
  return text
end

C['recur.untag'] = function(now, args)
  local jid = Q.need('Recur.untag', 'jid', args[1])
  local tags = recur_tags('Recur.untag', jid)
  local drop = {}
  for i = 2, #args do drop[args[i]] = true end
  local kept = {}
  for _, tag in ipairs(tags) do
    if not drop[tag] then kept[#kept + 1] = tag end
  end
  local text = cjson.encode(kept)
  redis.call('hset', Q.rkey(jid), 'tags', text)
  return text
end

C.unrecur = function(now, args)
  local jid = Q.need('Unrecur', 'jid', args[1])
  local rkey = Q.rkey(jid)
  local queue = redis.call('hget', rkey, 'queue')
  if queue then
    redis.call('zrem', Q.qkey(queue, 'recur'), jid)
    redis.call('zrem', Q.qkey(queue, 'cron'), jid)
  end
  redis.call('del', rkey)
  return 1
end
