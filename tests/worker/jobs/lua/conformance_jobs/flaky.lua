-- conformance_jobs.flaky: the conformance suite's job that is retried. It
-- raises a retryable error (retryable = true) of class ConformanceRetry
-- with the message "flaky <jid>", so the worker retries the job.
return {
  perform = function(job)
    error({ name = "ConformanceRetry", message = "flaky " .. job.jid, retryable = true })
  end,
}
