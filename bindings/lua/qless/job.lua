-- qless.Job: one job. Fields are read from the core's snapshot when
-- accessed (so they reflect what operations changed); job.data is decoded
-- once and sent back with complete/fail/heartbeat/retry, so changes made in
-- Lua (job.data.x = 1, or job.data = {...}) reach the server.
local core = require "qless_core"
local json = require "qless.json"
local convert = require "qless.convert"

local Job = {}
local methods = {}

local function list_field(count, item)
  return function(h)
    local t = {}
    for i = 0, count(h) - 1 do t[i + 1] = item(h, i) end
    return t
  end
end

local fields = {
  jid = core.qless_job_jid,
  klass = core.qless_job_klass,
  queue = core.qless_job_queue,
  state = core.qless_job_state,
  worker = core.qless_job_worker,
  priority = core.qless_job_priority,
  expires = core.qless_job_expires,
  retries = core.qless_job_retries,
  remaining = core.qless_job_remaining,
  spawned_from_jid = core.qless_job_spawned_from_jid,
  tracked = function(h) return core.qless_job_tracked(h) ~= 0 end,
  -- True once the worker engine found the lock lost while the job runs:
  -- job code may stop early (the engine will not settle the job).
  lock_lost = function(h) return core.qless_job_lock_lost(h) ~= 0 end,
  tags = list_field(core.qless_job_tag_count, core.qless_job_tag),
  dependencies = list_field(core.qless_job_dependency_count, core.qless_job_dependency),
  dependents = list_field(core.qless_job_dependent_count, core.qless_job_dependent),
  history = list_field(core.qless_job_history_count,
                       function(h, i) return json.decode(core.qless_job_history_json(h, i)) end),
  failure = function(h)
    local group = core.qless_job_failure_group(h)
    if group == nil then return nil end
    return { group = group, message = core.qless_job_failure_message(h),
             when = core.qless_job_failure_when(h), worker = core.qless_job_failure_worker(h) }
  end,
}

-- job.client: the qless.Client the job was read with, made once per Job.
-- It borrows the core's client, so it keeps the job (which holds a
-- reference to that client) alive. For a job given to a worker's perform
-- it is the worker's own connection, valid during that call only.
local function client_of(self)
  local c = rawget(self, "_client")
  if c == nil then
    local h = core.qless_job_client(self._h)
    if h == nil then return nil end
    c = require("qless.client").wrap(h, self)
    rawset(self, "_client", c)
  end
  return c
end

function Job.__index(self, key)
  local m = methods[key]
  if m then return m end
  if key == "client" then
    return client_of(self)
  end
  if key == "data" then
    local data = rawget(self, "_data")
    if data == nil then
      data = json.decode(core.qless_job_data(self._h))
      rawset(self, "_data", data)
    end
    return data
  end
  local f = fields[key]
  if f then return f(self._h) end
  return nil
end

function Job.__newindex(self, key, value)
  if key == "data" then
    rawset(self, "_data", value)
  elseif key == "priority" then
    core.qless_job_set_priority(self._h, value)
  else
    error("qless.Job: field '" .. tostring(key) .. "' cannot be set", 2)
  end
end

function Job.__tostring(self)
  return string.format("qless.Job(%s %s %s)", self.jid, self.klass, self.state)
end

-- Wraps an owned qless_job handle (nil stays nil).
function Job.wrap(handle)
  if handle == nil then return nil end
  return setmetatable({ _h = handle }, Job)
end

-- Hands data changed in Lua to the core, which sends it with the next
-- operation that carries data (the worker engine's settle included).
function methods:sync_data()
  local data = rawget(self, "_data")
  if data ~= nil then core.qless_job_set_data(self._h, convert.data(data) or "{}") end
end
local sync_data = methods.sync_data

-- job:complete() finishes the job; job:complete("next-queue") or
-- job:complete{next = "q", delay = s, depends = {jid, ...}} advances it.
-- Returns the new state.
function methods:complete(opts)
  if type(opts) == "string" then opts = { next = opts } end
  sync_data(self)
  core.qless_job_complete(self._h, opts)
  return self.state
end

function methods:fail(group, message)
  sync_data(self)
  core.qless_job_fail(self._h, group, message)
end

-- Renews the lock; returns the new expiry time.
function methods:heartbeat()
  sync_data(self)
  return core.qless_job_heartbeat(self._h)
end

-- Gives the job back after delay seconds using up a retry, recording group
-- and message as its failure when given. Returns the retries left (-1: none
-- were left and the job failed).
function methods:retry(delay, group, message)
  sync_data(self)
  return core.qless_job_retry(self._h, delay or 0, group, message)
end

-- Puts the job into queue (default: its current queue); opts as for
-- Queue:put except jid.
function methods:requeue(queue, opts)
  core.qless_job_requeue(self._h, queue or self.queue, opts)
  rawset(self, "_data", nil)
end

function methods:cancel() core.qless_job_cancel(self._h) end
function methods:timeout() core.qless_job_timeout(self._h) end
function methods:track() core.qless_job_track(self._h) end
function methods:untrack() core.qless_job_untrack(self._h) end
function methods:tag(...) core.qless_job_tag_add(self._h, convert.list(...)) end
function methods:untag(...) core.qless_job_tag_remove(self._h, convert.list(...)) end
function methods:depend(...) core.qless_job_depends_add(self._h, convert.list(...)) end
function methods:undepend(...) core.qless_job_depends_remove(self._h, convert.list(...)) end
function methods:undepend_all() core.qless_job_depends_clear(self._h) end

-- Adds message to the job's history; data (table or JSON text) optional.
function methods:log(message, data)
  core.qless_job_log(self._h, message, convert.data(data))
end

-- Re-reads the job from the server (local data changes are dropped).
function methods:refresh()
  core.qless_job_refresh(self._h)
  rawset(self, "_data", nil)
end

-- The whole job as the server describes it, as JSON text.
function methods:json()
  return core.qless_job_json(self._h)
end

return Job
