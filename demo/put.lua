-- Puts the jobs described by the JSON list in arg[1] with the Lua binding
-- (QLESS_URL names the server); prints each jid. Run by demo.py.
local qless = require "qless"
local json = require("qless").json

local client = qless.Client(os.getenv("QLESS_URL"))
for _, s in ipairs(json.decode(arg[1])) do
  local queue = client.queues[s.queue]
  if s.recur then
    print(queue:recur(s.klass, s.data, s.recur, { tags = s.tags, jid = s.jid }))
  else
    print(queue:put(s.klass, s.data, { priority = s.priority, tags = s.tags, delay = s.delay,
                                        depends = s.depends, jid = s.jid }))
  end
end
