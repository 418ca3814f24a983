-- qless: Lua binding of libqless.
--   local qless = require "qless"
--   local client = qless.Client()              -- QLESS_URL or the embedded server
--   local jid = client.queues.jobs:put("my.job", { n = 1 })
--   local job = client.queues.jobs:pop()
--   job:complete()
--   client.schedules["tasks"]:add("jobs.report", {}, { cron = "0 9 * * mon-fri" })
-- Errors are tables {code, name, symbol, message} with one metatable per
-- kind (qless.errors.NotFound, ...); qless.is_error(e, "NotFound") tests them.
local core = require "qless_core"

local qless = {
  core = core,                       -- the SWIG module, for what the layer does not cover
  json = require "qless.codec",
  VERSION = core.qless_version(),
  errors = core.error_classes(),     -- name -> metatable
  Client = require("qless.client").new,
  worker = require "qless.worker",   -- the worker's Lua side (program: qless-worker)
  -- qless.when("7pm tomorrow"[, now]) -> {kind = "at"|"interval"|"cron", at, interval, cron}
  when = require("qless.when").when,
  -- qless.unique_jid(queue, klass, data[, {key=, cron=, interval=}]): a unique put's jid
  unique_jid = require("qless.queue").unique_jid,
}

-- True when err is a qless error (of kind name, e.g. "LockLost", if given).
function qless.is_error(err, name)
  if type(err) ~= "table" then return false end
  local mt = getmetatable(err)
  if mt == nil or qless.errors[err.name] ~= mt then return false end
  return name == nil or name == "Error" or err.name == name
end

-- error(qless.RetryableError(message[, name])) in job code: the worker
-- retries the job after the backoff delay instead of failing it (group:
-- name, default "RetryableError"). Any error table with retryable = true
-- does the same (docs/workers.md).
local Retryable = { __name = "qless.RetryableError" }
Retryable.__tostring = function(e) return e.name .. ": " .. tostring(e.message) end
function qless.RetryableError(message, name)
  return setmetatable({ name = name or "RetryableError", message = message, retryable = true }, Retryable)
end

-- What Lua's standard library lacks, for job code and scripts: a sleep
-- (not cut short by signals), the time with sub-second precision, and the
-- process id (children of a worker pool differ).
qless.sleep = core.sleep
qless.time = core.time
qless.pid = core.getpid

-- Number of live core handles, for leak checks.
qless.handle_count = core.qless_handle_count

return qless
