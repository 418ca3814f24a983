-- conformance_jobs.boom: the conformance suite's job that fails. It raises
-- a plain (not retryable) error of class ConformanceError, so the worker
-- fails the job in group "ConformanceError" with "boom <jid>" in the message.
return {
  perform = function(job)
    error({ name = "ConformanceError", message = "boom " .. job.jid })
  end,
}
