"""Namespaces (docs/cluster.md): with KEYS[1] a key of namespace NAME
(`{NAME}:ql:...`) every key and channel of the call is `{NAME}:ql:...`;
without keys they are `ql:...` as ever. Calls of different namespaces on one
server share nothing, also when they alternate on one loaded library (whose
Lua state outlives a call). These tests drive the artefact with explicit
keys, whatever QLESS_PROTOCOL_NAMESPACE says."""
import json

import pytest
import redis

from helpers import digest

pytestmark = pytest.mark.any_namespace


@pytest.fixture
def plain(r):
    """A plain connection (the suite's `r` renames keys under a namespace run)."""
    conn = redis.Redis(unix_socket_path=r.connection_pool.connection_kwargs["path"], decode_responses=True)
    yield conn
    conn.close()


def call(ql, ns, command, now, *args):
    keys = [0] if ns is None else [1, "{%s}:ql:" % ns]
    return ql.raw(*keys, command, now, *args)


def raw_keys(conn):
    return sorted(conn.keys("*"))


def life_cycle(ql, ns, q="queue"):
    """One call or more of every command family, leaving data behind."""
    c = lambda *a: call(ql, ns, *a)  # noqa: E731
    c("config.set", 0, "jobs-history-count", "10")
    c("put", 0, "w", q, "a", "k", '{"x":1}', 0, "tags", '["t1"]', "retries", 2)
    c("put", 0, "w", q, "b", "k", "{}", 0, "depends", '["a"]')
    c("put", 0, "w", q, "s", "k", "{}", 30)
    c("track", 0, "track", "a")
    c("tag", 0, "add", "a", "t2")
    popped = json.loads(c("pop", 1, q, "w", 1))
    assert [j["jid"] for j in popped] == ["a"]
    c("heartbeat", 2, "a", "w", "{}")
    c("log", 2, "a", "msg", "{}")
    c("complete", 3, "a", "w", q, "{}")
    json.loads(c("pop", 4, q, "w", 1))
    c("fail", 5, "b", "w", "grp", "boom", "{}")
    c("recur", 5, q, "r", "k", "{}", "interval", 60, 0)
    c("recur", 5, q, "rc", "k", "{}", "cron", "* * * * *")
    c("pause", 5, q)
    c("unpause", 5, q)
    c("worker.register", 5, q, "k", "{}")
    c("put", 6, "w", q, "tj", "k", "{}", 0, "tree", 1, "aliases", '["al"]')
    c("put", 6, "w", q, "tc", "k", "{}", 0, "tree", 1, "parent", "tj", "name", "kid")
    c("port.define", 6, "tc", "in", '{"p":{}}')
    c("port.connect", 6, "tc", "in", "p", "/ch")
    c("channel.publish", 6, "/ch", "1")
    c("state.set", 6, "tj", "k1", "1")
    c("stats", 7, q, 0)
    c("queues", 7)
    c("workers", 7)
    c("failed", 7)
    c("jobs", 7, "complete")
    c("jobs", 7, "running", q)
    c("tag", 7, "get", "t1", 0, 10)
    c("schedule.list", 7, q)


@pytest.mark.parametrize("ns", ["a", "x-y.z:9", "n" * 64])
def test_every_key_is_the_namespaces(ql, plain, ns):
    life_cycle(ql, ns)
    keys = raw_keys(plain)
    assert len(keys) > 20, keys
    assert [k for k in keys if not k.startswith("{%s}:ql:" % ns)] == []


def test_no_namespace_keeps_todays_keys(ql, plain):
    life_cycle(ql, None)
    keys = raw_keys(plain)
    assert keys and [k for k in keys if not k.startswith("ql:")] == []


def test_namespaces_isolated_on_one_server(ql, plain):
    """The same queue names and jids in two namespaces and in none on one
    server: each namespace holds exactly what it holds alone."""
    alone = {}
    for ns in (None, "a", "b"):
        plain.flushall()
        life_cycle(ql, ns)
        alone[ns] = digest(plain)
    plain.flushall()
    for ns in ("a", None, "b"):
        life_cycle(ql, ns, q="queue")
    # Each namespace's keys, read alone, are what the namespace made alone.
    for ns in ("a", "b"):
        others = [k for k in raw_keys(plain) if not k.startswith("{%s}:ql:" % ns)]
        dump = {k: plain.dump(k) for k in others}
        for k in others:
            plain.delete(k)
        assert digest(plain) == alone[ns]
        for k, v in dump.items():
            plain.restore(k, 0, v)


def test_alternating_namespaces_per_call(ql, plain):
    """Calls that alternate namespace on the same queue and jid (a batch
    over one loaded library): each namespace sees only its own jobs."""
    for i in range(3):
        for ns in ("a", None, "b"):
            call(ql, ns, "put", 0, "w", "q", "j%d" % i, "k", '{"ns":"%s"}' % ns, 0)
    for ns in ("a", None, "b"):
        jobs = json.loads(call(ql, ns, "peek", 1, "q", 10))
        assert sorted(j["jid"] for j in jobs) == ["j0", "j1", "j2"]
        assert {j["data"] for j in jobs} == {'{"ns":"%s"}' % ns}
        assert json.loads(call(ql, ns, "queues", 1))[0]["waiting"] == 3
    popped = json.loads(call(ql, "a", "pop", 2, "q", "w", 1))
    jid = popped[0]["jid"]
    assert json.loads(call(ql, "a", "get", 2, jid))["state"] == "running"
    assert json.loads(call(ql, "b", "get", 2, jid))["state"] == "waiting"
    assert json.loads(call(ql, None, "get", 2, jid))["state"] == "waiting"


def test_events_go_to_the_namespaces_channels(ql, plain):
    ps = plain.pubsub()
    ps.psubscribe("*ql:*")
    assert ps.get_message(timeout=5)["type"] == "psubscribe"
    call(ql, "a", "put", 0, "w", "q", "j", "k", "{}", 0)
    call(ql, "a", "track", 0, "track", "j")
    call(ql, "a", "pop", 1, "q", "w", 1)
    call(ql, "a", "cancel", 2, "j")
    call(ql, None, "put", 0, "w", "q", "j", "k", "{}", 0)
    got = []
    while True:
        msg = ps.get_message(timeout=0.5)
        if msg is None:
            break
        if msg["type"] == "pmessage":
            got.append(msg["channel"])
    ps.close()
    assert got == ["{a}:ql:log", "{a}:ql:track", "{a}:ql:popped", "{a}:ql:log", "{a}:ql:w:w",
                   "{a}:ql:canceled", "ql:log"], got


@pytest.mark.parametrize("key", ["k", "ql:x", "{}:ql:", "{a}ql:", "{a}:q:", "{a/b}:ql:", "{a b}:ql:",
                                 "{a{b}:ql:", "{" + "n" * 65 + "}:ql:", "{\u00e9}:ql:", b"{\xff}:ql:"])
def test_bad_namespace_key_refused(ql, plain, key):
    before = digest(plain)
    with pytest.raises(redis.ResponseError) as info:
        ql.raw(1, key, "put", 0, "w", "q", "j", "k", "{}", 0)
    assert "[InvalidArgument] Namespace key must be {NAME}:ql:" in str(info.value)
    assert digest(plain) == before


def test_any_key_of_the_namespace_routes(ql, plain):
    """KEYS[1] may be any key of the namespace (a cluster routes by its tag)."""
    ql.raw(1, "{a}:ql:j:whatever", "put", 0, "w", "q", "j", "k", "{}", 0)
    assert plain.exists("{a}:ql:j:j") == 1
