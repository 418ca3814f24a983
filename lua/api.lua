-- Entry point shared by the EVAL script and the FCALL function:
--   <command> <now> <args>...   with no KEYS (keys and channels `ql:...`),
-- or with one KEYS[1], a key of namespace NAME: `{NAME}:ql:` followed by
-- anything (keys and channels `{NAME}:ql:...`, one cluster hash slot).

-- Whether s, which holds a byte >= 128 from `i` on, is valid UTF-8 (no
-- overlong forms, surrogates or code points above U+10FFFF): Lua 5.1 has no
-- utf8 library. Text that is not UTF-8 would be stored and then make every
-- JSON reply that carries it unreadable to clients.
local function utf8_valid(s, i)
  local byte = string.byte
  while i do
    local c, extra, lo, hi = byte(s, i), 0, 0x80, 0xBF
    if c >= 0xC2 and c <= 0xDF then
      extra = 1
    elseif c >= 0xE0 and c <= 0xEF then
      extra = 2
      if c == 0xE0 then lo = 0xA0 elseif c == 0xED then hi = 0x9F end
    elseif c >= 0xF0 and c <= 0xF4 then
      extra = 3
      if c == 0xF0 then lo = 0x90 elseif c == 0xF4 then hi = 0x8F end
    else
      return false
    end
    local b = byte(s, i + 1) or 0
    if b < lo or b > hi then return false end
    for k = 2, extra do
      b = byte(s, i + k) or 0
      if b < 0x80 or b > 0xBF then return false end
    end
    i = string.find(s, '[\128-\255]', i + extra + 1)
  end
  return true
end

