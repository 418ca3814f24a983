-- qless.json: JSON (RFC 8259) for job data, written for qless rather than
-- taken from lua-dkjson (installed with busted), because dkjson encodes an
-- empty table as [] (qless data wants {}), turns a table with a numeric key
-- "n" into an array, and writes NaN as null without complaint.
--
-- Mapping:
--   encode: a table whose keys are exactly 1..n (n >= 1) is an array, a
--   table with only string keys is an object, an empty table is {}; any
--   other table (sparse, mixed keys) is an error rather than a guess.
--   Integers are written as integers, floats keep a fraction or exponent
--   (1.0 -> 1.0) so they decode as floats again; NaN and infinities are
--   errors. Strings must be valid UTF-8.
--   decode: objects and arrays come back as tables marked with the
--   metatables json.object_mt / json.array_mt, so an empty [] decoded from a
--   job's data is written back as [] (encode honours the marks); null is
--   json.null, so arrays keep their length and objects their keys.
local json = {}

local concat, byte, char, find, format, sub = table.concat, string.byte, string.char, string.find, string.format, string.sub
local mtype, tointeger = math.type, math.tointeger

json.null = setmetatable({}, { __name = "json.null", __tostring = function() return "null" end })
json.array_mt = { __name = "json.array" }
json.object_mt = { __name = "json.object" }

-- Marks a table as a JSON array (also when empty) and returns it.
function json.array(t) return setmetatable(t or {}, json.array_mt) end
-- Marks a table as a JSON object and returns it.
function json.object(t) return setmetatable(t or {}, json.object_mt) end

---------------------------------------------------------------- encoding

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                  ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
for c = 0, 0x1f do
  local ch = char(c)
  escapes[ch] = escapes[ch] or format('\\u%04x', c)
end

