-- Dashboard pages (docs/web.md): each command answers one page of job
-- summaries with work bounded by the page, whatever the number of jobs.

local S = Q.dash

-- The page of one state of a queue: {total, jids} (search reads it too).
S.state_page = {
  waiting = function(q, now, o, c)
    return redis.call('zcard', Q.qkey(q, 'work')), S.rank(Q.qkey(q, 'work'), o, c, true)
  end,
  running = function(q, now, o, c)
    local key = Q.qkey(q, 'locks')
    return redis.call('zcount', key, '(' .. now, '+inf'),
      redis.call('zrangebyscore', key, '(' .. now, '+inf', 'LIMIT', o, c)
  end,
  stalled = function(q, now, o, c)
    local key = Q.qkey(q, 'locks')
    return redis.call('zcount', key, '-inf', now), redis.call('zrangebyscore', key, '-inf', now, 'LIMIT', o, c)
  end,
}
-- The sets listed oldest first (FUNCTION LOAD allows no loop at load time).
S.by_time = function(kind)
  return function(q, now, o, c)
    return redis.call('zcard', Q.qkey(q, kind)), S.rank(Q.qkey(q, kind), o, c, false)
  end
end
S.state_page.scheduled = S.by_time('scheduled')
S.state_page.depends = S.by_time('depends')
S.state_page.suspended = S.by_time('suspended')
S.state_page.terminating = S.by_time('terminating')
S.state_page.terminated = S.by_time('terminated')

-- The offset and count arguments of a page command, from args[i] on.
local function window(cmd, args, i)
  return Q.whole(cmd, 'offset', args[i], 0), Q.whole(cmd, 'count', args[i + 1], 25, 500)
end

-- One page of a zset, oldest first.
local function zset_page(key, offset, count)
  return S.reply(redis.call('zcard', key), S.rank(key, offset, count, false))
end

-- The recurring templates as recur.get objects with their next three due
-- times as "next".
local function recurring_page(now, queue, offset, count)
  local total = redis.call('zcard', Q.qkey(queue, 'recur')) + redis.call('zcard', Q.qkey(queue, 'cron'))
  local items = {}
  for _, jid in ipairs(C.jobs(now, {'recurring', queue, offset, count})) do
    local text = C['recur.get'](now, {jid})
    if text then
      local t = cjson.decode(text)
      t.next = cjson.decode(C['recur.next'](now, {jid, 3}))
      items[#items + 1] = t
    end
  end
  return cjson.encode({total = total, jobs = items})
end

-- jobs.page <state> <queue> <offset> <count>: one page of a queue's state
-- (waiting, running, stalled, scheduled, depends, suspended, terminating,
-- terminated, recurring) or of complete (queue ignored), with the state's total.
C['jobs.page'] = function(now, args)
  local state = Q.need('Jobs.page', 'state', args[1])
  local queue = Q.need('Jobs.page', 'queue', args[2])
  local offset, count = window('Jobs.page', args, 3)
  if state == 'complete' then
    return S.reply(redis.call('zcard', S.key('completed')), S.rank(S.key('completed'), offset, count, true))
  end
  if state == 'recurring' then return recurring_page(now, queue, offset, count) end
  local page = S.state_page[state]
  if not page then
    Q.raise('InvalidArgument', 'Jobs.page(): Arg "state" must be one of waiting, running, stalled, ' ..
      'scheduled, depends, recurring, suspended, terminating, terminated, complete: ' .. state)
  end
  return S.reply(page(queue, now, offset, count))
end

-- jobs.summaries <jid>...: the summaries of the jobs that exist, in order.
C['jobs.summaries'] = function(now, args)
  return cjson.encode(S.summaries(Q.jids('Jobs.summaries', args, 1)))
end

-- tagged.page <tag> <offset> <count>; tracked.page <offset> <count>.
C['tagged.page'] = function(now, args)
  local key = S.key('t:' .. Q.need('Tagged.page', 'tag', args[1]))
  return zset_page(key, window('Tagged.page', args, 2))
end

C['tracked.page'] = function(now, args)
  return zset_page(S.key('tracked'), window('Tracked.page', args, 1))
end

-- failed.page <group> <offset> <count>: newest first, as `failed` lists them.
C['failed.page'] = function(now, args)
  local group = Q.need('Failed.page', 'group', args[1])
  local offset, count = window('Failed.page', args, 2)
  local listed = cjson.decode(C.failed(now, {group, offset, count}))
  return S.reply(listed.total, listed.jobs)
end

-- worker.page <worker> <count>: the worker's running and stalled jobs (at
-- most count of each).
C['worker.page'] = function(now, args)
  local key = Q.wkey(Q.need('Worker.page', 'worker', args[1]))
  local count = Q.whole('Worker.page', 'count', args[2], 100, 500)
  return cjson.encode({
    jobs = S.summaries(redis.call('zrangebyscore', key, '(' .. now, '+inf', 'LIMIT', 0, count)),
    stalled = S.summaries(redis.call('zrangebyscore', key, '-inf', now, 'LIMIT', 0, count)),
  })
end
