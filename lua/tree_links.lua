-- Parent/child links of tree jobs (jobtrees.md §5.2 parent/name, §5.4).
-- A job has at most one parent and attaching refuses cycles, so the links
-- form trees; walks are loops, never recursion (K9).

local T = Q.tree

local function valid_name(name)
  return #name >= 1 and #name <= 200 and not string.find(name, '[^%w_.%-]')
end

T.check_name = function(cmd, name)
  Q.need(cmd, 'name', name)
  if not valid_name(name) then
    Q.raise('InvalidArgument', cmd .. '(): Arg "name" invalid: ' .. name)
  end
end

-- The preconditions of §5.2 step 3 for making `child` the child `name` of
-- `parent` (an existing tree job); `child` may not exist yet.
T.check_attach = function(cmd, parent, name, child)
  local f = redis.call('hmget', Q.jkey(child), 'parent', 'name')
  if f[1] and (f[1] ~= parent or f[2] ~= name) then
    Q.raise('StateError', cmd .. '(): Job ' .. child .. ' already has parent ' .. f[1])
  end
  local used = redis.call('hget', Q.P .. 'children:' .. parent, name)
  if used and used ~= child then
    Q.raise('StateError', cmd .. '(): child name "' .. name .. '" of ' .. parent .. ' is already used by job ' .. used)
  end
  local up = parent
  while up do
    if up == child then
      Q.raise('StateError', cmd .. '(): Job ' .. child .. ' cannot be a child of ' .. parent .. ': cycle')
    end
    up = redis.call('hget', Q.jkey(up), 'parent')
  end
end

T.attach = function(parent, name, child)
  redis.call('hset', Q.P .. 'children:' .. parent, name, child)
  redis.call('hset', Q.jkey(child), 'parent', parent, 'name', name)
end

-- The put options `parent` and `name`: form first, then preconditions.
T.put_parent = function(cmd, opts, p)
  if opts.parent == nil and opts.name == nil then return end
  Q.need(cmd, 'parent', opts.parent)
  T.check_name(cmd, opts.name)
  if p.unique then
    Q.raise('InvalidArgument', cmd .. '(): Arg "unique" cannot be combined with parent')
  end
  local f = redis.call('hmget', Q.jkey(opts.parent), 'state', 'tree')
  if not f[1] then
    Q.raise('NotFound', cmd .. '(): Parent ' .. opts.parent .. ' does not exist')
  elseif not f[2] then
    Q.raise('StateError', cmd .. '(): Job ' .. opts.parent .. ' is not a tree job')
  end
  T.check_attach(cmd, opts.parent, opts.name, p.jid)
  p.parent, p.name, p.tree = opts.parent, opts.name, true
end

C['job.adopt'] = function(now, args)
  local parent, name, child = args[1], args[2], args[3]
  T.job('Job.adopt', parent)
  T.check_name('Job.adopt', name)
  T.job('Job.adopt', child)
  T.check_attach('Job.adopt', parent, name, child)
  T.attach(parent, name, child)
  return 1
end

C['job.disown'] = function(now, args)
  local parent, name = args[1], args[2]
  T.job('Job.disown', parent)
  Q.need('Job.disown', 'name', name)
  local child = redis.call('hget', Q.P .. 'children:' .. parent, name)
  if not child then
    Q.raise('NotFound', 'Job.disown(): child "' .. name .. '" of ' .. parent .. ' does not exist')
  end
  redis.call('hdel', Q.P .. 'children:' .. parent, name)
  redis.call('hdel', Q.jkey(child), 'parent', 'name')
  return child
end
