"""jobtrees.md §4 DELIVER/RESOLVE-PORT, §5.2 inports/outports, §5.12-§5.14,
§7 write/read events, K3 (PRT-1..PRT-9, TRE-3 port rows, TRE-4, EVT-1/2)."""
import json
import random

import pytest

from helpers import digest, jids

LOG = "ql:ch:/qless/log"


def tree(ql, jid="jid"):
    return json.loads(ql("tree.get", 0, jid))


def put_err(ql, jid, *opts):
    return ql.err("put", 0, "w", "queue", jid, "klass", "{}", 0, *opts)


def write_event(now, jid, d, port, data):
    return (LOG, '{"event":"write","time":%s,"job":"%s","dir":"%s","port":"%s","data":[%s]}'
            % (now, jid, d, port, ",".join(data)))


def read_event(now, jid, d, port, data):
    return (LOG, '{"event":"read","time":%s,"job":"%s","dir":"%s","port":"%s","data":[%s]}'
            % (now, jid, d, port, ",".join(data)))


def test_port_names(ql, r):
    """PRT-1."""
    ql.put(tree=1, inports={"a_B9": {}, "*": {}})
    assert ql("port.write", 0, "jid", "in", "a_B9", "1") == 1
    before = digest(r)
    for bad in ("a-b", "a:b", ""):
        assert 'Port.write(): Arg "port" invalid: ' + bad in ql.err("port.write", 0, "jid", "in", bad, "1")
        assert 'Port.read(): Arg "port" invalid' in ql.err("port.read", 0, "jid", "in", bad)
    assert 'Port.write(): Arg "port" invalid: *' in ql.err("port.write", 0, "jid", "in", "*", "1")
    assert 'Port.connect(): Arg "port" invalid: *' in ql.err("port.connect", 0, "jid", "in", "*", "/a")
    assert 'Port.write(): Arg "dir" must be in or out' in ql.err("port.write", 0, "jid", "up", "a", "1")
    assert 'Port.write(): Arg "port" missing' in ql.err("port.write", 0, "jid", "in")
    assert 'Port.write(): Arg "value" missing' in ql.err("port.write", 0, "jid", "in", "a_B9")
    assert "Port.write(): Job nope does not exist" in ql.err("port.write", 0, "nope", "in", "a", "1")
    ql.put("plain")
    before = digest(r)
    assert "Port.read(): Job plain is not a tree job" in ql.err("port.read", 0, "plain", "in", "a")
    assert digest(r) == before


def test_write_then_read_in_order_verbatim(ql, events):
    """PRT-2, EVT-1 write/read."""
    ql.put(tree=1, inports={"x": {}})
    with events() as got:
        assert ql("port.write", 5, "jid", "in", "x", '{"a": 1}', "2", '"s/t"') == 3
    assert got == [write_event(5, "jid", "in", "x", ['{"a": 1}', "2", '"s/t"'])]
    with events() as got:
        assert ql("port.read", 6, "jid", "in", "x", 10) == '[{"a": 1},2,"s/t"]'
    assert got == [read_event(6, "jid", "in", "x", ['{"a": 1}', "2", '"s/t"'])]
    with events() as got:
        assert ql("port.read", 7, "jid", "in", "x", 10) == "[]"
    assert got == []


def test_counts_size_and_peek(ql):
    """PRT-3."""
    ql.put(tree=1, inports={"x": {}})
    ql("port.write", 0, "jid", "in", "x", "1", "2", "3")
    assert ql("port.size", 0, "jid", "in", "x") == 3
    assert ql("port.peek", 0, "jid", "in", "x", 2) == "[1,2]"
    assert ql("port.size", 0, "jid", "in", "x") == 3
    assert ql("port.read", 0, "jid", "in", "x", 2) == "[1,2]"
    assert ql("port.size", 0, "jid", "in", "x") == 1
    assert ql("port.read", 0, "jid", "in", "x") == "[3]"
    assert ql("port.size", 0, "jid", "in", "x") == 0
    for bad in ("0", "1001", "x", "1.5"):
        assert 'Port.read(): Arg "count" must be between 1 and 1000' in \
            ql.err("port.read", 0, "jid", "in", "x", bad)
        assert 'Port.peek(): Arg "count" must be between 1 and 1000' in \
            ql.err("port.peek", 0, "jid", "in", "x", bad)


