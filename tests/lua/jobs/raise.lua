-- Job class for the worker tests: fails with a plain string error.
local M = {}
function M.perform(job)
  error("boom from " .. job.jid)
end
return M
