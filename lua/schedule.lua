-- The schedule facade's view of a queue (schedules.md S5): its pending
-- entries are its templates (interval ones in -recur, cron ones in -cron,
-- S1) and its scheduled jobs. Listing reads only: nothing is spawned or
-- promoted.

-- Whether a sorts before b comparing bytes: Lua's `<` on strings follows
-- the locale Redis sets (S9).
local function bytes_less(a, b)
  local byte = string.byte
  for i = 1, math.min(#a, #b) do
    local x, y = byte(a, i), byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function entry_less(a, b)
  if a.next ~= b.next then return a.next < b.next end
  return bytes_less(a.jid, b.jid)
end

-- A template's entry, or nil when its hash is gone (an older script's
-- unrecur leaves the -cron member behind, S1).
local function template_entry(jid, score)
  local t = redis.call('hmget', Q.rkey(jid), 'klass', 'priority', 'tags', 'cron', 'interval')
  if not t[1] then return nil end
  local e = {jid = jid, klass = t[1], next = tonumber(score), priority = tonumber(t[2]) or 0,
    tags = Q.decode_or(t[3], {})}
  -- S2: the cron field makes a template a cron one, never interval = 0.
  if t[4] then
    e.kind, e.cron = 'cron', t[4]
  else
    e.kind, e.interval = 'interval', tonumber(t[5]) or 0
  end
  return e
end

-- Every template of the queue in list order.
local function templates(queue)
  local out = {}
  for _, set in ipairs({'recur', 'cron'}) do
    local flat = redis.call('zrange', Q.qkey(queue, set), 0, -1, 'withscores')
    for i = 1, #flat, 2 do
      out[#out + 1] = template_entry(flat[i], flat[i + 1])
    end
  end
  table.sort(out, entry_less)
  return out
end

-- The scheduled jobs from index `first` on, at most `count` of them. Redis
-- orders equal scores by member bytes already.
local function scheduled_jobs(queue, first, count, out)
  local flat = redis.call('zrange', Q.qkey(queue, 'scheduled'), first, first + count - 1, 'withscores')
  for i = 1, #flat, 2 do
    local f = redis.call('hmget', Q.jkey(flat[i]), 'klass', 'priority', 'tags')
    if f[1] then
      out[#out + 1] = {jid = flat[i], klass = f[1], kind = 'at', next = tonumber(flat[i + 1]),
        priority = tonumber(f[2]) or 0, tags = Q.decode_or(f[3], {})}
    end
  end
end

C['schedule.list'] = function(now, args)
  local cmd = 'Schedule.list'
  local queue = Q.need(cmd, 'queue', args[1])
  local offset = Q.whole(cmd, 'offset', args[2], 0)
  local count = Q.count(cmd, args[3], 100)
  local all, page = templates(queue), {}
  for i = offset + 1, math.min(#all, offset + count) do
    page[#page + 1] = all[i]
  end
  if #page < count then
    scheduled_jobs(queue, math.max(0, offset - #all), count - #page, page)
  end
  return cjson.encode(page)
end

C['schedule.remove'] = function(now, args)
  local cmd = 'Schedule.remove'
  local queue = Q.need(cmd, 'queue', args[1])
  local jid = Q.jid(cmd, 'jid', args[2])
  local job = redis.call('hmget', Q.jkey(jid), 'state', 'queue')
  local is_job = job[1] == 'scheduled' and job[2] == queue
  if is_job then
    -- As cancel: a job goes only together with the jobs that wait for it.
    local dependent = redis.call('srandmember', Q.jkey(jid) .. '-dependents')
    if dependent then
      Q.raise('StateError', cmd .. '(): ' .. jid .. ' is a dependency of ' .. dependent .. ' and cannot be removed')
    end
  end
  local removed = 0
  if redis.call('hget', Q.rkey(jid), 'queue') == queue then
    C.unrecur(now, {jid})
    -- An unrecur that predates S1 leaves the -cron member.
    redis.call('zrem', Q.qkey(queue, 'cron'), jid)
    removed = 1
  end
  if is_job then
    Q.cancel_one(jid)
    removed = 1
  end
  return removed
end
