"""CHANNEL-PUBLISH at scale (jobtrees.md §6.2, K4, CHN-3): large levels are
delivered in byte order, and the Redis calls of a publish grow linearly with
the ports it reaches."""
import json
import random

import pytest
import redis

from conftest import NAMESPACE, NS
from helpers import Qless, same_server

LOG = "ql:ch:/qless/log"

# Bytes whose order differs between byte-wise and common collations (case,
# punctuation, multi-byte UTF-8) and NUL, which C string comparison
# (strcoll, strcmp) stops at: jids that differ only after a NUL compare equal
# there, so a sort that is not byte-wise leaves them in an arbitrary order.
JID_CHARS = ["a", "B", "b", "_", "~", "0", "-", "\x00", "\x7f", "\u00e9", "\u20ac", "\U0001F600"]
JID_HEADS = ["", "x\x00", "x\x00y", "\u00e9"]
PORTS = ["a", "B", "_", "a_", "Z9"]


def pipeline_calls(ql, r, calls):
    pipe = r.pipeline(transaction=False)
    verb = "EVALSHA" if ql.mode == "script" else "FCALL"
    for args in calls:
        pipe.execute_command(verb, ql.handle, *ql.keyargs, *args)
    return pipe.execute()


def subscribe_all(ql, r, subs, queue="queue"):
    """subs: (jid, port, channel) triples; each job is put with its ports."""
    ports = {}
    for jid, port, _ in subs:
        ports.setdefault(jid, set()).add(port)
    calls = [("put", 0, "w", queue, jid, "k", "{}", 0, "tree", "1", "inports",
              json.dumps({p: {} for p in sorted(ps)})) for jid, ps in ports.items()]
    calls += [("port.connect", 0, jid, "in", port, c) for jid, port, c in subs]
    pipeline_calls(ql, r, calls)


