#!lua name=qless
-- Bench only, never shipped: the Redis commands of one job's life cycle as
-- libqless's script issues them for a plain job (no tags, no dependencies,
-- nothing tracked, default config), with no logic around them: no argument
-- checks, no layouts to tell apart, no options. It answers "what would the
-- protocol cost if its Lua cost nothing": the floor under any script that
-- keeps these writes (the job hash, the queue sets, the worker registry,
-- history, statistics, events and the search index).
--
-- It takes the commands and replies of the anchor driver (put, pop,
-- complete, settle = complete + pop, config.get). It is a Functions library
-- like the real one (a script would pay for defining its functions on every
-- call); bench/profile.py --floor loads it under another name beside it.
-- Lines marked `-- extra` are commands the script sends that the semantics
-- could do without (reads that guard edge cases, the purge, the search
-- index, the put event, history kept in a list of its own): profile.py
-- drops them for its `essential` column, the cost of the writes and of the
-- reads that the replies and the lock check need.
-- Jobs it writes are not readable by the real script: use an empty server.

local P = 'ql:'

local function stat(kind, queue, now, v)
  local key = P .. 's:' .. kind .. ':' .. (now - now % 86400) .. ':' .. queue
  local cur = redis.call('hmget', key, 'total', 'mean', 'vk', 's0')
  local total = (tonumber(cur[1]) or 0) + 1
  local mean = (tonumber(cur[2]) or 0) + v / total
  redis.call('hset', key, 'total', total, 'mean', mean, 'vk', 0, 's0', (tonumber(cur[4]) or 0) + 1)
end

local function put(now, a)
  local queue, jid, klass, data = a[2], a[3], a[4], a[5]
  local key = P .. 'j:' .. jid
  redis.call('exists', key .. '-dependencies', P .. 'tracked', P .. 'tracked', key, key, key, key)  -- extra
  redis.call('zadd', P .. 'q:' .. queue .. '-work', -now / 1e10, jid)
  redis.call('publish', P .. 'log', '{"jid":"' .. jid .. '","event":"put","queue":"' .. queue .. '"}')  -- extra
  redis.call('hset', key, 'state', 'waiting', 'worker', '', 'time', now, 'queue', queue,
    'expires', '0', 'retries', '5', 'remaining', '5', 'klass', klass, 'data', data,
    'tags', '{}', 'history', '[' .. math.floor(now) .. ',"put",{"q":"' .. queue .. '"}]')
  if not redis.call('zrank', P .. 'queues', queue) then redis.call('zadd', P .. 'queues', now, queue) end  -- extra
  redis.call('zadd', P .. 's:index', 0, 'j:' .. jid, 0, 'k:' .. klass .. '\0' .. jid)  -- extra
  return jid
end

local function pop(now, queue, worker, count)
  redis.call('sismember', P .. 'paused_queues', queue)  -- extra
  redis.call('zrangebyscore', P .. 'q:' .. queue .. '-locks', '-inf', now, 'LIMIT', 0, count)  -- extra
  local t = P .. 'tracked'
  redis.call('exists', P .. 'q:' .. queue .. '-recur', P .. 'q:' .. queue .. '-cron', t, t, t, t, t, t, t, t)  -- extra
  local jids = redis.call('zrevrange', P .. 'q:' .. queue .. '-work', 0, count - 1)
  if #jids == 0 then return '{}' end
  redis.call('zadd', P .. 'workers', now, worker)
  local expires = now + 60
  local zargs = {}
  local out = {}
  for i, jid in ipairs(jids) do
    zargs[2 * i - 1], zargs[2 * i] = expires, jid
    local key = P .. 'j:' .. jid
    local f = redis.call('hmget', key, 'klass', 'queue', 'retries', 'remaining', 'data', 'tags', 'time', 'history')
    redis.call('hdel', key, 'history')  -- extra
    redis.call('rpush', key .. '-history', f[8], '[' .. math.floor(now) .. ',"popped",{"worker":"' .. worker .. '"}]')  -- extra
    redis.call('hset', key, 'time', now, 'worker', worker, 'expires', expires, 'state', 'running')
    out[i] = cjson.encode({jid = jid, klass = f[1], state = 'running', queue = queue, worker = worker,
      tracked = false, priority = 0, expires = expires, retries = 5, remaining = 5, data = f[5],
      tags = {}, history = {{when = math.floor(now), q = queue, what = 'put'},
        {when = math.floor(now), what = 'popped', worker = worker}},
      dependents = {}, dependencies = {}, failure = {}, spawned_from_jid = false})
  end
  redis.call('zadd', P .. 'w:' .. worker .. ':jobs', unpack(zargs))
  redis.call('zadd', P .. 'q:' .. queue .. '-locks', unpack(zargs))
  redis.call('zrem', P .. 'q:' .. queue .. '-work', unpack(jids))
  stat('wait', queue, now, 1)
  redis.call('exists', P .. 'j:' .. jids[1] .. '-dependents', P .. 'j:' .. jids[1] .. '-dependencies')  -- extra
  return '[' .. table.concat(out, ',') .. ']'
end

local function complete(now, jid, worker, queue, data)
  local key = P .. 'j:' .. jid
  local f = redis.call('hmget', key, 'state', 'worker', 'queue', 'time', 'retries', 'history', 'tree', 'rerun')
  if f[1] ~= 'running' or f[2] ~= worker then return redis.error_reply('LockLost') end
  redis.call('exists', key .. '-dependents', P .. 'tracked', P .. 'q:' .. queue .. '-scheduled', P .. 'config')  -- extra
  redis.call('rpush', key .. '-history', '[' .. math.floor(now) .. ',"done"]')  -- extra
  redis.call('zrem', P .. 'q:' .. queue .. '-work', jid)  -- extra
  redis.call('zrem', P .. 'q:' .. queue .. '-locks', jid)
  stat('run', queue, now, 1)
  redis.call('zrem', P .. 'w:' .. worker .. ':jobs', jid)
  redis.call('publish', P .. 'log', '{"jid":"' .. jid .. '","event":"completed","queue":"' .. queue .. '"}')
  redis.call('hset', key, 'data', data, 'time', now, 'state', 'complete', 'worker', '',
    'failure', '{}', 'queue', '', 'expires', '0', 'remaining', '5')
  redis.call('zadd', P .. 'completed', now, jid)
  redis.call('zrangebyscore', P .. 'completed', '0', now - 604800)  -- extra
  redis.call('zrange', P .. 'completed', '0', '-50001')  -- extra
  return 'complete'
end

local C = {}
C.put = function(now, a) return put(now, a) end
C.pop = function(now, a) return pop(now, a[1], a[2], tonumber(a[3])) end
C.complete = function(now, a) return complete(now, a[1], a[2], a[3], a[4]) end
C['config.get'] = function(now, a) return redis.call('hget', P .. 'config', a[1]) or '60' end
C.settle = function(now, a)
  local worker, count = a[1], tonumber(a[3])
  local jid, queue = a[5], a[6]
  local result = complete(now, jid, worker, queue, a[7])
  -- The fields complete's HSET wrote, as the library hands them back.
  return {result, {'complete', '', '', '0', '5', '{}'}, pop(now, queue, worker, count)}
end

redis.register_function('qless', function(keys, argv)
  local now = tonumber(argv[2])
  local args = {}
  for i = 3, #argv do args[i - 2] = argv[i] end
  return C[argv[1]](now, args)
end)
