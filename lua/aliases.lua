-- Aliases (jobtrees.md §5.11): global names for tree jobs, kept both ways
-- (ql:aliases alias -> jid, ql:aliases:<jid> the job's set) so job.delete
-- can drop a job's aliases without scanning.

local A = {}
Q.aliases = A

local function valid(alias)
  return type(alias) == 'string' and #alias >= 1 and #alias <= 200 and
    not string.find(alias, '[%s%c]')
end

-- Raises unless every alias is free or already jid's.
A.check_free = function(cmd, jid, aliases)
  for _, a in ipairs(aliases) do
    local owner = redis.call('hget', Q.P .. 'aliases', a)
    if owner and owner ~= jid then
      Q.raise('StateError', cmd .. '(): alias "' .. a .. '" is already used by job ' .. owner)
    end
  end
end

-- The `aliases` put option: a JSON array of valid aliases.
A.parse = function(cmd, text)
  local list = Q.json(cmd, 'aliases', text)
  if type(list) ~= 'table' or not string.find(text, '^[ \t\n\r]*%[') then
    Q.raise('InvalidArgument', cmd .. '(): Arg "aliases" invalid: not a JSON array')
  end
  for _, a in ipairs(list) do
    if not valid(a) then
      Q.raise('InvalidArgument', cmd .. '(): Arg "aliases" invalid: alias ' .. cjson.encode(a))
    end
  end
  return list
end

-- Returns how many of `aliases` were new for jid.
A.add = function(jid, aliases)
  local added = 0
  for _, a in ipairs(aliases) do
    redis.call('hset', Q.P .. 'aliases', a, jid)
    added = added + redis.call('sadd', Q.P .. 'aliases:' .. jid, a)
  end
  return added
end

local function names(cmd, args, first)
  Q.need(cmd, 'alias', args[first])
  for i = first, #args do
    if not valid(args[i]) then
      Q.raise('InvalidArgument', cmd .. '(): Arg "alias" invalid: ' .. args[i])
    end
  end
  return {unpack(args, first)}
end

C['alias.set'] = function(now, args)
  local jid = args[1]
  Q.tree.job('Alias.set', jid)
  local aliases = names('Alias.set', args, 2)
  A.check_free('Alias.set', jid, aliases)
  return A.add(jid, aliases)
end

C['alias.get'] = function(now, args)
  return redis.call('hget', Q.P .. 'aliases', Q.need('Alias.get', 'alias', args[1]))
end

C['alias.del'] = function(now, args)
  Q.need('Alias.del', 'alias', args[1])
  local removed = 0
  for _, a in ipairs(args) do
    local jid = redis.call('hget', Q.P .. 'aliases', a)
    if jid then
      redis.call('hdel', Q.P .. 'aliases', a)
      redis.call('srem', Q.P .. 'aliases:' .. jid, a)
      removed = removed + 1
    end
  end
  return removed
end
