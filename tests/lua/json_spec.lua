-- qless.json: the encoder/decoder used for job data.
local json = require "qless.json"

describe("qless.json", function()
  it("encodes empty tables as objects and 1..n tables as arrays", function()
    assert.equal("{}", json.encode({}))
    assert.equal("[1,2,3]", json.encode({ 1, 2, 3 }))
    assert.equal('{"a":1,"b":[true,false]}', json.encode({ b = { true, false }, a = 1 }))
    assert.equal('{"n":3}', json.encode({ n = 3 }))
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
    for _, bad in ipairs({ { [3] = 1 }, { 1, x = 2 }, { [1.5] = 1 }, 0 / 0, math.huge, "\255", print }) do
      assert.has_error(function() json.encode(bad) end)
    end
    local t = {}
    t.self = t
    assert.has_error(function() json.encode(t) end)
  end)

  it("refuses malformed text", function()
    for _, bad in ipairs({ "", "[1,]", '{"a" 1}', "01", "[1] x", '"\\ud800"', "tru", "1.", '"a\nb"',
                           "{'a':1}", "[", '"abc', "-", "1e" }) do
      assert.has_error(function() json.decode(bad) end, nil, bad)
    end
  end)
end)