def test_default_value(ql):
    """PRT-4; K3: the default reads back as given."""
    ql.put(tree=1, inports={"d": {"default": 5}})
    ql("port.define", 0, "jid", "in", '{"e": {"default": []}, "f":{"default":12345678901234567}}')
    assert ql("port.read", 0, "jid", "in", "d") == "[5]"
    assert ql("port.read", 0, "jid", "in", "d") == "[5]"
    assert ql("port.peek", 0, "jid", "in", "e") == "[[]]"
    assert ql("port.read", 0, "jid", "in", "f") == "[12345678901234567]"
    ql("port.write", 0, "jid", "in", "d", "7")
    assert ql("port.read", 0, "jid", "in", "d", 5) == "[7]"
    t = tree(ql)
    assert t["inports"] == {"d": {"default": 5}, "e": {"default": []}, "f": {"default": 12345678901234567}}


def test_undefined_ports_and_wildcard(ql, r):
    """PRT-5."""
    ql.put(tree=1)
    before = digest(r)
    assert 'Port.write(): Job jid inport "x" does not exist' in ql.err("port.write", 0, "jid", "in", "x", "1")
    assert 'Port.read(): Job jid outport "x" does not exist' in ql.err("port.read", 0, "jid", "out", "x")
    assert 'Port.size(): Job jid inport "x" does not exist' in ql.err("port.size", 0, "jid", "in", "x")
    assert digest(r) == before
    ql("port.define", 0, "jid", "in", '{"*": {"default": 0}}')
    assert ql("port.peek", 0, "jid", "in", "p") == "[0]"
    assert ql("port.size", 0, "jid", "in", "p") == 0
    assert r.hkeys("ql:inports:jid") == ["*"]
    assert ql("port.read", 0, "jid", "in", "p") == "[0]"
    assert r.hget("ql:inports:jid", "p") == '{"default": 0}'
    assert ql("port.write", 0, "jid", "in", "w", "1") == 1
    assert r.hget("ql:inports:jid", "w") == '{"default": 0}'
    assert tree(ql)["sizes"] == {"in": {"p": 0, "w": 1}, "out": {}}


def test_deliver_by_state(ql, r, events):
    """PRT-6."""
    for j in ("run", "sus", "done", "bad"):
        ql.put(j, tree=1, inports={"i": {}})
    for j in ("wait", "ending", "ended"):  # popped after the others
        ql.put(j, tree=1, inports={"i": {}}, priority=-1)
    assert sorted(jids(ql.pop(now=1, count=4))) == ["bad", "done", "run", "sus"]
    run, sus, done, bad = "run", "sus", "done", "bad"
    assert ql("job.suspend", 2, sus, "worker") == "suspended"
    assert ql.complete(done, now=2) == "complete"
    assert ql.fail(bad, 2) == bad
    r.hset("ql:j:ending", "state", "terminating")  # job.terminate is another part
    r.hset("ql:j:ended", "state", "terminated")
    with events() as got:
        for j in ("wait", run, sus, done, bad, "ending"):
            assert ql("port.write", 3, j, "in", "i", "1") == 1
    assert ql.get("wait")["state"] == "waiting"
    assert ql.get(run)["state"] == "running" and tree(ql, run)["rerun"] is True
    assert ql.get(sus)["state"] == "waiting"
    assert ql.get(done)["state"] == "waiting" and r.zscore("ql:completed", done) is None
    assert ql.get(bad)["state"] == "failed"
    assert r.llen("ql:in:i:" + bad) == 1 and r.llen("ql:in:i:ending") == 1
    status = [m for m in got if '"event":"status"' in m[1]]
    assert status == [
        (LOG, '{"event":"status","time":3,"job":"%s","from":"suspended","to":"waiting"}' % sus),
        (LOG, '{"event":"status","time":3,"job":"%s","from":"complete","to":"waiting"}' % done)]
    # §7: the wake's status event comes before the write event.
    i = got.index(status[0])
    assert got[i + 1] == write_event(3, sus, "in", "i", ["1"])
    assert not [m for m in got if m[0] == "ql:log"]  # K10
    before = digest(r)
    assert "Port.write(): Job ended is terminated" in ql.err("port.write", 3, "ended", "in", "i", "1")
    assert digest(r) == before


