-- Hierarchical channels (jobtrees.md §5.15, §5.16, §6): ports link to
-- channels; an input port's link is also the member <port>:<jid> of
-- ql:subs:<channel>, so a publication finds its subscribers without a scan.
-- A port's links are a JSON array of channels in ql:<dir>channels:<jid>,
-- hand-built so it is never `{}`; a port without links has no field.

local T = Q.tree

-- The channels a port links to, in link order.
T.links = function(jid, dir, port)
  local text = redis.call('hget', T.links_key(dir, jid), port)
  return text and cjson.decode(text) or Q.none
end

local function store_links(jid, dir, port, channels)
  if #channels == 0 then
    redis.call('hdel', T.links_key(dir, jid), port)
    return
  end
  local parts = {}
  for i, c in ipairs(channels) do parts[i] = Q.jstr(c) end
  redis.call('hset', T.links_key(dir, jid), port, '[' .. table.concat(parts, ',') .. ']')
end

-- Drops every link of a port (port.remove).
T.unlink_port = function(jid, dir, port)
  if dir == 'in' then
    for _, c in ipairs(T.links(jid, dir, port)) do
      redis.call('srem', Q.P .. 'subs:' .. c, port .. ':' .. jid)
    end
  end
  redis.call('hdel', T.links_key(dir, jid), port)
end

-- The (jid, port) of a ql:subs:<level> member if its subscription is live:
-- a tree job whose input port still links to `level` (a job deleted
-- behind the engine's back, or an unlinked port, leaves a stale member).
-- Also returns the job's state.
local function live(member, level)
  local at = string.find(member, ':', 1, true)
  if not at then return nil end
  local port, jid = string.sub(member, 1, at - 1), string.sub(member, at + 1)
  local f = redis.call('hmget', Q.jkey(jid), 'state', 'tree')
  if not (f[1] and f[2]) or not Q.index_of(T.links(jid, 'in', port), level) then return nil end
  return jid, port, f[1]
end
T.live = live   -- the dashboard's tree page lists subscribers too (search.lua)

-- A set's members in byte order (K4). The comparator runs in Lua, one call
-- per comparison, and made the sort most of the cost of a large publish;
-- SORT ... ALPHA sorts in C, by the server's collation (strcoll) when it
-- replies but by bytes (memcmp) when it STOREs, so large sets are sorted
-- into a scratch list that the same call reads and deletes. Below SMALL
-- members the three calls cost more than the comparisons. SORT is in ACL
-- category @dangerous: a server that refuses it gets the slow sort, not an
-- error. The scratch key is named per call: Q.P changes between calls.
local SMALL = 4
local function sorted_members(key)
  local members = redis.call('smembers', key)
  local scratch = Q.P .. 'scratch:sort'
  if #members < SMALL or type(redis.pcall('sort', key, 'alpha', 'store', scratch)) == 'table' then
    table.sort(members, T.byte_less)
    return members
  end
  members = redis.call('lrange', scratch, 0, -1)
  redis.call('del', scratch)
  return members
end

-- §6.2 CHANNEL-PUBLISH of value text v to channel c by `from` (a jid or
-- false), all in this call. Returns the number of ports delivered to.
T.publish = function(c, v, from, now)
  local levels, to, seen = T.levels(c), {}, {}
  for _, level in ipairs(levels) do
    local key = Q.P .. 'subs:' .. level
    for _, member in ipairs(sorted_members(key)) do
      local jid, port, state = live(member, level)
      if not jid then
        redis.call('srem', key, member)
      elseif not seen[member] and state ~= 'terminated' then
        seen[member] = true
        to[#to + 1] = {jid, port}
      end
    end
  end
  local single = {v}
  for _, d in ipairs(to) do T.deliver(d[1], d[2], single, now) end
  local envelope = '{"channel":' .. Q.jstr(c) .. ',"data":' .. v .. '}'
  for _, level in ipairs(levels) do
    redis.call('publish', Q.P .. 'ch:' .. level, envelope)
  end
  local pairs_text = {}
  for i, d in ipairs(to) do pairs_text[i] = '[' .. Q.jstr(d[1]) .. ',' .. Q.jstr(d[2]) .. ']' end
  T.log('{"event":"publish","time":' .. cjson.encode(now) .. ',"channel":' .. Q.jstr(c) ..
    ',"job":' .. (from and Q.jstr(from) or 'false') .. ',"data":' .. v ..
    ',"to":[' .. table.concat(pairs_text, ',') .. ']}')
  return #to
end

-- port.connect and port.disconnect: J, dir, port (not `*`), channels.
local function link_args(cmd, args, connect)
  local jid = args[1]
  T.job(cmd, jid)
  local dir = T.dir(cmd, args[2])
  local port = T.port_name(cmd, args[3])
  Q.need(cmd, 'channel', args[4])
  local use = connect and (dir == 'in' and 'subscribe' or 'publish') or nil
  for i = 4, #args do T.channel(cmd, args[i], use) end
  T.resolve_port(cmd, jid, dir, port, connect)
  local channels = {}
  for i, c in ipairs(T.links(jid, dir, port)) do channels[i] = c end
  return jid, dir, port, channels
end

-- Adds (connect) or removes the listed links; returns how many changed.
local function relink(cmd, args, connect)
  local jid, dir, port, channels = link_args(cmd, args, connect)
  local changed = 0
  for i = 4, #args do
    local c = args[i]
    local at = Q.index_of(channels, c)
    if connect ~= (at ~= nil) then
      if connect then channels[#channels + 1] = c else table.remove(channels, at) end
      if dir == 'in' then redis.call(connect and 'sadd' or 'srem', Q.P .. 'subs:' .. c, port .. ':' .. jid) end
      changed = changed + 1
    end
  end
  store_links(jid, dir, port, channels)
  return changed
end

C['port.connect'] = function(now, args) return relink('Port.connect', args, true) end
C['port.disconnect'] = function(now, args) return relink('Port.disconnect', args, false) end

C['channel.publish'] = function(now, args)
  local c = T.channel('Channel.publish', args[1], 'publish')
  local v = args[2]
  Q.json_valid('Channel.publish', 'value', v)
  return T.publish(c, v, args[3] or false, now)
end

C['channel.subscribers'] = function(now, args)
  local c = T.channel('Channel.subscribers', args[1])
  local found = {}
  for _, member in ipairs(redis.call('smembers', Q.P .. 'subs:' .. c)) do
    local jid, port = live(member, c)
    if jid then found[#found + 1] = {jid, port} end
  end
  if #found == 0 then return '{}' end
  table.sort(found, function(a, b)
    if a[1] ~= b[1] then return T.byte_less(a[1], b[1]) end
    return T.byte_less(a[2], b[2])
  end)
  return cjson.encode(found)
end
