-- Job class for the worker tests: records that it ran in its data.
return {
  perform = function(job)
    job.data.performed_by = job.worker
  end,
}
