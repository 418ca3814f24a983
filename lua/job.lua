-- The job object (§3.1) and the simple per-job commands: get, multiget,
-- priority, log.

-- Decodes JSON text stored by this protocol, or returns `fallback`.
-- This module's own helpers; Q holds only what other modules use.
local View = {
  job_fields = nil,
  memo_str = nil,
  memo_num = nil,
  memo_decoded = nil,
  set_json = nil,
  view_json = nil,
  job_fields_of = nil,
  job_json = nil,
}

Q.decode_or = function(text, fallback)
  if not text or text == '' then return fallback end
  local ok, value = pcall(cjson.decode, text)
  if ok and type(value) == 'table' then return value end
  return fallback
end

View.job_fields = {
  'jid', 'klass', 'state', 'queue', 'worker', 'priority', 'expires',
  'retries', 'remaining', 'data', 'tags', 'failure', 'spawned_from_jid',
  'history',
}

-- The job as a Lua table with exactly the 17 keys of §3.1, or nil.
Q.job_view = function(jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, unpack(View.job_fields))
  local any = false
  for i = 1, #View.job_fields do
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
    history = Q.history_render(jid, f[14] or true),
    failure = Q.decode_or(f[12], {}),
    spawned_from_jid = f[13] or false,
    dependents = redis.call('smembers', deps .. '-dependents'),
    dependencies = redis.call('smembers', deps .. '-dependencies'),
  }
end

-- Job objects as JSON text, written by hand rather than by cjson.encode of
-- Q.job_view's table: key order is not significant (§3.1) and each value is
-- encoded exactly as cjson encodes it inside the object (strings and numbers
-- through cjson itself, tags/failure decoded then re-encoded, the history
-- by Q.history_parts), so the parsed reply is the same. What repeats across
-- the jobs of one reply (klass, queue, numbers, tags, history entries) is
-- encoded once per command through the tables of Q.view_memo().

-- The fields a job object is made from (Q.view_parts), in this order: pop
-- reads the first twelve before its hand-out and fills in the last three,
-- which the hand-out writes.
Q.view_fields = {
  'jid', 'klass', 'queue', 'priority', 'retries', 'remaining', 'data', 'tags',
  'failure', 'spawned_from_jid', 'history', 'time', 'state', 'worker', 'expires',
}

-- The memo outlives the command (Q does, in the Functions library): the
-- commands of one pipelined batch (pops of 1, settles) hand out jobs of one
-- klass, queue and worker whose history entries share their seconds, so
-- most of each reply is encoded once per batch. Everything in it is keyed
-- by the texts it was made from, so a kept entry is never stale. It starts
-- afresh once it holds MEMO_MAX texts (h[1] counts the history ones: entry
-- texts are strings, never 1), and longer texts than MEMO_LONG (job data)
-- are encoded without being kept, so it stays small.
local MEMO_MAX, MEMO_LONG = 256, 200
Q.view_memo = function()
  local memo = Q.cache.view_memo
  if memo == nil or memo.size > MEMO_MAX or memo.h[1] > MEMO_MAX then
    memo = {s = {}, n = {}, j = {}, h = {0}, p = {}, size = 0}
    Q.cache.view_memo = memo
  end
  return memo
end

-- cjson string literal of s, memoised unless long.
View.memo_str = function(memo, s)
  local m = memo.s
  local v = m[s]
  if v == nil then
    v = cjson.encode(s)
    if #s <= MEMO_LONG then
      m[s] = v
      memo.size = memo.size + 1
    end
  end
  return v
end

-- JSON of tonumber(text) or 0 (priority, expires, retries), memoised.
View.memo_num = function(memo, text)
  local m = memo.n
  local key = text or ''
  local v = m[key]
  if v == nil then
    v = cjson.encode(tonumber(text) or 0)
    m[key] = v
    memo.size = memo.size + 1
  end
  return v
end

-- JSON of the decoded tags/failure text ({} when absent or invalid), memoised.
View.memo_decoded = function(memo, text)
  local m = memo.j
  local key = text or ''
  local v = m[key]
  if v == nil then
    v = cjson.encode(Q.decode_or(text, {}))
    if #key <= MEMO_LONG then
      m[key] = v
      memo.size = memo.size + 1
    end
  end
  return v
end

-- JSON of the -dependents/-dependencies set of jid ({} when empty).
View.set_json = function(key)
  local members = redis.call('smembers', key)
  if #members == 0 then return '{}' end
  return cjson.encode(members)
end

