-- settle: a worker settles the job it holds (complete, fail or retry) and
-- reserves its next job(s) in the same atomic call, so a serial worker makes
-- one round trip per job instead of two. New command: complete, fail, retry
-- and pop keep their replies for existing clients.
--
--   settle <now> <worker> <queues> <count> [<how> <jid> <queue> <data> ...]
--     queues  JSON list of queue names, tried in order; the first that hands
--             out a job gives all the jobs popped (as `pop` would)
--     count   jobs to pop, 0..1000 (0: settle only)
--     how     complete [<complete's options>] | fail <group> <message>
--             | retry <delay> [<group> <message>]
--             | suspend | terminated (tree jobs: job.suspend, job.terminated)
--             absent: pop only
-- Reply: { result, fields, jobs }
--   result  complete's, suspend's or terminated's new state, fail's jid or
--           retry's remaining count; false without <how>
--   fields  the settled job's state, queue, worker, expires, remaining and
--           failure as stored after the settle (false for a field not there,
--           e.g. a completed job purged at once); false without <how>
--   jobs    the popped jobs as a JSON array ('{}' when none)
-- Every argument is checked before the first write; a settle the lock rules
-- refuse raises the error complete/fail/retry raise, and pops nothing.

local SETTLE_MAX_COUNT = 1000
local SETTLE_FIELDS = {'state', 'queue', 'worker', 'expires', 'remaining', 'failure'}
local tree_hows = {suspend = 'job.suspend', terminated = 'job.terminated'}

-- A string argument that must be present and not empty.
local function settle_text(name, value)
  if type(value) ~= 'string' or value == '' then
    Q.raise('InvalidArgument', 'Settle(): Arg "' .. name .. '" missing or empty')
  end
  return value
end

local function settle_queues(text)
  -- A settle that pops nothing (libqless's complete, fail and retry).
  if text == '[]' then return Q.none end
  local queues = Q.json_list('Settle', 'queues', text)
  for i = 1, #queues do
    if type(queues[i]) ~= 'string' or queues[i] == '' then
      Q.raise('InvalidArgument', 'Settle(): Arg "queues" must hold non-empty strings: ' .. text)
    end
  end
  return queues
end

local function settle_count(value, queues)
  local n = Q.whole('Settle', 'count', value, nil, SETTLE_MAX_COUNT)
  if n > 0 and #queues == 0 then
    Q.raise('InvalidArgument', 'Settle(): Arg "queues" is empty but "count" is ' .. value)
  end
  return n
end

-- The handler and arguments of the settling command in args[4] (its own
-- arguments follow it), in the order complete, fail and retry take them;
-- raises on a bad one.
local function settle_call(args, worker)
  local how, n = args[4], #args
  local jid = Q.jid('Settle', 'jid', settle_text('jid', args[5]))
  -- The queue may be empty: a finished job has none, and the lock check
  -- then refuses it as complete/fail/retry would.
  local queue = Q.need('Settle', 'queue', args[6])
  local data = args[7]
  -- A job's data is a JSON object or array; scalars (and cjson's nan/inf)
  -- are refused. Valid JSON text that opens with { or [ decodes to a table,
  -- so the memoised validity check serves (no decode per call).
  Q.json_valid('Settle', 'data', data)
  if not string.find(data, '^%s*[{%[]') then
    Q.raise('InvalidArgument', 'Settle(): Arg "data" not a JSON object: ' .. data)
  end
  if how == 'complete' then
    -- complete's own options (next, delay, depends) follow, checked by it.
    local call = {jid, worker, queue, data}
    for i = 8, n do call[i - 3] = args[i] end
    return C.complete, call
  end
  if how == 'fail' then
    local group, message = settle_text('group', args[8]), args[9]
    if message == nil or n > 9 then
      Q.raise('InvalidArgument', 'Settle(): fail takes <jid> <queue> <data> <group> <message>')
    end
    return C.fail, {jid, worker, group, message, data}
  end
  if how == 'retry' then
    Q.delay('Settle', 'delay', args[8])
    local group, message = args[9], args[10]
    if n ~= 8 and n ~= 10 then
      Q.raise('InvalidArgument', 'Settle(): retry takes <jid> <queue> <data> <delay> [<group> <message>]')
    end
    if group ~= nil then settle_text('group', group) end
    return C.retry, {jid, queue, worker, args[8], group, message}
  end
  -- A tree job's worker ends its run (jobtrees.md §9) in the same call as
  -- it reserves the next, as for the other outcomes.
  local tree_how = tree_hows[how]
  if tree_how then
    if n > 7 then
      Q.raise('InvalidArgument', 'Settle(): ' .. how .. ' takes <jid> <queue> <data>')
    end
    -- A script built without one of them refuses cleanly.
    if not C[tree_how] then
      Q.raise('InvalidArgument', 'Settle(): Arg "how" ' .. how .. ' needs ' .. tree_how .. ', which this script lacks')
    end
    return C[tree_how], {jid, worker}
  end
  Q.raise('InvalidArgument',
    'Settle(): Arg "how" must be complete, fail, retry, suspend or terminated: ' .. tostring(how))
end

-- Pops from the first of `queues` that hands out a job.
local function settle_pop(now, worker, queues, count)
  if count == 0 then return '{}' end
  for i = 1, #queues do
    local jobs = C.pop(now, {queues[i], worker, count})
    if jobs ~= '{}' and jobs ~= '[]' then return jobs end
  end
  return '{}'
end

C.settle = function(now, args)
  local worker = settle_text('worker', args[1])
  local queues = settle_queues(args[2])
  local count = settle_count(args[3], queues)
  if args[4] == nil then
    return {false, false, settle_pop(now, worker, queues, count)}
  end
  local handler, call = settle_call(args, worker)
  -- complete checks the queue itself; fail ignores it and retry would move
  -- the job to it: here it must be the queue the job runs in.
  local key = Q.jkey(args[5])
  if handler ~= C.complete then
    local f = redis.call('hmget', key, 'state', 'queue')
    if f[1] == 'running' and f[2] ~= args[6] then
      Q.raise('StateError', 'Settle(): Job ' .. args[5] .. ' running in another queue: ' .. tostring(f[2]))
    end
  end
  local result = handler(now, call)
  local fields = redis.call('hmget', key, unpack(SETTLE_FIELDS))
  return {result, fields, settle_pop(now, worker, queues, count)}
end
