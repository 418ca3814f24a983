-- Input and output ports of tree jobs (jobtrees.md §4 DELIVER and
-- RESOLVE-PORT, §5.2 inports/outports, §5.12-§5.14). A port is a field of
-- ql:<dir>ports:<jid> (its options text) and a list ql:<dir>:<port>:<jid>
-- of unread value texts, stored verbatim.

local T = Q.tree

T.ports_key = function(dir, jid) return Q.P .. dir .. 'ports:' .. jid end
T.data_key = function(dir, port, jid) return Q.P .. dir .. ':' .. port .. ':' .. jid end
T.links_key = function(dir, jid) return Q.P .. dir .. 'channels:' .. jid end

-- RPUSH of a list, in slices that stay within Lua's unpack limit.
local function push(key, values)
  for i = 1, #values, 1000 do
    redis.call('rpush', key, unpack(values, i, math.min(i + 999, #values)))
  end
end

-- §4 DELIVER of `values` (a list) to input `port` of jid, in order: the
-- first value decides the wake and later ones find the job queued, so one
-- state step serves them all. A failed job keeps its input and stays
-- failed: waking it on every input would let a crashing job loop.
T.deliver = function(jid, port, values, now)
  push(T.data_key('in', port, jid), values)
  local state = redis.call('hget', Q.jkey(jid), 'state')
  if state == 'running' then
    redis.call('hset', Q.jkey(jid), 'rerun', '1')
  elseif state == 'suspended' or state == 'complete' then
    local f = T.fields(jid)
    T.leave(jid, f)
    T.status(jid, now, state, T.requeue(jid, now, 0, f))
  end
end

-- §4 RESOLVE-PORT: the options text of the port, defining it from `*`
-- when `define` (only once every check of the command has passed).
T.resolve_port = function(cmd, jid, dir, port, define)
  local key = T.ports_key(dir, jid)
  local f = redis.call('hmget', key, port, '*')
  if f[1] then return f[1] end
  if not f[2] then
    Q.raise('NotFound', cmd .. '(): Job ' .. jid .. ' ' .. dir .. 'port "' .. port .. '" does not exist')
  end
  if define then redis.call('hset', key, port, f[2]) end
  return f[2]
end

-- Stores the ports of a checked ports object (members of T.ports_arg).
T.define_ports = function(jid, dir, members)
  local key = T.ports_key(dir, jid)
  for _, m in ipairs(members) do
    redis.call('hset', key, m[1], m[2])
  end
end

-- The put options inports/outports, checked with the other form checks.
T.put_ports_args = function(cmd, opts, p)
  for _, dir in ipairs({'in', 'out'}) do
    local text = opts[dir .. 'ports']
    if text ~= nil then
      p[dir .. 'ports'] = T.ports_arg(cmd, dir .. 'ports', text)
      p.tree = true
    end
  end
end

-- §5.2 effects 1 (the ports of the klass's registration, at creation or
-- conversion) and 2 (the put's own ports, which win).
T.put_ports = function(p, created)
  if created then
    local config = redis.call('hget', Q.P .. 'klasses:' .. p.queue, p.klass)
    for _, dir in ipairs({'in', 'out'}) do
      local ports = config and T.member(config, dir .. 'ports')
      local problem, members = nil, nil
      if ports then problem, members = T.ports_problem(ports) end
      if members and not problem then T.define_ports(p.jid, dir, members) end
    end
  end
  if p.inports then T.define_ports(p.jid, 'in', p.inports) end
  if p.outports then T.define_ports(p.jid, 'out', p.outports) end
end

-- The field names of a hash in byte order, and a table name -> value.
T.sorted_hash = function(key)
  local flat, names, values = redis.call('hgetall', key), {}, {}
  for i = 1, #flat, 2 do
    names[#names + 1] = flat[i]
    values[flat[i]] = flat[i + 1]
  end
  table.sort(names, T.byte_less)
  return names, values
end

-- The JSON object {name: text_of(name)} over `names`, texts verbatim
-- (hand-built: `{}` when empty, stored texts never re-encoded).
T.object_text = function(names, text_of)
  local parts = {}
  for i, name in ipairs(names) do parts[i] = Q.jstr(name) .. ':' .. text_of(name) end
  return '{' .. table.concat(parts, ',') .. '}'
end

-- tree.get's port members (§5.3) as JSON text for the reply's tail:
-- options and channel lists as stored, sizes of every port but `*`.
T.port_fields = function(jid)
  local out = {}
  local sizes = {}
  for _, dir in ipairs({'in', 'out'}) do
    local names, opts = T.sorted_hash(T.ports_key(dir, jid))
    out[#out + 1] = '"' .. dir .. 'ports":' .. T.object_text(names, function(n) return opts[n] end)
    local lnames, links = T.sorted_hash(T.links_key(dir, jid))
    out[#out + 1] = '"' .. dir .. 'channels":' .. T.object_text(lnames, function(n) return links[n] end)
    local real = {}
    for _, n in ipairs(names) do
      if n ~= '*' then real[#real + 1] = n end
    end
    sizes[#sizes + 1] = '"' .. dir .. '":' .. T.object_text(real, function(n)
      return tostring(redis.call('llen', T.data_key(dir, n, jid)))
    end)
  end
  out[#out + 1] = '"sizes":{' .. table.concat(sizes, ',') .. '}'
  return table.concat(out, ',')
end

-- A `write`/`read` log event (§7).
local function data_event(what, now, jid, dir, port, values)
  T.log('{"event":"' .. what .. '","time":' .. cjson.encode(now) .. ',"job":' .. Q.jstr(jid) ..
    ',"dir":"' .. dir .. '","port":' .. Q.jstr(port) .. ',"data":[' .. table.concat(values, ',') .. ']}')
end

-- The J, dir and port arguments shared by the port commands.
local function port_args(cmd, args, star)
  local jid = args[1]
  T.job(cmd, jid)
  return jid, T.dir(cmd, args[2]), T.port_name(cmd, args[3], star)
end

C['port.define'] = function(now, args)
  local jid = args[1]
  T.job('Port.define', jid)
  local dir = T.dir('Port.define', args[2])
  local members = T.ports_arg('Port.define', 'ports', args[3])
  T.define_ports(jid, dir, members)
  local seen, n = {}, 0
  for _, m in ipairs(members) do
    if not seen[m[1]] then seen[m[1]], n = true, n + 1 end
  end
  return n
end

C['port.remove'] = function(now, args)
  local jid = args[1]
  T.job('Port.remove', jid)
  local dir = T.dir('Port.remove', args[2])
  T.port_name('Port.remove', args[3], true)
  for i = 4, #args do T.port_name('Port.remove', args[i], true) end
  local key, removed = T.ports_key(dir, jid), 0
  for i = 3, #args do
    local port = args[i]
    if redis.call('hexists', key, port) == 1 then
      if port ~= '*' then redis.call('del', T.data_key(dir, port, jid)) end
      T.unlink_port(jid, dir, port)
      redis.call('hdel', key, port)
      removed = removed + 1
    end
  end
  return removed
end

C['port.write'] = function(now, args)
  local cmd = 'Port.write'
  local jid, dir, port = port_args(cmd, args)
  Q.need(cmd, 'value', args[4])
  local values = {}
  for i = 4, #args do
    Q.json_valid(cmd, 'value', args[i])
    values[i - 3] = args[i]
  end
  if redis.call('hget', Q.jkey(jid), 'state') == 'terminated' then
    Q.raise('StateError', cmd .. '(): Job ' .. jid .. ' is terminated')
  end
  T.resolve_port(cmd, jid, dir, port, true)
  if dir == 'in' then
    T.deliver(jid, port, values, now)
  else
    local channels = T.links(jid, 'out', port)
    if #channels == 0 then push(T.data_key('out', port, jid), values) end
    for _, v in ipairs(values) do
      for _, c in ipairs(channels) do T.publish(c, v, jid, now) end
    end
  end
  data_event('write', now, jid, dir, port, values)
  return #values
end

-- port.read (take) and port.peek: up to `count` values from the head,
-- else the port's default, which is never consumed.
local function read(cmd, now, args, take)
  local jid, dir, port = port_args(cmd, args)
  local count = Q.count(cmd, args[4], 1)
  local options = T.resolve_port(cmd, jid, dir, port, take)
  local key = T.data_key(dir, port, jid)
  local values
  if take then
    values = redis.call('lpop', key, count) or Q.none
  else
    values = redis.call('lrange', key, 0, count - 1)
  end
  if #values > 0 then
    if take then data_event('read', now, jid, dir, port, values) end
    return '[' .. table.concat(values, ',') .. ']'
  end
  local default = T.member(options, 'default')
  return default and '[' .. default .. ']' or '[]'
end

C['port.read'] = function(now, args) return read('Port.read', now, args, true) end
C['port.peek'] = function(now, args) return read('Port.peek', now, args, false) end

C['port.size'] = function(now, args)
  local jid, dir, port = port_args('Port.size', args)
  T.resolve_port('Port.size', jid, dir, port, false)
  return redis.call('llen', T.data_key(dir, port, jid))
end
