-- What pop does to a tree job it is about to hand out (jobtrees.md §3.3
-- pop, §4 RUNAWAY, K11).

local T = Q.tree

-- RUNAWAY's end of a job: not handed out, terminated without a shutdown
-- run (that would be one more run of a job that is looping).
local function runaway(jid, now, f, limit)
  local state, queue, worker = f[1], f[4], f[5] or ''
  if worker ~= '' then redis.call('zrem', Q.wkey(worker), jid) end
  if state ~= 'terminating' then T.status(jid, now, state, 'terminating') end
  T.terminated_now(jid, now, queue, {reason = 'runaway'})
  T.error(jid, now, 'runaway: more than ' .. tostring(limit) .. ' runs in a minute')
end

-- Counts the hand-out in the job's minute window and its runs. Returns the
-- state to hand it out in (nil: held back by the guard, which also took it
-- out of the queue) and the state it leaves (nil when the hand-out is no
-- change of state: a terminating job's shutdown run).
T.pop_one = function(jid, key, now)
  local f = redis.call('hmget', key, 'state', 'rate_minute', 'rate_count', 'queue', 'worker', 'runs')
  local minute = math.floor(now / 60)
  local count = 1
  if tonumber(f[2]) == minute then count = (tonumber(f[3]) or 0) + 1 end
  local limit = Q.config_number('max-runs-per-minute', 600)
  local held_back = limit > 0 and count > limit
  local write = {'rate_minute', Q.int_arg(minute), 'rate_count', Q.int_arg(count)}
  if not held_back then
    write[5], write[6] = 'runs', Q.int_arg((tonumber(f[6]) or 0) + 1)
  end
  redis.call('hset', key, unpack(write))
  if held_back then
    runaway(jid, now, f, limit)
    return nil
  end
  redis.call('hdel', key, 'rerun')
  if f[1] == 'terminating' then return 'terminating', nil end
  return 'running', f[1]
end
