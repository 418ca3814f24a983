-- Job class for the worker tests: waits up to data.seconds for the engine
-- to report its lock lost (job.lock_lost), then reports that through the
-- job's own client (job.client) as a job in queue "lost-report".
local qless = require "qless"
return {
  perform = function(job)
    local deadline = qless.time() + (job.data.seconds or 10)
    while not job.lock_lost and qless.time() < deadline do qless.sleep(0.05) end
    if job.lock_lost then
      job.client.queues["lost-report"]:put("succeed", { jid = job.jid, client = job.client.worker_name })
    end
  end,
}