def test_output_ports(ql, r, events):
    """PRT-7."""
    ql.put(tree=1, outports={"o": {}, "c": {}})
    assert ql("port.write", 0, "jid", "out", "o", "1", "2") == 2
    assert ql("port.read", 0, "jid", "out", "o", 5) == "[1,2]"
    assert ql("port.connect", 0, "jid", "out", "c", "/x") == 1
    with events() as got:
        assert ql("port.write", 1, "jid", "out", "c", "3") == 1
    assert r.exists("ql:out:c:jid") == 0
    assert ("ql:ch:/x", '{"channel":"\\/x","data":3}') in got
    assert got[-1] == write_event(1, "jid", "out", "c", ["3"])


def test_define_keeps_data_and_remove_drops_it(ql, r):
    """PRT-8."""
    ql.put(tree=1, inports={"a": {}, "b": {}})
    ql("port.write", 0, "jid", "in", "a", "1")
    ql("port.connect", 0, "jid", "in", "a", "/s")
    assert ql("port.define", 0, "jid", "in", '{"a": {"default": 9}}') == 1
    assert ql("port.read", 0, "jid", "in", "a", 2) == "[1]"
    ql("port.write", 0, "jid", "in", "a", "2")
    assert ql("port.remove", 0, "jid", "in", "a", "zz", "*") == 1
    assert r.exists("ql:in:a:jid") == 0 and r.exists("ql:subs:/s") == 0
    assert r.hkeys("ql:inports:jid") == ["b"] and r.exists("ql:inchannels:jid") == 0
    assert 'Port.remove(): Arg "port" invalid: a-b' in ql.err("port.remove", 0, "jid", "in", "b", "a-b")
    assert r.hkeys("ql:inports:jid") == ["b"]


def test_bad_second_value_writes_nothing(ql, r):
    """PRT-9."""
    ql.put(tree=1, inports={"a": {}})
    before = digest(r)
    assert 'Port.write(): Arg "value" not JSON: nan' in ql.err("port.write", 0, "jid", "in", "a", "1", "nan")
    assert digest(r) == before


@pytest.mark.parametrize("opt,text,reason", [
    ("inports", "[]", "not a JSON object"),
    ("inports", '{"a-b":{}}', 'port name "a-b"'),
    ("inports", '{"a":1}', 'options of "a" not a JSON object'),
    ("inports", '{"a":[]}', 'options of "a" not a JSON object'),
    ("outports", '{"a":{"x":1}}', 'unknown port option "x"'),
])
def test_put_port_option_errors_write_nothing(ql, r, opt, text, reason):
    """TRE-3 port rows: exact text, nothing written."""
    ql.put("other", tree=1)
    before = digest(r)
    assert 'Put(): Arg "%s" invalid: %s' % (opt, reason) in put_err(ql, "new", opt, text)
    assert 'Port.define(): Arg "ports" invalid: %s' % reason in ql.err("port.define", 0, "other", "in", text)
    assert digest(r) == before
    assert 'Put(): Arg "inports" not JSON: {' in put_err(ql, "new", "inports", "{")
    # Form errors of ports come before the parent's preconditions (§5.2).
    assert 'Arg "%s" invalid' % opt in put_err(ql, "new", opt, text, "parent", "nope", "name", "n")
    assert digest(r) == before


def test_registry_ports_copied_at_creation_and_conversion(ql, r):
    """TRE-4, WRG-1 (new jobs get the ports, existing ones do not change)."""
    cfg = '{"inports": {"i": {"default": [1, 2]}}, "outports": {"o": {}}, "x": 1}'
    assert ql("worker.register", 0, "queue", "klass", cfg) == 1
    ql.put("plain")
    ql.put("plain", inports={"extra": {}})  # conversion
    t = tree(ql, "plain")
    assert t["inports"] == {"i": {"default": [1, 2]}, "extra": {}}
    assert t["outports"] == {"o": {}}
    assert r.hget("ql:inports:plain", "i") == '{"default": [1, 2]}'
    ql.put("fresh", tree=1, inports={"i": {}})  # the put's own ports win
    assert tree(ql, "fresh")["inports"] == {"i": {}}
    ql("worker.register", 0, "queue", "klass", '{"inports": {"z": {}}}')
    ql.put("plain", tree=1)
    assert "z" not in tree(ql, "plain")["inports"]
    ql.put("other", tree=1, klass="k2")
    assert tree(ql, "other")["inports"] == {}


