-- qless-worker as real worker processes (the core's engine with the Lua
-- layer): outcomes of job code, job.lock_lost and job.client, signals,
-- pools, and the C trampoline under qless_core.worker_main itself.
local qless = require "qless"
local H = require "helper"

-- Each test starts from a flushed database with a client, the queue "work"
-- and no workers (set(client, queue, workers) hands them to the block's
-- locals); every worker a test adds to `workers` is cleaned up after it.
local function fixture(set)
  local workers
  before_each(function()
    H.flush()
    local client = H.client()
    workers = {}
    set(client, client.queues.work, workers)
  end)
  after_each(function()
    for _, w in ipairs(workers) do w.cleanup() end
  end)
end

describe("qless-worker", function()
  local client, queue, workers
  fixture(function(c, q, w) client, queue, workers = c, q, w end)

  local function spawn(args, script)
    local w = H.spawn_worker(args, script)
    workers[#workers + 1] = w
    return w
  end

  local function worker(...)
    -- "*": the spec's job modules (jobs/) are many, at the top level.
    return spawn({ "--url", H.url, "--queue", "work", "--interval", "0.1", "--allow", "*", ... })
  end

  local function history_whats(jid)
    local t = {}
    for i, h in ipairs(client.jobs[jid].history) do t[i] = h.what end
    return t
  end

  local function running(jid, w)
    assert.truthy(H.eventually(function() return client.jobs[jid].state == "running" end), w.log())
  end

  it("completes a job whose code returns, sending its data changes", function()
    local jid = queue:put("succeed", { n = 1 })
    local w = worker("--max-jobs", "1", "--name", "w-ok")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("complete", job.state, w.log())
    assert.equal("w-ok", job.data.performed_by)
    assert.equal(1, job.data.n)
  end)

  it("fails a job whose code raises, with the error's class as group and a traceback", function()
    local a = queue:put("raise", {})
    local b = queue:put("raise_object", { field = "name" })
    local c = queue:put("conformance_jobs.boom", {})
    local d = queue:put("no.such.module", {})
    local w = worker("--max-jobs", "4")
    assert.equal(0, w.wait(20), w.log())
    local ja, jb, jc, jd = client.jobs[a], client.jobs[b], client.jobs[c], client.jobs[d]
    assert.equal("failed", ja.state, w.log())
    assert.equal("LuaError", ja.failure.group)
    assert.matches("boom from " .. a, ja.failure.message)
    assert.matches("stack traceback:", ja.failure.message)
    assert.matches("jobs/raise.lua:%d+", ja.failure.message)
    assert.equal("failed", jb.state)
    assert.equal("BadInput", jb.failure.group)                 -- the metatable's __name
    assert.matches("^BadInput: no name\nstack traceback:", jb.failure.message)
    assert.equal("failed", jc.state)
    assert.equal("ConformanceError", jc.failure.group)         -- the table's name field
    assert.matches("^ConformanceError: boom " .. c .. "\nstack traceback:", jc.failure.message)
    assert.equal("failed", jd.state)
    assert.equal("LuaError", jd.failure.group)
    assert.matches("module 'no.such.module' not found", jd.failure.message, 1, true)
  end)

  it("retries a job whose code raises a retryable error", function()
    local jid = queue:put("conformance_jobs.flaky", {}, { retries = 3 })
    local w = worker("--max-jobs", "1")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("waiting", job.state, w.log())
    assert.equal(2, job.remaining)
    assert.equal("ConformanceRetry", job.failure.group)
    assert.matches("flaky " .. jid, job.failure.message, 1, true)
  end)

  it("retries after the backoff given on the command line", function()
    local jid = queue:put("conformance_jobs.flaky", {}, { retries = 3 })
    local w = worker("--max-jobs", "1", "--backoff-class", "conformance_jobs.flaky=fixed:60")
    assert.equal(0, w.wait(20), w.log())
    assert.equal("scheduled", client.jobs[jid].state, w.log())
    assert.is_nil(queue:peek())
  end)

  it("leaves a job the code settled itself alone", function()
    local jid = queue:put("advance", { next = "later" })
    local w = worker("--max-jobs", "1")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("waiting", job.state, w.log())
    assert.equal("later", job.queue)
  end)

  it("tells job code its lock is lost (job.lock_lost) and drops the job; job.client is the worker's", function()
    local jid = queue:put("watch_lock", { seconds = 10 })
    -- One job only: the stalled job would be popped again by this worker.
    local w = worker("--name", "w-lost", "--heartbeat", "0.2", "--max-jobs", "1")
    running(jid, w)
    client:timeout(jid)
    assert.equal(0, w.wait(20), w.log())
    local report = client.queues["lost-report"]:peek()
    assert.truthy(report, w.log())
    assert.equal(jid, report.data.jid)
    assert.equal("w-lost", report.data.client)
    assert.matches(jid .. " watch_lock dropped", w.log())
    local job = client.jobs[jid]
    assert.equal("stalled", job.state)   -- timed out, not completed afterwards
    assert.is_nil(job.failure)
    for _, what in ipairs(history_whats(jid)) do assert.not_equal("done", what) end
  end)

  it("keeps a job longer than its lock time alive", function()
    queue:set_heartbeat(2)
    local jid = queue:put("slow", { seconds = 3 })
    local w = worker("--max-jobs", "1")
    running(jid, w)
    -- Another worker polls meanwhile: an expired lock would hand it the job.
    local rival = H.client({ worker_name = "rival" }).queues.work
    while not w.wait(0) do
      assert.is_nil(rival:pop(), "the lock expired while the job ran")
      qless.sleep(0.25)
    end
    assert.equal(0, w.wait(0), w.log())
    assert.equal("complete", client.jobs[jid].state, w.log())
    assert.same({ "put", "popped", "done" }, history_whats(jid))
  end)

  it("finishes the running job on SIGTERM, then exits 0", function()
    local first = queue:put("slow", { seconds = 2 })
    local second = queue:put("succeed", {})
    local w = worker()
    running(first, w)
    w.kill("TERM")
    assert.equal(0, w.wait(20), w.log())
    assert.equal("complete", client.jobs[first].state, w.log())
    assert.equal("waiting", client.jobs[second].state)
  end)

  it("stops waiting on SIGINT when the queues are empty", function()
    local w = worker("--interval", "30")
    qless.sleep(0.5)
    w.kill("INT")
    assert.equal(0, w.wait(5), w.log())
  end)

  it("exits at once on SIGQUIT, leaving the job to expire", function()
    local jid = queue:put("slow", { seconds = 10 })
    local w = worker()
    running(jid, w)
    w.kill("QUIT")
    assert.equal(1, w.wait(5), w.log())
    assert.equal("running", client.jobs[jid].state)
  end)

  it("runs jobs in a pool of processes, and stops them all on SIGTERM", function()
    local log = H.tmpname()
    local jids = {}
    for i = 1, 6 do jids[i] = queue:put("conformance_jobs.noop", { log = log, sleep = 0.2 }) end
    local w = worker("--pool", "processes", "--size", "2", "--name", "pool")
    assert.truthy(H.eventually(function()
      for _, jid in ipairs(jids) do if client.jobs[jid].state ~= "complete" then return false end end
      return true
    end, 20), w.log())
    local children = w.children()
    assert.equal(2, #children, w.log())
    w.kill("TERM")
    assert.equal(0, w.wait(20), w.log())
    -- Every job ran once, start then end, in a child (never the parent),
    -- under the child's worker name "pool-<pid>".
    local f = assert(io.open(log))
    local lines = f:read("a")
    f:close()
    os.remove(log)
    for _, jid in ipairs(jids) do
      local pid = tonumber(lines:match("start " .. jid .. " [%d.]+ (%d+)\n"))
      assert.truthy(pid, lines)
      assert.not_equal(w.pid, pid)
      assert.truthy(lines:find("end " .. jid .. " [%d.]+ " .. pid .. "\n"), lines)
      assert.same({ "put", "popped", "done" }, history_whats(jid))
      assert.equal("pool-" .. pid, client.jobs[jid].history[2].worker)
    end
    for _, pid in ipairs(children) do
      assert.is_nil(io.open("/proc/" .. pid .. "/cmdline"), "pool child " .. pid .. " outlived its parent")
    end
  end)

  it("refuses a pool of threads with a usage error", function()
    local w = worker("--pool", "threads", "--size", "2")
    assert.equal(2, w.wait(10))
    assert.matches("thread", w.log())
  end)

  it("reserves round-robin across queues", function()
    for i = 1, 2 do
      client.queues.qa:put("succeed", { q = "a", i = i })
      client.queues.qb:put("succeed", { q = "b", i = i })
    end
    local w = spawn({ "--url", H.url, "--queue", "qa", "--queue", "qb", "--order", "round-robin",
                      "--max-jobs", "2", "--interval", "0.1", "--allow", "succeed" })
    assert.equal(0, w.wait(20), w.log())
    assert.equal(1, client.queues.qa:length())
    assert.equal(1, client.queues.qb:length())
  end)

  it("rejects bad arguments with status 2", function()
    local w = spawn({ "--order", "sideways", "--queue", "x" })
    assert.equal(2, w.wait(5))
    assert.matches("order", w.log())
  end)
end)

describe("qless.worker.class", function()
  it("requires plain module names only, never a path, and a table with perform", function()
    local resolve = require("qless.worker").class
    assert.is_function(resolve("conformance_jobs.noop").perform)
    local ok, err = pcall(resolve, "conformance_jobs")
    assert.is_false(ok)
    assert.matches("is not a table with perform(job)", err, 1, true)
    for _, klass in ipairs({ "conformance_jobs/noop", "conformance_jobs..noop", ".noop", "noop.", "" }) do
      local ok, err = pcall(resolve, klass)
      assert.is_false(ok, klass)
      assert.matches("is not a module name", err, 1, true)
    end
  end)
end)

describe("qless_core.worker_main", function()
  local client, queue, workers
  fixture(function(c, q, w) client, queue, workers = c, q, w end)

  local function raw(mode, ...)
    local w = H.spawn_worker({ mode, "--url", H.url, "--queue", "work", "--interval", "0.1", "--allow", "k", ... },
      os.getenv("QLESS_LUA_RAW_WORKER"))
    workers[#workers + 1] = w
    return w
  end

  it("fails the job as LuaError when run raises a bare table, and goes on", function()
    local a = queue:put("k", {})
    local b = queue:put("k", {})
    local w = raw("raise", "--max-jobs", "2")
    assert.equal(0, w.wait(20), w.log())
    for _, jid in ipairs({ a, b }) do
      local job = client.jobs[jid]
      assert.equal("failed", job.state, w.log())
      assert.equal("LuaError", job.failure.group)
      assert.matches("^table: 0x%x+\nstack traceback:", job.failure.message)
    end
  end)

  it("completes the job whatever run returns", function()
    local jid = queue:put("k", {})
    local w = raw("value", "--max-jobs", "1")
    assert.equal(0, w.wait(20), w.log())
    assert.equal("complete", client.jobs[jid].state, w.log())
  end)

  it("fails with the error's name, retries a retryable error, and passes job, client and phase", function()
    local jid = queue:put("k", {})
    local w = raw("fail", "--max-jobs", "1")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[jid]
    assert.equal("failed", job.state, w.log())
    assert.equal("RawGroup", job.failure.group)
    assert.matches("^RawGroup: raw failure of " .. jid .. "\nstack traceback:", job.failure.message)

    jid = queue:put("k", {}, { retries = 2 })
    w = raw("retry", "--max-jobs", "1", "--backoff", "fixed:30")
    assert.equal(0, w.wait(20), w.log())
    job = client.jobs[jid]
    assert.equal("scheduled", job.state, w.log())
    assert.equal(1, job.remaining)
    assert.equal("RawRetry", job.failure.group)

    jid = queue:put("k", {})
    w = raw("args", "--max-jobs", "1", "--name", "raw-w")
    assert.equal(0, w.wait(20), w.log())
    assert.matches("^Args: phase=perform worker=raw%-w\n", client.jobs[jid].failure.message)
  end)

  it("detaches the borrowed job from Lua once perform returns", function()
    queue:put("k", {})
    local second = queue:put("k", {})
    local w = raw("stash", "--max-jobs", "2")
    assert.equal(0, w.wait(20), w.log())
    local job = client.jobs[second]
    assert.equal("Stashed", job.failure.group, w.log())
    assert.matches("^Stashed: jid=nil ok=false err=qless.InvalidArgument", job.failure.message)
  end)

  it("rejects args that are not strings before running anything", function()
    local ok, err = pcall(qless.core.worker_main, { "--queue", 1 }, function() end)
    assert.is_false(ok)
    assert.matches("args%[2%] is not a string", err)
  end)
end)
