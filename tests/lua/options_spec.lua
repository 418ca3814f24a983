-- The QLESS_OPTIONS typemap (swig/lua.i) called directly: a table of option
-- name -> value becomes qless_put_options.
local H = require "helper"
local core = require "qless_core"

describe("options tables", function()
  local client, queue
  before_each(function()
    H.flush()
    client = H.client()
    queue = client.queues.opts
  end)

  local function put(opts) return core.qless_queue_put(queue._h, "K", nil, opts) end

  it("reach the job as given", function()
    local job = client.jobs[put({ priority = 2.5, tags = { "a", "b" }, retries = 3, jid = "j1" })]
    assert.same({ "j1", 2.5, 3 }, { job.jid, job.priority, job.retries })
    table.sort(job.tags)
    assert.same({ "a", "b" }, job.tags)
    job = client.jobs[put(nil)]
    assert.same({ 0, 5 }, { job.priority, job.retries })
    assert.same({ "solo" }, client.jobs[put({ tags = "solo" })].tags)
  end)

  it("refuse unknown names and wrong types, naming the option", function()
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
