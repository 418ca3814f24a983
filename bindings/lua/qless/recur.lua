-- qless.Recur: a recurring job template (client.recurring[jid]), firing
-- every `interval` seconds or at the times of `cron` (nil for interval
-- templates; interval is then 0). Fields read the snapshot; assigning
-- priority, retries, interval, cron, backlog, data, klass or queue updates
-- the template on the server.
local json = require "qless.codec"
local convert = require "qless.convert"
local handle = require "qless.handle"

local Recur = handle.class("qless.Recur", "jid klass queue priority interval cron retries backlog count cancel")

function Recur.fields.data(self) return json.decode(self._h.data) end
function Recur.fields.tags(self)
  local h, t = self._h, {}
  for i = 0, h.tag_count - 1 do t[i + 1] = h:tag(i) end
  return t
end

-- Each writable field is the proxy's set_<field>; data is encoded first.
for _, field in ipairs({ "priority", "retries", "interval", "cron", "backlog", "klass", "queue" }) do
  Recur.setters[field] = function(self, value) self._h["set_" .. field](self._h, value) end
end
function Recur.setters.data(self, value) self._h:set_data(convert.data(value) or "{}") end

function Recur.meta.__tostring(self)
  local every = self.cron and ("cron " .. self.cron) or string.format("every %gs", self.interval)
  return string.format("qless.Recur(%s %s %s)", self.jid, self.klass, every)
end

-- The next n (1-1000, default 5) due times, epoch seconds; {} once it fires no more.
function Recur.methods:next(n) return convert.times(self._h:next(n or 5)) end

function Recur.methods:tag(...) self._h:tag_add(convert.list(...)) end
function Recur.methods:untag(...) self._h:tag_remove(convert.list(...)) end

return Recur
