-- Statistics (§8): per queue and UTC day, running mean/variance and a
-- histogram of wait and run times, plus failure/retry counters.

-- Histogram field for a value: s<sec> below a minute, m<min> below an hour,
-- h<hour> below a day, d<day> above.
-- This module's own helpers; Q holds only what other modules use.
local Stat = {sub = nil, bucket = nil, memo = nil, floats = nil, texts = nil, fields = nil, summary = nil}

-- t[k], a table made on first use (the memos below live in Q.cache).
Stat.sub = function(t, k)
  local v = t[k]
  if v == nil then
    v = {}
    t[k] = v
  end
  return v
end

Stat.bucket = function(v)
  local f = math.floor(v)
  if f >= 0 and f < 60 then
    -- Cached: the seconds buckets are the common ones.
    local names = Stat.sub(Q.cache, 'second_buckets')
    local name = names[f]
    if name == nil then
      name = 's' .. string.format('%d', f)
      names[f] = name
    end
    return name
  elseif f < 60 then
    return 's' .. string.format('%d', f)
  elseif f < 3600 then
    return 'm' .. string.format('%d', math.floor(f / 60))
  elseif f < 86400 then
    return 'h' .. string.format('%d', math.floor(f / 3600))
  end
  return 'd' .. string.format('%d', math.floor(f / 86400))
end

-- mean and vk are written as %.17g text, which is what Redis 7.0 makes of a
-- Lua number argument, made here so that the texts and their numbers can be
-- remembered: the next update of the same hash usually reads back the texts
-- written last (interned strings compare in constant time), and their
-- numbers are taken from the memo instead of being parsed again (%.17g text
-- parses back to the very same double). One memo per kind: the serial
-- worker's settle updates `run` (complete) and `wait` (pop) in turn, which
-- one memo for both missed every time (two 17-digit strtod per update).
Stat.memo = function(kind)
  return Stat.sub(Stat.sub(Q.cache, 'stat_memos'), kind)
end

Stat.floats = function(cur, m)
  if cur[2] == m.mean_text and cur[3] == m.vk_text then
    return m.mean, m.vk
  end
  return tonumber(cur[2]) or 0, tonumber(cur[3]) or 0
end

-- The HSET arguments total/mean/vk of the new state, remembered as above.
Stat.texts = function(total, mean, vk, m)
  local mean_text, vk_text = string.format('%.17g', mean), string.format('%.17g', vk)
  m.mean_text, m.vk_text, m.mean, m.vk = mean_text, vk_text, mean, vk
  return Q.int_arg(total), mean_text, vk_text
end

-- STAT(queue, kind, now, v): Welford update of total/mean/vk and one bucket.
Q.stat = function(queue, kind, now, v)
  local key = Q.statkey(kind, now, queue)
  local bucket = Stat.bucket(v)
  local cur = redis.call('hmget', key, 'total', 'mean', 'vk', bucket)
  local m = Stat.memo(kind)
  local total, mean, vk
  if not cur[1] then
    total, mean, vk = 1, v, 0
  else
    local old_mean, old_vk = Stat.floats(cur, m)
    total = (tonumber(cur[1]) or 0) + 1
    mean = old_mean + (v - old_mean) / total
    vk = old_vk + (v - mean) * (v - old_mean)
  end
  local total_text, mean_text, vk_text = Stat.texts(total, mean, vk, m)
  redis.call('hset', key, 'total', total_text, 'mean', mean_text, 'vk', vk_text, bucket,
    Q.int_arg((tonumber(cur[4]) or 0) + 1))
end

-- Q.stat for each of `values` in order, with one read and one write of the
-- hash: the Welford steps run here on the numbers Q.stat would re-read from
-- the hash (Redis writes a Lua number as text that reads back as the same
-- double), and the fields are written in the order the steps add them, so
-- the hash ends exactly as after the one-by-one updates.
Q.stat_batch = function(queue, kind, now, values)
  local n = #values
  if n == 0 then return end
  local fields, slot, buckets = {'total', 'mean', 'vk'}, {}, {}
  for i = 1, n do
    local b = Stat.bucket(values[i])
    local j = slot[b]
    if j == nil then
      j = #fields + 1
      fields[j] = b
      slot[b] = j
    end
    buckets[i] = j
  end
  local key = Q.statkey(kind, now, queue)
  local cur = redis.call('hmget', key, unpack(fields))
  local counts = {}
  for j = 4, #fields do counts[j] = tonumber(cur[j]) or 0 end
  local m = Stat.memo(kind)
  local total, mean, vk
  if cur[1] then
    total = tonumber(cur[1]) or 0
    mean, vk = Stat.floats(cur, m)
  end
  for i = 1, n do
    local v = values[i]
    if total == nil then
      total, mean, vk = 1, v, 0
    else
      local old_mean = mean
      total = total + 1
      mean = old_mean + (v - old_mean) / total
      vk = vk + (v - mean) * (v - old_mean)
    end
    counts[buckets[i]] = counts[buckets[i]] + 1
  end
  local total_text, mean_text, vk_text = Stat.texts(total, mean, vk, m)
  local args = {'total', total_text, 'mean', mean_text, 'vk', vk_text}
  for j = 4, #fields do
    args[#args + 1] = fields[j]
    args[#args + 1] = Q.int_arg(counts[j])
  end
  redis.call('hset', key, unpack(args))
end

-- The 148 reported histogram fields, in reply order (built on first use).
Stat.fields = function()
  local fields = {}
  for i = 0, 59 do fields[#fields + 1] = 's' .. i end
  for i = 1, 59 do fields[#fields + 1] = 'm' .. i end
  for i = 1, 23 do fields[#fields + 1] = 'h' .. i end
  for i = 1, 6 do fields[#fields + 1] = 'd' .. i end
  return fields
end

-- One `wait`/`run` object of the stats reply.
Stat.summary = function(key, fields)
  local cur = redis.call('hmget', key, 'total', 'mean', 'vk')
  local count = tonumber(cur[1]) or 0
  local mean = tonumber(cur[2]) or 0
  local vk = tonumber(cur[3]) or 0
  local std = 0
  if count > 1 then std = math.sqrt(vk / (count - 1)) end
  local values = redis.call('hmget', key, unpack(fields))
  local histogram = {}
  for i = 1, #fields do
    histogram[i] = tonumber(values[i]) or 0
  end
  return {count = count, mean = mean, std = std, histogram = histogram}
end

C.stats = function(now, args)
  local queue = Q.need('Stats', 'queue', args[1])
  local date = Q.number('Stats', 'date', args[2])
  local fields = Stat.fields()
  local counters = redis.call('hmget', Q.statkey('stats', date, queue), 'retries', 'failed', 'failures')
  return cjson.encode({
    retries = tonumber(counters[1]) or 0,
    failed = tonumber(counters[2]) or 0,
    failures = tonumber(counters[3]) or 0,
    wait = Stat.summary(Q.statkey('wait', date, queue), fields),
    run = Stat.summary(Q.statkey('run', date, queue), fields),
  })
end
