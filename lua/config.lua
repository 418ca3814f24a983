-- Configuration (§10): stored in the hash ql:config, read at use time.

-- Built-in defaults. `config.get` without a key lists the `listed` ones;
-- the `hidden` ones are only used internally and by `config.get <key>`.
-- This module's own helpers; Q holds only what other modules use.
local Cfg = {defaults = nil, default = nil, numbers = {}}

Cfg.defaults = {
  listed = {
    ['application'] = 'qless',
    ['heartbeat'] = 60,
    ['grace-period'] = 10,
    ['jobs-history'] = 604800,
    ['jobs-history-count'] = 50000,
    ['stats-history'] = 30,
    ['histogram-history'] = 7,
  },
  hidden = {
    ['max-job-history'] = 100,
    ['max-worker-age'] = 86400,
    -- jobtrees.md §8.
    ['max-runs-per-minute'] = 600,
    ['tree-log'] = 1,
  },
}

-- The stored options as a table, read once per command (Q.memo_config).
-- An empty hash (the usual case) is the shared empty table.
Q.config_stored = function()
  local stored = Q.memo_config
  if stored == nil then
    local flat = redis.call('hgetall', Q.P .. 'config')
    stored = Q.none
    if #flat > 0 then
      stored = {}
      for i = 1, #flat, 2 do stored[flat[i]] = flat[i + 1] end
    end
    Q.memo_config = stored
  end
  return stored
end

-- The built-in default of an option, listed or hidden; nil if none.
Cfg.default = function(key)
  local d = Cfg.defaults
  local value = d.listed[key]
  if value == nil then value = d.hidden[key] end
  return value
end

-- The stored value (a string), else the built-in default, else nil.
Q.config = function(key)
  local stored = Q.config_stored()[key]
  if stored then return stored end
  return Cfg.default(key)
end

-- A numeric option: stored value parsed as a number, else `default`.
-- With no option stored (the usual case) the value is the built-in
-- default's, parsed once (Cfg.numbers: false for one that is no number):
-- complete reads three options per call.
Q.config_number = function(key, default)
  if Q.memo_config == Q.none then
    local n = Cfg.numbers[key]
    if n == nil then
      n = tonumber(Cfg.default(key)) or false
      Cfg.numbers[key] = n
    end
    return n or default
  end
  return tonumber(Q.config(key)) or default
end

-- Lock duration for a queue: `<queue>-heartbeat`, else `heartbeat`.
-- With no option stored, no per-queue key is made (pop asks every call).
Q.heartbeat = function(queue)
  local stored, value = Q.config_stored(), nil
  if stored ~= Q.none then value = tonumber(stored[queue .. '-heartbeat']) end
  if value == nil then value = Q.config_number('heartbeat', 60) end
  return value
end

C['config.get'] = function(now, args)
  local key = args[1]
  if key ~= nil then
    -- One option: a single HGET (no need for the whole hash).
    local stored = redis.call('hget', Q.P .. 'config', key)
    if stored then return stored end
    return Cfg.default(key)
  end
  local all = {}
  for k, v in pairs(Cfg.defaults.listed) do all[k] = v end
  local stored = redis.call('hgetall', Q.P .. 'config')
  for i = 1, #stored, 2 do
    all[stored[i]] = stored[i + 1]
  end
  -- Written with sorted keys so the reply is deterministic (the spec's CFG-1
  -- example is in this order); values are encoded by cjson.
  local names = {}
  for k in pairs(all) do names[#names + 1] = k end
  table.sort(names)
  local parts = {}
  for i, k in ipairs(names) do
    parts[i] = Q.jstr(k) .. ':' .. cjson.encode(all[k])
  end
  return '{' .. table.concat(parts, ',') .. '}'
end

C['config.set'] = function(now, args)
  local key = Q.need('Config.set', 'option', args[1])
  local value = Q.need('Config.set', 'value', args[2])
  -- An option the protocol reads as a number (a built-in numeric one,
  -- <queue>-heartbeat, <queue>-max-concurrency): text that is no number
  -- falls back to the default where it is read, but a non-finite or huge
  -- number would make every pop or complete fail.
  local numeric = type(Cfg.default(key)) == 'number' or string.find(key, '%-heartbeat$') or
    string.find(key, '%-max%-concurrency$')
  if numeric and tonumber(value) ~= nil then
    local n = Q.number('Config.set', 'value', value)
    if n > 2147483647 or n < -2147483647 then
      Q.raise('InvalidArgument', 'Config.set(): Arg "value" out of bounds for "' .. key .. '": ' .. value)
    end
  end
  Q.log_event(Q.msg_config_set(key, value))
  redis.call('hset', Q.P .. 'config', key, value)
  Q.memo_config = nil
  return nil
end

C['config.unset'] = function(now, args)
  local key = Q.need('Config.unset', 'option', args[1])
  Q.log_event(Q.msg_config_unset(key))
  redis.call('hdel', Q.P .. 'config', key)
  Q.memo_config = nil
  return nil
end
