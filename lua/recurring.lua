-- Recurring jobs (§11, §5.30-§5.34): templates ql:r:<jid> attached to a
-- queue through ql:q:<queue>-recur, spawned lazily by pop and peek.

Q.rkey = function(jid) return 'ql:r:' .. jid end

-- SPAWN-RECURRING(q, now, n): create at most n due instances (§11.2).
Q.spawn_recurring = function(queue, now, n)
  if n <= 0 then return end
  local recur = Q.qkey(queue, 'recur')
  local templates = redis.call('zrangebyscore', recur, 0, now, 'LIMIT', 0, n)
  local moved = 0
  for _, r in ipairs(templates) do
    local rkey = Q.rkey(r)
    local t = redis.call('hmget', rkey, 'klass', 'data', 'priority', 'tags',
      'retries', 'interval', 'backlog')
    local priority = tonumber(t[3]) or 0
    local tags = Q.decode_or(t[4], {})
    local interval = tonumber(t[6]) or 0
    local backlog = tonumber(t[7]) or 0
    local s = math.floor(tonumber(redis.call('zscore', recur, r)))
    -- Drop occurrences beyond the backlog allowance.
    if backlog ~= 0 then
      local k = (now - s) / interval
      if k > backlog then
        s = s + math.ceil(k - backlog) * interval
      end
    end
    while s <= now and moved < n do
      local count = redis.call('hincrby', rkey, 'count', 1)
      moved = moved + 1
      local child = r .. '-' .. count
      Q.index_tags(child, tags, now)
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
      Q.work_add(queue, child, priority, s)
      s = s + interval
      redis.call('zadd', recur, s, r)
    end
  end
end

-- Checks a value of recur or recur.update and returns what to store;
-- recur.update checks all its values before its first write.
local function recur_value(name, value)
  if name == 'priority' then
    return Q.number('Recur', name, value)
  elseif name == 'retries' or name == 'backlog' then
    return Q.whole('Recur', name, value)
  elseif name == 'interval' then
    local n = Q.number('Recur', name, value)
    if n <= 0 then
      Q.raise('Recur(): Arg "interval" must be greater than 0: ' .. value)
    end
    return n
  elseif name == 'data' then
    Q.json('Recur', name, value)
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
  if kind ~= 'interval' then
    Q.raise('Recur(): schedule type "' .. kind .. '" unknown')
  end
  local interval = recur_value('interval', args[6])
  local offset = Q.number(cmd, 'offset', args[7])
  local opts = Q.options(cmd, args, 8)
  local priority = Q.number(cmd, 'priority', opts.priority, 0)
  local retries = Q.whole(cmd, 'retries', opts.retries, 0)
  local backlog = Q.whole(cmd, 'backlog', opts.backlog, 0)
  local tags = {}
  if opts.tags ~= nil then tags = Q.json_list(cmd, 'tags', opts.tags) end
  local unique = Q.unique.mode(cmd, opts.unique)
  if unique and Q.unique.template_pending(jid) then return Q.unique.reply(unique, jid, false) end

  local rkey = Q.rkey(jid)
  local old = redis.call('hmget', rkey, 'count', 'queue')
  if old[2] then
    redis.call('zrem', Q.qkey(old[2], 'recur'), jid)
  end
  redis.call('hset', rkey,
    'jid', jid,
    'klass', klass,
    'data', data,
    'priority', priority,
    'tags', cjson.encode(tags),
    'state', 'recur',
    'queue', queue,
    'type', 'interval',
    'count', old[1] or 0,
    'interval', interval,
    'retries', retries,
    'backlog', backlog)
  redis.call('zadd', Q.qkey(queue, 'recur'), now + offset, jid)
  Q.register_queue(queue, now)
  return Q.unique.reply(unique, jid, true)
end

C['recur.get'] = function(now, args)
  local jid = Q.need('Recur.get', 'jid', args[1])
  local r = redis.call('hmget', Q.rkey(jid), 'jid', 'klass', 'state', 'queue',
    'priority', 'interval', 'retries', 'count', 'data', 'tags', 'backlog')
  if not r[1] then return nil end
  return cjson.encode({
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
  })
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
    local f = redis.call('hmget', rkey, 'interval', 'queue')
    -- Shifts the next due time by the change of interval.
    redis.call('zincrby', Q.qkey(f[2] or '', 'recur'), new - (tonumber(f[1]) or 0), jid)
    redis.call('hset', rkey, 'interval', new)
  end,
  data = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'data', value)
  end,
  klass = function(jid, rkey, value, now)
    redis.call('hset', rkey, 'klass', value)
  end,
  queue = function(jid, rkey, value, now)
    local old = redis.call('hget', rkey, 'queue') or ''
    local score = redis.call('zscore', Q.qkey(old, 'recur'), jid)
    redis.call('zrem', Q.qkey(old, 'recur'), jid)
    if score then
      redis.call('zadd', Q.qkey(value, 'recur'), score, jid)
    end
    redis.call('hset', rkey, 'queue', value)
    Q.register_queue(value, now)
  end,
}

C['recur.update'] = function(now, args)
  local jid = Q.need('Recur', 'jid', args[1])
  local rkey = Q.rkey(jid)
  if redis.call('exists', rkey) == 0 then
    Q.raise('Recur(): No recurring job ' .. jid)
  end
  local values = {}
  for i = 2, #args, 2 do
    local name, value = args[i], args[i + 1]
    if not recur_updaters[name] then
      Q.raise('Recur(): Unrecognized option "' .. name .. '"')
    end
    if value == nil then
      Q.raise('Recur(): Arg "' .. name .. '" missing a value')
    end
    values[i] = recur_value(name, value)
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
    Q.raise(cmd .. '(): Recurring job ' .. jid .. ' does not exist')
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
  end
  redis.call('del', rkey)
  return 1
end
