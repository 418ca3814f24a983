-- qless.Queue: a named queue of a client (client.queues[name]).
local core = require "qless_core"
local convert = require "qless.convert"
local handle = require "qless.handle"
local Job = require "qless.job"

local Queue = handle.class("qless.Queue", "length pause unpause forget set_heartbeat set_max_concurrency")
local methods = Queue.methods

function Queue.new(client, name)
  return Queue.wrap(client._h:queue(name), { client = client, name = name })
end

function Queue.meta.__tostring(self) return "qless.Queue(" .. self.name .. ")" end

-- Puts a job of class klass with data (a table, or a string holding JSON;
-- nil means {}). opts: priority, tags, delay (seconds), retries, depends
-- (list of jids), jid (put or move that job). Returns the jid.
function methods:put(klass, data, opts)
  return self._h:put(klass, convert.data(data), opts)
end

local function jobs_or_one(list, count)
  local jobs = convert.jobs(list, Job.wrap)
  if count == nil then return jobs[1] end
  return jobs
end

-- queue:pop() -> a Job or nil; queue:pop(n) -> a list of up to n Jobs.
function methods:pop(count)
  return jobs_or_one(self._h:pop(count or 1), count)
end

-- Like pop, without locking the jobs.
function methods:peek(count)
  return jobs_or_one(self._h:peek(count or 1), count)
end

-- A QueueCounts struct as a table (paused a boolean), named when name is given.
function Queue.counts_table(c, name)
  return { name = name, waiting = c.waiting, running = c.running, stalled = c.stalled, scheduled = c.scheduled,
           depends = c.depends, recurring = c.recurring, paused = c.paused ~= 0 }
end

-- {waiting, running, stalled, scheduled, depends, recurring, paused}
function methods:counts()
  local c = core.qless_queue_counts()
  self._h:counts_get(c)
  return Queue.counts_table(c)
end

-- Moves up to count (default 25) jobs failed in group back here; returns
-- how many moved.
function methods:unfail(group, count)
  return self._h:unfail(group, count or 0)
end

local function timing(t)
  local histogram = {}
  for i = 0, core.QLESS_STATS_BUCKETS - 1 do histogram[i + 1] = t:bucket(i) end
  return { count = t.count, mean = t.mean, std = t.std, histogram = histogram }
end

-- Statistics of the UTC day containing date (seconds; default now):
-- {retries, failed, failures, wait = {count, mean, std, histogram}, run = {...}}
function methods:stats(date)
  local s = core.qless_stats()
  self._h:stats(date or self.client._h.now, s)
  return { retries = s.retries, failed = s.failed, failures = s.failures,
           wait = timing(s.wait), run = timing(s.run) }
end

-- Puts a job of klass every interval seconds. opts: offset, priority,
-- retries, backlog, tags, jid. Returns the template's jid.
function methods:recur(klass, data, interval, opts)
  return self._h:recur(klass, convert.data(data), interval, opts)
end

return Queue
