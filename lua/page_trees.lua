-- The dashboard's tree page (docs/web.md): one call draws a job's tree,
-- its state store and the subscribers of the channels its ports link to.

local S = Q.dash

-- The channels the walked jobs' ports link to (either direction), each
-- once, in byte order: at most SUB_CHANNELS, and whether there were more.
local SUB_CHANNELS, SUB_EACH = 50, 20
local function tree_channels(nodes)
  local seen, list = {}, {}
  for _, rec in ipairs(nodes) do
    for _, field in ipairs({'inchannels', 'outchannels'}) do
      for _, chans in pairs(type(rec[field]) == 'table' and rec[field] or Q.none) do
        for _, c in ipairs(type(chans) == 'table' and chans or Q.none) do
          if type(c) == 'string' and not seen[c] then
            seen[c] = true
            list[#list + 1] = c
          end
        end
      end
    end
  end
  table.sort(list, Q.tree.byte_less)
  local more = #list > SUB_CHANNELS
  for i = #list, SUB_CHANNELS + 1, -1 do list[i] = nil end
  return list, more
end

-- {channel, total, jobs = [{jid, port}]}: the members of the channel's
-- subscription set (total) and up to SUB_EACH live ones, in byte order.
-- SSCAN reads a few rounds of SUB_EACH, so a channel with a million
-- subscribers costs what one with twenty does.
local function channel_subscribers(c)
  local key = S.key('subs:' .. c)
  local found, cursor, rounds = {}, '0', 0
  repeat
    local got = redis.call('sscan', key, cursor, 'COUNT', SUB_EACH)
    cursor, rounds = got[1], rounds + 1
    for _, member in ipairs(got[2]) do
      local jid, port = Q.tree.live(member, c)
      if jid then found[#found + 1] = {jid = jid, port = port} end
    end
  until cursor == '0' or #found >= SUB_EACH or rounds >= 4
  table.sort(found, function(a, b)
    if a.jid ~= b.jid then return Q.tree.byte_less(a.jid, b.jid) end
    return Q.tree.byte_less(a.port, b.port)
  end)
  for i = #found, SUB_EACH + 1, -1 do found[i] = nil end
  return {channel = c, total = redis.call('scard', key), jobs = found}
end

-- tree.walk <jid> [<count>]: the tree.get records of the job and its
-- descendants, breadth first (children by name), at most count (default
-- 200, up to 1000), the root's state store and the subscribers of the
-- channels the walked ports link to (tree_channels):
-- {"nodes": [...], "truncated": bool, "state": {...},
--  "subscribers": [{channel, total, jobs}], "channels_truncated": bool}.
-- One call for the whole drawing; nil when the job does not exist.
C['tree.walk'] = function(now, args)
  local jid = Q.jid('Tree.walk', 'jid', args[1])
  local max = Q.whole('Tree.walk', 'count', args[2], 200, 1000)
  local root = C['tree.get'](now, {jid})
  if not root then return false end
  local nodes, todo, i = {}, {}, 0
  local record = cjson.decode(root)
  while record and #nodes < max do
    nodes[#nodes + 1] = record
    local names = {}
    for name in pairs(type(record.children) == 'table' and record.children or Q.none) do names[#names + 1] = name end
    table.sort(names, Q.tree.byte_less)
    for _, name in ipairs(names) do todo[#todo + 1] = record.children[name] end
    record = nil
    while not record and i < #todo do
      i = i + 1
      local text = C['tree.get'](now, {todo[i]})
      if text then record = cjson.decode(text) end
    end
  end
  -- The root job's state store (values as stored: spliced in, not re-encoded).
  local channels, more = tree_channels(nodes)
  local subscribers = {}
  for k, c in ipairs(channels) do subscribers[k] = channel_subscribers(c) end
  local out = cjson.encode({nodes = nodes, truncated = record ~= nil or i < #todo,
    subscribers = subscribers, channels_truncated = more})
  return string.sub(out, 1, -2) .. ',"state":' .. C['state.get'](now, {jid}) .. '}'
end

