-- Job class for the worker tests: sleeps job.data.seconds, so it outlives
-- the queue's heartbeat (or lets the test take its lock away meanwhile).
local qless = require "qless"
return {
  perform = function(job)
    qless.sleep(job.data.seconds or 1)
  end,
}
