-- The demo's Lua tree class "demo_consumer": the consumer of jobtrees.md
-- §11's pipeline. Its input port "in" subscribes to the channel named by
-- data.channel (in startup, which runs once per life, before any value can
-- be missed); each run adds what arrived to state "total" and writes the
-- running total to its parent's input port "result", so the parent is
-- right however the values were split over runs. No input: it suspends
-- until the channel delivers some. Each hook records its language in
-- state, which the demo and tests/cross read.
local function sum(values)
  local total = 0
  for _, v in ipairs(values) do total = total + v end
  return total
end

return {
  inports = { "in" },

  startup = function(job)
    job.ports["in"]["in"]:connect(job.data.channel)
    job.store.startup = "lua"
  end,

  perform = function(job)
    job.store.perform = "lua"
    local values = job:read("in", 100)
    if #values == 0 then return job:suspend() end
    local total = (job.store.total or 0) + sum(values)
    job.store.total = total
    job.store.received = (job.store.received or 0) + #values
    job.client.trees[job.parent].ports["in"].result:write(total)
  end,

  shutdown = function(job) job.store.shutdown = "lua" end,
}
