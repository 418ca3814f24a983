-- qless.Events: a pub/sub subscription (client:events{"put", ...}) on a
-- connection of its own; channel names without the "ql:" prefix.
local core = require "qless_core"
local handle = require "qless.handle"

local Events = handle.class("qless.Events", "")

-- channel, message, or nil after timeout seconds (nil: forever, 0: only
-- what has arrived).
function Events.methods:next(timeout)
  return self._h:next(timeout == nil and -1 or (timeout == 0 and 0 or handle.ms(timeout)))
end

-- for channel, message in events:listen(timeout) do ... end
function Events.methods:listen(timeout) return function() return self:next(timeout) end end

function Events.methods:close() core.release(self._h) end

return Events
