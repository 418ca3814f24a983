-- Job class for the worker tests: moves itself on to the queue named in
-- its data, so the worker must not complete it again.
return {
  perform = function(job)
    job:complete({ next = job.data.next })
  end,
}
