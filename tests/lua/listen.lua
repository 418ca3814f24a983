-- Listens on a schedule as a program would (for schedule_spec's BND-2):
--   lua5.4 listen.lua URL SCHEDULE POOL [MAX_JOBS]
-- as worker "lsn", allowing every job module, exiting with listen's status.
local qless = require "qless"
local url, name, pool, max_jobs = arg[1], arg[2], math.tointeger(tonumber(arg[3])), math.tointeger(tonumber(arg[4]))
local client = qless.Client(url, { worker_name = "lsn" })
os.exit(client.schedules[name]:listen { pool = pool, max_jobs = max_jobs, allow = "*", interval = 0.05 })
