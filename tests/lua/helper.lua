-- Shared helpers for the Lua specs: the fixture's server, a flushed
-- database per test, and running qless-worker as a subprocess.
local qless = require "qless"

local H = {}

local state = assert(os.getenv("QLESS_TEST_STATE"), "QLESS_TEST_STATE is not set (run through ctest)")

local function read(path)
  local f = assert(io.open(path))
  local s = f:read("a")
  f:close()
  return s
end

H.read = read

H.port = tonumber((read(state .. "/port"):gsub("%s", "")))
H.socket = (read(state .. "/socket"):gsub("%s", ""))
H.url = "redis://127.0.0.1:" .. H.port .. "/0"
H.worker_script = os.getenv("QLESS_LUA_WORKER")

-- Single-quotes s for sh.
local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end
H.quote = quote

-- Runs a redis-cli command against the fixture (FLUSHALL, corrupting a key).
function H.redis(...)
  local args = {}
  for i, a in ipairs({ ... }) do args[i] = quote(a) end
  local p = assert(io.popen("redis-cli -s " .. quote(H.socket) .. " " .. table.concat(args, " ")))
  local out = p:read("a")
  assert(p:close(), "redis-cli failed: " .. out)
  return (out:gsub("%s+$", ""))
end

function H.flush()
  assert(H.redis("FLUSHALL") == "OK")
end

function H.client(opts)
  return qless.Client(H.url, opts)
end

-- A flushed database: a new client and its queue named queue.
function H.fresh(queue)
  H.flush()
  local client = H.client()
  return client, client.queues[queue]
end

-- Checks that bindings/lua/<name> is quoted verbatim in page (a path from
-- the repository root: README.md or docs/lua.md), runs it against the
-- fixture and returns its output.
function H.quoted_example(name, page)
  local dir = H.worker_script:match("^(.*)/[^/]+$")
  local example = H.read(dir .. "/" .. name)
  local text = H.read(dir .. "/../../" .. page)
  assert(text:find("```lua\n" .. example .. "```", 1, true), page .. " does not quote " .. name)
  return H.run_lua(dir .. "/" .. name)
end

function H.tmpname()
  local name = os.tmpname()
  os.remove(name)
  return name
end

-- Starts qless-worker (or the Lua program script) with args (a list) in
-- the background. Returns an object with pid, kill(sig), wait(seconds) ->
-- exit code (nil on timeout), and log() -> its stderr.
function H.spawn_worker(args, script)
  script = script or H.worker_script
  local base = H.tmpname()
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = quote(a) end
  local env = "LUA_PATH=" .. quote(package.path) .. " LUA_CPATH=" .. quote(package.cpath)
  local cmd = string.format("( %s exec lua5.4 %s %s 2>%s & echo $! >%s; wait $!; echo $? >%s ) >/dev/null 2>&1 &",
    env, quote(script), table.concat(quoted, " "), quote(base .. ".log"), quote(base .. ".pid"),
    quote(base .. ".rc"))
  assert(os.execute(cmd))
  local w = { base = base }
  for _ = 1, 200 do
    local f = io.open(base .. ".pid")
    if f then w.pid = tonumber(f:read("a")); f:close() end
    if w.pid then break end
    qless.sleep(0.01)
  end
  assert(w.pid, "worker did not start")
  -- Still our worker? After it exits its pid may belong to someone else.
  function w.alive()
    local f = io.open("/proc/" .. w.pid .. "/cmdline")
    if not f then return false end
    local cmdline = f:read("a")
    f:close()
    return cmdline:find(script, 1, true) ~= nil
  end
  -- Pids of its child processes (a process pool's children).
  function w.children()
    local f = io.open("/proc/" .. w.pid .. "/task/" .. w.pid .. "/children")
    local pids = {}
    if not f then return pids end
    for pid in f:read("a"):gmatch("%d+") do pids[#pids + 1] = tonumber(pid) end
    f:close()
    return pids
  end
  function w.kill(sig)
    assert(w.alive(), "worker " .. w.pid .. " is not running")
    assert(os.execute("kill -" .. sig .. " " .. w.pid))
  end
  function w.wait(seconds)
    local deadline = os.time() + (seconds or 20)
    while os.time() <= deadline do
      local f = io.open(base .. ".rc")
      if f then
        local rc = tonumber(f:read("a"))
        f:close()
        if rc then return rc end
      end
      qless.sleep(0.05)
    end
    return nil
  end
  function w.log()
    local f = io.open(base .. ".log")
    if not f then return "" end
    local s = f:read("a")
    f:close()
    return s
  end
  function w.cleanup()
    if not w.wait(0) and w.alive() then
      -- A pool's children would outlive a killed parent: they go first.
      for _, pid in ipairs(w.children()) do os.execute("kill -KILL " .. pid .. " 2>/dev/null") end
      pcall(w.kill, "KILL")
      w.wait(5)
    end
    for _, ext in ipairs({ ".log", ".pid", ".rc" }) do os.remove(base .. ext) end
  end
  return w
end

-- Runs the Lua program at path against the fixture (QLESS_URL) with this
-- process's module paths; returns its output, failing the spec if it fails.
function H.run_lua(path)
  local cmd = string.format("QLESS_URL=%s LUA_PATH=%s LUA_CPATH=%s lua5.4 %s", quote(H.url),
    quote(package.path), quote(package.cpath), quote(path))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  assert(p:close(), path .. " failed: " .. out)
  return out
end

-- Polls f() every 50 ms until it returns a true value or seconds pass.
function H.eventually(f, seconds)
  local deadline = os.time() + (seconds or 10)
  repeat
    local v = f()
    if v then return v end
    qless.sleep(0.05)
  until os.time() > deadline
  return nil
end

-- Runs f and returns the error it raised (fails the spec if none).
function H.raises(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error")
  return err
end

return H
