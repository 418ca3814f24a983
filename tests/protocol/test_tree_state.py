"""jobtrees.md §5.17 per-job state (STE-1), with K3 (what counts as JSON)
and K4 (byte order)."""
import json
import random

import pytest

from helpers import digest


def ordered(text):
    """A JSON object as its (key, value) pairs in reply order."""
    return json.loads(text, object_pairs_hook=list)


def test_set_get_del(ql):
    ql.put(tree=1)
    assert ql("state.get", 0, "jid") == "{}"
    assert ql("state.set", 0, "jid", "b", "[2]", "a", "1") == 2
    assert ql("state.get", 0, "jid") == '{"a":1,"b":[2]}'
    # Values are kept as written (K3): spacing, digits and exponents.
    assert ql("state.set", 0, "jid", "c", '{"x": 1.50}', "d", "12345678901234567", "e", " 1E2 ") == 3
    assert ql("state.get", 0, "jid", "c") == '{"x": 1.50}'
    assert ql("state.get", 0, "jid", "d") == "12345678901234567"
    assert ql("state.get", 0, "jid", "e") == " 1E2 "
    assert ql("state.get", 0, "jid", "zz") is None
    assert ql("state.set", 0, "jid", "a", '"again"') == 1
    assert ql("state.get", 0, "jid", "a") == '"again"'
    assert ql("state.del", 0, "jid", "a", "zz", "c") == 2
    assert ql("state.get", 0, "jid") == '{"b":[2],"d":12345678901234567,"e": 1E2 }'
    assert json.loads(ql("state.get", 0, "jid")) == {"b": [2], "d": 12345678901234567, "e": 100}


def test_state_is_written_without_a_lock(ql):
    """§5.17: anyone may write, whatever the job's state or holder."""
    ql.put(tree=1)
    ql.pop(now=1, worker="w1")
    assert ql("state.set", 2, "jid", "k", "true") == 1
    assert ql("state.get", 2, "jid", "k") == "true"


def test_keys_sort_byte_wise(ql, r):
    """K4: whatever the insertion order, get-all lists keys by their bytes
    (upper case before lower, multibyte UTF-8 last) with values verbatim."""
    ql.put(tree=1)
    rng = random.Random(1517)
    alphabet = ["a", "B", "b", "_", "0", "Z", "~", "é", "ß", "日", "/", " ", '"', "\\"]
    values = ["1", "[2]", '{"k": "v"}', '"NaN"', "null", "-0.5e-3", '"\\u00e9"', "[ ]"]
    for round_ in range(40):
        r.delete("ql:state:jid")
        pairs = {}
        for _ in range(rng.randrange(1, 12)):
            key = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 5)))
            pairs[key] = rng.choice(values)
        flat = []
        for k, v in rng.sample(list(pairs.items()), len(pairs)):
            flat += [k, v]
        assert ql("state.set", round_, "jid", *flat) == len(pairs)
        got = ordered(ql("state.get", round_, "jid"))
        want = sorted(pairs, key=lambda k: k.encode("utf-8"))
        assert [k for k, _ in got] == want
        for k, v in got:
            assert v == json.loads(pairs[k], object_pairs_hook=list)
            assert ql("state.get", round_, "jid", k) == pairs[k]


def test_many_pairs_in_one_call(ql):
    ql.put(tree=1)
    flat = []
    for i in range(1500):
        flat += ["k%04d" % i, str(i)]
    assert ql("state.set", 0, "jid", *flat) == 1500
    got = ordered(ql("state.get", 0, "jid"))
    assert got == [("k%04d" % i, i) for i in range(1500)]
    assert ql("state.del", 0, "jid", *flat[::2]) == 1500
    assert ql("state.get", 0, "jid") == "{}"


# K3: refused outside strings, accepted inside them.
NOT_JSON = ["NaN", "Infinity", "-Infinity", "0x10", "[0x1]", '{"a":NaN}', "[1,Infinity]", "", " ",
            "[1,]", '{"a":1}x', "'x'", "1e999", "01", "[nan]", "{a:1}", '"\x01"', "[" * 1200 + "]" * 1200]
