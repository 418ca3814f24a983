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
end)
