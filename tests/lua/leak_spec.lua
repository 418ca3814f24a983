-- Handles are released when collected: the core's live handle count comes
-- back to where it started.
local qless = require "qless"
local H = require "helper"

local function settle()
  collectgarbage()
  collectgarbage()
end

describe("qless handles", function()
  before_each(H.flush)

  it("are all freed after garbage collection", function()
    settle()
    local before = qless.handle_count()
    do
      local client = H.client()
      local queue = client.queues.leaks
      for i = 1, 20 do queue:put("k", { i = i }, { tags = { "x" } }) end
      local jobs = queue:pop(10)
      for _, job in ipairs(jobs) do job:complete() end
      queue:peek(5)
      client:multiget(jobs[1].jid, jobs[2].jid)
      client:tagged("x")
      client:tracked()
      client:workers()
      queue:counts()
      queue:stats()
      local r = client.recurring[queue:recur("k", {}, 60)]
      assert.is_not_nil(r)
      local events = client:events("log")
      events:next(0)
      pcall(function() return client.jobs.nope:complete() end)
      pcall(queue.put, queue, "k", "{bad")
      local s = client.schedules.leaks
      s:add("k", {}, { cron = "0 * * * *" })
      s:add("k", { a = 1 }, { ["in"] = 60, report = true })
      s:entries()
      s:next(s:add("k", {}, { every = 60 }), 2)
      s:remove("nope")
      client:cron_next("@daily", 2)
      pcall(s.add, s, "k", {}, { cron = "0 24 * * *" })
      pcall(s.add, s, "k", {}, { ["in"] = 5, tags = { 1 } })
      pcall(client.cron_next, client, "@daily", 0)
      assert.is_true(qless.handle_count() > before)
    end
    settle()
    assert.equal(before, qless.handle_count())
  end)

  it("are freed at once by close()", function()
    settle()
    local before = qless.handle_count()
    local client = H.client()
    local events = client:events("log")
    events:close()
    client:close()
    assert.equal(before, qless.handle_count())
    events, client = nil, nil
    settle()
    assert.equal(before, qless.handle_count())
  end)
end)
