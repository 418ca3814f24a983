-- Sequential put -> pop -> complete through the Lua binding.
local qless = require "qless"

local n = math.tointeger(tonumber(arg[1]))
local client = qless.Client(os.getenv("QLESS_URL"))
local queue = client.queues["bench-lua"]
local t0 = client:now()
for _ = 1, n do
  queue:put("Bench", { i = 1 })
  queue:pop():complete()
end
local secs = client:now() - t0
print(string.format("%-8s %d jobs %.3f s %.0f jobs/s", "lua", n, secs, n / secs))
