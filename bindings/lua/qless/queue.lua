-- qless.Queue: a named queue of a client (client.queues[name]).
local core = require "qless_core"
local convert = require "qless.convert"
local Job = require "qless.job"

local Queue = {}
Queue.__index = Queue

function Queue.new(client, name)
  return setmetatable({ _h = core.qless_queue_new(client._h, name), client = client, name = name }, Queue)
end

function Queue.__tostring(self) return "qless.Queue(" .. self.name .. ")" end

-- Puts a job of class klass with data (a table, or a string holding JSON;
-- nil means {}). opts: priority, tags, delay (seconds), retries, depends
-- (list of jids), jid (put or move that job). Returns the jid.
function Queue:put(klass, data, opts)
  return core.qless_queue_put(self._h, klass, convert.data(data), opts)
end

local function jobs_or_one(list, count)
  local jobs = convert.jobs(list, Job.wrap)
  if count == nil then return jobs[1] end
  return jobs
end

-- queue:pop() -> a Job or nil; queue:pop(n) -> a list of up to n Jobs.
function Queue:pop(count)
  return jobs_or_one(core.qless_queue_pop(self._h, count or 1), count)
end

-- Like pop, without locking the jobs.
function Queue:peek(count)
  return jobs_or_one(core.qless_queue_peek(self._h, count or 1), count)
end

-- Jobs running, waiting or scheduled.
function Queue:length()
  return core.qless_queue_length(self._h)
end

-- {waiting, running, stalled, scheduled, depends, recurring, paused}
function Queue:counts()
  local c = core.qless_queue_counts()
  core.qless_queue_counts_get(self._h, c)
  return { waiting = c.waiting, running = c.running, stalled = c.stalled, scheduled = c.scheduled,
           depends = c.depends, recurring = c.recurring, paused = c.paused ~= 0 }
end

function Queue:pause() core.qless_queue_pause(self._h) end
function Queue:unpause() core.qless_queue_unpause(self._h) end
function Queue:forget() core.qless_queue_forget(self._h) end

-- Lock duration of jobs popped from this queue, in seconds.
function Queue:set_heartbeat(seconds) core.qless_queue_set_heartbeat(self._h, seconds) end
-- At most max jobs of this queue running at once (0: no limit).
function Queue:set_max_concurrency(max) core.qless_queue_set_max_concurrency(self._h, max) end

-- Moves up to count (default 25) jobs failed in group back here; returns
-- how many moved.
function Queue:unfail(group, count)
  return core.qless_queue_unfail(self._h, group, count or 0)
end

local function timing(t)
  local histogram = {}
  for i = 0, core.QLESS_STATS_BUCKETS - 1 do histogram[i + 1] = t:bucket(i) end
  return { count = t.count, mean = t.mean, std = t.std, histogram = histogram }
end

-- Statistics of the UTC day containing date (seconds; default now):
-- {retries, failed, failures, wait = {count, mean, std, histogram}, run = {...}}
function Queue:stats(date)
  local s = core.qless_stats()
  core.qless_queue_stats(self._h, date or core.qless_client_now(self.client._h), s)
  return { retries = s.retries, failed = s.failed, failures = s.failures,
           wait = timing(s.wait), run = timing(s.run) }
end

-- Puts a job of klass every interval seconds. opts: offset, priority,
-- retries, backlog, tags, jid. Returns the template's jid.
function Queue:recur(klass, data, interval, opts)
  return core.qless_queue_recur(self._h, klass, convert.data(data), interval, opts)
end

return Queue
