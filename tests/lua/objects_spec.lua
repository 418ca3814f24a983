-- The layer's objects over the generated proxies (qless/handle.lua): what
-- they read through the proxies agrees with the server's own description
-- (the job and recurring JSON, the raw `queues` reply), for seeded random
-- jobs, templates and queue states. Seed: $QLESS_LUA_SEED, else the clock
-- (printed).
local qless = require "qless"
local H = require "helper"

local seed = tonumber(os.getenv("QLESS_LUA_SEED")) or os.time()
print("objects_spec seed " .. seed)

-- A plain sorted copy of a list (decoded JSON arrays carry a metatable).
local function sorted(list)
  local t = {}
  for i, v in ipairs(list or {}) do t[i] = v end
  table.sort(t)
  return t
end

local function pick(list) return list[math.random(#list)] end

local function random_tags()
  local tags = {}
  for _, tag in ipairs({ "a", "b", "c", "d" }) do
    if math.random() < 0.4 then tags[#tags + 1] = tag end
  end
  return tags
end

describe("qless objects", function()
  local client
  before_each(function()
    H.flush()
    math.randomseed(seed)
    client = H.client({ worker_name = "objects-spec" })
  end)

  it("read every job field as the job's JSON states it", function()
    local queues, jids = { "q1", "q2", "q3" }, {}
    for i = 1, 25 do
      local opts = { priority = math.random(-5, 5), retries = math.random(0, 5), tags = random_tags() }
      if #jids > 0 and math.random() < 0.3 then opts.depends = { pick(jids) } end
      jids[i] = client.queues[pick(queues)]:put("k" .. math.random(3), { i = i, s = tostring(math.random()) }, opts)
    end
    for _, name in ipairs(queues) do
      for _, job in ipairs(client.queues[name]:pop(math.random(0, 4))) do
        local r = math.random(4)
        if r == 1 then job:fail("group" .. math.random(2), "message " .. job.jid)
        elseif r == 2 then job:retry(0, "flaky", "again")
        elseif r == 3 then job:track() end
      end
    end
    for _, jid in ipairs(jids) do
      local job = client.jobs[jid]
      local view = qless.json.decode(job:json())
      for _, key in ipairs({ "jid", "klass", "queue", "state", "priority", "expires", "retries", "remaining" }) do
        assert.equal(view[key], job[key], key .. " of " .. jid)
      end
      assert.equal(view.worker, job.worker)
      assert.equal(view.tracked, job.tracked)
      assert.equal(view.spawned_from_jid or nil, job.spawned_from_jid)
      assert.same(sorted(view.tags), sorted(job.tags))
      assert.same(sorted(view.dependencies), sorted(job.dependencies))
      assert.same(sorted(view.dependents), sorted(job.dependents))
      assert.same(qless.json.decode(view.data), job.data)
      assert.equal(#view.history, #job.history)
      if view.failure.group then
        assert.same({ group = view.failure.group, message = view.failure.message, when = view.failure.when,
                      worker = view.failure.worker }, job.failure)
      else
        assert.is_nil(job.failure)
      end
    end
  end)

  it("read every recurring field as recur.get states it, and write through the proxy's setters", function()
    for i = 1, 6 do
      local jid = client.queues["r" .. math.random(2)]:recur("rk" .. i, { i = i }, math.random(10, 100),
        { priority = math.random(0, 9), retries = math.random(0, 4), backlog = math.random(0, 3), tags = random_tags() })
      local r = client.recurring[jid]
      if math.random() < 0.5 then
        r.priority, r.retries, r.interval, r.backlog = math.random(0, 9), math.random(0, 4), math.random(10, 99), 2
        r.klass, r.queue, r.data = "moved" .. i, "r3", { moved = true }
      end
      r = client.recurring[jid]
      local view = qless.json.decode(client:call("recur.get", jid))
      for _, key in ipairs({ "jid", "klass", "queue", "priority", "interval", "retries", "backlog", "count" }) do
        assert.equal(view[key], r[key], key .. " of " .. jid)
      end
      assert.same(sorted(view.tags), sorted(r.tags))
      assert.same(qless.json.decode(view.data), r.data)
    end
  end)

  it("give queue counts as the server's queues reply and each queue's counts do", function()
    local queues = { "c1", "c2", "c3", "c4" }
    local jids = {}
    for _ = 1, 30 do
      local queue, r = client.queues[pick(queues)], math.random(6)
      if r <= 3 then
        jids[#jids + 1] = queue:put("k", {}, { depends = (#jids > 0 and math.random() < 0.2) and { pick(jids) } or nil })
      elseif r == 4 then queue:put("k", {}, { delay = 3600 })
      elseif r == 5 then queue:pop(math.random(2))
      else queue:recur("k", {}, 3600, { offset = 3600 }) end
    end
    client.queues[pick(queues)]:pause()
    -- Ten minutes on, the locks of the popped jobs have expired: stalled.
    local observers = { client, H.client() }
    observers[2]:set_time_offset(600)
    for _, observer in ipairs(observers) do
      local typed = observer:queue_counts()
      local raw = qless.json.decode(qless.core.qless_client_queues_json(observer._h))
      assert.equal(#raw, #typed)
      for i, counts in ipairs(typed) do
        local own = observer.queues[counts.name]:counts()
        own.name = counts.name
        assert.same(own, counts)
        for key, value in pairs(counts) do assert.equal(raw[i][key], value, key .. " of " .. counts.name) end
      end
    end
  end)

  it("keep the layer's field rules over the proxies' attributes", function()
    local job = client.jobs[client.queues.f:put("k", {})]
    assert.is_nil(job.no_such_field)
    assert.matches("qless.Job: field 'jid' cannot be set", H.raises(function() job.jid = "x" end))
    assert.matches("qless.Client: field 'now' cannot be set", H.raises(function() client.now = 1 end))
    assert.equal("integer", math.type(job.retries))
    assert.is_true(client:now() > 0)
    local closed = H.client({ worker_name = "closing" })
    closed:close()
    assert.equal("qless.Client(closing)", tostring(closed))
  end)
end)
