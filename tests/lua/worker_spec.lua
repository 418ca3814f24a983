-- qless-worker as a subprocess: success, failures, long jobs kept alive by
-- the core heartbeater, lost locks, and graceful/immediate signals.
local qless = require "qless"
local H = require "helper"

describe("qless-worker", function()
  local client, queue, workers
  before_each(function()
    H.flush()
    client = H.client()
    queue = client.queues.work
    workers = {}
  end)
  after_each(function()
    for _, w in ipairs(workers) do w.cleanup() end
  end)

  local function worker(...)
    local args = { "--url", H.url, "--queue", "work", "--interval", "0.1", ... }
    local w = H.spawn_worker(args)
    workers[#workers + 1] = w
    return w
  end

  local function history_whats(jid)
    local t = {}
    for i, h in ipairs(client.jobs[jid].history) do t[i] = h.what end
    return t
  end

  it("completes a job whose code returns, sending its data changes", function()
    local jid = queue:put("succeed", { n = 1 })
    local w = worker("--max-jobs", "1", "--name", "w-ok")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("complete", job.state)
    assert.equal("w-ok", job.data.performed_by)
    assert.matches(jid .. " succeed %(work%) complete", w.log())
  end)

  it("fails a job whose code raises, with the error class as group and a traceback", function()
    local a = queue:put("raise", {})
    local b = queue:put("raise_object", { field = "name" })
    local w = worker("--max-jobs", "2")
    assert.equal(0, w.wait(20), w.log())
    local ja, jb = client.jobs[a], client.jobs[b]
    assert.equal("failed", ja.state)
    assert.equal("LuaError", ja.failure.group)
    assert.matches("boom from " .. a, ja.failure.message)
    assert.matches("stack traceback:", ja.failure.message)
    assert.matches("jobs/raise.lua:%d+", ja.failure.message)
    assert.equal("failed", jb.state)
    assert.equal("BadInput", jb.failure.group)
    assert.matches("^BadInput: no name\nstack traceback:", jb.failure.message)
  end)

  it("leaves a job the code settled itself alone", function()
    local jid = queue:put("advance", { next = "later" })
    local w = worker("--max-jobs", "1")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("waiting", job.state)
    assert.equal("later", job.queue)
    assert.matches(jid .. " advance %(work%) handled", w.log())
  end)

  it("keeps a job longer than its heartbeat alive and completes it", function()
    queue:set_heartbeat(2)
    local jid = queue:put("slow", { seconds = 4 })
    local w = worker("--max-jobs", "1")
    -- Another worker polls meanwhile: an expired lock would hand it the job.
    local rival = H.client({ worker_name = "rival" }).queues.work
    assert.truthy(H.eventually(function() return client.jobs[jid].state == "running" end), w.log())
    while not w.wait(0) do
      local stolen = rival:pop()
      assert.is_nil(stolen, "the lock expired while the job ran")
      qless.sleep(0.25)
    end
    assert.equal(0, w.wait(0), w.log())
    assert.equal("complete", client.jobs[jid].state, w.log())
    assert.same({ "put", "popped", "done" }, history_whats(jid))
  end)

  it("drops a job whose lock was lost while it ran", function()
    local jid = queue:put("slow", { seconds = 2 })
    local w = worker("--max-jobs", "1")
    assert.truthy(H.eventually(function() return client.jobs[jid].state == "running" end), w.log())
    client:timeout(jid)
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    -- timed out (protocol §4): "stalled", waiting to be popped again
    assert.equal("stalled", job.state)
    assert.is_nil(job.failure)
    for _, what in ipairs(history_whats(jid)) do assert.not_equal("done", what) end
    assert.matches(jid .. " slow %(work%) dropped", w.log())
  end)

  it("finishes the current job on SIGTERM, then exits 0", function()
    local first = queue:put("slow", { seconds = 2 })
    local second = queue:put("succeed", {})
    local w = worker()
    assert.truthy(H.eventually(function() return client.jobs[first].state == "running" end), w.log())
    w.kill("TERM")
    assert.equal(0, w.wait(20), w.log())
    assert.equal("complete", client.jobs[first].state)
    assert.equal("waiting", client.jobs[second].state)
  end)

  it("stops waiting on SIGINT when the queues are empty", function()
    local w = worker("--interval", "30")
    assert.truthy(H.eventually(function() return w.log():find("watching") end), w.log())
    w.kill("INT")
    assert.equal(0, w.wait(5), w.log())
  end)

  it("exits at once on SIGQUIT, leaving the job running", function()
    local jid = queue:put("slow", { seconds = 10 })
    local w = worker()
    assert.truthy(H.eventually(function() return client.jobs[jid].state == "running" end), w.log())
    w.kill("QUIT")
    assert.equal(128 + 3, w.wait(5), w.log())
    assert.equal("running", client.jobs[jid].state)
  end)

  it("reserves round-robin across queues", function()
    for i = 1, 2 do
      client.queues.qa:put("succeed", { q = "a", i = i })
      client.queues.qb:put("succeed", { q = "b", i = i })
    end
    local w = H.spawn_worker({ "--url", H.url, "--queue", "qa", "--queue", "qb", "--order", "round-robin",
                               "--max-jobs", "2", "--interval", "0.1" })
    workers[#workers + 1] = w
    assert.equal(0, w.wait(20), w.log())
    assert.equal(1, client.queues.qa:length())
    assert.equal(1, client.queues.qb:length())
  end)

  it("rejects bad arguments", function()
    local w = H.spawn_worker({ "--order", "sideways", "--queue", "x" })
    workers[#workers + 1] = w
    assert.equal(2, w.wait(5))
    assert.matches("order", w.log())
  end)
end)
