-- qless.Recur: a recurring job template (client.recurring[jid]); cron is
-- nil for interval templates, interval 0 for cron ones. Assigning a field
-- updates the template on the server.
local json = require "qless.codec"
local handle = require "qless.handle"

local Recur = handle.class("qless.Recur", "jid klass queue priority interval cron retries backlog count cancel")

function Recur.fields.data(self) return json.decode(self._h.data) end
function Recur.fields.tags(self) return handle.indexed(self._h, "tag_count", "tag") end

for _, field in ipairs({ "priority", "retries", "interval", "cron", "backlog", "klass", "queue" }) do
  Recur.setters[field] = function(self, value) self._h["set_" .. field](self._h, value) end
end
function Recur.setters.data(self, value) self._h:set_data(handle.data(value) or "{}") end

function Recur.meta.__tostring(self)
  local every = self.cron and ("cron " .. self.cron) or string.format("every %gs", self.interval)
  return string.format("qless.Recur(%s %s %s)", self.jid, self.klass, every)
end

-- The next n (default 5) due times; {} once it fires no more.
function Recur.methods:next(n) return (handle.items(self._h:next(n or 5))) end
function Recur.methods:tag(...) self._h:tag_add(handle.list(...)) end
function Recur.methods:untag(...) self._h:tag_remove(handle.list(...)) end

return Recur
