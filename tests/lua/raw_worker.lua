-- A worker program straight on qless_core.worker_main, without the
-- qless.worker layer, to test the trampoline (swig/worker.i with lua.i's
-- hooks): run(job, client, phase) stands in for qless.worker.run, and
-- what it raises is the job's outcome.
--   lua5.4 raw_worker.lua MODE FLAGS...   (MODE is taken off, the rest go to the core)
local core = require "qless_core"
local mode = table.remove(arg, 1)
local stashed

local runs = {
  -- A table without __tostring or name: the message handler copes with it.
  raise = function() error({ "not a string" }) end,
  -- What the dispatcher returns is ignored: the job completes.
  value = function() return "explode" end,
  fail = function(job) error({ name = "RawGroup", message = "raw failure of " .. core.qless_job_jid(job) }) end,
  retry = function() error({ name = "RawRetry", message = "again later", retryable = true }) end,
  -- The phase and the job's client as the trampoline passes them.
  args = function(job, client, phase)
    error({ name = "Args", message = string.format("phase=%s worker=%s", phase, core.qless_client_worker_name(client)) })
  end,
  -- The handles are detached once run returns: keep the job, use it later.
  stash = function(job)
    if stashed == nil then stashed = job; return end
    local ok, err = pcall(core.qless_job_heartbeat, stashed)
    error({ name = "Stashed", message = string.format("jid=%s ok=%s err=%s", tostring(core.qless_job_jid(stashed)),
      tostring(ok), tostring(err)) })
  end,
}
os.exit(core.worker_main(arg, (assert(runs[mode], "unknown mode"))))
