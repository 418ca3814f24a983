-- qless.Worker: a serial worker. It reserves jobs from its queues (the
-- core's qless_worker: ordered or round-robin), resolves job.klass to Lua
-- code with require, runs it while the core's heartbeater keeps the lock
-- alive, then completes or fails the job. A job whose lock was lost while
-- it ran is dropped: another worker may own it now.
local core = require "qless_core"
local Job = require "qless.job"

local Worker = {}
Worker.__index = Worker

-- client: a qless.Client; queues: list of names. opts:
--   order       "ordered" (default) or "round-robin"
--   interval    seconds to sleep when every queue is empty (default 5)
--   max_jobs    stop after this many jobs (default: no limit)
--   heartbeat   heartbeat interval in seconds (default: a third of the
--               job's lock time when it was popped)
--   resolve     function(klass) -> callable (default: see Worker.resolve)
--   log         function(line) (default: a line on stderr)
function Worker.new(client, queues, opts)
  opts = opts or {}
  if type(queues) == "string" then queues = { queues } end
  local order = opts.order or "ordered"
  if order ~= "ordered" and order ~= "round-robin" then
    error("qless.Worker: order must be 'ordered' or 'round-robin', not '" .. tostring(order) .. "'", 2)
  end
  local self = setmetatable({
    client = client,
    queues = queues,
    interval = opts.interval or 5,
    max_jobs = opts.max_jobs,
    heartbeat = opts.heartbeat,
    resolve = opts.resolve or Worker.resolve,
    log = opts.log or function(line) io.stderr:write(line, "\n") end,
    processed = 0,
  }, Worker)
  self._h = core.qless_swig_worker_new(client._h, queues, order == "round-robin" and 1 or 0, 1)
  self.name = core.qless_worker_name(self._h)
  return self
end

-- klass is a module name: require(klass) gives either a function or a
-- table with a perform function; either is called with the job.
function Worker.resolve(klass)
  local mod = require(klass)
  if type(mod) == "table" and mod.perform then
    return function(job) return mod.perform(job) end
  end
  if type(mod) == "function" or (getmetatable(mod) or {}).__call then return mod end
  error("job class '" .. klass .. "' is neither a function nor a table with perform", 0)
end

-- The failure group for an error: its name field or metatable __name when
-- it is a table (qless errors, error objects), else "LuaError".
function Worker.error_class(err)
  if type(err) == "table" then
    if type(err.name) == "string" then return err.name end
    local mt = getmetatable(err)
    if mt and type(mt.__name) == "string" then return mt.__name end
  end
  return "LuaError"
end

local function describe(err)
  if type(err) == "table" and not (getmetatable(err) or {}).__tostring and err.message then
    return Worker.error_class(err) .. ": " .. tostring(err.message)
  end
  return tostring(err)
end

-- Jids this worker lost since the last call, from its event channel.
function Worker:lost_locks()
  local list = core.qless_worker_lost_locks(self._h, 0)
  local lost = {}
  for i = 0, core.qless_strlist_size(list) - 1 do lost[core.qless_strlist_get(list, i)] = true end
  return lost
end

-- Pops the next job from the queues, or nil when all are empty.
function Worker:reserve()
  return Job.wrap(core.qless_worker_reserve(self._h))
end

-- Runs one job and settles it. Returns what happened: "complete",
-- "failed", "handled" (the job code completed, failed or retried it
-- itself), "dropped" (lock lost) or "error" (settling it failed).
function Worker:perform(job)
  local jid, klass, queue = job.jid, job.klass, job.queue
  local started = self.client:now()
  self:lost_locks()   -- forget notices about earlier holds of any job
  local interval = self.heartbeat or math.max((job.expires - started) / 3, 0.05)
  local hb = core.qless_heartbeater_new(job._h, interval)
  local ok, err = xpcall(function() return self.resolve(klass)(job) end,
    function(e) return { err = e, traceback = debug.traceback(describe(e), 2) } end)
  local lost = core.qless_heartbeater_lost(hb) ~= 0
  core.release(hb)
  lost = lost or self:lost_locks()[jid] == true

  local outcome, note
  if lost then
    outcome, note = "dropped", "lock lost while running"
  elseif job.state ~= "running" then
    outcome = "handled"
  else
    local settled, serr = pcall(function()
      if ok then job:complete() else job:fail(Worker.error_class(err.err), err.traceback) end
    end)
    if settled then
      outcome = ok and "complete" or "failed"
    elseif type(serr) == "table" and serr.name == "LockLost" then
      outcome, note = "dropped", tostring(serr)
    else
      outcome, note = "error", describe(serr)
    end
  end
  if not ok and outcome ~= "failed" then note = (note and note .. "; " or "") .. "job raised: " .. describe(err.err) end
  self.log(string.format("qless-worker %s: %s %s (%s) %s in %.3fs%s", self.name, jid, klass, queue,
    outcome, self.client:now() - started, note and (" — " .. note) or ""))
  return outcome
end

local SIGTERM, SIGINT, SIGQUIT = core.QLESS_LUA_SIGTERM, core.QLESS_LUA_SIGINT, core.QLESS_LUA_SIGQUIT

local function stop_requested()
  local term = core.qless_lua_signal_pending(SIGTERM) ~= 0
  local int = core.qless_lua_signal_pending(SIGINT) ~= 0
  return term or int
end

-- Asks run() to return after the current job (e.g. from job code).
function Worker:stop() self.stopping = true end

-- Processes jobs until max_jobs were done, stop() was called, or SIGTERM
-- or SIGINT arrived (the current job is finished first); SIGQUIT ends the
-- process at once. Returns the number of jobs processed.
function Worker:run()
  core.qless_lua_signal_install(SIGTERM, 0)
  core.qless_lua_signal_install(SIGINT, 0)
  core.qless_lua_signal_install(SIGQUIT, 1)
  self.log(string.format("qless-worker %s: watching %s", self.name, table.concat(self.queues, ", ")))
  while not self.stopping do
    if stop_requested() then break end
    if self.max_jobs and self.processed >= self.max_jobs then break end
    local ok, job = pcall(self.reserve, self)
    if not ok then
      self.log(string.format("qless-worker %s: reserve failed: %s", self.name, describe(job)))
      job = nil
    end
    if job then
      self:perform(job)
      self.processed = self.processed + 1
    elseif not stop_requested() then
      core.qless_lua_sleep(self.interval, 1)   -- a signal cuts it short
    else
      break
    end
  end
  self.log(string.format("qless-worker %s: stopping after %d jobs", self.name, self.processed))
  return self.processed
end

return Worker
