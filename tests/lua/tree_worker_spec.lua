-- The worker side of job trees: how qless.worker finds tree classes from
-- the allow-list, and a real qless-worker running one (startup, perform
-- with ports and state, suspend, shutdown).
local qless = require "qless"
local worker = require "qless.worker"
local H = require "helper"

describe("qless.worker tree classes", function()
  it("come from exact patterns and from a package's fields for pkg.*", function()
    local found = worker.tree_classes({ "tree_job", "conformance_jobs.*", "succeed", "*", "no_such_module",
                                        "bad/../name", "x.*.y" })
    assert.same({ "tree_job", "conformance_jobs.tree" }, found.klasses)
    assert.same(qless.json.decode('{"inports":{"in":{}},"outports":{"out":{"default":0}}}'),
      qless.json.decode(found.configs[1]))
    assert.same({ inports = { ["in"] = {} }, outports = { out = {} } }, qless.json.decode(found.configs[2]))
    assert.is_nil(worker.tree_classes({ "succeed", "*" }))
    assert.is_nil(worker.tree_classes({}))
  end)

  it("name the class whose ports cannot be encoded", function()
    package.loaded["bad_tree"] = { inports = { 5 }, perform = function() end }
    local err = H.raises(worker.tree_classes, { "bad_tree" })
    assert.is_true(qless.is_error(err, "InvalidArgument"), tostring(err))
    assert.matches("tree class bad_tree: inports", err.message)
    package.loaded["bad_tree"] = nil
  end)
end)

describe("qless-worker with a tree class", function()
  local client, queue, w
  before_each(function() client, queue = H.fresh("work") end)
  after_each(function() if w then w.cleanup() end end)

  it("registers its ports, starts, suspends, wakes on input and shuts down", function()
    w = H.spawn_worker({ "--url", H.url, "--queue", "work", "--interval", "0.05", "--allow", "tree_job",
                         "--allow", "plain_suspend" })
    assert.truthy(H.eventually(function() return queue:klass_config("tree_job") ~= nil end), w.log())
    local jid = queue:put("tree_job", {}, { tree = true })
    assert.truthy(H.eventually(function() return client.trees[jid].state == "suspended" end), w.log())
    local t = client.trees[jid]
    assert.equal(1, t.store.boot)
    assert.is_not_nil(t.started)
    t.ports["in"]["in"]:write(1, 2, 3)
    assert.truthy(H.eventually(function() return client.trees[jid].state == "complete" end), w.log())
    assert.same({ 6 }, t.ports.out.out:read(5))
    assert.equal(1, t.store.boot)
    assert.equal(1, t:terminate())
    assert.truthy(H.eventually(function() return client.trees[jid].state == "terminated" end), w.log())
    assert.is_true(t.store.down)

    local plain = queue:put("plain_suspend", {})
    assert.truthy(H.eventually(function() return client.jobs[plain].state == "failed" end), w.log())
    assert.equal("StateError", client.jobs[plain].failure.group)
    assert.matches("suspend", client.jobs[plain].failure.message)
  end)
end)
