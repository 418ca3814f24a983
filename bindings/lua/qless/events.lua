-- qless.Events: a pub/sub subscription (client:events{"put", ...}) on a
-- connection of its own. Channel names are given without the "ql:" prefix.
local core = require "qless_core"
local convert = require "qless.convert"

local Events = {}
Events.__index = Events

function Events.new(client, channels)
  return setmetatable({ _h = core.qless_events_new(client._h, channels) }, Events)
end

-- Waits up to timeout seconds (nil: forever, 0: only what has arrived) and
-- returns channel, message — or nil on timeout.
function Events:next(timeout)
  local ms = timeout == nil and -1 or (timeout == 0 and 0 or convert.ms(timeout))
  return core.qless_events_next(self._h, ms)
end

-- for channel, message in events:listen(timeout) do ... end
-- Ends when no message arrives within timeout seconds (nil: never ends).
function Events:listen(timeout)
  return function() return self:next(timeout) end
end

-- Unsubscribes and closes the connection now rather than at collection.
function Events:close() core.release(self._h) end

return Events
