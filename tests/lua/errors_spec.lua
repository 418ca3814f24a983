-- Every C status code surfaces as a qless error object of its own kind.
local qless = require "qless"
local H = require "helper"

local function check(err, name, code, pattern)
  assert.is_table(err)
  assert.is_true(qless.is_error(err), tostring(err))
  assert.is_true(qless.is_error(err, name), "expected " .. name .. ", got " .. tostring(err))
  assert.equal(name, err.name)
  assert.equal(code, err.code)
  assert.equal("integer", math.type(err.code))
  assert.equal(qless.errors[name], getmetatable(err))
  assert.is_string(err.message)
  assert.is_true(#err.message > 0)
  if pattern then assert.matches(pattern, err.message) end
  assert.equal("qless." .. name .. ": " .. err.message, tostring(err))
end

describe("qless errors", function()
  local client, queue
  before_each(function()
    H.flush()
    client = H.client()
    queue = client.queues.errors
  end)

  it("InvalidArgument for bad JSON data and empty names", function()
    check(H.raises(queue.put, queue, "k", "{not json"), "InvalidArgument", -1, "JSON")
    check(H.raises(function() return client.queues[""] end), "InvalidArgument", -1)
    check(H.raises(queue.put, queue, "k", { 1, nil, 3, [10] = 1 }), "InvalidArgument", -1, "job data")
  end)

  it("NotFound for operations on unknown jobs", function()
    local jid = queue:put("k", {})
    local job = client.jobs[jid]
    job:cancel()
    check(H.raises(job.requeue, job, "elsewhere"), "NotFound", -2)
    check(H.raises(job.refresh, job), "NotFound", -2)
  end)

  it("LockLost when another worker holds the job or after a timeout", function()
    queue:put("k", {})
    local job = queue:pop()
    local other = H.client({ worker_name = "someone-else" })
    local theirs = other.jobs[job.jid]
    check(H.raises(theirs.complete, theirs), "LockLost", -3)
    job:timeout()
    check(H.raises(job.complete, job), "LockLost", -3)
    check(H.raises(job.heartbeat, job), "LockLost", -3)
  end)

  it("StateError for dependencies of a non-depends job and canceling a dependency", function()
    local a = queue:put("k", {})
    local b = queue:put("k", {}, { depends = { a } })
    check(H.raises(client.jobs[a].depend, client.jobs[a], b), "StateError", -4)
    check(H.raises(client.cancel, client, a), "StateError", -4)
  end)

  it("ConnectionError for a closed port", function()
    -- The fixture's port with the server's pid file gone is not reliable;
    -- port 1 on loopback is privileged and closed.
    check(H.raises(qless.Client, "redis://127.0.0.1:1/0", { connect_timeout = 1 }), "ConnectionError", -6)
  end)

  it("ProtocolError when the server replies with a script error the core cannot classify", function()
    -- Make the config hash a string: the script then fails with WRONGTYPE.
    H.redis("SET", "ql:config", "not-a-hash")
    check(H.raises(function() return client.config.heartbeat end), "ProtocolError", -5, "WRONGTYPE")
  end)

  it("OutOfMemory and unknown codes keep the mapping", function()
    -- ENOMEM cannot be provoked honestly; this checks the mapping only.
    check(qless.core.new_error(-7, "no memory"), "OutOfMemory", -7, "no memory")
    local unknown = qless.core.new_error(-99, "odd")
    assert.equal("Error", unknown.name)
    assert.is_true(qless.is_error(unknown))
  end)

  it("raises plain messages for wrong argument types", function()
    local err = H.raises(queue.put, queue, "k", {}, { tags = { "ok", 5 } })
    assert.is_string(err)
    assert.matches("not a string", err)
    err = H.raises(queue.pop, queue, 1.5)
    assert.matches("expected an integer", err)
  end)

  -- The QLESS_OPTIONS typemap (swig/lua.i) called directly: a table of
  -- option name -> value becomes qless_put_options.
  local function put(opts) return require("qless_core").qless_queue_put(queue._h, "K", nil, opts) end

  it("option tables reach the job as given", function()
    local job = client.jobs[put({ priority = 2.5, tags = { "a", "b" }, retries = 3, jid = "j1" })]
    assert.same({ "j1", 2.5, 3 }, { job.jid, job.priority, job.retries })
    table.sort(job.tags)
    assert.same({ "a", "b" }, job.tags)
    job = client.jobs[put(nil)]
    assert.same({ 0, 5 }, { job.priority, job.retries })
    assert.same({ "solo" }, client.jobs[put({ tags = "solo" })].tags)
  end)

  it("option tables refuse unknown names and wrong types, naming the option", function()
    local err = H.raises(put, { priorty = 1 })
    assert.equal("InvalidArgument", err.name)
    assert.matches("'priorty'.*priority", err.message)
    local wrong = { jid = 5, delay = "soon", priority = "high", retries = 1.5, tags = { 1 }, depends = 7 }
    for name, value in pairs(wrong) do
      assert.matches("'" .. name .. "'", H.raises(put, { [name] = value }))
    end
    assert.equal("InvalidArgument", H.raises(put, { retries = 2 ^ 40 }).name)
    assert.equal(0, queue:length())
  end)
end)
