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
--
-- The batch form settles several jobs of a pooled worker and reserves for
-- its idle slots in one call:
--   settle <now> <worker> <queues> <count> batch <n> <how> <jid> <queue> <data> ... [<n> <how> ...]
--     n       how many arguments the next settle takes, <how> included
-- Reply: { outcomes, jobs }, outcomes[i] = { result, fields } of the i-th
-- settle as above, or { false, error } when it was refused ("[Kind] message",
-- e.g. a lock lost meanwhile). The arguments of every settle are checked
-- before the first write (a bad one refuses the whole call); each settle's
-- own refusals (lock rules, state) come before its writes, so a refused job
-- is left as it was while the others are settled and the pop still happens.
--
-- The lean forms leave the fields out (a worker that drops its copy of the
-- job needs only the result; reading them is a third of a settle's cost):
--   settle <now> <worker> <queues> <count> lean <how> <jid> ...
--     Reply: { result, jobs }
--   settle <now> <worker> <queues> <count> lean batch <n> <how> ...
--     Reply: { results, errors, jobs }: results[i] the i-th settle's result,
--     false when refused; errors = { i, "[Kind] message", ... } of those.

local SETTLE_MAX_COUNT = 1000
local SETTLE_MAX_BATCH = 1000
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
  -- A worker names the same queues in every call: the last list checked is
  -- kept (Q.cache outlives the call; the list is only read), which saves a
  -- decode and the strict-JSON scan per settle.
  local cache = Q.cache
  if text == cache.settle_qtext then return cache.settle_queues end
  local queues = Q.json_list('Settle', 'queues', text)
  for i = 1, #queues do
    if type(queues[i]) ~= 'string' or queues[i] == '' then
      Q.raise('InvalidArgument', 'Settle(): Arg "queues" must hold non-empty strings: ' .. text)
    end
  end
  cache.settle_qtext, cache.settle_queues = text, queues
  return queues
end

local function settle_count(value, queues)
  -- A worker asks for the same count every call: the last text checked is
  -- kept with its number.
  local cache = Q.cache
  local n = cache.settle_cnum
  if value == nil or value ~= cache.settle_ctext then
    n = Q.whole('Settle', 'count', value, nil, SETTLE_MAX_COUNT)
    cache.settle_ctext, cache.settle_cnum = value, n
  end
  if n > 0 and #queues == 0 then
    Q.raise('InvalidArgument', 'Settle(): Arg "queues" is empty but "count" is ' .. value)
  end
  return n
end

-- The handler and arguments of the settling command in args[o] (its own
-- arguments follow it up to args[n]), in the order complete, fail and retry
-- take them; raises on a bad one.
local function settle_call(args, o, n, worker)
  local how = args[o]
  -- The usual jid (no '-') and data (the last checked) pass without a call
  -- per check; the checks and their order are Q.jid's and Q.need's.
  local jid = settle_text('jid', args[o + 1])
  if string.find(jid, '-', 1, true) then Q.jid('Settle', 'jid', jid) end
  -- The queue may be empty: a finished job has none, and the lock check
  -- then refuses it as complete/fail/retry would.
  local queue = args[o + 2]
  if queue == nil then Q.need('Settle', 'queue', nil) end
  local data = args[o + 3]
  -- A job's data is a JSON object or array; scalars (and cjson's nan/inf)
  -- are refused. Valid JSON text that opens with { or [ decodes to a table,
  -- so the memoised validity check serves (no decode per call).
  local cache = Q.cache
  if data == nil or data ~= cache.valid_json then Q.json_valid('Settle', 'data', data) end
  if data ~= cache.settle_object then
    if not string.find(data, '^%s*[{%[]') then
      Q.raise('InvalidArgument', 'Settle(): Arg "data" not a JSON object: ' .. data)
    end
    cache.settle_object = data
  end
  if how == 'complete' then
    -- complete's own options (next, delay, depends) follow, checked by it.
    local call = {jid, worker, queue, data}
    for i = o + 4, n do call[i - o + 1] = args[i] end
    return Q.complete_with_fields, call
  end
  if how == 'fail' then
    local group, message = settle_text('group', args[o + 4]), args[o + 5]
    if n ~= o + 5 then
      Q.raise('InvalidArgument', 'Settle(): fail takes <jid> <queue> <data> <group> <message>')
    end
    return C.fail, {jid, worker, group, message, data}
  end
  if how == 'retry' then
    Q.delay('Settle', 'delay', args[o + 4])
    if n ~= o + 4 and n ~= o + 6 then
      Q.raise('InvalidArgument', 'Settle(): retry takes <jid> <queue> <data> <delay> [<group> <message>]')
    end
    local group, message
    if n == o + 6 then group, message = args[o + 5], args[o + 6] end
    if group ~= nil then settle_text('group', group) end
    return C.retry, {jid, queue, worker, args[o + 4], group, message}
  end
  -- A tree job's worker ends its run (jobtrees.md §9) in the same call as
  -- it reserves the next, as for the other outcomes.
  local tree_how = tree_hows[how]
  if tree_how then
    if n > o + 3 then
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

-- Applies one checked settle: the job must run in the given queue (complete
-- checks the queue itself; fail ignores it and retry would move the job to
-- it). Returns the handler's result and, unless lean, the job's fields
-- afterwards (reading them is a third of a settle's cost).
local function settle_apply(now, handler, call, jid, queue, lean)
  if handler ~= Q.complete_with_fields then
    local f = redis.call('hmget', Q.jkey(jid), 'state', 'queue')
    if f[1] == 'running' and f[2] ~= queue then
      Q.raise('StateError', 'Settle(): Job ' .. jid .. ' running in another queue: ' .. tostring(f[2]))
    end
  end
  local result, fields = handler(now, call)
  if lean then return result end
  -- complete returns the fields it knows it wrote (one HMGET less).
  return result, fields or redis.call('hmget', Q.jkey(jid), unpack(SETTLE_FIELDS))
end

-- The settles of the batch form from args[first] on, each { handler, call,
-- jid, queue }: every one is checked before any is applied.
local function batch_calls(args, first, worker)
  local calls, i, last = {}, first, #args
  if last < first then
    Q.raise('InvalidArgument', 'Settle(): batch takes <n> <how> <jid> <queue> <data> ... per job')
  end
  while i <= last do
    local n = Q.whole('Settle', 'n', args[i], nil, 64)
    if n < 4 or i + n > last then
      Q.raise('InvalidArgument', 'Settle(): Arg "n" of batch item ' .. (#calls + 1) ..
        ' must count its <how> <jid> <queue> <data> ... (4 or more, all given): ' .. args[i])
    end
    if #calls == SETTLE_MAX_BATCH then
      Q.raise('InvalidArgument', 'Settle(): batch holds more than ' .. SETTLE_MAX_BATCH .. ' jobs')
    end
    local handler, call = settle_call(args, i + 1, i + n, worker)
    calls[#calls + 1] = {handler, call, args[i + 2], args[i + 3]}
    i = i + n + 1
  end
  return calls
end

-- The text of an error a settle raised: "[Kind] message" (Lua's position
-- prefix dropped; redis.call's errors arrive as tables).
local function error_text(e)
  if type(e) == 'table' then e = e.err end
  e = tostring(e)
  return string.match(e, '^[^%[]*(%[%a+%] .*)$') or e
end

-- Applies the checked calls, each on its own: {outcomes} (full), or
-- {results, errors} (lean: results[k] false and errors holding k and the
-- refusal's text for a refused one).
local function batch_apply(now, calls, lean)
  local outcomes, errors = {}, {}
  for k = 1, #calls do
    local c = calls[k]
    local ok, result, fields = pcall(settle_apply, now, c[1], c[2], c[3], c[4], lean)
    if lean then
      outcomes[k] = ok and result
      if not ok then
        errors[#errors + 1] = k
        errors[#errors + 1] = error_text(result)
      end
    elseif ok then
      outcomes[k] = {result, fields}
    else
      outcomes[k] = {false, error_text(result)}
    end
  end
  return outcomes, errors
end

C.settle = function(now, args)
  local worker = settle_text('worker', args[1])
  local queues = settle_queues(args[2])
  local count = settle_count(args[3], queues)
  local o = 4
  if args[4] == nil then
    return {false, false, settle_pop(now, worker, queues, count)}
  end
  local lean = args[4] == 'lean'
  if lean then
    o = 5
    if args[5] == nil then
      Q.raise('InvalidArgument', 'Settle(): lean takes <how> <jid> <queue> <data> ... or batch ...')
    end
  end
  if args[o] == 'batch' then
    local outcomes, errors = batch_apply(now, batch_calls(args, o + 1, worker), lean)
    local jobs = settle_pop(now, worker, queues, count)
    if lean then return {outcomes, errors, jobs} end
    return {outcomes, jobs}
  end
  local handler, call = settle_call(args, o, #args, worker)
  local result, fields = settle_apply(now, handler, call, args[o + 1], args[o + 2], lean)
  if lean then return {result, settle_pop(now, worker, queues, count)} end
  return {result, fields, settle_pop(now, worker, queues, count)}
end
