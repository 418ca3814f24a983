-- qless.Recur: a recurring job template (client.recurring[jid]). Fields
-- read the snapshot; assigning priority, retries, interval, backlog, data,
-- klass or queue updates the template on the server.
local json = require "qless.json"
local convert = require "qless.convert"
local handle = require "qless.handle"

local Recur = handle.class("qless.Recur", "jid klass queue priority interval retries backlog count cancel")

function Recur.fields.data(self) return json.decode(self._h.data) end
function Recur.fields.tags(self)
  local h, t = self._h, {}
  for i = 0, h.tag_count - 1 do t[i + 1] = h:tag(i) end
  return t
end

-- Each writable field is the proxy's set_<field>; data is encoded first.
for _, field in ipairs({ "priority", "retries", "interval", "backlog", "klass", "queue" }) do
  Recur.setters[field] = function(self, value) self._h["set_" .. field](self._h, value) end
end
function Recur.setters.data(self, value) self._h:set_data(convert.data(value) or "{}") end

function Recur.meta.__tostring(self)
  return string.format("qless.Recur(%s %s every %gs)", self.jid, self.klass, self.interval)
end

function Recur.methods:tag(...) self._h:tag_add(convert.list(...)) end
function Recur.methods:untag(...) self._h:tag_remove(convert.list(...)) end

return Recur
