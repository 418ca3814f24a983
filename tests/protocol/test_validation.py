"""Issue 12: every argument is checked before the first write. The cases the
issue reported, one test each; test_fuzz.py generates the rest."""
import json
import re

import pytest

from helpers import digest, jids


def refused(ql, r, command, *args, now=10, says=None):
    """Runs a call that must be refused: a clean `Name(): ` error, nothing
    written. Returns the message."""
    before = digest(r)
    msg = ql.err(command, now, *args)
    assert "attempt to" not in msg and "Cannot serialise" not in msg and "WRONGTYPE" not in msg, msg
    assert re.search(r'(^|: |\[InvalidArgument\] )Arg "', msg), msg
    if says is not None:
        assert says in msg, msg
    assert digest(r) == before, (command, args)
    return msg


@pytest.fixture
def held(ql):
    """j1 waiting in q; j0 popped by worker."""
    ql.put("j0", queue="q")
    ql.put("j1", now=1, queue="q")
    assert jids(ql.pop(queue="q", worker="worker")) == ["j0"]


def test_tags_with_null_item(ql, r):
    refused(ql, r, "put", "w", "q", "j", "K", "{}", 0, "tags", "[null]", says='"tags"')
    assert r.keys("*") == []


def test_complete_next_depends_with_object(ql, r, held):
    refused(ql, r, "complete", "j0", "worker", "q", "{}", "next", "q2", "depends", "[{}]",
            says='"depends"')
    assert ql.state("j0") == "running"


def test_log_data_not_an_object(ql, r, held):
    for data in ["null", "[1]", '"x"', "1"]:
        refused(ql, r, "log", "j1", "msg", data, says='"data"')


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e999", "Infinity"])
def test_non_finite_numbers(ql, r, held, value):
    refused(ql, r, "put", "w", "q", "j", "K", "{}", 0, "priority", value, says="not a finite number")
    refused(ql, r, "put", "w", "q", "j", "K", "{}", value)
    refused(ql, r, "recur", "q", "r", "K", "{}", "interval", value, 0)
    refused(ql, r, "pop", "q", "worker", value)
    refused(ql, r, "priority", "j1", value)
    refused(ql, r, "stats", "q", value)
    refused(ql, r, "pop", "q", "worker", 1, now=value)


@pytest.mark.parametrize("count", ["-1", "1e18", "1.5", str(2 ** 53)])
def test_counts(ql, r, held, count):
    """Refused before pop registers the worker (a raw Redis error came after)."""
    r.delete("ql:workers")
    refused(ql, r, "pop", "q", "worker", count, says="whole number")
    refused(ql, r, "peek", "q", count)
    refused(ql, r, "jobs", "running", "q", 0, count)
    refused(ql, r, "tag", "get", "t", count)
    refused(ql, r, "unfail", "q", "g", count)
    refused(ql, r, "put", "w", "q", "j", "K", "{}", 0, "retries", count)


def test_minus_zero_count(ql, held):
    """-0 is a whole number, but Redis takes "-0" for no integer."""
    assert ql.json("failed", 0, "g", "-0", "-0") == {"total": 0, "jobs": {}}
    assert jids(ql.json("pop", 0, "q", "worker", "-0")) == []


def test_negative_delays(ql, r, held):
    refused(ql, r, "put", "w", "q", "j", "K", "{}", -5, says="must be a finite number >= 0")
    refused(ql, r, "retry", "j0", "q", "worker", -1)
    refused(ql, r, "complete", "j0", "worker", "q", "{}", "next", "q2", "delay", -1)


@pytest.mark.parametrize("suffix", ["-history", "-dependents", "-dependencies"])
def test_jid_colliding_with_key_suffix(ql, r, suffix):
    ql.put("j6")
    refused(ql, r, "put", "w", "q", "j6" + suffix, "K", "{}", 0, says="must not end in")
    refused(ql, r, "get", "j6" + suffix)
    refused(ql, r, "put", "w", "q", "j7", "K", "{}", 0, "depends", json.dumps(["j6" + suffix]))
    ql.put("j6")


