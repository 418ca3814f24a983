-- The pipeline's consumer in Lua ("demo_trees.consumer"; see demo_trees.rb).
return require "demo_trees.role" {
  inports = { "in" },
  start = function(job) job.ports["in"]["in"]:connect(job.data.channel) end,
  work = function(job)
    local values = job:read("in", 100)
    if #values == 0 then return job:suspend() end
    local total = job.store.total or 0
    for _, v in ipairs(values) do total = total + v end
    job.store.total = total
    job.store.received = (job.store.received or 0) + #values
    job.client.trees[job.parent].ports["in"].result:write(total)
  end,
}