local function encode_string(s, out)
  if not utf8.len(s) then error("json: string is not valid UTF-8", 0) end
  out[#out + 1] = '"' .. s:gsub('[%c"\\]', function(c) return escapes[c] or c end) .. '"'
end

local function encode_number(x, out)
  if mtype(x) == "integer" then
    out[#out + 1] = format("%d", x)
  elseif x ~= x or x == math.huge or x == -math.huge then
    error("json: cannot encode " .. tostring(x), 0)
  else
    -- Shortest of %.14g / %.17g that reads back exactly.
    local s = format("%.14g", x)
    if tonumber(s) ~= x then s = format("%.17g", x) end
    if not find(s, "[%.eEn]") then s = s .. ".0" end
    out[#out + 1] = s
  end
end

-- Classifies a table: "array" with its length, or "object".
local function table_kind(t)
  local mt = getmetatable(t)
  if mt == json.array_mt then return "array", #t end
  local n, strings, ints, max = 0, 0, 0, 0
  for k in pairs(t) do
    n = n + 1
    local kt = type(k)
    if kt == "string" then
      strings = strings + 1
    elseif mtype(k) == "integer" and k >= 1 then
      ints = ints + 1
      if k > max then max = k end
    else
      error("json: cannot encode a table key of type " .. (mtype(k) or kt), 0)
    end
  end
  if mt == json.object_mt or n == 0 then
    if ints > 0 then error("json: an object cannot have integer keys", 0) end
    return "object"
  end
  if strings == n then return "object" end
  if ints == n and max == n then return "array", n end
  error("json: table mixes keys or has holes; use json.array()/json.object() or fix the keys", 0)
end

local encode_value

local function encode_table(t, out, seen)
  if seen[t] then error("json: cannot encode a table that contains itself", 0) end
  seen[t] = true
  local kind, n = table_kind(t)
  if kind == "array" then
    out[#out + 1] = "["
    for i = 1, n do
      if i > 1 then out[#out + 1] = "," end
      encode_value(t[i], out, seen)
    end
    out[#out + 1] = "]"
  else
    -- Sorted keys: the same table always encodes to the same text.
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      encode_string(k, out)
      out[#out + 1] = ":"
      encode_value(t[k], out, seen)
    end
    out[#out + 1] = "}"
  end
  seen[t] = nil
end

function encode_value(v, out, seen)
  local t = type(v)
  if v == nil or v == json.null then
    out[#out + 1] = "null"
  elseif t == "boolean" then
    out[#out + 1] = v and "true" or "false"
  elseif t == "number" then
    encode_number(v, out)
  elseif t == "string" then
    encode_string(v, out)
  elseif t == "table" then
    encode_table(v, out, seen)
  else
    error("json: cannot encode a " .. t, 0)
  end
end

-- Returns the JSON text for value; raises a string error "json: ..." for
-- values JSON cannot represent.
function json.encode(value)
  local out = {}
  encode_value(value, out, {})
  return concat(out)
end

---------------------------------------------------------------- decoding

local function fail(text, pos, what)
  error(format("json: %s at position %d", what, pos), 0)
end

local function skip(text, pos)
  return (find(text, "[^ \t\r\n]", pos)) or #text + 1
end

local unescapes = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }

local function decode_string(text, pos)
  -- pos is just after the opening quote
  local parts, start = {}, pos
  while true do
    local i = find(text, '["\\%c]', pos)
    if not i then fail(text, start - 1, "unterminated string") end
    local c = byte(text, i)
    if c == 34 then                -- closing quote
      parts[#parts + 1] = sub(text, pos, i - 1)
      local s = concat(parts)
      if not utf8.len(s) then fail(text, start - 1, "invalid UTF-8 in string") end
      return s, i + 1
    elseif c == 92 then            -- backslash
      parts[#parts + 1] = sub(text, pos, i - 1)
      local e = sub(text, i + 1, i + 1)
      if e == "u" then
        local hex = sub(text, i + 2, i + 5)
        if not find(hex, "^%x%x%x%x$") then fail(text, i, "bad \\u escape") end
        local cp = tonumber(hex, 16)
        pos = i + 6
        if cp >= 0xD800 and cp <= 0xDBFF then
          local lo = sub(text, pos, pos + 5)
          if not find(lo, "^\\u[dD][c-fC-F]%x%x$") then fail(text, i, "unpaired surrogate") end
          cp = 0x10000 + (cp - 0xD800) * 0x400 + (tonumber(sub(lo, 3), 16) - 0xDC00)
          pos = pos + 6
        elseif cp >= 0xDC00 and cp <= 0xDFFF then
          fail(text, i, "unpaired surrogate")
        end
        parts[#parts + 1] = utf8.char(cp)
      else
        local u = unescapes[e]
        if not u then fail(text, i, "bad escape") end
        parts[#parts + 1] = u
        pos = i + 2
      end
    else
      fail(text, i, "control character in string")
    end
  end
end

local function decode_number(text, pos)
  local s, e = find(text, "^-?%d+", pos)
  if not s then fail(text, pos, "unexpected character") end
  local int = sub(text, s, e)
  if find(int, "^-?0%d") then fail(text, pos, "leading zero in number") end
  local frac = text:match("^%.%d+", e + 1)
  if frac then e = e + #frac elseif sub(text, e + 1, e + 1) == "." then fail(text, e + 1, "bad number") end
  local exp = text:match("^[eE][-+]?%d+", e + 1)
  if exp then e = e + #exp elseif find(text, "^[eE]", e + 1) then fail(text, e + 1, "bad number") end
  local str = sub(text, pos, e)
  local v = tonumber(str)
  if not frac and not exp then
    -- Integers that fit stay integers; larger ones become floats.
    v = tointeger(v) or v
  elseif mtype(v) == "integer" then
    v = v + 0.0
  end
  return v, e + 1
end

local decode_value

local function decode_array(text, pos, depth)
  local t, n = setmetatable({}, json.array_mt), 0
  pos = skip(text, pos)
  if sub(text, pos, pos) == "]" then return t, pos + 1 end
  while true do
    local v
    v, pos = decode_value(text, pos, depth)
    n = n + 1
    t[n] = v
    pos = skip(text, pos)
    local c = sub(text, pos, pos)
    if c == "]" then return t, pos + 1 end
    if c ~= "," then fail(text, pos, "expected ',' or ']'") end
    pos = pos + 1
  end
end

local function decode_object(text, pos, depth)
  local t = setmetatable({}, json.object_mt)
  pos = skip(text, pos)
  if sub(text, pos, pos) == "}" then return t, pos + 1 end
  while true do
    if sub(text, pos, pos) ~= '"' then fail(text, pos, "expected a string key") end
    local k
    k, pos = decode_string(text, pos + 1)
    pos = skip(text, pos)
    if sub(text, pos, pos) ~= ":" then fail(text, pos, "expected ':'") end
    t[k], pos = decode_value(text, pos + 1, depth)
    pos = skip(text, pos)
    local c = sub(text, pos, pos)
    if c == "}" then return t, pos + 1 end
    if c ~= "," then fail(text, pos, "expected ',' or '}'") end
    pos = skip(text, pos + 1)
  end
end

local literals = { t = { "true", true }, f = { "false", false }, n = { "null", json.null } }

function decode_value(text, pos, depth)
  pos = skip(text, pos)
  local c = sub(text, pos, pos)
  if c == "{" or c == "[" then
    if depth >= 512 then fail(text, pos, "nesting too deep") end
    if c == "{" then return decode_object(text, pos + 1, depth + 1) end
    return decode_array(text, pos + 1, depth + 1)
  elseif c == '"' then
    return decode_string(text, pos + 1)
  elseif literals[c] then
    local word, v = literals[c][1], literals[c][2]
    if sub(text, pos, pos + #word - 1) ~= word then fail(text, pos, "unexpected character") end
    return v, pos + #word
  elseif c == "" then
    fail(text, pos, "unexpected end of input")
  end
  return decode_number(text, pos)
end

-- Returns the value of JSON text; raises a string error "json: ... at
-- position N" for text that is not exactly one JSON value.
function json.decode(text)
  if type(text) ~= "string" then error("json: expected a string to decode, got " .. type(text), 0) end
  local v, pos = decode_value(text, 1, 0)
  pos = skip(text, pos)
  if pos <= #text then fail(text, pos, "trailing characters") end
  return v
end

return json
