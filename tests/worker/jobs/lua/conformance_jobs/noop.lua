-- conformance_jobs.noop: the conformance suite's job that succeeds. With
-- data.log set it appends "start <jid> <time> <pid>" and, after sleeping
-- data.sleep seconds, "end <jid> <time> <pid>" to that file, each line in
-- one write to a file opened for appending (O_APPEND), so lines from
-- concurrent workers never interleave.
local qless = require "qless"

local function append(path, what, jid)
  local f = assert(io.open(path, "a"))
  -- Fully buffered and shorter than the buffer: close() writes it at once.
  f:setvbuf("full", 4096)
  f:write(string.format("%s %s %.6f %d\n", what, jid, qless.time(), qless.pid()))
  assert(f:close())
end

return {
  perform = function(job)
    local data = job.data
    local log = type(data.log) == "string" and data.log or nil
    if log then append(log, "start", job.jid) end
    local seconds = tonumber(data.sleep) or 0
    if seconds > 0 then qless.sleep(seconds) end
    if log then append(log, "end", job.jid) end
  end,
}
