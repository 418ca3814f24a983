-- conformance_jobs.flaky: the conformance suite's job that is retried. It
-- raises the binding's retryable error (qless.RetryableError) named
-- ConformanceRetry with the message "flaky <jid>", so the worker retries it.
local qless = require "qless"

return {
  perform = function(job)
    error(qless.RetryableError("flaky " .. job.jid, "ConformanceRetry"))
  end,
}
