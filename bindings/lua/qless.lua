-- qless: Lua binding of libqless (bindings/lua/README.md, docs/lua.md).
local core = require "qless_core"

local qless = {
  core = core,                       -- the SWIG module, for what the layer does not cover
  json = require "qless.codec",
  VERSION = core.qless_version(),
  errors = core.error_classes(),     -- name -> metatable
  Client = require("qless.client").new,
  worker = require "qless.worker",   -- the worker's Lua side (program: qless-worker)
  when = require("qless.when").when,
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
-- retries the job (as for any error table with retryable = true).
local Retryable = { __name = "qless.RetryableError" }
Retryable.__tostring = function(e) return e.name .. ": " .. tostring(e.message) end
function qless.RetryableError(message, name)
  return setmetatable({ name = name or "RetryableError", message = message, retryable = true }, Retryable)
end

-- What Lua's standard library lacks: a sleep not cut short by signals, a
-- sub-second clock, the process id; and the live core handles, for leak checks.
qless.sleep, qless.time, qless.pid, qless.handle_count = core.sleep, core.time, core.getpid, core.qless_handle_count

return qless