def test_tree_get_port_fields(ql):
    """§5.3: options, links, sizes of every port but `*`."""
    ql.put(tree=1, inports={"b": {}, "a": {}, "*": {}}, outports={"o": {}})
    ql("port.write", 0, "jid", "in", "a", "1", "2")
    ql("port.connect", 0, "jid", "in", "b", "/y", "/x")
    ql("port.connect", 0, "jid", "out", "o", "/z")
    t = tree(ql)
    assert t["inports"] == {"a": {}, "b": {}, "*": {}} and t["outports"] == {"o": {}}
    assert t["inchannels"] == {"b": ["/y", "/x"]} and t["outchannels"] == {"o": ["/z"]}
    assert t["sizes"] == {"in": {"a": 2, "b": 0}, "out": {"o": 0}}


def test_tree_log_zero_silences_write_and_read(ql, events):
    """EVT-2."""
    ql.put(tree=1, inports={"a": {}}, outports={"o": {}})
    ql("port.connect", 0, "jid", "out", "o", "/c")
    ql.config("tree-log", "0")
    with events() as got:
        ql("port.write", 0, "jid", "in", "a", "1")
        ql("port.read", 0, "jid", "in", "a")
        ql("port.write", 0, "jid", "out", "o", "1")
        ql("channel.publish", 0, "/c", "2")
    assert not [m for m in got if m[0] == LOG]
    assert len([m for m in got if m[0].startswith("ql:ch:")]) == 4


# ---- K3: what counts as JSON -------------------------------------------------

ATOMS = ["0", "-1", "1.5", "2e3", "true", "false", "null", '"s"', '"NaN"', '"0x10"', '"Infinity"',
         '"a\\"b"', "12345678901234567"]
POISON = ["NaN", "Infinity", "-Infinity", "0x10", "01", "1e999", "+1", ".5", "nan"]


def _json_ish(rng, depth=0):
    """Random JSON text, sometimes with a non-JSON token outside strings."""
    k = rng.random()
    if depth > 2 or k < 0.4:
        return rng.choice(POISON) if rng.random() < 0.15 else rng.choice(ATOMS)
    if k < 0.7:
        items = [_json_ish(rng, depth + 1) for _ in range(rng.randrange(0, 3))]
        return "[" + rng.choice([",", ", "]).join(items) + "]"
    keys = rng.sample(["a", "NaN", "0x1", "b c"], rng.randrange(0, 3))
    return "{" + ",".join('"%s": %s' % (key, _json_ish(rng, depth + 1)) for key in keys) + "}"


def _strict(text):
    def bad(_):
        raise ValueError(text)
    try:
        json.loads(text, parse_constant=bad,
                   parse_float=lambda s: float(s) if abs(float(s)) != float("inf") else bad(s))
        return True
    except ValueError:
        return False


def test_generated_json_texts(ql, r):
    """K3, seeded: a port value, a port default and a registered config are
    accepted exactly when the text is strict JSON, and read back verbatim."""
    rng = random.Random(3003)
    ql.put(tree=1, inports={"v": {}})
    refused = 0
    for i in range(150):
        text = _json_ish(rng)
        if rng.random() < 0.3:
            text = rng.choice([" ", "\n"]) + text + " "
        ok = _strict(text)
        before = digest(r)
        try:
            ql("port.write", 0, "jid", "in", "v", text)
            assert ok, text
            assert ql("port.read", 0, "jid", "in", "v") == "[%s]" % text
        except Exception as e:
            assert not ok and 'Port.write(): Arg "value" not JSON: ' in str(e), (text, str(e))
            assert digest(r) == before
            refused += 1
        ports = '{"d%d": {"default": %s}}' % (i, text)
        try:
            ql("port.define", 0, "jid", "in", ports)
            assert ok, text
            assert ql("port.peek", 0, "jid", "in", "d%d" % i) == "[%s]" % text.strip()
        except Exception as e:
            assert not ok and 'Port.define(): Arg "ports" not JSON' in str(e), (text, str(e))
        if text.lstrip().startswith("{"):
            try:
                ql("worker.register", 0, "q", "k", text)
                assert ok, text
                assert ql("worker.config", 0, "q", "k") == text.strip()
            except Exception as e:
                assert not ok or "invalid" in str(e), (text, str(e))
    assert 10 < refused < 130, refused


