-- A worker program straight on qless_core.worker_main, without the
-- qless.worker layer, to test the C trampoline's handling of what perform
-- does: lua_pcall catching raw errors, and the returned outcomes.
--   lua5.4 raw_worker.lua MODE FLAGS...   (MODE is taken off, the rest go to the core)
local core = require "qless_core"
local mode = table.remove(arg, 1)
local stashed

local performs = {
  -- An error that reaches C: a table without __tostring, to see that the
  -- message handler copes with it.
  raise = function() error({ "not a string" }) end,
  bogus = function() return "explode" end,
  fail = function(job) return "fail", "RawGroup", "raw failure of " .. core.qless_job_jid(job) end,
  retry = function() return "retry", "RawRetry", "again later", 30 end,
  -- The handle is detached once perform returns: keep it, use it later.
  stash = function(job)
    if stashed == nil then stashed = job; return end
    local ok, err = pcall(core.qless_job_heartbeat, stashed)
    return "fail", "Stashed", string.format("jid=%s ok=%s err=%s", tostring(core.qless_job_jid(stashed)),
      tostring(ok), tostring(err))
  end,
}
os.exit(core.worker_main(arg, (assert(performs[mode], "unknown mode"))))
