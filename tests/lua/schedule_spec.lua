-- client.schedules (schedules.md §6.4, §7; checklist BND-1, BND-2 and the
-- Lua half of UNQ-10), qless.when, cron_next and unique puts, checked
-- against what lands in Redis.
local qless = require "qless"
local H = require "helper"

local N = 1772619330   -- 2026-03-04T10:15:30Z, a Wednesday

local function near(want, got, slack)
  assert.is_number(got)
  assert.is_true(math.abs(got - want) <= (slack or 0.5), string.format("%s is not %s", got, want))
end

local function hget(key, field) return H.redis("HGET", key, field) end
local function zscore(key, member) return tonumber(H.redis("ZSCORE", key, member)) end
local function keys() return H.redis("KEYS", "ql:*") end

-- The error f raised: a qless InvalidArgument, or a plain message (wrong
-- types, as elsewhere in the layer); never a Lua runtime error.
local function argument_error(f, ...)
  local err = H.raises(f, ...)
  if type(err) == "string" then
    assert.is_nil(err:find("attempt to", 1, true), err)
    return err
  end
  assert.is_true(qless.is_error(err, "InvalidArgument"), tostring(err))
  return err.message
end

describe("client.schedules", function()
  local client, s
  before_each(function()
    H.flush()
    client = H.client()
    client:set_time_offset(N - qless.time())
    s = client.schedules.tasks
  end)

  it("adds one-offs at a time given as text or epoch seconds (BND-1: at)", function()
    local jid = s:add("K", { i = 1 }, { at = "7pm tomorrow" })
    assert.equal("scheduled", hget("ql:j:" .. jid, "state"))
    near(1772737200, zscore("ql:q:tasks-scheduled", jid))
    jid = s:add("K", { i = 2 }, { at = 1772737260 })
    near(1772737260, zscore("ql:q:tasks-scheduled", jid))
    assert.matches("at_text 2026%-03%-04T09:00:00Z is in the past",
                   argument_error(s.add, s, "K", { past = 1 }, { at = "today at 9am" }))
    assert.equal("waiting", hget("ql:j:" .. s:add("K", { now = 1 }, { at = "now" }), "state"))
    assert.equal("qless.Schedule(tasks)", tostring(s))
  end)

  it("reads day first when asked, and reports a weekday that is not the date's", function()
    near(1775379600, zscore("ql:q:tasks-scheduled", s:add("M", nil, { at = "4/5/2026 9am" })))   -- 2026-04-05
    near(1777885200, zscore("ql:q:tasks-scheduled", s:add("D", nil, { at = "4/5/2026 9am", day_first = true })))
    assert.has_error(function() s:add("D", nil, { at = "4/5/2026 9am", day_first = 1 }) end)
    assert.matches("takes no day_first", argument_error(s.add_now, s, "K", nil, { day_first = true }))
    local jid, inserted, warning = s:add("W", nil, { at = "Thu Aug 10 2026 9am", report = true })
    assert.is_true(inserted)
    assert.equal("2026-08-10 is a Monday, not a Thursday; the date is used", warning)
    near(1786352400, zscore("ql:q:tasks-scheduled", jid))
    qless.when("Thu Aug 10 2026", N)   -- leaves a warning on the thread that an add without text does not repeat
    assert.is_nil(select(3, s:add("N", nil, { ["in"] = 60, report = true })))
    assert.is_nil(select(3, s:add("A", nil, { at = "Mon Aug 10 2026 10am", report = true })))
  end)

  it("adds one-offs after a duration given as seconds or text (BND-1: in)", function()
    for i, delay in ipairs({ 300, "5 minutes", "in 5 minutes", "  IN 5 minutes" }) do
      local jid = s:add("K", { i = i }, { ["in"] = delay })
      assert.equal("scheduled", hget("ql:j:" .. jid, "state"))
      near(N + 300, zscore("ql:q:tasks-scheduled", jid), 5)
    end
  end)

  it("adds templates for every and cron (BND-1: every, cron)", function()
    local every = s:add("K", { e = 1 }, { every = 300 })
    assert.equal("interval", hget("ql:r:" .. every, "type"))
    assert.equal("300", hget("ql:r:" .. every, "interval"))
    local later = s:add("K", { e = 2 }, { every = "2 days at 9am" })
    near(1772701200, zscore("ql:q:tasks-recur", later))
    assert.equal("172800", hget("ql:r:" .. later, "interval"))
    local weekly = s:add("K", { e = 3 }, { every = "every monday 9am" })
    assert.equal("cron", hget("ql:r:" .. weekly, "type"))
    assert.equal("0 9 * * 1", hget("ql:r:" .. weekly, "cron"))
    local cron = s:add("K", { c = 1 }, { cron = "0 9 * * mon-fri" })
    assert.equal("0 9 * * MON-FRI", hget("ql:r:" .. cron, "cron"))
    assert.equal(1772701200, zscore("ql:q:tasks-cron", cron))
    assert.same({ 1772701200, 1772787600, 1773046800 }, s:next(cron, 3))
    assert.equal("0 9 * * MON-FRI", client.recurring[cron].cron)
    local kinds = {}
    for _, e in ipairs(s:entries()) do kinds[e.jid] = e.kind end
    assert.same({ [every] = "interval", [later] = "interval", [weekly] = "cron", [cron] = "cron" }, kinds)
  end)

  it("refuses none or two of at, in, cron, every, writing nothing (BND-1)", function()
    local cases = { {}, { at = N + 60, ["in"] = 60 }, { cron = "* * * * *", every = 60 },
                    { at = N, ["in"] = 1, cron = "* * * * *", every = 1 } }
    for _, opts in ipairs(cases) do
      -- the core makes the choice, and refuses it, for every binding
      assert.matches("Schedule:add: .*give exactly one of at, in, every and cron", argument_error(s.add, s, "K", {}, opts))
    end
    assert.matches("given: none", argument_error(s.add, s, "K", {}))
    assert.matches("given: at, in", argument_error(s.add, s, "K", {}, cases[2]))
    assert.matches("not a one%-off time", argument_error(s.add, s, "K", {}, { at = "every monday" }))
    -- columns count in the text as given, though "in"/"every" is put before it
    assert.matches('in: .*unknown word "blorp" at column 11', argument_error(s.add, s, "K", {}, { ["in"] = "5 minutes blorp" }))
    assert.matches('every: .*unknown word "blorp" at column 5', argument_error(s.add, s, "K", {}, { every = "day blorp" }))
    assert.matches('every: .*unknown word "blorp" at column 11', argument_error(s.add, s, "K", {}, { every = "every day blorp" }))
    assert.matches("Schedule:add_now: takes no cron", argument_error(s.add_now, s, "K", {}, { cron = "* * * * *" }))
    assert.equal("", keys())
  end)

  it("adds uniquely unless told otherwise, and passes the options on", function()
    local jid, inserted = s:add("K", { a = 1 }, { ["in"] = 60, report = true })
    assert.is_true(inserted)
    assert.same({ jid, false }, { s:add("K", { a = 1 }, { at = "7pm tomorrow", report = true }) })
    assert.same({ jid, false }, { s:add_now("K", { a = 1 }, { report = true }) })
    assert.equal(jid, s:add_now("K", { a = 1 }))
    near(N + 60, zscore("ql:q:tasks-scheduled", jid), 5)   -- the first time stands
    local other = s:add("K", { a = 1 }, { ["in"] = 60, unique = false })
    assert.is_true(other ~= jid and s:add("K", { a = 1 }, { ["in"] = 60, unique = false }) ~= other)
    local keyed = s:add("K", { a = 2 }, { cron = "@daily", key = "nightly", priority = 5, tags = { "x" }, backlog = 2 })
    assert.equal(qless.unique_jid("tasks", nil, nil, { key = "nightly" }), keyed)
    assert.same({ "5", "2", '["x"]' }, { hget("ql:r:" .. keyed, "priority"), hget("ql:r:" .. keyed, "backlog"),
                                        hget("ql:r:" .. keyed, "tags") })
    assert.equal("mine", s:add("K", {}, { jid = "mine", ["in"] = 1 }))
    assert.equal("7", hget("ql:j:" .. s:add_now("K", { r = 1 }, { retries = 7 }), "retries"))
  end)

  it("removes entries and tells their next times", function()
    local one = s:add("K", { o = 1 }, { at = "7pm tomorrow" })
    local tpl = s:add("K", { t = 1 }, { cron = "0 * * * *" })
    local now = s:add_now("K", { n = 1 })
    local next_one = s:next(one, 3)
    assert.equal(1, #next_one)
    near(1772737200, next_one[1])
    local listed = {}
    for _, e in ipairs(s:entries()) do listed[#listed + 1] = e.jid end
    table.sort(listed)
    local want = { one, tpl }
    table.sort(want)
    assert.same(want, listed)                                    -- waiting jobs are no entries
    assert.is_true(qless.is_error(H.raises(s.next, s, now), "NotFound"))
    assert.is_true(s:remove(one))
    assert.is_true(s:remove(tpl))
    assert.is_false(s:remove(one))
    assert.is_false(s:remove(now))
    assert.is_false(s:remove("nope"))
    assert.same({}, s:entries())
    assert.equal("waiting", hget("ql:j:" .. now, "state"))
    assert.matches("Schedule:next: n must be an integer", argument_error(s.next, s, tpl, "3"))
    assert.matches("client.schedules: name must be a string", argument_error(function() return client.schedules[5] end))
  end)

  it("gives entries the jids of C's qless_unique_jid (UNQ-10, Lua half; seeded)", function()
    local seed = tonumber(os.getenv("QLESS_SCHEDULE_SEED")) or os.time()
    print("schedule_spec UNQ-10 seed " .. seed)
    math.randomseed(seed)
    local crons = { { "@daily", "0 0 * * *" }, { "0 9 * * mon-fri", "0 9 * * 1-5" }, { "0 0 * * 7", "0 0 * * 0" } }
    local values = { 1, 1.5, "x", qless.json.null, { 1, 2 }, { k = "v" } }
    for i = 1, 30 do
      local data = { i = i, v = values[math.random(#values)] }
      local kind = ({ "now", "at", "in", "every", "cron" })[math.random(5)]
      local want, add
      if kind == "now" then
        want = qless.unique_jid("tasks", "K", data)
        add = function() return s:add_now("K", data, { report = true }) end
      elseif kind == "at" or kind == "in" then
        want = qless.unique_jid("tasks", "K", data)
        local opts = { report = true, [kind] = kind == "at" and N + math.random(60, 9999) or math.random(1, 999) }
        add = function() return s:add("K", data, opts) end
      elseif kind == "every" then
        local seconds = math.random(1, 9999)
        want = qless.unique_jid("tasks", "K", data, { interval = seconds })
        add = function() return s:add("K", data, { every = seconds, report = true }) end
      else
        local pick = crons[math.random(#crons)]
        want = qless.unique_jid("tasks", "K", data, { cron = pick[2] })
        add = function() return s:add("K", data, { cron = pick[1], report = true }) end
      end
      assert.same({ want, true }, { add() }, kind)
      assert.same({ want, false }, { add() }, kind)
      assert.equal("1", H.redis("EXISTS", (kind == "every" or kind == "cron") and "ql:r:" .. want or "ql:j:" .. want))
    end
  end)

  it("answers bad input with an argument error naming the call, writing nothing (seeded)", function()
    local seed = tonumber(os.getenv("QLESS_SCHEDULE_SEED")) or os.time()
    print("schedule_spec bad input seed " .. seed)
    math.randomseed(seed)
    local words = { "tomorow", "fortnightly", "at", "every", "7pm", "25:00", "in", "-", "31st", "feb", "0x10", "" }
    local tokens = { "*", "61", "24", "1-", "*/0", "L", "5L", "1#6", "FRI-MON", "?", "W", "1,,2", "mon", "x", "" }
    local junk = { true, false, {}, { 1 }, print, 1.5, -1 }
    local function text(from, n)
      local t = {}
      for i = 1, n do t[i] = from[math.random(#from)] end
      return table.concat(t, " ")
    end
    for _ = 1, 150 do
      local klass, data, opts = "K", { n = 1 }, {}
      local case = math.random(6)
      if case == 1 then       -- text that is no time
        local name = ({ "at", "in", "every" })[math.random(3)]
        opts[name] = "blorp " .. text(words, math.random(0, 3))
      elseif case == 2 then   -- an expression with a bad field
        local fields = { "0", "9", "*", "*", "*" }
        fields[math.random(5)] = ({ "61", "*/0", "1#6", "FRI-MON", "?", "1,,2", "L5", "99" })[math.random(8)]
        opts.cron = math.random(2) == 1 and table.concat(fields, " ") or text(tokens, math.random(1, 8)) .. " 99"
      elseif case == 3 then   -- a time of the wrong type
        opts[({ "at", "in", "every", "cron" })[math.random(4)]] = junk[math.random(3, 5)]
      elseif case == 4 then   -- options of the wrong type or unknown
        opts["in"] = 5
        local bad = { { unique = "yes" }, { report = 1 }, { retries = "many" }, { priority = "high" },
                      { tags = { 1 } }, { key = 5 }, { jid = true }, { backlog = 1.5 }, { priorty = 1 } }
        for k, v in pairs(bad[math.random(#bad)]) do opts[k] = v end
      elseif case == 5 then   -- a klass or option table of the wrong type
        klass = junk[math.random(#junk)]
        opts.at = N
        if math.random(2) == 1 then klass, opts = "K", junk[math.random(1, 2)] end
      else                    -- data that is not JSON, or two times at once
        opts.at = "7pm tomorrow"
        if math.random(2) == 1 then opts.cron = "* * * * *" else data = "{not json" end
      end
      assert.matches("Schedule:add", argument_error(s.add, s, klass, data, opts), 1, true)
    end
    assert.equal("", keys())
  end)
end)

describe("qless.when, cron_next and unique puts", function()
  local client
  before_each(function()
    H.flush()
    client = H.client()
  end)

  it("reads time text without a server, naming the bad word", function()
    assert.same({ kind = "at", at = 1772737200, interval = 0, cron = "" }, qless.when("7pm tomorrow", N))
    assert.same({ kind = "interval", at = 1772701200, interval = 172800, cron = "" },
                qless.when("every 2 days at 9am", N))
    assert.equal("15 7 * * 1,3", qless.when("every mon, wed at 7:15", N).cron)
    assert.equal("cron", qless.when("every mon, wed at 7:15", N).kind)
    local err = H.raises(qless.when, "tomorow", N)
    assert.is_true(qless.is_error(err, "InvalidArgument"))
    assert.matches('^qless.when: .*unknown word "tomorow" at column 1', err.message)
    assert.matches("qless.when: text must be a string", H.raises(qless.when, 5))
    assert.matches("qless.when: now must be a number", H.raises(qless.when, "now", "later"))
    near(qless.time(), qless.when("now").at, 5)
  end)

  it("reads day first when asked and warns of a weekday that is not the date's", function()
    assert.equal(1804118400, qless.when("3/4/2027", N).at)
    assert.equal(1806710400, qless.when("3/4/2027", N, { day_first = true }).at)
    assert.is_nil(qless.when("3/4/2027", N).warning)
    assert.same({ kind = "at", at = 1786320000, interval = 0, cron = "",
                  warning = "2026-08-10 is a Monday, not a Thursday (it is in 2028); the date is used" },
                qless.when("Thu Aug 10", N))
    assert.is_nil(qless.when("Mon Aug 10", N).warning)
    assert.matches("qless.when: day_first must be a boolean", H.raises(qless.when, "now", N, { day_first = 1 }))
    assert.matches("qless.when: unknown option dayfirst", H.raises(qless.when, "now", N, { dayfirst = true }))
  end)

  it("lists cron fire times and cron templates' due times", function()
    client:set_time_offset(N - qless.time())
    assert.same({ 1772701200, 1772787600, 1773046800 }, client:cron_next("0 9 * * 1-5", 3))
    assert.equal(5, #client:cron_next("@hourly"))
    assert.is_true(qless.is_error(H.raises(client.cron_next, client, "0 24 * * *"), "InvalidArgument"))
    local jid = client.queues.q:recur("K", {}, nil, { cron = "0 * * * *", jid = "hourly" })
    local recur = client.recurring[jid]
    assert.equal("0 * * * *", recur.cron)
    assert.equal(0, recur.interval)
    assert.same({ 1772622000, 1772625600 }, recur:next(2))
    assert.equal("qless.Recur(hourly K cron 0 * * * *)", tostring(recur))
    assert.is_nil(client.recurring[client.queues.q:recur("K", {}, 60)].cron)
  end)

  it("puts uniquely with unique, key or report", function()
    local q = client.queues.u
    local jid = q:put("K", { b = 1, a = 2 }, { unique = true })
    assert.equal(qless.unique_jid("u", "K", '{"a": 2, "b": 1}'), jid)
    assert.same({ jid, false }, { q:put("K", '{"a":2,"b":1}', { report = true }) })
    assert.equal(1, q:length())
    assert.same({ qless.unique_jid("u", nil, nil, { key = "k1" }), true }, { q:put("K", {}, { key = "k1", report = true }) })
    assert.is_true(q:put("K", { b = 1, a = 2 }) ~= jid)
    assert.matches("Queue:put: unique must be a boolean", H.raises(q.put, q, "K", {}, { unique = 1 }))
    assert.equal(3, q:length())
  end)
end)

describe("Schedule:listen", function()
  local client, s, listeners
  before_each(function()
    H.flush()
    client = H.client()
    s = client.schedules.tasks
    listeners = {}
  end)
  after_each(function()
    for _, w in ipairs(listeners) do w.cleanup() end
  end)

  local script = assert(os.getenv("QLESS_LUA_LISTEN"), "QLESS_LUA_LISTEN is not set (run through ctest)")
  local function listen(pool, max_jobs)
    local w = H.spawn_worker({ H.url, "tasks", tostring(pool), max_jobs and tostring(max_jobs) }, script)
    listeners[#listeners + 1] = w
    return w
  end
  local function state(jid) return client.jobs[jid].state end

  it("completes 50 jobs with a pool of 3 processes, and SIGTERM lets the running job finish (BND-2)", function()
    local jids = {}
    for i = 1, 50 do jids[i] = s:add_now("succeed", { n = i }) end
    local w = listen(3)
    assert.truthy(H.eventually(function()
      for _, jid in ipairs(jids) do if state(jid) ~= "complete" then return false end end
      return true
    end, 30), w.log())
    for _, jid in ipairs(jids) do
      local performer = client.jobs[jid].data.performed_by
      assert.truthy(performer and performer:match("^lsn"), tostring(performer))
    end
    assert.equal(3, #w.children(), w.log())
    local slow = s:add_now("slow", { seconds = 1 })
    assert.truthy(H.eventually(function() return state(slow) == "running" end), w.log())
    w.kill("TERM")
    assert.equal(0, w.wait(20), w.log())
    assert.equal("complete", state(slow), w.log())
  end)

  it("stops after max_jobs", function()
    local jids = {}
    for i = 1, 5 do jids[i] = s:add_now("succeed", { n = i }) end
    local w = listen(1, 3)
    assert.equal(0, w.wait(20), w.log())
    local states = {}
    for i, jid in ipairs(jids) do states[i] = state(jid) end
    table.sort(states)
    assert.same({ "complete", "complete", "complete", "waiting", "waiting" }, states)
  end)

  it("hands the core typed options, not a command line: it runs with the worker command's entry gone", function()
    local jids = {}
    for i = 1, 4 do jids[i] = s:add_now("succeed", { n = i }) end
    local w = H.spawn_worker({ H.url, "tasks", "1", "3", "typed" }, script)
    listeners[#listeners + 1] = w
    assert.equal(0, w.wait(20), w.log())
    local states = {}
    for i, jid in ipairs(jids) do states[i] = state(jid) end
    table.sort(states)
    assert.same({ "complete", "complete", "complete", "waiting" }, states)
  end)

  it("checks its options before starting anything", function()
    local function err(opts)
      local e = H.raises(s.listen, s, opts)
      return type(e) == "string" and e or e.message
    end
    assert.matches("Schedule:listen: pool must be positive", err({ pool = 0 }))
    assert.matches("Schedule:listen: pool must be an integer", err({ pool = 1.5 }))
    assert.matches("Schedule:listen: max_jobs must be an integer", err({ max_jobs = "3" }))
    assert.matches("Schedule:listen: interval must be positive", err({ interval = 0 / 0 }))
    assert.matches("Schedule:listen: unknown option 'threads'", err({ threads = 2 }))
    assert.matches("Schedule:listen: allow must be a string", err({ allow = { 1 } }))
    assert.matches("Schedule:listen: options must be a table", err(3))
    -- the typed entry itself checks its options table before anything runs
    local core, run = require "qless_core", require("qless.worker").run
    local e = H.raises(core.schedule_listen, s._h, run, { threads = 2 })
    assert.matches("unknown option 'threads'", type(e) == "string" and e or e.message)
    assert.matches("max_jobs' must be an integer", H.raises(core.schedule_listen, s._h, run, { max_jobs = "3" }))
    assert.matches("schedule must be a live Schedule", H.raises(core.schedule_listen, "tasks", run, {}))
  end)
end)

describe("the schedule example of docs/lua.md", function()
  before_each(H.flush)

  it("runs, and is quoted verbatim in docs/lua.md", function()
    local out = H.quoted_example("schedule_example.lua", "docs/lua.md")
    assert.equal("true\tfalse\ninterval\texample.ping\ncron\texample.report\nat\texample.mail\n0 9 * * 1\n", out)
  end)
end)
