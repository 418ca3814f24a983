-- qless.tree: job trees (jobtrees.md, docs/lua.md) over the core's Tree,
-- Port, Channel and Store objects; values are Lua data, JSON on the wire.
local core = require "qless_core"
local json = require "qless.codec"
local handle = require "qless.handle"

local M = {}

local DIRS = { ["in"] = core.QLESS_PORT_IN, out = core.QLESS_PORT_OUT }
local lookup, invalid, list = handle.lookup, handle.invalid, handle.list

-- A value (nil is null) as JSON text, InvalidArgument naming where.
local function encode(where, value)
  if value == nil then value = json.null end
  return handle.encode(where, value)
end

local function check_string(where, what, value)
  if type(value) ~= "string" then invalid(string.format("%s: %s must be a string, not %s", where, what, type(value))) end
end

-- Ports as the protocol's JSON object: JSON text as is, a list of names
-- ({"in", "x"}: each without options) or a table name -> options.
function M.ports_json(where, ports)
  if ports == nil or type(ports) == "string" then return ports end
  if type(ports) ~= "table" then invalid(where .. " must be a table of ports, not " .. type(ports)) end
  local object = json.object()
  for k, v in pairs(ports) do
    if math.type(k) == "integer" then
      check_string(where, "a port name", v)
      object[v] = json.object()
    else
      object[k] = v
    end
  end
  return encode(where, object)
end

-- The layer's put options (tree = true, Lua tables of ports) into the core's.
function M.put_options(where, out, mine)
  if out == nil or next(mine) == nil then return end
  if mine.tree ~= nil then
    if type(mine.tree) ~= "boolean" then
      invalid(string.format("%s: tree must be a boolean, not %s", where, type(mine.tree)))
    end
    out.tree = mine.tree and 1 or nil
  end
  out.inports = M.ports_json(where .. ": inports", mine.inports)
  out.outports = M.ports_json(where .. ": outports", mine.outports)
  out.by = mine.by
end
M.OWN_PUT_OPTIONS = { "tree", "inports", "outports", "by" }

local Port = handle.class("qless.Port", "jid name")

local function port_new(h, jid, dir, name)
  check_string("Port", "the port name", name)
  return Port.wrap(h:port(jid, DIRS[dir], name), { dir = dir, _client = h })
end

function Port.meta.__tostring(self)
  return string.format("qless.Port(%s %s %s)", self.jid, self.dir, self.name)
end

-- read removes up to n (default 1) values, oldest first; peek leaves them.
function Port.methods:read(n) return (handle.items(self._h:read(n or 1), json.decode)) end
function Port.methods:peek(n) return (handle.items(self._h:peek(n or 1), json.decode)) end
function Port.fields.size(self) return self._h:size() end

-- Writes the values in order (at least one; nil is null).
function Port.methods:write(...)
  local n, out = select("#", ...), {}
  if n == 0 then invalid("Port:write: at least one value is needed") end
  for i = 1, n do out[i] = encode("Port:write", (select(i, ...))) end
  self._h:write(out)
end

-- Return the links added or removed.
function Port.methods:connect(...) return self._h:connect(list(...)) end
function Port.methods:disconnect(...) return self._h:disconnect(list(...)) end

-- Defines the port (or redefines it, keeping its data): options {} or {default = value}.
function Port.methods:define(options)
  local ports = json.object()
  ports[self.name] = options or json.object()
  self._client:port_define(self.jid, DIRS[self.dir], encode("Port:define", ports))
end

-- True when it was defined.
function Port.methods:remove()
  return self._client:port_remove(self.jid, DIRS[self.dir], { self.name }) == 1
end

-- {in = lookup, out = lookup} of the Ports of jid on client proxy h.
function M.ports(h, jid)
  local t = {}
  for dir in pairs(DIRS) do t[dir] = lookup(function(name) return port_new(h, jid, dir, name) end) end
  return t
end

