-- The job object (§3.1) and the simple per-job commands: get, multiget,
-- priority, log.

-- Decodes JSON text stored by this protocol, or returns `fallback`.
Q.decode_or = function(text, fallback)
  if not text or text == '' then return fallback end
  local ok, value = pcall(cjson.decode, text)
  if ok and type(value) == 'table' then return value end
  return fallback
end

Q.job_fields = {
  'jid', 'klass', 'state', 'queue', 'worker', 'priority', 'expires',
  'retries', 'remaining', 'data', 'tags', 'failure', 'spawned_from_jid',
  'history',
}

-- The job as a Lua table with exactly the 17 keys of §3.1, or nil.
Q.job_view = function(jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, unpack(Q.job_fields))
  local any = false
  for i = 1, #Q.job_fields do
    if f[i] then any = true break end
  end
  if not any and redis.call('exists', key) == 0 then
    return nil
  end
  local deps = Q.jkey(jid)
  return {
    jid = f[1] or jid,
    klass = f[2] or '',
    state = f[3] or '',
    queue = f[4] or '',
    worker = f[5] or '',
    tracked = Q.tracked(jid),
    priority = tonumber(f[6]) or 0,
    expires = tonumber(f[7]) or 0,
    retries = tonumber(f[8]) or 0,
    remaining = math.floor(tonumber(f[9]) or 0),
    data = f[10] or '',
    tags = Q.decode_or(f[11], {}),
    history = Q.history_render(jid, not f[14]),
    failure = Q.decode_or(f[12], {}),
    spawned_from_jid = f[13] or false,
    dependents = redis.call('smembers', deps .. '-dependents'),
    dependencies = redis.call('smembers', deps .. '-dependencies'),
  }
end

-- JSON array of the views of the jids that exist ({} when none).
Q.job_list = function(jids)
  local out = {}
  for _, jid in ipairs(jids) do
    local view = Q.job_view(jid)
    if view then out[#out + 1] = view end
  end
  return cjson.encode(out)
end

-- Raises "<Cmd>(): Job <jid> does not exist" unless the job hash exists.
Q.must_exist = function(cmd, jid)
  if redis.call('exists', Q.jkey(jid)) == 0 then
    Q.raise(cmd .. '(): Job ' .. jid .. ' does not exist')
  end
end

C.get = function(now, args)
  local jid = Q.need('Get', 'jid', args[1])
  local view = Q.job_view(jid)
  if view == nil then return nil end
  return cjson.encode(view)
end

C.multiget = function(now, args)
  return Q.job_list(args)
end

C.priority = function(now, args)
  local jid = Q.need('Priority', 'jid', args[1])
  local priority = Q.number('Priority', 'priority', args[2])
  Q.must_exist('Priority', jid)
  local key = Q.jkey(jid)
  redis.call('hset', key, 'priority', priority)
  -- A waiting job is re-scored with the bare priority (no time component).
  local queue = redis.call('hget', key, 'queue')
  if queue and redis.call('zscore', Q.qkey(queue, 'work'), jid) then
    redis.call('zadd', Q.qkey(queue, 'work'), priority, jid)
  end
  return priority
end

C.log = function(now, args)
  local jid = Q.need('Log', 'jid', args[1])
  local message = Q.need('Log', 'message', args[2])
  local data = nil
  if args[3] ~= nil then data = Q.json('Log', 'data', args[3]) end
  Q.must_exist('Log', jid)
  Q.history(jid, now, message, data)
  return nil
end
