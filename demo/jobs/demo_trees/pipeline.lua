-- The pipeline's parent in Lua ("demo_trees.pipeline"; see demo_trees.rb).
return require "demo_trees.role" {
  inports = { "result" },
  work = function(job)
    local results = job:read("result", 10)
    if #results == 0 then return job:suspend() end
    job.store.total = results[#results]
  end,
}
