-- qless.Client: a connection to a qless server and the client-wide calls.
--   client.queues[name]     -> Queue
--   client.jobs[jid]        -> Job, or nil when there is no such job
--   client.recurring[jid]   -> Recur, or nil
--   client.config[key]      -> value text or nil; assign to set, nil to unset;
--                              pairs(client.config) iterates all options
local core = require "qless_core"
local convert = require "qless.convert"
local Job = require "qless.job"
local Queue = require "qless.queue"
local Recur = require "qless.recur"
local Events = require "qless.events"

local NOT_FOUND = -2

local Client = {}
Client.__index = Client

-- Calls f(...) and returns its result, or nil when it raised NotFound.
local function or_nil(f, ...)
  local ok, result = pcall(f, ...)
  if ok then return result end
  if type(result) == "table" and result.code == NOT_FOUND then return nil end
  error(result, 0)
end

-- url: nil means QLESS_URL, else the embedded server (started on demand). opts:
-- worker_name, connect_timeout and command_timeout (seconds; negative: wait
-- forever). Client{url = ..., worker_name = ...} works too.
function Client.new(url, opts)
  if type(url) == "table" then url, opts = url.url, url end
  opts = opts or {}
  return Client.wrap(core.qless_swig_client_new(url, convert.ms(opts.connect_timeout),
    convert.ms(opts.command_timeout), opts.worker_name))
end

-- A Client over a core client handle. owner: what keeps a borrowed handle
-- alive (e.g. the job it came from); referenced as long as the Client is.
function Client.wrap(handle, owner)
  local self = setmetatable({ _h = handle, _owner = owner }, Client)
  self.worker_name = core.qless_client_worker_name(self._h)
  self.queues = setmetatable({}, { __index = function(_, name) return Queue.new(self, name) end })
  self.jobs = setmetatable({}, { __index = function(_, jid)
    return Job.wrap(or_nil(core.qless_client_get_job, self._h, jid))
  end })
  self.recurring = setmetatable({}, { __index = function(_, jid)
    return Recur.wrap(or_nil(core.qless_client_get_recur, self._h, jid))
  end })
  self.config = setmetatable({}, {
    __index = function(_, key) return core.qless_client_config_get(self._h, key) end,
    __newindex = function(_, key, value)
      if value == nil then core.qless_client_config_unset(self._h, key)
      else core.qless_client_config_set(self._h, key, tostring(value)) end
    end,
    __pairs = function() return next, self:config_all(), nil end,
  })
  return self
end

function Client.__tostring(self) return "qless.Client(" .. self.worker_name .. ")" end

-- Closes the connection now rather than when the client is collected
-- (queues and jobs made from it keep the core client alive until they go).
function Client:close() core.release(self._h) end

-- Seconds since the epoch as the server scripts see it from this client.
function Client:now() return core.qless_client_now(self._h) end
function Client:set_time_offset(seconds) core.qless_client_set_time_offset(self._h, seconds) end

-- Raw protocol call: client:call("config.get", "heartbeat") -> reply text or nil.
function Client:call(command, ...)
  return core.qless_client_call(self._h, command, { ... })
end

-- Jobs that exist among the jids (a table or several strings), in order.
function Client:multiget(...)
  return convert.jobs(core.qless_client_get_jobs(self._h, convert.list(...)), Job.wrap)
end

function Client:cancel(...) core.qless_client_cancel(self._h, convert.list(...)) end
function Client:timeout(...) core.qless_client_timeout(self._h, convert.list(...)) end

-- Jids by state: "complete" (no queue) or "running", "stalled",
-- "scheduled", "depends", "recurring" in queue. count nil: 25.
function Client:jids(state, queue, offset, count)
  return (convert.strings(core.qless_client_jobs(self._h, state, queue, offset or 0, count or 0)))
end

-- Jids tagged with tag, and how many there are in all.
function Client:tagged(tag, offset, count)
  local list, total = core.qless_client_tagged(self._h, tag, offset or 0, count or 0)
  return (convert.strings(list)), total
end

-- Tags used by at least two jobs: {{tag = t, count = n}, ...}, most used first.
function Client:top_tags(offset, count)
  local tags, counts = convert.strings(core.qless_client_top_tags(self._h, offset or 0, count or 0))
  local out = {}
  for i, tag in ipairs(tags) do out[i] = { tag = tag, count = counts[i] } end
  return out
end

-- Tracked jobs that exist, and the tracked jids that no longer do.
function Client:tracked()
  local jobs, expired = core.qless_client_tracked(self._h)
  return convert.jobs(jobs, Job.wrap), (convert.strings(expired))
end

-- {group = number of failed jobs, ...}
function Client:failed_groups()
  local groups, counts = convert.strings(core.qless_client_failed_groups(self._h))
  local out = {}
  for i, group in ipairs(groups) do out[group] = counts[i] end
  return out
end

-- Jids failed in group, newest first, and how many there are in all.
function Client:failed(group, start, limit)
  local list, total = core.qless_client_failed(self._h, group, start or 0, limit or 0)
  return (convert.strings(list)), total
end

-- Names of the known queues, oldest first.
function Client:queue_names()
  return (convert.strings(core.qless_client_queue_names(self._h)))
end

-- Counts of every queue, as the server reports them (list of tables).
function Client:queue_counts()
  return convert.decode(core.qless_client_queues_json(self._h))
end

-- Workers seen recently: {{name = w, jobs = n}, ...}, most recent first.
function Client:workers()
  local names, counts = convert.strings(core.qless_client_workers(self._h))
  local out = {}
  for i, name in ipairs(names) do out[i] = { name = name, jobs = counts[i] } end
  return out
end

-- Jids the worker holds, and those it holds with an expired lock.
function Client:worker_jobs(name)
  local jobs, stalled = core.qless_client_worker_jobs(self._h, name)
  return (convert.strings(jobs)), (convert.strings(stalled))
end

function Client:deregister_workers(...)
  core.qless_client_deregister_workers(self._h, convert.list(...))
end

-- All configuration options (defaults overlaid by stored values).
function Client:config_all()
  return convert.decode(core.qless_client_config_all(self._h))
end

-- Subscribes to channels (a table or several strings): see qless.Events.
function Client:events(...)
  return Events.new(self, convert.list(...))
end

return Client
