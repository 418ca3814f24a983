-- qless.Job: one job. Fields are read from the core's snapshot when
-- accessed (so they reflect what operations changed); job.data is decoded
-- once and sent back with complete/fail/heartbeat/retry, so changes made in
-- Lua (job.data.x = 1, or job.data = {...}) reach the server.
local core = require "qless_core"
local json = require "qless.codec"
local convert = require "qless.convert"
local handle = require "qless.handle"

local Job = handle.class("qless.Job", [[jid klass queue state worker priority expires retries remaining
  spawned_from_jid cancel timeout track untrack undepend_all=depends_clear]])
local methods, fields = Job.methods, Job.fields

-- A list field read item by item from the proxy: count attribute, item method.
local function list_field(count, item, decode)
  return function(self)
    local h, t = self._h, {}
    for i = 0, h[count] - 1 do
      local v = h[item](h, i)
      t[i + 1] = decode and decode(v) or v
    end
    return t
  end
end

fields.tags = list_field("tag_count", "tag")
fields.dependencies = list_field("dependency_count", "dependency")
fields.dependents = list_field("dependent_count", "dependent")
fields.history = list_field("history_count", "history_json", json.decode)
fields.tracked = function(self) return self._h.tracked ~= 0 end
-- True once the worker engine found the lock lost while the job runs:
-- job code may stop early (the engine will not settle the job).
fields.lock_lost = function(self) return self._h.lock_lost ~= 0 end
function fields.failure(self)
  local h = self._h
  if h.failure_group == nil then return nil end
  return { group = h.failure_group, message = h.failure_message, when = h.failure_when, worker = h.failure_worker }
end

function fields.data(self)
  local data = rawget(self, "_data")
  if data == nil then
    data = json.decode(self._h.data)
    rawset(self, "_data", data)
  end
  return data
end

-- job.client: the qless.Client the job was read with, made once per Job.
-- It borrows the core's client (the object model leaves it out, since a
-- proxy of it could outlive the job), so it keeps the job alive. For a job
-- given to a worker's perform it is the worker's own connection, valid
-- during that call only.
function fields.client(self)
  local c = rawget(self, "_client")
  if c == nil then
    c = require("qless.client").wrap(core.qless_job_client(self._h), { _owner = self })
    rawset(self, "_client", c)
  end
  return c
end

function Job.setters.data(self, value) rawset(self, "_data", value) end
function Job.setters.priority(self, value) self._h:set_priority(value) end

function Job.meta.__tostring(self)
  return string.format("qless.Job(%s %s %s)", self.jid, self.klass, self.state)
end

-- Hands data changed in Lua to the core, which sends it with the next
-- operation that carries data (the worker engine's settle included).
function methods:sync_data()
  local data = rawget(self, "_data")
  if data ~= nil then self._h:set_data(convert.data(data) or "{}") end
end
local sync_data = methods.sync_data

-- job:complete() finishes the job; job:complete("next-queue") or
-- job:complete{next = "q", delay = s, depends = {jid, ...}} advances it.
-- Returns the new state.
function methods:complete(opts)
  if type(opts) == "string" then opts = { next = opts } end
  sync_data(self)
  self._h:complete(opts)
  return self.state
end

function methods:fail(group, message)
  sync_data(self)
  self._h:fail(group, message)
end

-- Renews the lock; returns the new expiry time.
function methods:heartbeat()
  sync_data(self)
  return self._h:heartbeat()
end

-- Gives the job back after delay seconds using up a retry, recording group
-- and message as its failure when given. Returns the retries left (-1: none
-- were left and the job failed).
function methods:retry(delay, group, message)
  sync_data(self)
  return self._h:retry(delay or 0, group, message)
end

-- Puts the job into queue (default: its current queue); opts as for
-- Queue:put except jid.
function methods:requeue(queue, opts)
  self._h:requeue(queue or self.queue, require("qless.queue").core_options("Job:requeue", opts))
  rawset(self, "_data", nil)
end

function methods:tag(...) self._h:tag_add(convert.list(...)) end
function methods:untag(...) self._h:tag_remove(convert.list(...)) end
function methods:depend(...) self._h:depends_add(convert.list(...)) end
function methods:undepend(...) self._h:depends_remove(convert.list(...)) end

-- Adds message to the job's history; data (table or JSON text) optional.
function methods:log(message, data)
  self._h:log(message, convert.data(data))
end

-- Re-reads the job from the server (local data changes are dropped).
function methods:refresh()
  self._h:refresh()
  rawset(self, "_data", nil)
end

-- The whole job as the server describes it, as JSON text.
function methods:json() return self._h.json end

require("qless.tree").install(Job)

return Job
