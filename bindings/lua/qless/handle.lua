-- qless.handle: the classes of the layer and the helpers its files share.
-- An object is a table holding the generated proxy in _h (a proxy is
-- userdata, with no room for what the layer keeps per object); the names a
-- class forwards read the proxy's attribute or call its method on _h.
local core = require "qless_core"
local json = require "qless.codec"

local handle = {}

-- One bound method per proxy function, shared by every object.
local bound = {}
local function bind(f)
  bound[f] = bound[f] or function(self, ...) return f(self._h, ...) end
  return bound[f]
end

-- class.methods and class.fields (key -> function(self)) come before the
-- forwarded names ("a b=c": b is the proxy's c); class.setters (key ->
-- function(self, value)) are the only writable fields.
function handle.class(name, forward)
  local cls, fwd = { methods = {}, fields = {}, setters = {}, meta = {} }, {}
  for key, as in forward:gmatch("([%w_]+)=?([%w_]*)") do fwd[key] = as ~= "" and as or key end
  function cls.meta.__index(self, key)
    local m, f = cls.methods[key], cls.fields[key]
    if m ~= nil then return m end
    if f ~= nil then return f(self) end
    if fwd[key] == nil then return nil end
    local v = self._h[fwd[key]]
    return type(v) == "function" and bind(v) or v
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

-- A table whose entries are made on access by get(key).
function handle.lookup(get, meta)
  meta = meta or {}
  meta.__index = function(_, key) return get(key) end
  return setmetatable({}, meta)
end

-- f(...), or nil when it raised NotFound.
function handle.or_nil(f, ...)
  local ok, result = pcall(f, ...)
  if ok then return result end
  if type(result) == "table" and result.code == core.QLESS_ENOTFOUND then return nil end
  error(result, 0)
end

function handle.invalid(message) error(core.new_error(core.QLESS_EINVAL, message), 0) end

-- value as JSON text; what json cannot encode is InvalidArgument naming where.
function handle.encode(where, value)
  local ok, text = pcall(json.encode, value)
  if not ok then handle.invalid(where .. ": " .. text) end
  return text
end

local function same(v) return v end

-- A list proxy (size, get[, number]) -> {decode(item)...}, {number...}
-- (nil -> {}, {}).
function handle.items(list, decode)
  local items, numbers = {}, {}
  for i = 0, (list and list:size() or 0) - 1 do
    items[i + 1] = (decode or same)(list:get(i))
    if list.number then numbers[i + 1] = list:number(i) end
  end
  return items, numbers
end

-- The proxy h's items h:item(0 .. h[count] - 1), decoded when decode is given.
function handle.indexed(h, count, item, decode)
  local t = {}
  for i = 0, h[count] - 1 do t[i + 1] = (decode or same)(h[item](h, i)) end
  return t
end

-- Arguments given as one table or as several values -> one table.
function handle.list(first, ...)
  if type(first) == "table" and select("#", ...) == 0 then return first end
  return { first, ... }
end

-- Job data for the core: a string must already hold JSON (the core checks
-- it), a table is encoded, nil stays nil (the core's {}).
function handle.data(value)
  if value == nil or type(value) == "string" then return value end
  return handle.encode("job data", value)
end

function handle.decode(text)
  if text ~= nil then return json.decode(text) end
end

-- Seconds (Lua) -> milliseconds (C): nil stays nil (the core's default),
-- negative is -1 (wait forever).
function handle.ms(seconds)
  if seconds == nil then return nil end
  return seconds < 0 and -1 or math.max(1, math.floor(seconds * 1000 + 0.5))
end

-- JobList proxy -> {wrap(job), ...}, each owning its job.
function handle.jobs(list, wrap)
  local jobs = {}
  for i = 0, (list and list:size() or 0) - 1 do jobs[#jobs + 1] = wrap(list:take(i)) end
  return jobs
end

return handle
