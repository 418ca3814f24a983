-- Connects to QLESS_URL (default: the embedded server), puts a job,
-- pops it, completes it and prints its state.
local qless = require "qless"

local client = qless.Client()
local queue = client.queues["example"]
local jid = queue:put("example.Job", { greeting = "hello" }, { priority = 10, tags = { "demo" } })

local job = queue:pop()
print(job.jid == jid, job.klass, job.data.greeting)   --> true example.Job hello
job:complete()
print(client.jobs[jid].state)                          --> complete
