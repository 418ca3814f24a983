local qless = require "qless"

local client = qless.Client()   -- QLESS_URL, else the embedded server
local queue = client.queues["example-trees"]

local root = queue:put("example.pipeline", {}, { tree = true, aliases = { "pipeline" } })
local stage = queue:put("example.stage", {}, { parent = root, name = "stage", inports = { "in" },
  outports = { "out" }, by = "example" })
local tree = client.trees[client.aliases["pipeline"]]
print(tree.children.stage == stage, client.trees[stage].parent == root)

local input = client.trees[stage].ports["in"]["in"]   -- ports["in"]: `in` is a Lua keyword
input:write({ n = 1 }, { n = 2 })
input:connect("/example/numbers")
print(client.channels["/example/numbers/odd"]:publish({ n = 3 }), input.size, input:read(3)[3].n)
client.trees[stage].store.seen = 3                    -- per-job state (job.state is the state's name)
print(client.trees[stage].store.seen)

print(tree:terminate(true), client.trees[stage].state)
print(tree:delete(), client.trees[root])