-- Raises the error for args[i] of `command`, which is not UTF-8: the
-- argument's name is looked up only then. `opts`: index of the first option
-- name; `rep`: the last name repeats.
local function utf8_error(command, args, i)
  local names = ({
    put = {'worker', 'queue', 'jid', 'klass', 'data', 'delay', opts = 7},
    pop = {'queue', 'worker', 'count'}, peek = {'queue', 'count'},
    complete = {'jid', 'worker', 'queue', 'data', opts = 5},
    fail = {'jid', 'worker', 'group', 'message', 'data'},
    retry = {'jid', 'queue', 'worker', 'delay', 'group', 'message'},
    heartbeat = {'jid', 'worker', 'data'}, get = {'jid'},
    timeout = {'jid', rep = true}, cancel = {'jid', rep = true}, multiget = {'jid', rep = true},
    depends = {'jid', 'command', 'jid', rep = true}, priority = {'jid', 'priority'},
    log = {'jid', 'message', 'data'}, tag = {'command', 'jid', 'tag', rep = true},
    track = {'command', 'jid'}, jobs = {'state', 'queue', 'offset', 'count'},
    queues = {'queue'}, length = {'queue'}, failed = {'group', 'start', 'limit'},
    unfail = {'queue', 'group', 'count'}, pause = {'queue', rep = true},
    workers = {'worker'}, ['worker.deregister'] = {'worker', rep = true},
    stats = {'queue', 'date'}, ['config.get'] = {'option'},
    ['config.set'] = {'option', 'value'}, ['config.unset'] = {'option'},
    recur = {'queue', 'jid', 'klass', 'data', 'type', 'interval', 'offset', opts = 8},
    ['recur.get'] = {'jid'}, ['recur.update'] = {'jid', opts = 2},
    ['recur.tag'] = {'jid', 'tag', rep = true}, unrecur = {'jid'},
    ['cron.next'] = {'cron', 'count'}, ['recur.next'] = {'jid', 'count'},
    settle = {'worker', 'queues', 'count', 'how', 'jid', 'queue', 'data'},
    ['schedule.list'] = {'queue', 'offset', 'count'}, ['schedule.remove'] = {'queue', 'jid'},
    ['tree.get'] = {'jid'}, ['job.started'] = {'jid', 'worker'}, ['job.suspend'] = {'jid', 'worker'},
    ['job.run'] = {'jid', 'delay'}, ['alias.set'] = {'jid', 'alias', rep = true},
    ['alias.get'] = {'alias'}, ['alias.del'] = {'alias', rep = true},
    ['job.adopt'] = {'jid', 'name', 'jid'}, ['job.disown'] = {'jid', 'name'},
    ['job.terminate'] = {'jid', 'mode'}, ['job.terminated'] = {'jid', 'worker'},
    ['state.get'] = {'jid', 'key'}, ['state.set'] = {'jid', opts = 2, pair = {'key', 'value'}},
    ['state.del'] = {'jid', 'key', rep = true}, ['job.delete'] = {'jid'},
    ['port.define'] = {'jid', 'dir', 'ports'}, ['port.remove'] = {'jid', 'dir', 'port', rep = true},
    ['port.write'] = {'jid', 'dir', 'port', 'value', rep = true},
    ['port.read'] = {'jid', 'dir', 'port', 'count'}, ['port.peek'] = {'jid', 'dir', 'port', 'count'},
    ['port.size'] = {'jid', 'dir', 'port'}, ['port.connect'] = {'jid', 'dir', 'port', 'channel', rep = true},
    ['port.disconnect'] = {'jid', 'dir', 'port', 'channel', rep = true},
    ['channel.publish'] = {'channel', 'value', 'jid'}, ['channel.subscribers'] = {'channel'},
    ['worker.register'] = {'queue', 'klass', 'config'}, ['worker.config'] = {'queue', 'klass'},
    ['worker.unregister'] = {'queue', 'klass', rep = true},
  })[command] or {}
  if command == 'recur' and args[5] == 'cron' then
    names = {'queue', 'jid', 'klass', 'data', 'type', 'cron', opts = 7}
  end
  -- A repeating last name never turns into option names.
  local fixed, name = names.opts or (names.rep and math.huge) or #names + 1, nil
  if i >= fixed and names.pair then
    name = names.pair[(i - fixed) % 2 + 1]
  elseif i >= fixed then
    name = (i - fixed) % 2 == 0 and 'option' or args[i - 1]
  else
    name = names[i] or (names.rep and names[#names]) or tostring(i)
  end
  -- As the commands write their own name: "recur.update" -> "Recur.update".
  Q.raise('InvalidArgument', string.upper(string.sub(command, 1, 1)) .. string.sub(command, 2) .. '(): Arg "' .. name ..
    '" not valid UTF-8 (argument ' .. i .. ')')
end

-- The prefix of namespace key `key`: `{NAME}:ql:`, NAME 1 to 64 printable
-- ASCII bytes other than space, `{`, `}` and `/` (core/src/namespace.c
-- checks the same before a call; `/` separates namespace and queue in
-- worker queue lists). The last key's prefix is remembered: every call of a
-- client names the same key.
local last_key, last_prefix = nil, nil

-- The cache table as a local: the entry path of every call reads it.
local cache = Q.cache
local function namespace_prefix(key)
  if key == last_key then return last_prefix end
  local prefix, name = string.match(key, '^({([^{}/]*)}:ql:)')
  if not prefix or #name == 0 or #name > 64 or string.find(name, '[^\33-\126]') then
    local text = utf8_valid(key, string.find(key, '[\128-\255]')) and key or '(not UTF-8)'
    Q.raise('InvalidArgument', 'Namespace key must be {NAME}:ql:... with NAME 1 to 64 printable ' ..
      'ASCII characters other than space, "{", "}" and "/": ' .. text)
  end
  last_key, last_prefix = key, prefix
  return prefix
end

local QlessDispatch = function(keys, argv)
  local nkeys = #keys
  if nkeys == 0 then
    if Q.P ~= 'ql:' then Q.set_prefix('ql:') end
  elseif nkeys == 1 then
    Q.set_prefix(namespace_prefix(keys[1]))
  else
    Q.raise('InvalidArgument', 'At most one key, a key of the namespace, may be provided: got ' .. nkeys)
  end
  local command = argv[1]
  if command == nil then
    Q.raise('InvalidArgument', 'Must provide a command')
  end
  Q.memo_config, Q.memo_tracked = nil, nil
  local handler = C[command]
  -- Every value in C is a handler: nil is the one miss (no type() call).
  if handler == nil then
    Q.raise('InvalidArgument', 'Unknown command ' .. (utf8_valid(command, string.find(command, '[\128-\255]'))
      and command or '(not UTF-8)'))
  end
  -- `now` repeats across a pipelined batch: parsed and checked once per
  -- distinct text (only a valid one is remembered).
  local now_text, now = argv[2], nil
  if now_text ~= nil and now_text == cache.now_text then
    now = cache.now
  else
    now = tonumber(now_text)
    -- now - now is 0 for every finite number, NaN for NaN and the infinities.
    if now == nil or now - now ~= 0 then
      local text = tostring(argv[2])
      if not utf8_valid(text, string.find(text, '[\128-\255]')) then text = '(not UTF-8)' end
      Q.raise('InvalidArgument',
        'Arg "now" ' .. (now == nil and 'missing or not a number: ' or 'not a finite number: ') .. text)
    end
    cache.now_text, cache.now = now_text, now
  end
  -- Command arguments start at ARGV[3]: moved down in place (the table is
  -- this call's own), which saves a second table per command. Each is
  -- checked to be UTF-8 on the way: a printable ASCII one by one anchored
  -- match, a single pass (an unanchored search for a high byte restarts the
  -- matcher at every position: callgrind, 157 against 95 instructions per
  -- byte). The class is one range: a put's arguments cost 40% less to scan
  -- than with the two of [%z\1-\127]. Q.memo_printable tells Q.json that
  -- no argument holds a control character.
  local n, find, printable = #argv, string.find, true
  for i = 3, n do
    local arg = argv[i]
    if not find(arg, '^[ -~]*$') then
      printable = false
      if not find(arg, '^[%z\1-\127]*$') then
        local high = find(arg, '[\128-\255]')
        if high and not utf8_valid(arg, high) then utf8_error(command, argv, i - 2) end
      end
    end
    argv[i - 2] = arg
  end
  Q.memo_printable = printable
  argv[n - 1], argv[n] = nil, nil
  return handler(now, argv)
end
