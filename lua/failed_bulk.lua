-- The dashboard's bulk actions on a failure group (docs/web.md), each on
-- the group's oldest count jobs, so one call's work is bounded.

local S = Q.dash

-- failed.retry <group> <count>: the group's oldest count jobs back into
-- each one's own queue (unfail moves them all into one); the number moved.
C['failed.retry'] = function(now, args)
  local group = Q.need('Failed.retry', 'group', args[1])
  local count = Q.whole('Failed.retry', 'count', args[2], 25, 500)
  local list = S.key('f:' .. group)
  local done = 0
  for _ = 1, count do
    local jid = redis.call('lindex', list, -1)
    if not jid then break end
    local queue = redis.call('hget', Q.jkey(jid), 'queue')
    if not queue or queue == '' then break end   -- a failed job always has one
    done = done + C.unfail(now, {queue, group, 1})
  end
  return done
end

-- failed.cancel <group> <count>: cancels the group's oldest count jobs.
C['failed.cancel'] = function(now, args)
  local group = Q.need('Failed.cancel', 'group', args[1])
  local count = Q.whole('Failed.cancel', 'count', args[2], 25, 500)
  if count == 0 then return 0 end
  local jids = redis.call('lrange', S.key('f:' .. group), -count, -1)
  if #jids > 0 then C.cancel(now, jids) end
  return #jids
end