-- The object of §3.1 from f = HMGET of Q.view_fields. `expires` is the JSON
-- of the expires number when the caller knows it (nil: from f[15]);
-- `deps` false says both dependency sets are known to be empty; f.known,
-- when set, is the job's history entries (Q.history's second result).
-- Q.view_parts appends the pieces of the text to buf after index k and
-- returns the new last index: a reply of several jobs is one table.concat.
-- Around the per-job jid, expires, data, history and dependency sets, the
-- object is four fixed runs of text (klass … priority; retries and
-- remaining; tags; failure and spawned_from_jid). memo.p keeps the last
-- job's runs with the values they were made from: the jobs of one reply,
-- and the pops of 1 of a batch, mostly share them, and interned strings
-- compare in constant time. Expires, which changes with every pop of 1,
-- stands apart: joined into a run it made a new run per pop (callgrind,
-- settle: 1.3% more instructions; a pop of 50 then does 0.4% less).
Q.view_parts = function(buf, k, jid, f, memo, expires, deps)
  local tracked = Q.tracked(jid)
  local p = memo.p
  -- f: 1 jid, 2 klass, 3 queue, 4 priority, 5 retries, 6 remaining, 7 data,
  -- 8 tags, 9 failure, 10 spawned_from_jid, 11 history, 12 time, 13 state,
  -- 14 worker, 15 expires (Q.view_fields).
  if p.run1 == nil or p[2] ~= f[2] or p[13] ~= f[13] or p[3] ~= f[3] or p[14] ~= f[14]
      or p[4] ~= f[4] or p.tracked ~= tracked then
    p.run1 = ',"klass":' .. View.memo_str(memo, f[2] or '') ..
      ',"state":' .. View.memo_str(memo, f[13] or '') ..
      ',"queue":' .. View.memo_str(memo, f[3] or '') ..
      ',"worker":' .. View.memo_str(memo, f[14] or '') ..
      ',"tracked":' .. (tracked and 'true' or 'false') ..
      ',"priority":' .. View.memo_num(memo, f[4]) ..
      ',"expires":'
    p[2], p[13], p[3], p[14], p[4], p.tracked = f[2], f[13], f[3], f[14], f[4], tracked
  end
  if p.run4 == nil or p[5] ~= f[5] or p[6] ~= f[6] then
    p.run4 = ',"retries":' .. View.memo_num(memo, f[5]) ..
      ',"remaining":' .. cjson.encode(math.floor(tonumber(f[6]) or 0)) ..
      ',"data":'
    p[5], p[6] = f[5], f[6]
  end
  if p.run2 == nil or p[8] ~= f[8] then
    p.run2 = ',"tags":' .. View.memo_decoded(memo, f[8]) .. ',"history":'
    p[8] = f[8]
  end
  if p.run3 == nil or p[9] ~= f[9] or p[10] ~= f[10] then
    p.run3 = ',"failure":' .. View.memo_decoded(memo, f[9]) ..
      ',"spawned_from_jid":' .. (f[10] and View.memo_str(memo, f[10]) or 'false') ..
      ',"dependents":'
    p[9], p[10] = f[9], f[10]
  end
  buf[k + 1] = '{"jid":'
  buf[k + 2] = cjson.encode(f[1] or jid)
  buf[k + 3] = p.run1
  buf[k + 4] = expires or View.memo_num(memo, f[15])
  buf[k + 5] = p.run4
  buf[k + 6] = View.memo_str(memo, f[7] or '')
  buf[k + 7] = p.run2
  k = Q.history_parts(buf, k + 7, jid, f[11] or true, memo.h, f.known)
  buf[k + 1] = p.run3
  if deps ~= false then
    local key = Q.jkey(jid)
    buf[k + 2] = View.set_json(key .. '-dependents')
    buf[k + 3] = ',"dependencies":'
    buf[k + 4] = View.set_json(key .. '-dependencies')
    buf[k + 5] = '}'
    return k + 5
  end
  buf[k + 2] = '{},"dependencies":{}}'
  return k + 2
end

-- The object's JSON text alone.
View.view_json = function(jid, f, memo, expires, deps)
  local buf = {}
  Q.view_parts(buf, 0, jid, f, memo, expires, deps)
  return table.concat(buf)
end

-- HMGET of Q.view_fields for jid, or nil if the job does not exist.
View.job_fields_of = function(jid)
  local key = Q.jkey(jid)
  local f = redis.call('hmget', key, unpack(Q.view_fields))
  for i = 1, #Q.view_fields do
    if f[i] then return f end
  end
  if redis.call('exists', key) == 0 then
    return nil
  end
  return f
end

-- The JSON of one job, or nil if it does not exist.
View.job_json = function(jid, memo)
  local f = View.job_fields_of(jid)
  if f == nil then return nil end
  return View.view_json(jid, f, memo)
end

-- JSON array of the objects of the jids that exist ({} when none).
Q.job_list = function(jids)
  local memo = Q.view_memo()
  local buf, k = {'['}, 1
  for i = 1, #jids do
    local f = View.job_fields_of(jids[i])
    if f then
      if k > 1 then
        k = k + 1
        buf[k] = ','
      end
      k = Q.view_parts(buf, k, jids[i], f, memo)
    end
  end
  if k == 1 then return '{}' end
  buf[k + 1] = ']'
  return table.concat(buf)
end

-- Raises "<Cmd>(): Job <jid> does not exist" unless the job hash exists.
Q.must_exist = function(cmd, jid)
  if redis.call('exists', Q.jkey(jid)) == 0 then
    Q.raise('NotFound', cmd .. '(): Job ' .. jid .. ' does not exist')
  end
end

C.get = function(now, args)
  local jid = Q.jid('Get', 'jid', args[1])
  return View.job_json(jid, Q.view_memo())
end

C.multiget = function(now, args)
  return Q.job_list(Q.jids('Multiget', args, 1))
end

C.priority = function(now, args)
  local jid = Q.jid('Priority', 'jid', args[1])
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
  local jid = Q.jid('Log', 'jid', args[1])
  local message = Q.need('Log', 'message', args[2])
  local data = nil
  -- Its keys go next to `what` and `when` in the history entry.
  if args[3] ~= nil then data = Q.json_object('Log', 'data', args[3]) end
  Q.must_exist('Log', jid)
  Q.history(jid, now, message, data)
  return nil
end
