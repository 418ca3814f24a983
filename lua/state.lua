-- Per-job state (jobtrees.md §5.17): a hash ql:state:<jid> of key -> JSON
-- text, written by anyone without a lock check, so an operator can read and
-- repair a job's state from outside while its worker is away.

local function state_key(jid)
  return Q.P .. 'state:' .. jid
end

local function check_key(cmd, key)
  Q.need(cmd, 'key', key)
  if #key < 1 or #key > 200 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "key" invalid: ' .. key)
  end
  return key
end

C['state.get'] = function(now, args)
  local jid = args[1]
  Q.tree.job('State.get', jid)
  if args[2] ~= nil then
    return redis.call('hget', state_key(jid), check_key('State.get', args[2]))
  end
  -- Built by hand: values are kept as the caller wrote them (K3), cjson
  -- would re-encode them, and an empty hash must read `{}` (K4 order).
  local flat, keys, values = redis.call('hgetall', state_key(jid)), {}, {}
  for i = 1, #flat, 2 do
    keys[#keys + 1] = flat[i]
    values[flat[i]] = flat[i + 1]
  end
  table.sort(keys, Q.tree.byte_less)
  local parts = {}
  for i, k in ipairs(keys) do
    parts[i] = Q.jstr(k) .. ':' .. values[k]
  end
  return '{' .. table.concat(parts, ',') .. '}'
end

C['state.set'] = function(now, args)
  local cmd, jid = 'State.set', args[1]
  Q.tree.job(cmd, jid)
  Q.need(cmd, 'key', args[2])
  if #args % 2 == 0 then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. args[#args] .. '" has no value')
  end
  for i = 2, #args, 2 do
    check_key(cmd, args[i])
    Q.json_valid(cmd, 'value', args[i + 1])
  end
  -- One HSET per slice keeps unpack within Lua's limit on long calls.
  for i = 2, #args, 1000 do
    redis.call('hset', state_key(jid), unpack(args, i, math.min(i + 999, #args)))
  end
  return (#args - 1) / 2
end

C['state.del'] = function(now, args)
  local cmd, jid = 'State.del', args[1]
  Q.tree.job(cmd, jid)
  check_key(cmd, args[2])
  for i = 3, #args do check_key(cmd, args[i]) end
  local removed = 0
  for i = 2, #args, 1000 do
    removed = removed + redis.call('hdel', state_key(jid), unpack(args, i, math.min(i + 999, #args)))
  end
  return removed
end
