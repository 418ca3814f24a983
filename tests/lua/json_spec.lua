-- qless.json (qless/codec.lua over lua-dkjson): the encoder/decoder used
-- for job data.
local json = require("qless").json

describe("qless.json", function()
  it("is lua-dkjson (Debian's) under qless's mapping", function()
    assert.is_table(package.loaded.dkjson)
    assert.is_nil(package.searchpath("qless.json", package.path))
  end)

  it("encodes empty tables as objects and 1..n tables as arrays", function()
    assert.equal("{}", json.encode({}))
    assert.equal("[1,2,3]", json.encode({ 1, 2, 3 }))
    assert.equal('{"a":1,"b":[true,false]}', json.encode({ b = { true, false }, a = 1 }))
    assert.equal('{"n":3}', json.encode({ n = 3 }))
    assert.equal('{"n":[]}', json.encode({ n = json.array() }))
    assert.equal('[{},{"x":{}}]', json.encode({ {}, { x = {} } }))
    assert.equal("{}", json.encode(json.object()))
    assert.equal("[]", json.encode(json.array()))
  end)

  it("keeps integers integers and floats floats", function()
    assert.equal("42", json.encode(42))
    assert.equal("-7", json.encode(-7))
    assert.equal("1.0", json.encode(1.0))
    assert.equal("0.1", json.encode(0.1))
    assert.equal("9007199254740993", json.encode(9007199254740993))
    assert.equal("integer", math.type(json.decode("42")))
    assert.equal("float", math.type(json.decode("42.0")))
    assert.equal("float", math.type(json.decode("1e2")))
    assert.equal(9007199254740993, json.decode("9007199254740993"))
    assert.equal(math.maxinteger, json.decode(tostring(math.maxinteger)))
    assert.equal("integer", math.type(json.decode(tostring(math.mininteger))))
    -- Beyond 64 bits: a float, not a wrapped integer.
    assert.equal("float", math.type(json.decode("123456789012345678901")))
    assert.equal(1.2345678901234568e20, json.decode("123456789012345678901"))
    assert.equal(0.30000000000000004, json.decode(json.encode(0.1 + 0.2)))
    assert.equal("-0.0", json.encode(-0.0))
    assert.equal("1e+300", json.encode(1e300))
    assert.equal(0.1, json.decode(json.encode(0.1)))
    assert.equal(1 / 3, json.decode(json.encode(1 / 3)))
  end)

  it("escapes strings per RFC 8259 and decodes escapes and surrogate pairs", function()
    assert.equal([["a\"b\\c\n\t\u0001/é"]], json.encode('a"b\\c\n\t\1/é'))
    assert.equal('a"b\\c\n\t\1/é', json.decode(json.encode('a"b\\c\n\t\1/é')))
    assert.equal("é😀/", json.decode([["\u00e9\ud83d\ude00\/"]]))
  end)

  it("round-trips decoded data exactly, including empty arrays and nulls", function()
    local text = '{"a":[],"b":{},"c":[1,null,3],"d":null,"e":"x"}'
    local v = json.decode(text)
    assert.equal(3, #v.c)
    assert.equal(json.null, v.c[2])
    assert.equal(json.null, v.d)
    assert.equal(text, json.encode(v))
  end)

  it("refuses what JSON cannot represent", function()
    for _, bad in ipairs({ { [3] = 1 }, { 1, x = 2 }, { [1.5] = 1 }, 0 / 0, math.huge, "\255", print,
                           { ["k\255"] = 1 }, { a = { "\192\175" } }, json.object({ 1 }), { [0] = 1 } }) do
      assert.has_error(function() json.encode(bad) end)
    end
    assert.has_error(function() json.encode({ x = 0 / 0 }) end, "json: cannot encode " .. tostring(0 / 0))
    assert.has_error(function() json.encode({ "ok", "\255" }) end, "json: string is not valid UTF-8")
    local t = {}
    t.self = t
    assert.has_error(function() json.encode(t) end)
  end)

  it("refuses malformed text", function()
    for _, bad in ipairs({ "", "[1] x", '"\\ud800"', '["\\udc00"]', "tru", "{'a':1}", "[", '"abc', "-", "1e",
                           '"\255"', '{"k":"\192\175"}', "1e400", "[-1e999]", "nul", "[1,,2]", "{} {}" }) do
      assert.has_error(function() json.decode(bad) end, nil, bad)
    end
    assert.has_error(function() json.decode(nil) end, "json: expected a string to decode, got nil")
    assert.has_error(function() json.decode('"\255"') end, "json: text is not valid UTF-8")
    assert.has_error(function() json.decode("[1] x") end, "json: trailing characters at position 5")
  end)

  it("decodes null as json.null and keeps it apart from a missing key", function()
    local v = json.decode('{"a":null,"b":[null]}')
    assert.equal(json.null, v.a)
    assert.equal(1, #v.b)
    assert.equal("null", tostring(json.null))
    assert.equal("null", json.encode(json.null))
    assert.equal("null", json.encode(nil))
    assert.equal(json.null, json.decode("null"))
  end)
end)
