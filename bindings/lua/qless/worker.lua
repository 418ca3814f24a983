-- qless.worker: the Lua side of the worker. The core's engine does the
-- rest (flags, reservation, heartbeats, lost locks, signals, pools,
-- reconnects, settling); this module only finds a job's code, runs it and
-- says how it went:
--   * job.klass is a module name: require(klass) gives a function, or a
--     table with perform (either is called with the job); only classes
--     the operator allowed get here (--allow 'jobs.*' or
--     QLESS_WORKER_ALLOW, required: the engine fails the others unrun);
--   * returning completes the job (unless the code settled it itself);
--   * an error fails it: group = the error's `name` field or metatable
--     __name when it is a table, else "LuaError"; message = the error and
--     its traceback;
--   * an error table with `retryable = true` retries it instead (after the
--     backoff of the job's class or queue; failed once retries run out).
local core = require "qless_core"
local Job = require "qless.job"

local worker = {}

-- The callable for a job class (raises when there is none). The engine
-- has matched klass against the allow-list; only a plain module name is
-- required, so that no path ("jobs.x/../../evil") reaches past it.
function worker.resolve(klass)
  for part in (klass .. "."):gmatch("(.-)%.") do
    if not part:match("^[%a_][%w_]*$") then
      error("job class '" .. klass .. "' is not a module name such as jobs.send_mail", 0)
    end
  end
  local mod = require(klass)
  if type(mod) == "table" and type(mod.perform) == "function" then return mod.perform end
  local mt = getmetatable(mod)
  if type(mod) == "function" or (mt and mt.__call) then return mod end
  error("job class '" .. klass .. "' is neither a function nor a table with perform", 0)
end

-- The failure group of an error value.
function worker.error_class(err)
  if type(err) == "table" then
    if type(err.name) == "string" and err.name ~= "" then return err.name end
    local mt = getmetatable(err)
    if mt and type(mt.__name) == "string" then return mt.__name end
  end
  return "LuaError"
end

-- The error as text: tostring, except that a table without __tostring
-- shows as "Name: message" rather than "table: 0x...".
local function describe(err)
  local mt = getmetatable(err)
  if type(err) == "table" and not (mt and mt.__tostring) and err.message ~= nil then
    return worker.error_class(err) .. ": " .. tostring(err.message)
  end
  return tostring(err)
end

local function traceback(err)
  local ok, text = pcall(describe, err)
  return { err = err, message = debug.traceback(ok and text or "(error not printable)", 2) }
end

-- The engine's perform callback: handle is the borrowed job (valid during
-- the call only). Returns the outcome for core.worker_main.
function worker.perform(handle)
  local job = Job.wrap(handle)
  -- Data changed in Lua goes out with whatever the engine sends next
  -- (an error encoding it is the job's error).
  local ok, failure = xpcall(function() worker.resolve(job.klass)(job); job:sync_data() end, traceback)
  if ok then return "complete" end
  pcall(job.sync_data, job)
  local err = failure.err
  local group = worker.error_class(err)
  if type(err) == "table" and err.retryable == true then
    return "retry", group, failure.message
  end
  return "fail", group, failure.message
end

-- Runs the worker program: args as Lua's `arg` (args[0] the program
-- name, then the flags, all handled by the core: see --help). Returns the
-- exit status.
function worker.main(args)
  return core.worker_main(args or {}, worker.perform)
end

return worker
