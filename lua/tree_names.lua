-- Names and JSON shapes of ports, channels and the worker registry
-- (jobtrees.md §1, §5.2 step 1, K3, K5). Port options and registered
-- configurations are stored as the caller's text: cjson decodes [] and {}
-- alike and rounds long numbers, so re-encoding would change what a reader
-- gets back. These helpers find member texts inside validated JSON instead.

local T = Q.tree

-- Position of the first non-blank byte from i (JSON blanks only).
local function skip_blank(text, i)
  return string.find(text, '[^ \t\n\r]', i) or #text + 1
end

-- Position after the string literal that opens at i.
local function skip_string(text, i)
  local j = i + 1
  while true do
    j = string.find(text, '["\\]', j)
    if not j then return #text + 1 end
    if string.sub(text, j, j) == '"' then return j + 1 end
    j = j + 2
  end
end

-- Position after the JSON value that starts at i.
local function skip_value(text, i)
  local c = string.sub(text, i, i)
  if c == '"' then return skip_string(text, i) end
  if c ~= '{' and c ~= '[' then
    return string.find(text, '[,%]} \t\n\r]', i) or #text + 1
  end
  local depth = 0
  while true do
    i = string.find(text, '["{}%[%]]', i)
    if not i then return #text + 1 end
    c = string.sub(text, i, i)
    if c == '"' then
      i = skip_string(text, i)
    else
      depth = depth + ((c == '{' or c == '[') and 1 or -1)
      i = i + 1
      if depth == 0 then return i end
    end
  end
end

-- The members of a JSON object text already known to be valid JSON, in
-- text order: a list of {name, value text}. nil when it is not an object.
T.members = function(text)
  local i = skip_blank(text, 1)
  if string.sub(text, i, i) ~= '{' then return nil end
  local out = {}
  i = skip_blank(text, i + 1)
  while string.sub(text, i, i) == '"' do
    local after = skip_string(text, i)
    local name = cjson.decode(string.sub(text, i, after - 1))
    local start = skip_blank(text, skip_blank(text, after) + 1)
    local stop = skip_value(text, start)
    out[#out + 1] = {name, string.sub(text, start, stop - 1)}
    i = skip_blank(text, stop)
    if string.sub(text, i, i) ~= ',' then break end
    i = skip_blank(text, i + 1)
  end
  return out
end

-- The text of member `name` (the last one, as cjson decodes duplicates).
T.member = function(text, name)
  local found
  for _, m in ipairs(T.members(text) or Q.none) do
    if m[1] == name then found = m[2] end
  end
  return found
end

T.trim = function(text)
  return string.match(text, '^[ \t\n\r]*(.-)[ \t\n\r]*$')
end

local function valid_port(name)
  return type(name) == 'string' and name ~= '' and not string.find(name, '[^%w_]')
end

-- A port argument: `*` only where ports are defined or removed (§1).
T.port_name = function(cmd, name, star)
  Q.need(cmd, 'port', name)
  if not (valid_port(name) or (star and name == '*')) then
    Q.raise('InvalidArgument', cmd .. '(): Arg "port" invalid: ' .. name)
  end
  return name
end

T.dir = function(cmd, dir)
  if dir ~= 'in' and dir ~= 'out' then
    Q.raise('InvalidArgument', cmd .. '(): Arg "dir" must be in or out')
  end
  return dir
end

-- The reason a ports object text ({port: options}) is invalid, or nil and
-- its members. Options are {} or {"default": <any JSON>}.
T.ports_problem = function(text)
  local members = T.members(text)
  if not members then return 'not a JSON object' end
  for _, m in ipairs(members) do
    local port, options = m[1], m[2]
    if not (valid_port(port) or port == '*') then
      return 'port name "' .. port .. '"'
    end
    local inner = T.members(options)
    if not inner then return 'options of "' .. port .. '" not a JSON object' end
    for _, o in ipairs(inner) do
      if o[1] ~= 'default' then return 'unknown port option "' .. o[1] .. '"' end
    end
  end
  return nil, members
end

-- A ports argument (the inports/outports put options, port.define):
-- JSON, then an object of valid ports. Returns its members.
T.ports_arg = function(cmd, name, text)
  Q.json(cmd, name, text)
  local problem, members = T.ports_problem(text)
  if problem then
    Q.raise('InvalidArgument', cmd .. '(): Arg "' .. name .. '" invalid: ' .. problem)
  end
  return members
end

-- Channels (§1, K5): `/` or /segment..., at most 500 bytes; a segment has
-- no `/`, blank or control byte (explicit bytes: Lua's %s and %c follow
-- the server's locale).
local function valid_channel(c)
  if c == '/' then return true end
  return #c <= 500 and string.find(c, '^/') ~= nil and not string.find(c, '//', 1, true) and
    not string.find(c, '/$') and not string.find(c, '[%z\1- \127]')
end

local function reserved(c)
  return c == '/qless' or string.sub(c, 1, 7) == '/qless/'
end

-- A channel argument. `use`: 'publish' (publishing, output links) refuses
-- all of /qless; 'subscribe' (input links) allows /qless/workers, where the
-- worker registry publishes (§5.18). Its sub-channels are refused too:
-- nothing publishes there (registry events name their queue in the event),
-- so an input port linked there would wait in vain.
T.channel = function(cmd, c, use)
  Q.need(cmd, 'channel', c)
  if not valid_channel(c) then
    Q.raise('InvalidArgument', cmd .. '(): Arg "channel" invalid: ' .. c)
  end
  if use and reserved(c) and not (use == 'subscribe' and c == '/qless/workers') then
    local why = ''
    if use == 'subscribe' and string.sub(c, 1, 15) == '/qless/workers/' then
      why = ': worker-registry events go to /qless/workers only (their "queue" field names the queue)'
    end
    Q.raise('InvalidArgument', cmd .. '(): Arg "channel" invalid: ' .. c .. ' is reserved' .. why)
  end
  return c
end

-- The levels of a channel, most specific first: /a/b -> /a/b, /a, /.
T.levels = function(c)
  local out = {c}
  while c ~= '/' do
    c = string.match(c, '^(.*)/[^/]*$')
    if c == '' then c = '/' end
    out[#out + 1] = c
  end
  return out
end
