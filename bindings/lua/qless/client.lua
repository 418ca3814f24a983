-- qless.Client: a connection to a qless server and the client-wide calls;
-- client.queues, jobs, recurring, schedules, trees, aliases, channels and
-- config are lookup tables (jobs[jid] and recurring[jid]: nil when unknown).
local core = require "qless_core"
local handle = require "qless.handle"
local Job = require "qless.job"
local Queue = require "qless.queue"
local Recur = require "qless.recur"
local Events = require "qless.events"
local Schedule = require "qless.schedule"
local tree = require "qless.tree"

local Client = handle.class("qless.Client", "set_time_offset")
local methods, lookup, items = Client.methods, handle.lookup, handle.items

-- url: nil means QLESS_URL, else the embedded server; Client{url = ..., ...} works too.
-- opts.namespace: the client's namespace (docs/cluster.md), as the URL's ?namespace=.
function Client.new(url, opts)
  if type(url) == "table" then url, opts = url.url, url end
  opts = opts or {}
  -- url is kept for the workers a schedule's listen starts.
  return Client.wrap(core.qless_client_new(url, { worker_name = opts.worker_name, namespace = opts.namespace,
    connect_timeout_ms = handle.ms(opts.connect_timeout), command_timeout_ms = handle.ms(opts.command_timeout) }),
    { url = url })
end

-- self may hold _owner, what keeps a borrowed client alive (the job it came from).
local wrap = Client.wrap
function Client.wrap(h, self)
  if h == nil then return nil end
  self = self or {}
  self.worker_name = h.worker_name   -- kept: tostring still names a closed client
  self.namespace = h.namespace
  self.queues = lookup(function(name) return Queue.new(self, name) end)
  self.jobs = lookup(function(jid) return Job.wrap(handle.or_nil(h.get_job, h, jid)) end)
  self.recurring = lookup(function(jid) return Recur.wrap(handle.or_nil(h.get_recur, h, jid)) end)
  self.schedules = lookup(function(name) return Schedule.new(self, name) end)
  for name, t in pairs(tree.client_tables(h)) do self[name] = t end
  self.config = lookup(function(key) return h:config_get(key) end, {
    __newindex = function(_, key, value)
      if value == nil then h:config_unset(key) else h:config_set(key, tostring(value)) end
    end,
    __pairs = function() return next, self:config_all(), nil end,
  })
  return wrap(h, self)
end

function Client.meta.__tostring(self) return "qless.Client(" .. tostring(self.worker_name) .. ")" end

-- Closes the connection now (queues and jobs made from it keep the core
-- client alive until they go).
function methods:close() core.release(self._h) end

function methods:now() return self._h.now end
function methods:cron_next(expr, n) return (items(self._h:cron_next(expr, n or 5))) end
function methods:call(command, ...) return self._h:call(command, { ... }) end
function methods:multiget(...) return handle.jobs(self._h:get_jobs(handle.list(...)), Job.wrap) end
function methods:cancel(...) self._h:cancel(handle.list(...)) end
function methods:timeout(...) self._h:timeout(handle.list(...)) end
function methods:deregister_workers(...) self._h:deregister_workers(handle.list(...)) end

-- A listing's jids, and its total when there is one.
local function listing(jids, total)
  return (items(jids)), (type(total) == "userdata" and (items(total)) or total)
end

function methods:jids(state, queue, offset, count)
  return (listing(self._h:jobs(state, queue, offset or 0, count or 0)))
end
function methods:tagged(tag, offset, count) return listing(self._h:tagged(tag, offset or 0, count or 0)) end
function methods:failed(group, start, limit) return listing(self._h:failed(group, start or 0, limit or 0)) end
function methods:queue_names() return (listing(self._h:queue_names())) end
function methods:worker_jobs(name) return listing(self._h:worker_jobs(name)) end
function methods:config_all() return handle.decode(self._h:config_all()) end
function methods:events(...) return Events.wrap(self._h:events(handle.list(...))) end

-- A StrList as {{[key] = item, [number] = its number}, ...}.
local function pairs_of(list, key, number)
  local names, numbers = items(list)
  for i, name in ipairs(names) do names[i] = { [key] = name, [number] = numbers[i] } end
  return names
end

function methods:top_tags(offset, count)
  return pairs_of(self._h:top_tags(offset or 0, count or 0), "tag", "count")
end
function methods:workers() return pairs_of(self._h:workers(), "name", "jobs") end

-- Tracked jobs that exist, and the tracked jids that no longer do.
function methods:tracked()
  local jobs, expired = self._h:tracked()
  return handle.jobs(jobs, Job.wrap), (items(expired))
end

-- {group = number of failed jobs, ...}
function methods:failed_groups()
  local groups, counts = items(self._h:failed_groups())
  local out = {}
  for i, group in ipairs(groups) do out[group] = counts[i] end
  return out
end

function methods:queue_counts()
  local list, c, out = self._h:queue_counts(), core.qless_queue_counts(), {}
  for i = 0, list:size() - 1 do
    list:get(i, c)
    out[i + 1] = Queue.counts_table(c, list:name(i))
  end
  return out
end

return Client
