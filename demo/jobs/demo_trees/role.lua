-- What every Lua role of the demo's pipeline does beside its work
-- (demo_trees.rb says what each role does): each hook records in the
-- job's state that Lua ran it. role(r) makes a tree class of r.inports,
-- r.outports, r.start(job) (optional, run in startup) and r.work(job).
return function(r)
  return {
    inports = r.inports,
    outports = r.outports,
    startup = function(job)
      if r.start then r.start(job) end
      job.store.startup = "lua"
    end,
    perform = function(job)
      job.store.perform = "lua"
      return r.work(job)
    end,
    shutdown = function(job) job.store.shutdown = "lua" end,
  }
end
