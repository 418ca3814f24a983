-- tag (§5.17) and track (§5.18).

-- Reads a job's tag list (insertion order).
Q.job_tags = function(jid)
  return Q.decode_or(redis.call('hget', Q.jkey(jid), 'tags'), {})
end

Q.tag_add = function(now, args)
  local jid = Q.need('Tag', 'jid', args[2])
  Q.must_exist('Tag', jid)
  local tags = Q.job_tags(jid)
  for i = 3, #args do
    local tag = args[i]
    if not Q.index_of(tags, tag) then
      tags[#tags + 1] = tag
    end
    -- Indexed and counted even when the job already had the tag.
    redis.call('zadd', 'ql:t:' .. tag, now, jid)
    redis.call('zincrby', 'ql:tags', 1, tag)
  end
  local text = cjson.encode(tags)
  redis.call('hset', Q.jkey(jid), 'tags', text)
  return text
end

Q.tag_remove = function(now, args)
  local jid = Q.need('Tag', 'jid', args[2])
  Q.must_exist('Tag', jid)
  local tags = Q.job_tags(jid)
  local drop = {}
  for i = 3, #args do
    local tag = args[i]
    drop[tag] = true
    -- Uncounted even when the job did not have the tag.
    redis.call('zrem', 'ql:t:' .. tag, jid)
    redis.call('zincrby', 'ql:tags', -1, tag)
  end
  local kept = {}
  for _, tag in ipairs(tags) do
    if not drop[tag] then kept[#kept + 1] = tag end
  end
  local text = cjson.encode(kept)
  redis.call('hset', Q.jkey(jid), 'tags', text)
  return text
end

Q.tag_get = function(now, args)
  local tag = Q.need('Tag', 'tag', args[2])
  local offset = Q.number('Tag', 'offset', args[3], 0)
  local count = Q.number('Tag', 'count', args[4], 25)
  local key = 'ql:t:' .. tag
  return cjson.encode({
    total = redis.call('zcard', key),
    jobs = redis.call('zrange', key, offset, offset + count - 1),
  })
end

Q.tag_top = function(now, args)
  local offset = Q.number('Tag', 'offset', args[2], 0)
  local count = Q.number('Tag', 'count', args[3], 25)
  return cjson.encode(redis.call('zrevrangebyscore', 'ql:tags', '+inf', 2,
    'LIMIT', offset, count))
end

Q.tag_commands = {
  add = Q.tag_add,
  remove = Q.tag_remove,
  get = Q.tag_get,
  top = Q.tag_top,
}

C.tag = function(now, args)
  local sub = Q.need('Tag', 'command', args[1])
  local handler = Q.tag_commands[sub]
  if not handler then
    Q.raise('Tag(): First argument must be "add", "remove", "get" or "top": ' .. sub)
  end
  return handler(now, args)
end

C.track = function(now, args)
  local sub = args[1]
  if sub == nil then
    local out = {jobs = {}, expired = {}}
    for _, jid in ipairs(redis.call('zrange', 'ql:tracked', 0, -1)) do
      local view = Q.job_view(jid)
      if view then
        out.jobs[#out.jobs + 1] = view
      else
        out.expired[#out.expired + 1] = jid
      end
    end
    return cjson.encode(out)
  end
  local jid = Q.need('Track', 'jid', args[2])
  local lower = string.lower(sub)
  if lower ~= 'track' and lower ~= 'untrack' then
    Q.raise('Track(): Unknown action "' .. sub .. '"')
  end
  Q.must_exist('Track', jid)
  if lower == 'track' then
    Q.publish('ql:track', jid)
    return cjson.encode(redis.call('zadd', 'ql:tracked', now, jid))
  end
  Q.publish('ql:untrack', jid)
  return cjson.encode(redis.call('zrem', 'ql:tracked', jid))
end
