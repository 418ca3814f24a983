local qless = require "qless"

local client = qless.Client()   -- QLESS_URL, else the embedded server
local tasks = client.schedules["example-tasks"]

local jid = tasks:add("example.report", { to = "ops" }, { cron = "0 9 * * mon-fri" })
local again, inserted = tasks:add("example.report", { to = "ops" }, { cron = "0 9 * * MON-FRI", report = true })
print(again == jid, inserted)   -- adds are unique: the same entry is not added twice
tasks:add("example.mail", { to = "a@b" }, { at = "7pm tomorrow" })
tasks:add("example.ping", nil, { every = "5 minutes" })
for _, entry in ipairs(tasks:entries()) do print(entry.kind, entry.klass) end
print(qless.when("every monday 9am").cron)
-- tasks:listen { pool = 4, allow = "example.*" }   -- runs due entries until SIGTERM