MALFORMED = [
    ("port.define", ["jid", "in"], 'Port.define(): Arg "ports" missing'),
    ("port.define", ["jid", "x", "{}"], 'Port.define(): Arg "dir" must be in or out'),
    ("port.define", ["nope", "in", "{}"], "Port.define(): Job nope does not exist"),
    ("port.define", ["plain", "in", "{}"], "Port.define(): Job plain is not a tree job"),
    ("port.remove", ["jid", "in"], 'Port.remove(): Arg "port" missing'),
    ("port.remove", ["jid", "in", "a", "b:c"], 'Port.remove(): Arg "port" invalid: b:c'),
    ("port.write", ["jid", "in", "a", "1", "0x10"], 'Port.write(): Arg "value" not JSON: 0x10'),
    ("port.write", ["jid", "in", "a", "[-Infinity]"], 'Port.write(): Arg "value" not JSON: [-Infinity]'),
    ("port.write", ["jid", "out", "nope", "1"], 'Port.write(): Job jid outport "nope" does not exist'),
    ("port.read", ["jid", "in", "a", "0"], 'Port.read(): Arg "count" must be between 1 and 1000'),
    ("port.read", ["jid", "in", "nope"], 'Port.read(): Job jid inport "nope" does not exist'),
    ("port.peek", ["jid", "in", "*"], 'Port.peek(): Arg "port" invalid: *'),
    ("port.size", ["jid", "in"], 'Port.size(): Arg "port" missing'),
    ("port.connect", ["jid", "in", "a"], 'Port.connect(): Arg "channel" missing'),
    ("port.connect", ["jid", "in", "nope", "/c"], 'Port.connect(): Job jid inport "nope" does not exist'),
    ("port.connect", ["jid", "in", "a", "/c", "/c/"], 'Port.connect(): Arg "channel" invalid: /c/'),
    ("port.disconnect", ["jid", "in", "a", "c"], 'Port.disconnect(): Arg "channel" invalid: c'),
    ("port.disconnect", ["jid", "in", "nope", "/c"], 'Port.disconnect(): Job jid inport "nope" does not exist'),
    ("channel.publish", ["/c"], 'Channel.publish(): Arg "value" missing'),
    ("channel.publish", ["/c", "[1,]"], 'Channel.publish(): Arg "value" not JSON: [1,]'),
    ("channel.subscribers", [], 'Channel.subscribers(): Arg "channel" missing'),
    ("channel.subscribers", ["/a//b"], 'Channel.subscribers(): Arg "channel" invalid: /a//b'),
    ("worker.register", ["q", "k", '{"inports": {"*": {"default": nan}}}'], 'Worker.register(): Arg "config" not JSON'),
    ("worker.unregister", [], 'Worker.unregister(): Arg "queue" missing'),
]


@pytest.mark.parametrize("cmd,args,text", MALFORMED)
def test_malformed_input_exact_error_nothing_written(ql, r, cmd, args, text):
    ql.put("jid", tree=1, inports={"a": {}}, outports={"o": {}})
    ql("port.connect", 0, "jid", "in", "a", "/c")
    ql("port.write", 0, "jid", "in", "a", "1")
    ql.put("plain")
    before = digest(r)
    assert text in ql.err(cmd, 0, *args)
    assert digest(r) == before


@pytest.mark.parametrize("cmd,args,name", [
    ("port.write", ["jid", "in", "a", "1", b"\xff"], "value"),
    ("port.connect", ["jid", "in", "a", b"/\xc3"], "channel"),
    ("channel.publish", ["/c", "1", b"\xff"], "jid"),
    ("worker.register", ["q", b"k\xff", "{}"], "klass"),
])
def test_utf8_errors_name_the_argument(ql, cmd, args, name):
    ql.put("jid", tree=1, inports={"a": {}})
    disp = cmd[0].upper() + cmd[1:]
    assert '%s(): Arg "%s" not valid UTF-8' % (disp, name) in ql.err(cmd, 0, *args)
