-- The Lua layer over the core: client, queues, jobs, recurring, config,
-- events, and the README example.
local qless = require "qless"
local H = require "helper"

describe("qless client", function()
  local client, queue
  before_each(function()
    H.flush()
    client = H.client({ worker_name = "spec-worker" })
    queue = client.queues["testing"]
  end)

  it("works in a namespace (option or URL)", function()
    local ns = qless.Client(H.url, { namespace = "lua" })
    assert.equal("lua", ns.namespace)
    local jid = ns.queues["q"]:put("K", {})
    assert.equal("q", qless.Client(H.url .. "?namespace=lua").jobs[jid].queue)
    assert.is_nil(client.jobs[jid])
    assert.has_error(function() qless.Client(H.url, { namespace = "a/b" }) end)
  end)

  it("runs a job through put, pop and complete", function()
    local jid = queue:put("my.Job", { count = 1, items = { "a" } }, { priority = 5, tags = { "t1", "t2" }, retries = 3 })
    assert.is_string(jid)
    assert.equal(1, queue:length())
    assert.equal("integer", math.type(queue:length()))

    local job = client.jobs[jid]
    assert.equal(jid, job.jid)
    assert.equal("my.Job", job.klass)
    assert.equal("testing", job.queue)
    assert.equal("waiting", job.state)
    assert.equal(5, job.priority)
    assert.same({ "t1", "t2" }, job.tags)
    assert.equal(3, job.retries)
    assert.equal("integer", math.type(job.retries))
    assert.equal(1, job.data.count)
    assert.equal("integer", math.type(job.data.count))
    assert.is_false(job.tracked)
    assert.is_nil(job.failure)

    local popped = queue:pop()
    assert.equal(jid, popped.jid)
    assert.equal("running", popped.state)
    assert.equal("spec-worker", popped.worker)
    assert.is_true(popped.expires > client:now())
    popped.data.count = 2            -- sent with complete
    assert.equal("complete", popped:complete())
    assert.is_nil(queue:pop())

    local done = client.jobs[jid]
    assert.equal("complete", done.state)
    assert.equal(2, done.data.count)
    local what = {}
    for i, h in ipairs(done.history) do what[i] = h.what end
    assert.same({ "put", "popped", "done" }, what)
    assert.same({ jid }, client:jids("complete"))
  end)

  it("accepts data as a JSON string and as nil", function()
    local a = queue:put("k", '{"x": [1, 2]}')
    local b = queue:put("k")
    assert.same({ 1, 2 }, { table.unpack(client.jobs[a].data.x) })
    assert.same({}, client.jobs[b].data)
  end)

  it("sends data as the protocol keeps it and reads it back unchanged", function()
    local json = qless.json
    local function stored(jid) return json.decode(client.jobs[jid]:json()).data end
    -- Empty data and empty tags: data is the object {}, tags a list.
    local empty = client.queues["other"]:put("k", {}, { tags = {} })
    assert.equal("{}", stored(empty))
    assert.same({}, client.jobs[empty].tags)
    local text = '{"big":9007199254740993,"empty":[],"f":1.0,"list":[1,null,"x"],"n":3,"none":null,"obj":{}}'
    local jid = queue:put("k", { big = 9007199254740993, empty = json.array(), f = 1.0, list = { 1, json.null, "x" },
                                 n = 3, none = json.null, obj = {} })
    assert.equal(text, stored(jid))
    -- Popped and completed untouched: the data goes back as it came.
    local job = queue:pop()
    assert.equal("integer", math.type(job.data.big))
    assert.equal("float", math.type(job.data.f))
    assert.equal(json.null, job.data.none)
    assert.equal(3, #job.data.list)
    job:complete()
    assert.equal(text, stored(jid))
    -- Data that JSON cannot carry is refused before anything is sent.
    for _, bad in ipairs({ { s = "\255" }, { x = 0 / 0 }, { 1, nil, 3 } }) do
      local ok, err = pcall(queue.put, queue, "k", bad)
      assert.is_false(ok)
      assert.is_true(qless.is_error(err, "InvalidArgument"), tostring(err))
      assert.matches("job data: json: ", err.message, 1, true)
    end
    assert.equal(0, queue:length())
  end)

  it("pops and peeks lists when given a count", function()
    for i = 1, 3 do queue:put("k", { i = i }, { priority = i }) end
    local peeked = queue:peek(2)
    assert.equal(2, #peeked)
    assert.equal(3, peeked[1].data.i)
    local popped = queue:pop(5)
    assert.equal(3, #popped)
    local counts = queue:counts()
    assert.equal(3, counts.running)
    assert.equal(0, counts.waiting)
    assert.is_false(counts.paused)
  end)

  it("advances, fails, retries and requeues jobs", function()
    local jid = queue:put("k", {})
    local job = queue:pop()
    assert.equal("waiting", job:complete({ next = "second" }))
    assert.equal("second", client.jobs[jid].queue)

    job = client.queues.second:pop()
    local remaining = job:retry(0, "flaky", "try again")
    assert.equal("integer", math.type(remaining))
    job = client.queues.second:pop()
    job:fail("broken", "it broke")
    local failed = client.jobs[jid]
    assert.equal("failed", failed.state)
    assert.same({ group = "broken", message = "it broke", when = failed.failure.when, worker = "spec-worker" }, failed.failure)
    assert.same({ broken = 1 }, client:failed_groups())
    local jids, total = client:failed("broken")
    assert.same({ jid }, jids)
    assert.equal(1, total)

    failed:requeue("testing", { priority = 7 })
    assert.equal("waiting", client.jobs[jid].state)
    assert.equal(7, client.jobs[jid].priority)
    job = queue:pop()
    local expires = job:heartbeat()
    assert.is_true(expires > client:now())
  end)

  it("handles tags, tracking, priority, logging and dependencies", function()
    local a = queue:put("k", {})
    local b = queue:put("k", {}, { depends = { a } })
    local job = client.jobs[a]
    job:tag("x", "y")
    job:untag({ "y" })
    assert.same({ "x" }, client.jobs[a].tags)
    local jids, total = client:tagged("x")
    assert.same({ a }, jids)
    assert.equal(1, total)
    job:track()
    assert.is_true(client.jobs[a].tracked)
    local tracked, expired = client:tracked()
    assert.equal(a, tracked[1].jid)
    assert.same({}, expired)
    job:untrack()
    job.priority = 9
    assert.equal(9, client.jobs[a].priority)
    job:log("hello", { k = "v" })
    local history = client.jobs[a].history
    assert.equal("hello", history[#history].what)

    local dependent = client.jobs[b]
    assert.equal("depends", dependent.state)
    assert.same({ a }, dependent.dependencies)
    assert.same({ b }, client.jobs[a].dependents)
    dependent:undepend(a)
    assert.equal("waiting", client.jobs[b].state)
    assert.same({ a, b }, (function() local t = {} for i, j in ipairs(client:multiget(a, "nope", b)) do t[i] = j.jid end return t end)())
    client:cancel(a, b)
    assert.is_nil(client.jobs[a])
  end)

  it("reports unknown jobs and recurring jobs as nil", function()
    assert.is_nil(client.jobs["no-such-jid"])
    assert.is_nil(client.recurring["no-such-jid"])
  end)

  it("manages recurring jobs", function()
    local jid = queue:recur("rec.Job", { a = 1 }, 60, { tags = { "r" }, priority = 2, retries = 1 })
    local r = client.recurring[jid]
    assert.equal("rec.Job", r.klass)
    assert.equal("testing", r.queue)
    assert.equal(60, r.interval)
    assert.equal(1, r.retries)
    assert.same({ "r" }, r.tags)
    assert.same({ a = 1 }, { a = r.data.a })
    r.priority = 4
    r.data = { a = 2 }
    assert.equal(4, client.recurring[jid].priority)
    assert.equal(2, client.recurring[jid].data.a)
    assert.equal(1, queue:counts().recurring)
    r:cancel()
    assert.is_nil(client.recurring[jid])
  end)

  it("reads and writes configuration", function()
    assert.equal("60", client.config.heartbeat)
    client.config["testing-heartbeat"] = 5
    assert.equal("5", client.config["testing-heartbeat"])
    local all = {}
    for k, v in pairs(client.config) do all[k] = v end
    assert.is_not_nil(all.heartbeat)
    client.config["testing-heartbeat"] = nil
    assert.is_nil(client.config["testing-heartbeat"])
    queue:set_heartbeat(7)
    assert.equal("7", client.config["testing-heartbeat"])
  end)

  it("lists queues and workers, pauses and unfails", function()
    queue:put("k", {})
    queue:pause()
    assert.is_nil(queue:pop())
    assert.is_true(queue:counts().paused)
    queue:unpause()
    local job = queue:pop()
    assert.same({ "testing" }, client:queue_names())
    assert.equal("testing", client:queue_counts()[1].name)
    assert.same({ { name = "spec-worker", jobs = 1 } }, client:workers())
    assert.same({ job.jid }, (client:worker_jobs("spec-worker")))
    job:fail("g", "m")
    assert.equal(1, queue:unfail("g"))
    assert.equal(1, queue:stats().failures)
    assert.equal(148, #queue:stats().run.histogram)
  end)

  it("makes raw protocol calls", function()
    assert.equal("60", client:call("config.get", "heartbeat"))
  end)

  it("delivers events", function()
    local events = client:events("log")
    queue:put("k", {})
    local channel, message = events:next(2)
    assert.equal("log", channel)
    assert.equal("put", qless.json.decode(message).event)
    assert.is_nil(events:next(0.05))
    events:close()
  end)

  it("runs the README example, which the README quotes verbatim", function()
    local out = H.quoted_example("example.lua", "README.md")
    assert.equal("true\texample.Job\thello\ncomplete\n", out)
  end)
end)
