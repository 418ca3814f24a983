-- tree_job: a tree class for tree_worker_spec.lua, named exactly by the
-- worker's allow-list. startup and shutdown leave marks in the job's
-- state; perform sums what "in" holds into "out", or suspends when empty.
return {
  inports = { "in" },
  outports = { out = { default = 0 } },
  startup = function(job) job.store.boot = (job.store.boot or 0) + 1 end,
  perform = function(job)
    local values = job:read("in", 5)
    if #values == 0 then return job:suspend() end
    local sum = 0
    for _, v in ipairs(values) do sum = sum + v end
    job:write("out", sum)
  end,
  shutdown = function(job) job.store.down = true end,
}
