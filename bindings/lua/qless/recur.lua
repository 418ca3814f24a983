-- qless.Recur: a recurring job template (client.recurring[jid]). Fields
-- read the snapshot; assigning priority, retries, interval, backlog, data,
-- klass or queue updates the template on the server.
local core = require "qless_core"
local json = require "qless.json"
local convert = require "qless.convert"

local Recur = {}
local methods = {}

local fields = {
  jid = core.qless_recur_jid,
  klass = core.qless_recur_klass,
  queue = core.qless_recur_queue,
  priority = core.qless_recur_priority,
  interval = core.qless_recur_interval,
  retries = core.qless_recur_retries,
  backlog = core.qless_recur_backlog,
  count = core.qless_recur_count,
  data = function(h) return json.decode(core.qless_recur_data(h)) end,
  tags = function(h)
    local t = {}
    for i = 0, core.qless_recur_tag_count(h) - 1 do t[i + 1] = core.qless_recur_tag(h, i) end
    return t
  end,
}

local setters = {
  priority = core.qless_recur_set_priority,
  retries = core.qless_recur_set_retries,
  interval = core.qless_recur_set_interval,
  backlog = core.qless_recur_set_backlog,
  klass = core.qless_recur_set_klass,
  queue = core.qless_recur_set_queue,
  data = function(h, v) core.qless_recur_set_data(h, convert.data(v) or "{}") end,
}

function Recur.__index(self, key)
  local m = methods[key]
  if m then return m end
  local f = fields[key]
  if f then return f(self._h) end
  return nil
end

function Recur.__newindex(self, key, value)
  local set = setters[key]
  if not set then error("qless.Recur: field '" .. tostring(key) .. "' cannot be set", 2) end
  set(self._h, value)
end

function Recur.__tostring(self)
  return string.format("qless.Recur(%s %s every %gs)", self.jid, self.klass, self.interval)
end

function Recur.wrap(handle)
  if handle == nil then return nil end
  return setmetatable({ _h = handle }, Recur)
end

function methods:tag(...) core.qless_recur_tag_add(self._h, convert.list(...)) end
function methods:untag(...) core.qless_recur_tag_remove(self._h, convert.list(...)) end
-- Stops the template; jobs it already made are unaffected.
function methods:cancel() core.qless_recur_cancel(self._h) end

return Recur