-- x.store[key] (nil when unset), x.store[key] = value (nil deletes),
-- x.store() and pairs(x.store): the whole map (the core's Store snapshot).
function M.store(h, jid)
  local function all() return json.decode(h:store(jid).json) end
  return lookup(function(key)
    check_string("store", "the key", key)
    return handle.decode(h:state_get(jid, key))
  end, {
    __newindex = function(_, key, value)
      check_string("store", "the key", key)
      if value == nil then h:state_del(jid, { key }) else h:state_set(jid, key, encode("store", value)) end
    end,
    __call = all,
    __pairs = function() return next, all(), nil end,
  })
end

-- A Tree: the core's Tree snapshot read once into tree.get's names.
local Tree = handle.class("qless.Tree", "")
M.Tree = Tree

-- The core's Tree t as its tree.get record, decoded (nil, not false, for "none").
local function record(t)
  local r = json.decode(t.json)
  for k, v in pairs(r) do
    if v == false and k ~= "rerun" then r[k] = nil end
  end
  return r
end

-- The Tree of jid, or nil when there is no such job (a plain job is
-- StateError, from the core).
function M.tree(h, jid)
  check_string("client.trees", "the jid", jid)
  local t = handle.or_nil(h.tree, h, jid)
  if t == nil then return nil end
  local tree = record(t)
  tree._client = h
  return Tree.wrap(t, tree)
end

function Tree.meta.__tostring(self) return string.format("qless.Tree(%s %s %s)", self.jid, self.klass, self.state) end

function Tree.fields.ports(self) return M.ports(self._client, self.jid) end
function Tree.fields.store(self) return M.store(self._client, self.jid) end

-- Re-reads the record (raises NotFound once the job is gone).
function Tree.methods:refresh()
  local t, old = self._client:tree(self.jid), record(self._h)
  for k in pairs(old) do rawset(self, k, nil) end
  for k, v in pairs(record(t)) do rawset(self, k, v) end
  rawset(self, "_h", t)
end

-- run returns the job's state, terminate the number of jobs whose state
-- changed, delete the number of jobs deleted.
function Tree.methods:run(delay) return self._client:job_run(self.jid, delay or 0) end
function Tree.methods:terminate(recursive) return self._client:job_terminate(self.jid, recursive and 1 or 0) end
function Tree.methods:delete() return self._client:job_delete(self.jid) end

local function jid_of(x) return type(x) == "table" and x.jid or x end

-- child: a jid, Tree or Job.
function Tree.methods:adopt(name, child) self._client:job_adopt(self.jid, name, jid_of(child)) end
function Tree.methods:disown(name) return self._client:job_disown(self.jid, name) end
-- alias returns how many were new; unalias (of any job) how many existed.
function Tree.methods:alias(...) return self._client:alias_set(self.jid, list(...)) end
function Tree.methods:unalias(...) return self._client:alias_del(list(...)) end

local Channel = handle.class("qless.Channel", "name")

function Channel.meta.__tostring(self) return "qless.Channel(" .. self.name .. ")" end

-- Returns the input ports reached (subscribed to the channel or an ancestor).
function Channel.methods:publish(value, opts)
  local from = type(opts) == "table" and opts.from or nil
  if opts ~= nil and type(opts) ~= "table" then invalid("Channel:publish: opts must be a table") end
  return self._h:publish(encode("Channel:publish", value), jid_of(from))
end

-- The input ports subscribed to exactly this channel: {{jid, port}, ...}.
function Channel.fields.subscribers(self)
  local s, out = self._h:subscribers(), {}
  for i = 0, s:size() - 1 do out[i + 1] = { s:jid(i), s:port(i) } end
  return out
end

-- The tables a Client gets: trees, aliases, channels.
function M.client_tables(h)
  return {
    trees = lookup(function(jid) return M.tree(h, jid) end),
    aliases = lookup(function(alias) return h:alias(alias) end),
    channels = lookup(function(name)
      check_string("client.channels", "the channel", name)
      return Channel.wrap(h:channel(name))
    end),
  }
end

-- What a Job offers for trees, through job.client.
function M.install(Job)
  local fields, methods = Job.fields, Job.methods
  local function h(job) return job.client._h end
  function fields.ports(self) return M.ports(h(self), self.jid) end
  function fields.store(self) return M.store(h(self), self.jid) end
  function fields.tree(self) return M.tree(h(self), self.jid) end
  -- {name = jid} of the job's children; the parent's jid or nil.
  function fields.children(self) return M.tree(h(self), self.jid).children end
  function fields.parent(self) return M.tree(h(self), self.jid).parent end
  function methods:read(port, n) return M.ports(h(self), self.jid)["in"][port]:read(n) end
  function methods:write(port, ...) M.ports(h(self), self.jid).out[port]:write(...) end
  -- opts as Queue:put's, and queue (default this job's).
  function methods:child(name, klass, data, opts)
    check_string("Job:child", "the name", name)
    local copy = {}
    for k, v in pairs(opts or {}) do copy[k] = v end
    local queue = copy.queue or self.queue
    copy.queue, copy.parent, copy.name, copy.by = nil, self.jid, name, "job:" .. self.jid
    return self.client.queues[queue]:put(klass, data, copy)
  end
  -- In a worker's perform (swig/worker.i): end this run suspended instead of completing the job.
  function methods:suspend()
    if core.qless_swig_worker_suspend(self._h) then return end
    error(core.new_error(core.QLESS_ESTATE, "job:suspend(): only the job a worker is performing can suspend"), 0)
  end
end

return M
