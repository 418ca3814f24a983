-- The worker registry (jobtrees.md §5.18): per queue, klass -> the port
-- configuration a worker registered, stored as the caller's text (K3) and
-- copied into tree jobs of that klass when they are created.

local T = Q.tree

-- register/unregister notices on /qless/workers, built by hand in this key
-- order (K8: cjson's order is not defined).
local function notice(what, queue, klass, now)
  T.publish('/qless/workers', '{"event":"' .. what .. '","queue":' .. Q.jstr(queue) ..
    ',"klass":' .. Q.jstr(klass) .. '}', false, now)
end

C['worker.register'] = function(now, args)
  local cmd = 'Worker.register'
  local queue = Q.need(cmd, 'queue', args[1])
  local klass = Q.need(cmd, 'klass', args[2])
  Q.json_object(cmd, 'config', args[3])
  local config = T.trim(args[3])
  for _, dir in ipairs({'in', 'out'}) do
    local ports = T.member(config, dir .. 'ports')
    local problem = ports and T.ports_problem(ports)
    if problem then
      Q.raise('InvalidArgument', cmd .. '(): Arg "config" invalid: ' .. dir .. 'ports: ' .. problem)
    end
  end
  local added = redis.call('hset', Q.P .. 'klasses:' .. queue, klass, config)
  notice('register', queue, klass, now)
  return added
end

C['worker.config'] = function(now, args)
  local queue = Q.need('Worker.config', 'queue', args[1])
  if args[2] ~= nil then
    return redis.call('hget', Q.P .. 'klasses:' .. queue, args[2])
  end
  local names, texts = T.sorted_hash(Q.P .. 'klasses:' .. queue)
  return T.object_text(names, function(klass) return texts[klass] end)
end

C['worker.unregister'] = function(now, args)
  local cmd = 'Worker.unregister'
  local queue = Q.need(cmd, 'queue', args[1])
  Q.need(cmd, 'klass', args[2])
  local removed = 0
  for i = 2, #args do
    if redis.call('hdel', Q.P .. 'klasses:' .. queue, args[i]) == 1 then
      removed = removed + 1
      notice('unregister', queue, args[i], now)
    end
  end
  return removed
end