@pytest.mark.parametrize("klass", [b"a\x00b", b"\x7f", "caf\u00e9".encode(), b"x" * 5000 + "\u00e9".encode()])
def test_utf8_and_ascii_accepted(ql, klass):
    """Valid text passes the UTF-8 check: ASCII with NUL and DEL bytes (the
    ASCII screen covers 0-127), and multibyte text, short or long."""
    ql("put", 0, "w", "q", "j", klass, "{}", 0)
    assert ql.get("j")["klass"] == klass.decode()


@pytest.mark.parametrize("slot", range(5))
@pytest.mark.parametrize("text", [b"\xff", b"a\xc3", b"\xed\xa0\x80", b"\xc0\xaf"])
def test_not_utf8(ql, r, held, slot, text):
    args = [b"w", b"q", b"j", b"K", b"{}", b"0", b"tags", b'["t"]']
    names = ["worker", "queue", "jid", "klass", "data"]
    args[slot] = text if slot != 4 else b'{"a":"' + text + b'"}'
    msg = refused(ql, r, "put", *args, says='Put(): Arg "%s" not valid UTF-8' % names[slot])
    msg.encode("utf-8")
    refused(ql, r, "put", "w", "q", "j", "K", "{}", 0, "tags", b'["' + text + b'"]', says='"tags"')
    refused(ql, r, "fail", "j0", "worker", text, "m", says='"group"')


@pytest.mark.parametrize("data", ["[nan]", '{"a":0x10}', '{"a":01}', '["\x01"]', "[1e999]", "[-Infinity]"])
def test_data_not_strict_json(ql, r, held, data):
    refused(ql, r, "put", "w", "q", "j", "K", data, 0, says='"data"')
    refused(ql, r, "heartbeat", "j0", "worker", data)


@pytest.mark.parametrize("data", ["[1e5]", "[1E+5]", "[-0]", "[-0.5e-3]", "[0.25]", "[123456789012345678]",
                                  '{"a":true,"b":false,"c":null}', '{"k":"\\u00e9\\n"}', '\t[ 1 ,\n2 ]\r',
                                  '["nan", "0x10", "01", "\\u0001"]', "[" * 500 + "]" * 500,
                                  '{"u":"a.b","f":1.5,"g":-0.5}', '["a.", "-.5", "5.e3"]', '["\x7f"]',
                                  '{"k":"\u00e9.","f":2.5}', "[1e308]", "1.25"])
def test_data_strict_json_accepted(ql, data):
    """What strict JSON allows stays allowed (both the fast and the full check)."""
    assert ql.put("j", data=data) == "j"
    assert ql.get("j")["data"] == data


@pytest.mark.parametrize("data", ["[01]", "[-01]", "[1.]", "[1.e5]", "[Infinity]", "[NaN]", '["a\tb"]',
                                  "[1e400]", "[" + "9" * 400 + "]", "[0X1F]", '\f[1]',
                                  "[-.5]", "5.", '["a.b", 5.]', "[-1e400]", '{"a":{"b":[1,1e999]}}', "1e999",
                                  '{"n":1.5e400}', '["a\x01"]', "[+1]", "[-0x1]", "-inf"])
def test_data_not_strict_json_more(ql, r, data):
    refused(ql, r, "put", "w", "q", "j", "K", data, 0, says='"data"')


def test_nothing_half_done(ql, r, held):
    """recur.update checks every pair before the first write; config values
    the protocol reads as numbers must be finite and bounded."""
    ql.recur("r", queue="q")
    refused(ql, r, "recur.update", "r", "priority", 7, "interval", "nan")
    refused(ql, r, "recur.update", "r", "priority", 7, "interval", 0)
    refused(ql, r, "config.set", "heartbeat", "inf")
    refused(ql, r, "config.set", "q-max-concurrency", "1e18")
