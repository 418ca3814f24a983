-- qless.handle: the classes of the layer (Client, Queue, Job, Recur,
-- Events). An object is a table holding the generated proxy in _h: a proxy
-- is userdata, with no room for what the layer keeps per object (a job's
-- decoded data, a queue's client, a client's queues/jobs/config tables).
-- What the proxy already does is not written again: the names a class
-- forwards read the proxy's attribute, or call the proxy's method on _h.
local handle = {}

-- One bound method per proxy function, shared by every object of a class.
local bound = {}
local function bind(f)
  local b = bound[f]
  if b == nil then
    b = function(self, ...) return f(self._h, ...) end
    bound[f] = b
  end
  return b
end

-- "a b c=d" -> { a = "a", b = "b", c = "d" }: c is the proxy's d.
local function names(text)
  local t = {}
  for name, as in text:gmatch("([%w_]+)=?([%w_]*)") do t[name] = as ~= "" and as or name end
  return t
end

-- A class named name (for messages) forwarding the names in forward. Its
-- methods (class.methods), computed fields (class.fields: key ->
-- function(self)) and writable fields (class.setters: key ->
-- function(self, value)) are the layer's own and come first. An object is
-- made by class.wrap(proxy[, table]) (nil proxy -> nil); class.meta is its
-- metatable (for __tostring).
function handle.class(name, forward)
  local cls = { methods = {}, fields = {}, setters = {}, meta = {} }
  forward = names(forward)
  function cls.meta.__index(self, key)
    local m = cls.methods[key]
    if m ~= nil then return m end
    local f = cls.fields[key]
    if f ~= nil then return f(self) end
    if forward[key] == nil then return nil end
    local v = self._h[forward[key]]
    if type(v) == "function" then return bind(v) end
    return v
  end
  function cls.meta.__newindex(self, key, value)
    local set = cls.setters[key]
    if set == nil then error(name .. ": field '" .. tostring(key) .. "' cannot be set", 2) end
    set(self, value)
  end
  function cls.wrap(proxy, self)
    if proxy == nil then return nil end
    self = self or {}
    self._h = proxy
    return setmetatable(self, cls.meta)
  end
  return cls
end

return handle
