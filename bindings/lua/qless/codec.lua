-- qless.codec (public as qless.json): lua-dkjson reads and writes the text;
-- this file decides the mapping where dkjson's own choices would lose or
-- corrupt data (README.md, "Data"): {} is an object (dkjson: []), a table
-- with keys other than exactly 1..n or only strings is an error, not a
-- guess ({n = 3} would be three nulls); floats keep all 17 digits (dkjson:
-- 14); NaN, infinities, non-UTF-8 strings and cycles are errors (dkjson
-- writes null or the bytes). Decoded arrays and objects keep their kind
-- (array_mt, object_mt) and nulls (codec.null).
local dkjson = require "dkjson"

local concat, find, format, sort = table.concat, string.find, string.format, table.sort
local mtype = math.type

local codec = {}

codec.null = setmetatable({}, { __name = "json.null", __tostring = function() return "null" end,
                                __tojson = function() return "null" end })
codec.array_mt = { __name = "json.array", __jsontype = "array" }
codec.object_mt = { __name = "json.object", __jsontype = "object" }

function codec.array(t) return setmetatable(t or {}, codec.array_mt) end
function codec.object(t) return setmetatable(t or {}, codec.object_mt) end

local function fail(message) error("json: " .. message, 0) end

-- Text as dkjson writes it: a value whose __tojson returns it.
local function raw(text) return setmetatable({}, { __tojson = function() return text end }) end

-- The shortest of %.14g / %.17g that reads back exactly, with a fraction.
local function float_text(x)
  if x ~= x or x == math.huge or x == -math.huge then fail("cannot encode " .. tostring(x)) end
  local s = format("%.14g", x)
  if tonumber(s) ~= x then s = format("%.17g", x) end
  if not find(s, "[%.eEn]") then s = s .. ".0" end
  return s
end

-- "array" with its length, or "object".
local function table_kind(t)
  local mt = getmetatable(t)
  if mt == codec.array_mt then return "array", #t end
  local n, strings, max = 0, 0, 0
  for k in pairs(t) do
    n = n + 1
    if type(k) == "string" then
      strings = strings + 1
    elseif mtype(k) == "integer" and k >= 1 then
      if k > max then max = k end
    else
      fail("cannot encode a table key of type " .. (mtype(k) or type(k)))
    end
  end
  if mt == codec.object_mt or n == 0 then
    if strings < n then fail("an object cannot have integer keys") end
    return "object"
  end
  if strings == n then return "object" end
  if strings == 0 and max == n then return "array", n end
  fail("table mixes keys or has holes; use json.array()/json.object() or fix the keys")
end

local prepare

-- Objects are written here (sorted keys), their values by dkjson.
local function object_text(t, seen)
  local keys, parts = {}, {}
  for k in pairs(t) do keys[#keys + 1] = k end
  sort(keys)
  for i, k in ipairs(keys) do
    if not utf8.len(k) then fail("object key is not valid UTF-8") end
    parts[i] = dkjson.quotestring(k) .. ":" .. dkjson.encode(prepare(t[k], seen))
  end
  return "{" .. concat(parts, ",") .. "}"
end

-- value -> what dkjson writes as this file's mapping says.
function prepare(v, seen)
  local t = type(v)
  if v == nil or v == codec.null then return codec.null end
  if t == "boolean" then return v end
  if t == "number" then return mtype(v) == "integer" and v or raw(float_text(v)) end
  if t == "string" then
    if not utf8.len(v) then fail("string is not valid UTF-8") end
    return v
  end
  if t ~= "table" then fail("cannot encode a " .. t) end
  if seen[v] then fail("cannot encode a table that contains itself") end
  seen[v] = true
  local kind, n = table_kind(v)
  local out
  if kind == "object" then
    out = raw(object_text(v, seen))
  else
    out = setmetatable({}, codec.array_mt)
    for i = 1, n do out[i] = prepare(v[i], seen) end
  end
  seen[v] = nil
  return out
end

-- Returns the JSON text for value; raises a string error "json: ..." for
-- values JSON cannot represent.
function codec.encode(value)
  return dkjson.encode(prepare(value, {}))
end

-- Refuses what dkjson reads without complaint but is not JSON data:
-- strings that are not UTF-8 (from a lone surrogate escape) and numbers
-- beyond the float range.
local function check(v)
  local t = type(v)
  if t == "string" then
    if not utf8.len(v) then fail("string is not valid UTF-8 (a lone surrogate escape?)") end
  elseif t == "number" then
    if v == math.huge or v == -math.huge then fail("number out of range") end
  elseif t == "table" and v ~= codec.null then
    for k, x in pairs(v) do
      check(k)
      check(x)
    end
  end
end

-- Returns the value of JSON text; raises a string error "json: ..." for
-- text that is not one JSON value.
function codec.decode(text)
  if type(text) ~= "string" then fail("expected a string to decode, got " .. type(text)) end
  if not utf8.len(text) then fail("text is not valid UTF-8") end
  local v, pos, err = dkjson.decode(text, 1, codec.null, codec.object_mt, codec.array_mt)
  if err then fail(err) end
  pos = find(text, "[^ \t\r\n]", pos)
  if pos then fail(format("trailing characters at position %d", pos)) end
  check(v)
  return v
end

return codec
