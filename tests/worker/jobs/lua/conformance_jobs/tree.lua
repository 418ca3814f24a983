-- conformance_jobs.tree: the Tree class of test_tree_conformance.py (its
-- docstring is the contract). Its ports are module fields, which the
-- worker registers; it is found as a tree class through the package's
-- init.lua, since the harness names only the pattern conformance_jobs.*.
local qless = require "qless"

local function log(job, what)
  local path = job.data.log
  if type(path) ~= "string" then return end
  local f = assert(io.open(path, "a"))
  f:setvbuf("full", 4096)   -- one write per line: concurrent workers do not interleave
  f:write(string.format("%s %s %.6f %d\n", what, job.jid, qless.time(), qless.pid()))
  assert(f:close())
end

return {
  inports = { "in" },
  outports = { "out" },

  startup = function(job)
    log(job, "startup")
    local marker = job.data.crash
    if type(marker) == "string" and io.open(marker) == nil then
      assert(io.open(marker, "w")):close()
      os.exit(3, false)   -- as a crash would: nothing settled, job.started never sent
    end
  end,

  perform = function(job)
    log(job, "perform")
    local values = job:read("in", 10)
    if #values == 0 then return job:suspend() end
    local doubled = {}
    for i, v in ipairs(values) do doubled[i] = v * 2 end
    job:write("out", table.unpack(doubled))
    job.store.seen = (job.store.seen or 0) + #values
  end,

  shutdown = function(job) log(job, "shutdown") end,
}