JSON_OK = ['"NaN"', '{"Infinity":"0x10"}', '["-Infinity"]', "-0", "0.5", "true", "null", '"x"']


def test_json_values_follow_rfc8259(ql, r):
    ql.put(tree=1)
    before = digest(r)
    for bad in NOT_JSON:
        err = ql.err("state.set", 0, "jid", "k", bad)
        assert 'State.set(): Arg "value" not JSON: ' + bad in err, bad
    assert digest(r) == before
    for i, good in enumerate(JSON_OK):
        assert ql("state.set", 0, "jid", "k%d" % i, good) == 1
        assert ql("state.get", 0, "jid", "k%d" % i) == good


def _bad_calls(rng):
    """(command, args, expected error) for one generated bad call on job
    `jid` (a tree job), `plain` (a plain job) or nothing."""
    good = [("g%d" % i, rng.choice(["1", '{"a":[1]}', '"s"'])) for i in range(rng.randrange(0, 4))]
    kind = rng.choice(["value", "key", "dangling", "none", "nojid", "unknown", "plain", "suffix"])
    cmd = rng.choice(["state.set", "state.get", "state.del"]) if kind in (
        "key", "nojid", "unknown", "plain", "suffix") else "state.set"
    disp = cmd[0].upper() + cmd[1:]
    jid = {"unknown": "nope", "plain": "plain", "suffix": "x-history"}.get(kind, "jid")
    bad_key = rng.choice(["", "k" * 201])
    bad_value = rng.choice(NOT_JSON)
    pairs = list(good)
    at = rng.randrange(len(pairs) + 1)
    if kind == "value":
        pairs.insert(at, ("k", bad_value))
        text = 'State.set(): Arg "value" not JSON: ' + bad_value
    elif kind == "key":
        pairs.insert(at, (bad_key, "1"))
        text = '%s(): Arg "key" invalid: %s' % (disp, bad_key)
    elif kind == "none":
        pairs = []
        text = 'State.set(): Arg "key" missing'
    else:
        pairs = pairs or [("g", "1")]
        text = {"unknown": "%s(): Job nope does not exist" % disp,
                "plain": "%s(): Job plain is not a tree job" % disp,
                "suffix": '%s(): Arg "jid" must not end in "-history": x-history' % disp,
                "nojid": '%s(): Arg "jid" missing' % disp,
                "dangling": 'State.set(): Arg "last" has no value'}[kind]
    if cmd == "state.set":
        args = [a for pair in pairs for a in pair]
    elif cmd == "state.get":
        args = [bad_key] if kind == "key" else [k for k, _ in pairs[:1]]
    else:
        args = [k for k, _ in pairs]
    if kind == "dangling":
        args.append("last")
    args = [] if kind == "nojid" else [jid] + args
    return cmd, args, text


def test_generated_bad_input_writes_nothing(ql, r):
    """Seeded bad calls (a bad pair among good ones, bad keys, unknown or
    plain jobs, a dangling key): each fails with its message and the
    database stays as it was."""
    ql.put(tree=1)
    ql.put("plain")
    ql("state.set", 0, "jid", "kept", "[1]")
    before = digest(r)
    rng = random.Random(5170)
    for _ in range(300):
        cmd, args, text = _bad_calls(rng)
        assert text in ql.err(cmd, 1, *args), (cmd, args)
    assert digest(r) == before


@pytest.mark.parametrize("cmd,args", [
    ("state.set", ["k", "\xff"]), ("state.set", ["k", "1", "k2", "\xff"]), ("state.del", ["\xff"]),
])
def test_non_utf8_arguments_are_named(ql, cmd, args):
    ql.put(tree=1)
    raw = [a.encode("latin-1") for a in args]
    err = ql.err(cmd, 0, "jid", *raw)
    name = "value" if cmd == "state.set" else "key"
    assert '%s(): Arg "%s" not valid UTF-8' % (cmd[0].upper() + cmd[1:], name) in err
