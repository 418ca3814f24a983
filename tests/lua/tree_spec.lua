-- Job trees in the Lua layer (qless.tree): trees, ports, channels, state,
-- aliases, the registry and the tree methods of a Job, with their errors.
local qless = require "qless"
local json = qless.json
local H = require "helper"

local function raises(name, f, ...)
  local err = H.raises(f, ...)
  assert.is_true(qless.is_error(err, name), "expected " .. name .. ", got " .. tostring(err))
  return err
end

describe("job trees", function()
  local client, queue
  before_each(function() client, queue = H.fresh("trees") end)

  it("puts tree jobs with the tree options and reads them back as native values", function()
    local jid = queue:put("k.Tree", { n = 1 }, { tree = true, inports = { "a" },
      outports = { b = { default = { 1, 2 } } }, aliases = { "root-one" }, by = "tester" })
    local t = client.trees[jid]
    assert.equal(jid, t.jid)
    assert.equal("k.Tree", t.klass)
    assert.equal("trees", t.queue)
    assert.equal("waiting", t.state)
    assert.is_nil(t.parent)
    assert.is_nil(t.started)
    assert.equal("tester", t.created_by)
    assert.same({ "root-one" }, t.aliases)
    assert.same({ a = {} }, t.inports)
    assert.same({ b = { default = { 1, 2 } } }, t.outports)
    assert.same({ { 1, 2 } }, t.ports.out.b:read(5))   -- an empty port with a default reads it
    assert.equal(jid, client.aliases["root-one"])
    assert.is_nil(client.aliases["nobody"])
    assert.is_nil(client.trees["no-such-job"])
    raises("StateError", function() return client.trees[queue:put("k.Plain", {})] end)
    raises("InvalidArgument", function() return client.trees[42] end)
  end)

  it("requeues a job with the tree options, which attach it", function()
    local root = queue:put("k.Root", {}, { tree = true })
    local jid = queue:put("k.Plain", {})
    client.jobs[jid]:requeue("trees2", { priority = 3, parent = root, name = "moved", inports = { "in" } })
    local t = client.trees[jid]
    assert.same({ "trees2", root, "moved", { ["in"] = {} } }, { t.queue, t.parent, t.name, t.inports })
    assert.same({ moved = jid }, client.trees[root].children)
  end)

  it("refuses bad tree options before anything is written", function()
    raises("InvalidArgument", queue.put, queue, "k", {}, { tree = "yes" })
    raises("InvalidArgument", queue.put, queue, "k", {}, { inports = { 7 } })
    raises("InvalidArgument", queue.put, queue, "k", {}, { inports = { p = { default = print } } })
    raises("InvalidArgument", queue.put, queue, "k", {}, { outports = 3 })
    raises("InvalidArgument", queue.put, queue, "k", {}, { inports = { p = { nope = 1 } } })
    assert.same({}, (client:queue_names()))
  end)

  it("reads, peeks, sizes and writes ports with native values", function()
    local jid = queue:put("k", {}, { inports = { "in" }, outports = { "out" } })
    local p = client.trees[jid].ports["in"]["in"]
    p:write({ a = 1 }, "two", 3.5, nil, { 1, { x = json.null } })
    assert.equal(5, p.size)
    assert.same({ { a = 1 }, "two" }, p:peek(2))
    assert.same({ { a = 1 } }, p:read())
    local rest = p:read(10)
    assert.equal("two", rest[1])
    assert.equal(3.5, rest[2])
    assert.equal(json.null, rest[3])
    assert.equal(json.null, rest[4][2].x)
    assert.equal(0, p.size)
    assert.same({}, p:read(3))
    raises("InvalidArgument", p.write, p)
    raises("InvalidArgument", p.write, p, print)
    raises("InvalidArgument", p.read, p, 0)
    raises("InvalidArgument", p.read, p, 1001)
    raises("InvalidArgument", function() return client.trees[jid].ports.out[{}] end)
    local missing = client.trees[jid].ports["in"].nope
    raises("NotFound", missing.read, missing)
  end)

  it("keeps a port's values in order under random writes and reads (seeded)", function()
    local seed = tonumber(os.getenv("QLESS_TREE_SEED")) or os.time()
    print("tree_spec seed " .. seed)
    math.randomseed(seed)
    local jid = queue:put("k", {}, { inports = { "in" } })
    local p = client.trees[jid].ports["in"]["in"]
    local model, next_value = {}, 1
    for _ = 1, 60 do
      local op = math.random(3)
      if op == 1 then
        local values = {}
        for i = 1, math.random(4) do values[i] = { n = next_value, s = tostring(next_value) }; next_value = next_value + 1 end
        p:write(table.unpack(values))
        for _, v in ipairs(values) do model[#model + 1] = v end
      elseif op == 2 then
        local n = math.random(5)
        local got, want = p:read(n), {}
        for i = 1, math.min(n, #model) do want[i] = table.remove(model, 1) end
        assert.same(want, got, "seed " .. seed)
      else
        local n = math.random(5)
        assert.same({ table.unpack(model, 1, math.min(n, #model)) }, p:peek(n), "seed " .. seed)
      end
      assert.equal(#model, p.size, "seed " .. seed)
    end
  end)

  it("defines and removes ports, connects them and publishes to channels", function()
    local jid = queue:put("k", {}, { tree = true })
    local ports = client.trees[jid].ports
    ports["in"].feed:define()
    ports["in"].cfg:define({ default = { on = true } })
    assert.same({ feed = {}, cfg = { default = { on = true } } }, client.trees[jid].inports)
    assert.same({ { on = true } }, ports["in"].cfg:peek())
    assert.equal(2, ports["in"].feed:connect("/news", "/sport"))
    assert.equal(0, ports["in"].feed:connect({ "/news" }))
    local ch = client.channels["/news"]
    assert.same({ { jid, "feed" } }, ch.subscribers)
    assert.equal(1, client.channels["/news/today"]:publish({ headline = "x" }, { from = jid }))
    assert.same({ { headline = "x" } }, ports["in"].feed:read())
    assert.equal(1, ports["in"].feed:disconnect("/news"))
    assert.same({}, ch.subscribers)
    assert.equal(0, ch:publish("nobody listens"))
    assert.is_true(ports["in"].cfg:remove())
    assert.is_false(ports["in"].cfg:remove())
    raises("InvalidArgument", ch.publish, ch, print)
    raises("InvalidArgument", client.channels["/qless/log"].publish, client.channels["/qless/log"], 1)
    raises("InvalidArgument", function() return client.channels[1] end)
  end)

  it("gets, sets and deletes per-job state as x.store", function()
    local jid = queue:put("k", {}, { tree = true })
    local store = client.trees[jid].store
    assert.is_nil(store.seen)
    store.seen = 3
    store.cfg = { deep = { 1, "two" } }
    assert.equal(3, store.seen)
    assert.same({ deep = { 1, "two" } }, store.cfg)
    assert.same({ seen = 3, cfg = { deep = { 1, "two" } } }, store())
    local keys = {}
    for k in pairs(store) do keys[#keys + 1] = k end
    table.sort(keys)
    assert.same({ "cfg", "seen" }, keys)
    store.seen = nil
    assert.is_nil(store.seen)
    assert.same({ cfg = { deep = { 1, "two" } } }, client.jobs[jid].store())
    raises("InvalidArgument", function() store[1] = 2 end)
    raises("InvalidArgument", function() store.f = print end)
    raises("NotFound", function() return require("qless.tree").store(client._h, "no-such-job").k end)
  end)

  it("adopts, disowns, aliases, terminates, runs and deletes trees", function()
    local root = queue:put("k", {}, { tree = true })
    local kid = queue:put("k", {}, { tree = true })
    local t = client.trees[root]
    t:adopt("kid", kid)
    assert.same({ kid = kid }, client.trees[root].children)
    assert.equal(root, client.trees[kid].parent)
    raises("StateError", t.adopt, t, "again", client.trees[kid])
    assert.equal(kid, t:disown("kid"))
    raises("NotFound", t.disown, t, "kid")
    t:adopt("kid", client.trees[kid])
    assert.equal(2, t:alias("a1", "a2"))
    assert.equal(0, t:alias({ "a1" }))
    assert.equal(1, t:unalias("a2"))
    t:refresh()
    assert.same({ "a1" }, t.aliases)
    raises("StateError", t.delete, t)
    assert.equal(2, t:terminate(true))
    assert.equal("terminated", client.trees[kid].state)
    assert.equal("waiting", client.trees[kid]:run())
    assert.equal(1, client.trees[kid]:terminate())
    assert.equal(2, t:delete())
    assert.is_nil(client.trees[root])
    raises("NotFound", t.refresh, t)
  end)

  it("registers klass configs that new tree jobs of the queue get", function()
    assert.is_true(queue:register("k.Reg", { inports = { "x" }, outports = { y = { default = 0 } }, note = "kept" }))
    assert.is_false(queue:register("k.Reg", '{"inports": {"x": {}}}'))
    assert.same({ inports = { x = {} } }, queue:klass_config("k.Reg"))
    queue:register("k.Reg", { inports = { "x" }, note = "kept" })
    assert.same({ ["k.Reg"] = { inports = { x = {} }, note = "kept" } }, queue:klass_config())
    local jid = queue:put("k.Reg", {}, { tree = true })
    assert.same({ x = {} }, client.trees[jid].inports)
    assert.is_true(queue:unregister("k.Reg"))
    assert.is_false(queue:unregister("k.Reg"))
    assert.is_nil(queue:klass_config("k.Reg"))
    raises("InvalidArgument", queue.register, queue, "k", "[1]")
    raises("InvalidArgument", queue.register, queue, "k", { inports = 5 })
  end)

  it("gives a job its ports, state, children and parent", function()
    local jid = queue:put("k", {}, { inports = { "in" }, outports = { "out" } })
    client.trees[jid].ports["in"]["in"]:write(1, 2)
    local job = queue:pop()
    assert.same({ 1 }, job:read("in"))
    job:write("out", "a", "b")
    assert.same({ "a", "b" }, job.ports.out.out:read(5))
    job.store.k = "v"
    assert.equal("v", client.trees[jid].store.k)
    local child = job:child("first", "k.Child", { x = 1 }, { queue = "kids", outports = { "o" } })
    local c = client.trees[child]
    assert.equal(jid, c.parent)
    assert.equal("first", c.name)
    assert.equal("kids", c.queue)
    assert.equal("job:" .. jid, c.created_by)
    assert.same({ o = {} }, c.outports)
    assert.same({ first = child }, job.children)
    assert.is_nil(job.parent)
    assert.equal(jid, client.jobs[child].parent)
    assert.equal(jid, job.tree.jid)
    -- Only the worker engine's perform has a run to suspend.
    raises("StateError", job.suspend, job)
    raises("InvalidArgument", job.child, job, nil, "k")
  end)
end)

describe("the job-tree example of docs/lua.md", function()
  before_each(H.flush)

  it("runs, and is quoted verbatim in docs/lua.md", function()
    assert.equal("true\ttrue\n1\t3\t3\n3\n2\tterminated\n2\tnil\n", H.quoted_example("tree_example.lua", "docs/lua.md"))
  end)
end)
