-- qless.Queue: a named queue of a client (client.queues[name]).
local core = require "qless_core"
local handle = require "qless.handle"
local json = require "qless.codec"
local Job = require "qless.job"
local tree = require "qless.tree"

local Queue = handle.class("qless.Queue", "length pause unpause forget set_heartbeat set_max_concurrency")
local methods, data = Queue.methods, handle.data

function Queue.new(client, name)
  return Queue.wrap(client._h:queue(name), { client = client, name = name })
end

function Queue.meta.__tostring(self) return "qless.Queue(" .. self.name .. ")" end

-- opts split into the core's (a copy without the names in own: the core
-- names unknown options and wrong types) and the layer's own; opts itself
-- is left alone.
local function split(opts, own)
  local mine = {}
  if type(opts) ~= "table" then return opts, mine end
  for _, k in ipairs(own) do mine[k] = opts[k] end
  if next(mine) == nil then return opts, mine end
  local out = {}
  for k, v in pairs(opts) do out[k] = v end
  for _, k in ipairs(own) do out[k] = nil end
  return out, mine
end

-- The core's unique options from the layer's unique and report (booleans)
-- and key (which implies unique, as report does).
local function set_unique(where, out, mine)
  for _, name in ipairs({ "unique", "report" }) do
    if mine[name] ~= nil and type(mine[name]) ~= "boolean" then
      error(string.format("%s: %s must be a boolean, not %s", where, name, type(mine[name])), 0)
    end
  end
  if mine.unique or mine.key ~= nil or mine.report then out.unique, out.unique_key = 1, mine.key end
end

local PUT_OWN = { "unique", "key", "report", table.unpack(tree.OWN_PUT_OPTIONS) }

-- The core's put options of the layer's (tree options converted).
function Queue.core_options(where, opts)
  local options, mine = split(opts, tree.OWN_PUT_OPTIONS)
  if options == opts and next(mine) == nil then return opts end
  tree.put_options(where, options, mine)
  return options
end

-- Returns the jid, and with report = true whether it was inserted.
function methods:put(klass, value, opts)
  local options, mine = split(opts, PUT_OWN)
  set_unique("Queue:put", options, mine)
  tree.put_options("Queue:put", options, mine)
  if mine.report then return self._h:put_unique(klass, data(value), options) end
  return self._h:put(klass, data(value), options)
end

-- pop() / peek() -> a Job or nil; pop(n) / peek(n) -> a list of up to n Jobs.
local function jobs_or_one(list, count)
  local jobs = handle.jobs(list, Job.wrap)
  if count == nil then return jobs[1] end
  return jobs
end
function methods:pop(count) return jobs_or_one(self._h:pop(count or 1), count) end
function methods:peek(count) return jobs_or_one(self._h:peek(count or 1), count) end

-- A QueueCounts struct as a table (paused a boolean), named when name is given.
function Queue.counts_table(c, name)
  return { name = name, waiting = c.waiting, running = c.running, stalled = c.stalled, scheduled = c.scheduled,
           depends = c.depends, recurring = c.recurring, paused = c.paused ~= 0 }
end

function methods:counts()
  local c = core.qless_queue_counts()
  self._h:counts_get(c)
  return Queue.counts_table(c)
end

function methods:unfail(group, count) return self._h:unfail(group, count or 0) end

local function timing(t)
  local histogram = {}
  for i = 0, core.QLESS_STATS_BUCKETS - 1 do histogram[i + 1] = t:bucket(i) end
  return { count = t.count, mean = t.mean, std = t.std, histogram = histogram }
end

-- Statistics of the UTC day containing date (default now).
function methods:stats(date)
  local s = core.qless_stats()
  self._h:stats(date or self.client._h.now, s)
  return { retries = s.retries, failed = s.failed, failures = s.failures,
           wait = timing(s.wait), run = timing(s.run) }
end

-- With opts.cron, interval (and opts.offset) are not used: pass nil.
function methods:recur(klass, value, interval, opts)
  local options, mine = split(opts, { "unique", "key", "cron" })
  set_unique("Queue:recur", options, mine)
  if mine.cron ~= nil then return self._h:recur_cron(klass, data(value), mine.cron, options) end
  return self._h:recur(klass, data(value), interval, options)
end

-- config: {inports = ..., outports = ...} (as put's) or JSON text. True when
-- klass was not registered yet.
function methods:register(klass, config)
  if type(config) == "table" then
    local c = {}
    for k, v in pairs(config) do c[k] = v end
    c.inports = c.inports and json.decode(tree.ports_json("Queue:register: inports", c.inports))
    c.outports = c.outports and json.decode(tree.ports_json("Queue:register: outports", c.outports))
    config = data(c)
  end
  return self._h:register_klass(klass, config) == true
end

-- klass's configuration or nil; klass nil: {klass = config}.
function methods:klass_config(klass) return handle.decode(self._h:klass_config(klass)) end
function methods:unregister(klass) return self._h:unregister_klass(klass) == true end

-- The jid a unique put (or, with ident.cron or ident.interval, recur) of
-- this entry gets, computed by libqless without a server.
function Queue.unique_jid(queue, klass, value, ident)
  ident = ident or {}
  if ident.key ~= nil then return core.qless_unique_jid_for_key(queue, ident.key) end
  return core.qless_unique_jid(queue, klass, data(value), ident.cron, ident.interval or 0)
end

return Queue
