-- Pub/sub messages (§9). Clients compare these byte for byte and cjson does
-- not keep key order, so each message is assembled by hand in the exact key
-- order of §9.2; every string value goes through cjson for identical escaping.

-- This module's own helpers; Q holds only what other modules use.
local Ev = {msg_lock_lost = nil}

Q.publish = function(channel, message)
  redis.call('publish', channel, message)
end

-- `message` on ql:log.
Q.log_event = function(message)
  redis.call('publish', Q.P .. 'log', message)
end

Q.msg_put = function(jid, queue)
  return '{"jid":' .. Q.jstr(jid) .. ',"event":"put","queue":' .. Q.jqueue(queue) .. '}'
end

Ev.msg_lock_lost = function(jid, worker)
  return '{"jid":' .. Q.jstr(jid) .. ',"event":"lock_lost","worker":' .. Q.jstr(worker) .. '}'
end

-- queue/worker are the raw hash fields: false (absent) is written as false.
Q.msg_canceled = function(jid, queue, worker)
  local q = queue and Q.jstr(queue) or 'false'
  local w = worker and Q.jstr(worker) or 'false'
  return '{"jid":' .. Q.jstr(jid) .. ',"queue":' .. q .. ',"event":"canceled","worker":' .. w .. '}'
end

Q.msg_completed = function(jid, queue)
  return '{"jid":' .. Q.jstr(jid) .. ',"event":"completed","queue":' .. Q.jqueue(queue) .. '}'
end

Q.msg_advanced = function(jid, to, queue)
  return '{"jid":' .. Q.jstr(jid) .. ',"to":' .. Q.jstr(to) ..
    ',"event":"advanced","queue":' .. Q.jstr(queue) .. '}'
end

Q.msg_failed = function(jid, group, message, worker)
  return '{"message":' .. Q.jstr(message) .. ',"jid":' .. Q.jstr(jid) ..
    ',"group":' .. Q.jstr(group) .. ',"event":"failed","worker":' .. Q.jstr(worker) .. '}'
end

Q.msg_config_set = function(option, value)
  return '{"option":' .. Q.jstr(option) .. ',"event":"config_set","value":' .. Q.jstr(value) .. '}'
end

Q.msg_config_unset = function(option)
  return '{"event":"config_unset","option":' .. Q.jstr(option) .. '}'
end

-- lock_lost goes to the worker's own channel first, then to ql:log.
Q.lock_lost = function(jid, worker)
  local message = Ev.msg_lock_lost(jid, worker)
  redis.call('publish', Q.P .. 'w:' .. worker, message)
  redis.call('publish', Q.P .. 'log', message)
end

-- Publishes the bare jid on a tracking channel when the job is tracked.
-- Q.memo_tracked false (no job tracked, the usual case) answers at once.
Q.track_event = function(jid, channel)
  if Q.memo_tracked ~= false and Q.tracked(jid) then
    redis.call('publish', Q.P .. channel, jid)
  end
end
