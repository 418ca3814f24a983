-- forbidden_jobs: not a conformance job class. The allow-list scenario
-- (test_class_not_allowed) puts jobs of it that no worker may run:
-- requiring it appends a line to $QLESS_CONF_MARKER, and running it ends
-- the worker process, so a worker that required or ran it cannot pass.
local marker = os.getenv("QLESS_CONF_MARKER")
if marker then
  local f = assert(io.open(marker, "a"))
  f:write("required forbidden_jobs\n")
  f:close()
end
return { perform = function() os.exit(3) end }
