-- qless.Events: a pub/sub subscription (client:events{"put", ...}) on a
-- connection of its own. Channel names are given without the "ql:" prefix.
local core = require "qless_core"
local convert = require "qless.convert"
local handle = require "qless.handle"

local Events = handle.class("qless.Events", "")

function Events.new(client, channels) return Events.wrap(client._h:events(channels)) end

-- Waits up to timeout seconds (nil: forever, 0: only what has arrived) and
-- returns channel, message — or nil on timeout.
function Events.methods:next(timeout)
  return self._h:next(timeout == nil and -1 or (timeout == 0 and 0 or convert.ms(timeout)))
end

-- for channel, message in events:listen(timeout) do ... end
-- Ends when no message arrives within timeout seconds (nil: never ends).
function Events.methods:listen(timeout)
  return function() return self:next(timeout) end
end

-- Unsubscribes and closes the connection now rather than at collection.
function Events.methods:close() core.release(self._h) end

return Events
