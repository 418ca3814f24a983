-- The demo's Lua job module (klass "demo_work", run by bindings/lua/qless-worker).
-- Like demo_jobs.py: records who ran it and the attempt, sleeps
-- data.sleep, and raises on its first attempt when data.fail_once.
local qless = require "qless"

return {
  perform = function(job)
    local attempt = 0
    for _, h in ipairs(job.history) do
      if h.what == "popped" then attempt = attempt + 1 end
    end
    job.data.ran_in = "lua"
    job.data.attempt = attempt
    if job.data.fail_once and attempt == 1 then error("simulated failure on attempt 1") end
    if (job.data.sleep or 0) > 0 then qless.sleep(job.data.sleep) end
  end,
}
