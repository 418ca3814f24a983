-- Listens on a schedule as a program would (for schedule_spec's BND-2):
--   lua5.4 listen.lua URL SCHEDULE POOL [MAX_JOBS [typed]]
-- as worker "lsn", allowing every job module, exiting with listen's status.
-- "typed" removes the worker command's entry (qless_core.worker_main, whose
-- argv the core parses) first: only a typed listen can then run.
local qless = require "qless"
local url, name, pool, max_jobs = arg[1], arg[2], math.tointeger(tonumber(arg[3])), math.tointeger(tonumber(arg[4]))
if arg[5] == "typed" then require("qless_core").worker_main = nil end
local client = qless.Client(url, { worker_name = "lsn" })
os.exit(client.schedules[name]:listen { pool = pool, max_jobs = max_jobs, allow = "*", interval = 0.05 })
