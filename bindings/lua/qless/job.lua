-- qless.Job: one job. Fields read the core's snapshot when accessed;
-- job.data is decoded once and sent back with complete/fail/heartbeat/retry,
-- so changes made in Lua (job.data.x = 1, or job.data = {...}) reach the server.
local core = require "qless_core"
local json = require "qless.codec"
local handle = require "qless.handle"

local Job = handle.class("qless.Job", [[jid klass queue state worker priority expires retries remaining
  spawned_from_jid cancel timeout track untrack undepend_all=depends_clear]])
local methods, fields, list = Job.methods, Job.fields, handle.list

local function indexed(count, item, decode)
  return function(self) return handle.indexed(self._h, count, item, decode) end
end
fields.tags = indexed("tag_count", "tag")
fields.dependencies = indexed("dependency_count", "dependency")
fields.dependents = indexed("dependent_count", "dependent")
fields.history = indexed("history_count", "history_json", json.decode)
function fields.tracked(self) return self._h.tracked ~= 0 end
-- True once the worker engine found the lock lost while the job runs.
function fields.lock_lost(self) return self._h.lock_lost ~= 0 end
function fields.failure(self)
  local h = self._h
  if h.failure_group == nil then return nil end
  return { group = h.failure_group, message = h.failure_message, when = h.failure_when, worker = h.failure_worker }
end

-- Cached per Job: job.data (decoded once) and job.client.
local function cached(key, make)
  return function(self)
    local v = rawget(self, key)
    if v == nil then v = make(self); rawset(self, key, v) end
    return v
  end
end
fields.data = cached("_data", function(self) return json.decode(self._h.data) end)
-- The object model leaves the job's client out (a proxy of it could outlive
-- the job), so this one borrows it and keeps the job alive; in a worker's
-- perform it is the worker's connection, valid during that call only.
fields.client = cached("_client", function(self)
  return require("qless.client").wrap(core.qless_job_client(self._h), { _owner = self })
end)

function Job.setters.data(self, value) rawset(self, "_data", value) end
function Job.setters.priority(self, value) self._h:set_priority(value) end

function Job.meta.__tostring(self)
  return string.format("qless.Job(%s %s %s)", self.jid, self.klass, self.state)
end

-- Hands data changed in Lua to the core, which sends it with the next
-- operation that carries data (the worker engine's settle included).
function methods:sync_data()
  local data = rawget(self, "_data")
  if data ~= nil then self._h:set_data(handle.data(data) or "{}") end
end

-- complete, fail, heartbeat (the new expiry) and retry (the retries left) send job.data too.
local function synced(name)
  return function(self, ...) self:sync_data(); return self._h[name](self._h, ...) end
end
local complete, retry = synced("complete"), synced("retry")
methods.fail, methods.heartbeat = synced("fail"), synced("heartbeat")
function methods:retry(delay, group, message) return retry(self, delay or 0, group, message) end

-- Returns the new state; opts a queue name or {next =, delay =, depends =}.
function methods:complete(opts)
  complete(self, type(opts) == "string" and { next = opts } or opts)
  return self.state
end

-- Local data changes are dropped by requeue and refresh.
function methods:requeue(queue, opts)
  self._h:requeue(queue or self.queue, require("qless.queue").core_options("Job:requeue", opts))
  rawset(self, "_data", nil)
end

function methods:refresh()
  self._h:refresh()
  rawset(self, "_data", nil)
end

function methods:tag(...) self._h:tag_add(list(...)) end
function methods:untag(...) self._h:tag_remove(list(...)) end
function methods:depend(...) self._h:depends_add(list(...)) end
function methods:undepend(...) self._h:depends_remove(list(...)) end
function methods:json() return self._h.json end
function methods:log(message, data) self._h:log(message, handle.data(data)) end

require("qless.tree").install(Job)

return Job