def test_large_levels_delivered_in_byte_order(ql, r, events):
    """Seeded: levels of 0 to 40 members around the size where the sort
    changes method; stale, terminated and doubly subscribed ports mixed in.
    The `to` list of the publish event is each level's live members in byte
    order of `<port>:<jid>`, most specific level first, each port once."""
    rng = random.Random(1515)
    for rnd in range(8):
        channel = "/r%d/x/y" % rnd
        levels = [channel, "/r%d/x" % rnd, "/r%d" % rnd]
        subs, members = [], set()
        for level in levels:
            for _ in range(rng.choice([0, 1, 2, 3, 4, 5, rng.randrange(6, 41), rng.randrange(6, 41)])):
                jid = "%d" % rnd + rng.choice(JID_HEADS) + "".join(
                    rng.choice(JID_CHARS) for _ in range(rng.randrange(1, 5)))
                port = rng.choice(PORTS)
                if (port, jid, level) not in members:
                    members.add((port, jid, level))
                    subs.append((jid, port, level))
        subscribe_all(ql, r, subs)
        jobs = sorted({jid for jid, _, _ in subs})
        stale = set(rng.sample(jobs, len(jobs) // 8))
        done = set(rng.sample(sorted(set(jobs) - stale), len(jobs) // 8))
        for jid in stale:
            r.delete("ql:j:" + jid)
        for jid in done:
            r.hset("ql:j:" + jid, "state", "terminated")
        want, seen = [], set()
        for level in levels:
            here = sorted(((p + ":" + j).encode(), j, p) for p, j, l in members if l == level)
            for _, jid, port in here:
                if jid not in stale and jid not in done and (jid, port) not in seen:
                    seen.add((jid, port))
                    want.append([jid, port])
        with events() as got:
            assert ql("channel.publish", 1, channel, "7", "pub") == len(want)
        published = [json.loads(msg) for ch, msg in got if ch == LOG]
        assert [m["event"] for m in published] == ["publish"], rnd
        assert published[0]["to"] == want, rnd
        for jid in stale:
            assert not any(m.endswith(":" + jid) for level in levels for m in r.smembers("ql:subs:" + level))
        assert r.keys("ql:scratch*") == []


def command_counts(r):
    """Calls per command since CONFIG RESETSTAT, the scripting entry and the
    bookkeeping left out (in a cluster, a replica's REPLCONF ACK reaches the
    primary every second, whatever the script does)."""
    counts = {}
    for name, stat in r.info("commandstats").items():
        name = name[len("cmdstat_"):]
        if name not in ("evalsha", "fcall", "config|resetstat", "info", "replconf"):
            counts[name] = stat["calls"]
    return counts


def publish_counts(ql, r, n, wake):
    """The Redis calls of one publish to n subscribed ports (half on the
    channel, half on its parent), all waiting or all suspended (woken)."""
    r.flushall()
    subs = [("s%03d" % i, "in", "/l/m" if i % 2 else "/l") for i in range(n)]
    subscribe_all(ql, r, subs)
    if wake:
        assert len(ql.pop(now=1, count=n)) == n
        assert pipeline_calls(ql, r, [("job.suspend", 2, jid, "worker") for jid, _, _ in subs]) == \
            ["suspended"] * n
    r.config_resetstat()
    assert ql("channel.publish", 3, "/l/m", "1") == n
    return command_counts(r)


# Commands of constant (or logarithmic) cost: the only ones a publish may
# repeat per port it reaches. A whole-collection read per port (SMEMBERS,
# LRANGE, HGETALL, SORT...) would make the fan-out quadratic.
PER_PORT_OK = {"hmget", "hget", "hset", "hdel", "hexists", "rpush", "lpush", "lpop", "rpop", "llen",
               "lindex", "ltrim", "publish", "zadd", "zrem", "zrank", "zscore", "exists", "sadd", "srem",
               "sismember", "hincrby"}


def test_redis_calls_grow_linearly_with_fanout(ql, r):
    """Each extra subscriber adds the same Redis calls whatever the fan-out,
    each of constant cost, for waiting subscribers and for suspended ones the
    publish wakes. Lua-side work (sorting, string building) is not visible
    here: bench/ shows it. A large level is sorted by the server (SORT ...
    STORE, once per level), not by a Lua comparator."""
    for wake in (False, True):
        small, mid, big = (publish_counts(ql, r, n, wake) for n in (8, 16, 32))
        growing = set()
        for name in set(small) | set(mid) | set(big):
            a, b, c = small.get(name, 0), mid.get(name, 0), big.get(name, 0)
            assert c - b == 2 * (b - a), (wake, name, a, b, c)
            if c > b:
                growing.add(name)
        assert growing and growing <= PER_PORT_OK, (wake, growing - PER_PORT_OK)
        assert big["sort"] == 2, (wake, big)


def test_server_refusing_sort_still_delivers_in_byte_order(ql, r):
    """SORT is in ACL category @dangerous: for a client that may not run it,
    a publish sorts large levels itself, in the same order, and fails no
    call."""
    subs = [("%s\x00%d" % (rng_jid, i % 3), "in", "/acl") for i, rng_jid in enumerate("zZaA_~b9")]
    subscribe_all(ql, r, subs)
    want = [[jid, "in"] for jid in sorted((j for j, _, _ in subs), key=lambda j: ("in:" + j).encode())]
    r.execute_command("ACL", "SETUSER", "qless-nosort", "on", "nopass", "~*", "&*", "+@all", "-sort")
    try:
        user = same_server(r, username="qless-nosort", password="any", decode_responses=True)
        refused = Qless(user, ql.mode, ql.handle, NAMESPACE)
        with pytest.raises(redis.exceptions.NoPermissionError):
            user.execute_command("SORT", "ql:subs:/acl", "ALPHA", "STORE", "ql:scratch:sort")
        ps = r.pubsub()
        ps.subscribe(NS + LOG)
        assert ps.get_message(timeout=5)["type"] == "subscribe"
        assert refused("channel.publish", 1, "/acl", "1") == len(subs)
        msg = ps.get_message(timeout=5)
        ps.close()
        user.close()
        assert json.loads(msg["data"])["to"] == want
    finally:
        r.execute_command("ACL", "DELUSER", "qless-nosort")
