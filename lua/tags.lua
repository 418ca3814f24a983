-- tag (§5.17) and track (§5.18).

-- Reads a job's tag list (insertion order).
local function job_tags(jid)
  return Q.decode_or(redis.call('hget', Q.jkey(jid), 'tags'), {})
end

local function tag_add(now, args)
  local jid = Q.jid('Tag', 'jid', args[2])
  Q.must_exist('Tag', jid)
  local tags = job_tags(jid)
  for i = 3, #args do
    local tag = args[i]
    if not Q.index_of(tags, tag) then
      tags[#tags + 1] = tag
    end
    -- Indexed and counted even when the job already had the tag.
    redis.call('zadd', Q.P .. 't:' .. tag, now, jid)
    redis.call('zincrby', Q.P .. 'tags', 1, tag)
  end
  local text = cjson.encode(tags)
  redis.call('hset', Q.jkey(jid), 'tags', text)
  return text
end

local function tag_remove(now, args)
  local jid = Q.jid('Tag', 'jid', args[2])
  Q.must_exist('Tag', jid)
  local tags = job_tags(jid)
  local drop = {}
  for i = 3, #args do
    local tag = args[i]
    drop[tag] = true
    -- Uncounted even when the job did not have the tag.
    redis.call('zrem', Q.P .. 't:' .. tag, jid)
    redis.call('zincrby', Q.P .. 'tags', -1, tag)
  end
  local kept = {}
  for _, tag in ipairs(tags) do
    if not drop[tag] then kept[#kept + 1] = tag end
  end
  local text = cjson.encode(kept)
  redis.call('hset', Q.jkey(jid), 'tags', text)
  return text
end

local function tag_get(now, args)
  local tag = Q.need('Tag', 'tag', args[2])
  local offset = Q.whole('Tag', 'offset', args[3], 0)
  local count = Q.whole('Tag', 'count', args[4], 25)
  local key = Q.P .. 't:' .. tag
  return cjson.encode({
    total = redis.call('zcard', key),
    jobs = redis.call('zrange', key, offset, offset + count - 1),
  })
end

local function tag_top(now, args)
  local offset = Q.whole('Tag', 'offset', args[2], 0)
  local count = Q.whole('Tag', 'count', args[3], 25)
  return cjson.encode(redis.call('zrevrangebyscore', Q.P .. 'tags', '+inf', 2,
    'LIMIT', offset, count))
end

local tag_commands = {
  add = tag_add,
  remove = tag_remove,
  get = tag_get,
  top = tag_top,
}

C.tag = function(now, args)
  local sub = Q.need('Tag', 'command', args[1])
  local handler = tag_commands[sub]
  if not handler then
    Q.raise('InvalidArgument', 'Tag(): First argument must be "add", "remove", "get" or "top": ' .. sub)
  end
  return handler(now, args)
end

C.track = function(now, args)
  local sub = args[1]
  if sub == nil then
    local out = {jobs = {}, expired = {}}
    for _, jid in ipairs(redis.call('zrange', Q.P .. 'tracked', 0, -1)) do
      local view = Q.job_view(jid)
      if view then
        out.jobs[#out.jobs + 1] = view
      else
        out.expired[#out.expired + 1] = jid
      end
    end
    return cjson.encode(out)
  end
  local jid = Q.jid('Track', 'jid', args[2])
  local lower = string.lower(sub)
  if lower ~= 'track' and lower ~= 'untrack' then
    Q.raise('InvalidArgument', 'Track(): Unknown action "' .. sub .. '"')
  end
  Q.must_exist('Track', jid)
  if lower == 'track' then
    Q.publish(Q.P .. 'track', jid)
    return cjson.encode(redis.call('zadd', Q.P .. 'tracked', now, jid))
  end
  Q.publish(Q.P .. 'untrack', jid)
  return cjson.encode(redis.call('zrem', Q.P .. 'tracked', jid))
end
