-- Pub/sub messages (§9). Clients compare these byte for byte and cjson does
-- not keep key order, so each message is assembled by hand in the exact key
-- order of §9.2; every string value goes through cjson for identical escaping.

local function publish(channel, message)
  redis.call('publish', channel, message)
end

-- `message` on ql:log.
local function log_event(message)
  redis.call('publish', 'ql:log', message)
end

local function msg_put(jid, queue)
  return '{"jid":' .. jstr(jid) .. ',"event":"put","queue":' .. jqueue(queue) .. '}'
end

local function msg_lock_lost(jid, worker)
  return '{"jid":' .. jstr(jid) .. ',"event":"lock_lost","worker":' .. jstr(worker) .. '}'
end

-- queue/worker are the raw hash fields: false (absent) is written as false.
local function msg_canceled(jid, queue, worker)
  local q = queue and jstr(queue) or 'false'
  local w = worker and jstr(worker) or 'false'
  return '{"jid":' .. jstr(jid) .. ',"queue":' .. q .. ',"event":"canceled","worker":' .. w .. '}'
end

local function msg_completed(jid, queue)
  return '{"jid":' .. jstr(jid) .. ',"event":"completed","queue":' .. jqueue(queue) .. '}'
end

local function msg_advanced(jid, to, queue)
  return '{"jid":' .. jstr(jid) .. ',"to":' .. jstr(to) ..
    ',"event":"advanced","queue":' .. jstr(queue) .. '}'
end

local function msg_failed(jid, group, message, worker)
  return '{"message":' .. jstr(message) .. ',"jid":' .. jstr(jid) ..
    ',"group":' .. jstr(group) .. ',"event":"failed","worker":' .. jstr(worker) .. '}'
end

local function msg_config_set(option, value)
  return '{"option":' .. jstr(option) .. ',"event":"config_set","value":' .. jstr(value) .. '}'
end

local function msg_config_unset(option)
  return '{"event":"config_unset","option":' .. jstr(option) .. '}'
end

-- lock_lost goes to the worker's own channel first, then to ql:log.
local function lock_lost(jid, worker)
  local message = msg_lock_lost(jid, worker)
  redis.call('publish', 'ql:w:' .. worker, message)
  redis.call('publish', 'ql:log', message)
end

-- Publishes the bare jid on a tracking channel when the job is tracked.
local function track_event(jid, channel)
  if Q.tracked(jid) then
    redis.call('publish', 'ql:' .. channel, jid)
  end
end
