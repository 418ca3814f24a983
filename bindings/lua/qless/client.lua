-- qless.Client: a connection to a qless server and the client-wide calls.
--   client.queues[name]     -> Queue
--   client.jobs[jid]        -> Job, or nil when there is no such job
--   client.recurring[jid]   -> Recur, or nil
--   client.schedules[name]  -> Schedule (no I/O)
--   client.trees[jid], client.aliases[alias], client.channels[name]: see qless.tree
--   client.config[key]      -> value text or nil; assign to set, nil to unset;
--                              pairs(client.config) iterates all options
local core = require "qless_core"
local convert = require "qless.convert"
local handle = require "qless.handle"
local Job = require "qless.job"
local Queue = require "qless.queue"
local Recur = require "qless.recur"
local Events = require "qless.events"
local Schedule = require "qless.schedule"
local tree = require "qless.tree"

local Client = handle.class("qless.Client", "set_time_offset")
local methods = Client.methods

-- Calls the proxy's method name, returning nil when it raised NotFound.
local function or_nil(h, name, ...)
  local ok, result = pcall(h[name], h, ...)
  if ok then return result end
  if type(result) == "table" and result.code == core.QLESS_ENOTFOUND then return nil end
  error(result, 0)
end

-- A lookup table whose entries are made on access by get(key).
local function lookup(get) return setmetatable({}, { __index = function(_, key) return get(key) end }) end

-- url: nil means QLESS_URL, else the embedded server (started on demand). opts:
-- worker_name, connect_timeout and command_timeout (seconds; negative: wait
-- forever). Client{url = ..., worker_name = ...} works too.
function Client.new(url, opts)
  if type(url) == "table" then url, opts = url.url, url end
  opts = opts or {}
  -- url is kept for the workers a schedule's listen starts.
  return Client.wrap(core.qless_client_new(url, { worker_name = opts.worker_name,
    connect_timeout_ms = convert.ms(opts.connect_timeout), command_timeout_ms = convert.ms(opts.command_timeout) }),
    { url = url })
end

-- A Client over a client proxy; self may hold _owner, what keeps a
-- borrowed client alive (the job it came from).
local wrap = Client.wrap
function Client.wrap(h, self)
  if h == nil then return nil end
  self = self or {}
  self.worker_name = h.worker_name   -- kept: tostring still names a closed client
  self.queues = lookup(function(name) return Queue.new(self, name) end)
  self.jobs = lookup(function(jid) return Job.wrap(or_nil(h, "get_job", jid)) end)
  self.recurring = lookup(function(jid) return Recur.wrap(or_nil(h, "get_recur", jid)) end)
  self.schedules = lookup(function(name) return Schedule.new(self, name) end)
  for name, t in pairs(tree.client_tables(h)) do self[name] = t end
  self.config = setmetatable({}, {
    __index = function(_, key) return h:config_get(key) end,
    __newindex = function(_, key, value)
      if value == nil then h:config_unset(key) else h:config_set(key, tostring(value)) end
    end,
    __pairs = function() return next, self:config_all(), nil end,
  })
  return wrap(h, self)
end

function Client.meta.__tostring(self) return "qless.Client(" .. tostring(self.worker_name) .. ")" end

-- Closes the connection now rather than when the client is collected
-- (queues and jobs made from it keep the core client alive until they go).
function methods:close() core.release(self._h) end

-- Seconds since the epoch as the server scripts see it from this client.
function methods:now() return self._h.now end

-- The next n (1-1000, default 5) fire times of a cron expression from now,
-- epoch seconds, as the server computes them.
function methods:cron_next(expr, n) return convert.times(self._h:cron_next(expr, n or 5)) end

-- Raw protocol call: client:call("config.get", "heartbeat") -> reply text or nil.
function methods:call(command, ...) return self._h:call(command, { ... }) end

-- Jobs that exist among the jids (a table or several strings), in order.
function methods:multiget(...) return convert.jobs(self._h:get_jobs(convert.list(...)), Job.wrap) end

function methods:cancel(...) self._h:cancel(convert.list(...)) end
function methods:timeout(...) self._h:timeout(convert.list(...)) end
function methods:deregister_workers(...) self._h:deregister_workers(convert.list(...)) end

-- A listing's results with each StrList as the table of its strings (a
-- total stays a number).
local function listing(a, b)
  return (convert.strings(a)), (type(b) == "userdata" and (convert.strings(b)) or b)
end

-- Jids by state: "complete" (no queue) or "running", "stalled",
-- "scheduled", "depends", "recurring" in queue. count nil: 25.
function methods:jids(state, queue, offset, count)
  return (listing(self._h:jobs(state, queue, offset or 0, count or 0)))
end

-- Jids tagged with tag, and how many there are in all.
function methods:tagged(tag, offset, count) return listing(self._h:tagged(tag, offset or 0, count or 0)) end

-- A StrList as {{[key] = item, [number] = its number}, ...}.
local function pairs_of(list, key, number)
  local items, numbers = convert.strings(list)
  for i, item in ipairs(items) do items[i] = { [key] = item, [number] = numbers[i] } end
  return items
end

-- Tags used by at least two jobs: {{tag = t, count = n}, ...}, most used first.
function methods:top_tags(offset, count)
  return pairs_of(self._h:top_tags(offset or 0, count or 0), "tag", "count")
end

-- Workers seen recently: {{name = w, jobs = n}, ...}, most recent first.
function methods:workers() return pairs_of(self._h:workers(), "name", "jobs") end

-- Tracked jobs that exist, and the tracked jids that no longer do.
function methods:tracked()
  local jobs, expired = self._h:tracked()
  return convert.jobs(jobs, Job.wrap), (convert.strings(expired))
end

-- {group = number of failed jobs, ...}
function methods:failed_groups()
  local groups, counts = convert.strings(self._h:failed_groups())
  local out = {}
  for i, group in ipairs(groups) do out[group] = counts[i] end
  return out
end

-- Jids failed in group, newest first, and how many there are in all.
function methods:failed(group, start, limit) return listing(self._h:failed(group, start or 0, limit or 0)) end

-- Names of the known queues, oldest first.
function methods:queue_names() return (listing(self._h:queue_names())) end

-- Counts of every queue, oldest first: {{name, waiting, running, stalled,
-- scheduled, depends, recurring, paused}, ...}
function methods:queue_counts()
  local list, c, out = self._h:queue_counts(), core.qless_queue_counts(), {}
  for i = 0, list:size() - 1 do
    list:get(i, c)
    out[i + 1] = Queue.counts_table(c, list:name(i))
  end
  return out
end

-- Jids the worker holds, and those it holds with an expired lock.
function methods:worker_jobs(name) return listing(self._h:worker_jobs(name)) end

-- All configuration options (defaults overlaid by stored values).
function methods:config_all() return convert.decode(self._h:config_all()) end

-- Subscribes to channels (a table or several strings): see qless.Events.
function methods:events(...) return Events.new(self, convert.list(...)) end

return Client
