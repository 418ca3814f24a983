-- The pipeline's producer in Lua ("demo_trees.producer"; see demo_trees.rb).
return require "demo_trees.role" {
  outports = { "out" },
  start = function(job) job.ports.out.out:connect(job.data.channel) end,
  work = function(job) job:write("out", table.unpack(job.data.values)) end,
}
