"""jobtrees.md §5.15, §5.16, §6, §7 publish, K5 (CHN-1..CHN-8, EVT-1 publish)."""
import json
import random
import re

from helpers import digest, jids

LOG = "ql:ch:/qless/log"


def sub(ql, jid, *channels, port="i"):
    ql.put(jid, tree=1, inports={port: {}})
    return ql("port.connect", 0, jid, "in", port, *channels)


def publish_event(now, channel, frm, data, to):
    return (LOG, '{"event":"publish","time":%s,"channel":%s,"job":%s,"data":%s,"to":%s}'
            % (now, json.dumps(channel).replace("/", "\\/"), json.dumps(frm) if frm else "false",
               data, json.dumps(to, separators=(",", ":"))))


def test_levels_reach_ancestors_only(ql, r):
    """CHN-1."""
    for jid, c in (("ab", "/a/b"), ("a", "/a"), ("root", "/"), ("ac", "/a/c"), ("ab2", "/ab")):
        assert sub(ql, jid, c) == 1
    assert ql("channel.publish", 1, "/a/b", "7") == 3
    for jid, n in (("ab", 1), ("a", 1), ("root", 1), ("ac", 0), ("ab2", 0)):
        assert r.llen("ql:in:i:" + jid) == n, jid


def test_once_per_port_and_order(ql, events):
    """CHN-2, CHN-3, CHN-5, EVT-1 publish."""
    sub(ql, "both", "/a", "/a/b")
    sub(ql, "z", "/a/b")
    sub(ql, "y", "/a/b")
    sub(ql, "x", "/")
    ql.put("m", tree=1, inports={"p2": {}, "p1": {}})
    ql("port.connect", 0, "m", "in", "p2", "/a")
    ql("port.connect", 0, "m", "in", "p1", "/a")
    with events() as got:
        assert ql("channel.publish", 4, "/a/b", '{"k": 1}', "pub") == 6
    env = '{"channel":"\\/a\\/b","data":{"k": 1}}'
    assert got == [("ql:ch:/a/b", env), ("ql:ch:/a", env), ("ql:ch:/", env),
                   publish_event(4, "/a/b", "pub", '{"k": 1}',
                                 [["both", "i"], ["y", "i"], ["z", "i"], ["m", "p1"], ["m", "p2"], ["x", "i"]])]
    assert ql("port.read", 5, "both", "in", "i", 5) == '[{"k": 1}]'


def test_stale_and_terminated_subscribers(ql, r):
    """CHN-4."""
    sub(ql, "gone", "/s")
    sub(ql, "done", "/s")
    sub(ql, "live", "/s")
    r.delete("ql:j:gone")
    r.hset("ql:j:done", "state", "terminated")
    assert ql("channel.publish", 1, "/s", "1") == 1
    assert r.smembers("ql:subs:/s") == {"i:done", "i:live"}
    assert r.llen("ql:in:i:done") == 0
    # An unlinked member (the port's list lacks the channel) is stale too.
    r.sadd("ql:subs:/s", "i:live2")
    sub(ql, "live2", "/other")
    assert ql("channel.publish", 2, "/s", "1") == 1
    assert "i:live2" not in r.smembers("ql:subs:/s")


def test_channel_names_and_reserved(ql, r, events):
    """CHN-6, K5."""
    ql.put(tree=1, inports={"i": {}}, outports={"o": {}})
    before = digest(r)
    for bad in ("a", "/a/", "//", "/a b", "/a\tb", "", "/" + "x" * 500):
        assert 'Channel.publish(): Arg "channel" invalid: ' + bad in ql.err("channel.publish", 0, bad, "1")
        assert 'Port.connect(): Arg "channel" invalid: ' + bad in ql.err("port.connect", 0, "jid", "in", "i", bad)
    assert 'Channel.publish(): Arg "channel" missing' in ql.err("channel.publish", 0)
    for c in ("/qless", "/qless/x", "/qless/log", "/qless/workers"):
        assert 'Channel.publish(): Arg "channel" invalid: %s is reserved' % c in ql.err("channel.publish", 0, c, "1")
        assert 'Port.connect(): Arg "channel" invalid: %s is reserved' % c in \
            ql.err("port.connect", 0, "jid", "out", "o", c)
    for c in ("/qless", "/qless/log", "/qless/x"):
        assert 'Port.connect(): Arg "channel" invalid: %s is reserved' % c in \
            ql.err("port.connect", 0, "jid", "in", "i", "/ok", c)
    assert 'Channel.publish(): Arg "value" not JSON: Infinity' in ql.err("channel.publish", 0, "/a", "Infinity")
    assert digest(r) == before
    assert ql("port.connect", 0, "jid", "in", "i", "/qless/workers") == 1
    assert ql("port.connect", 0, "jid", "in", "i", "/qless/workers") == 0
    assert ql("worker.register", 3, "q", "k", "{}") == 1
    assert ql("port.read", 4, "jid", "in", "i") == '[{"event":"register","queue":"q","klass":"k"}]'
    assert ql("channel.publish", 5, "/qlessx", "1") == 0


def test_thousand_subscribers_one_call(ql, r):
    """CHN-7: one publish delivers to 1,000 ports and wakes the suspended."""
    pipe = r.pipeline(transaction=False)
    for i in range(1000):
        args = ["w", "queue", "s%04d" % i, "k", "{}", 0, "tree", "1", "inports", '{"i":{}}']
        pipe.execute_command("EVALSHA" if ql.mode == "script" else "FCALL", ql.handle, *ql.keyargs, "put", 0, *args)
        pipe.execute_command("EVALSHA" if ql.mode == "script" else "FCALL", ql.handle, *ql.keyargs,
                             "port.connect", 0, "s%04d" % i, "in", "i", "/fan")
    pipe.execute()
    assert len(jids(ql.pop(now=1, count=1000))) == 1000
    for i in range(0, 1000, 2):
        pipe.execute_command("EVALSHA" if ql.mode == "script" else "FCALL", ql.handle, *ql.keyargs,
                             "job.suspend", 2, "s%04d" % i, "worker")
    pipe.execute()
    assert r.zcard("ql:q:queue-suspended") == 500
    assert ql("channel.publish", 3, "/fan", "1") == 1000
    assert r.zcard("ql:q:queue-suspended") == 0
    assert r.zcard("ql:q:queue-work") == 500
    assert all(r.llen("ql:in:i:s%04d" % i) == 1 for i in range(1000))
    assert r.hget("ql:j:s0001", "rerun") == "1"


def test_subscribers_listing(ql, r):
    """CHN-8."""
    assert ql("channel.subscribers", 0, "/c") == "{}"
    sub(ql, "b", "/c")
    sub(ql, "a", "/c", port="z")
    ql("port.define", 0, "a", "in", '{"y":{}}')
    ql("port.connect", 0, "a", "in", "y", "/c")
    sub(ql, "gone", "/c")
    r.delete("ql:j:gone")
    before = digest(r)
    assert json.loads(ql("channel.subscribers", 0, "/c")) == [["a", "y"], ["a", "z"], ["b", "i"]]
    assert digest(r) == before
    assert ql("port.disconnect", 0, "a", "in", "y", "/c", "/nope") == 1
    assert json.loads(ql("channel.subscribers", 0, "/c")) == [["a", "z"], ["b", "i"]]
    assert json.loads(ql("tree.get", 0, "a"))["inchannels"] == {"z": ["/c"]}


def test_output_port_publishes_each_value_to_each_channel(ql, events):
    """§5.13 and the §7 order: per value the statuses, envelopes, publish; then write."""
    ql.put("b", tree=1, inports={"in": {}})
    ql("port.connect", 0, "b", "in", "in", "/demo/items")
    ql.pop(now=1)
    ql("job.suspend", 2, "b", "worker")
    ql.put("a", tree=1, outports={"out": {}})
    ql("port.connect", 0, "a", "out", "out", "/demo/items", "/other")
    with events() as got:
        assert ql("port.write", 103, "a", "out", "out", "1", "2") == 2
    env = lambda v: '{"channel":"\\/demo\\/items","data":%s}' % v
    oth = lambda v: '{"channel":"\\/other","data":%s}' % v
    assert got == [
        (LOG, '{"event":"status","time":103,"job":"b","from":"suspended","to":"waiting"}'),
        ("ql:ch:/demo/items", env(1)), ("ql:ch:/demo", env(1)), ("ql:ch:/", env(1)),
        publish_event(103, "/demo/items", "a", "1", [["b", "in"]]),
        ("ql:ch:/other", oth(1)), ("ql:ch:/", oth(1)), publish_event(103, "/other", "a", "1", []),
        ("ql:ch:/demo/items", env(2)), ("ql:ch:/demo", env(2)), ("ql:ch:/", env(2)),
        publish_event(103, "/demo/items", "a", "2", [["b", "in"]]),
        ("ql:ch:/other", oth(2)), ("ql:ch:/", oth(2)), publish_event(103, "/other", "a", "2", []),
        (LOG, '{"event":"write","time":103,"job":"a","dir":"out","port":"out","data":[1,2]}')]
    assert ql("port.read", 104, "b", "in", "in", 5) == "[1,2]"


def test_spec_example_publish(ql, events):
    """The §7 example, byte for byte."""
    ql.put("B", tree=1, inports={"in": {}})
    ql("port.connect", 0, "B", "in", "in", "/demo/items")
    ql.put("A", tree=1, outports={"out": {}})
    ql("port.connect", 0, "A", "out", "out", "/demo/items")
    with events() as got:
        ql("port.write", 103, "A", "out", "out", "1")
    env = '{"channel":"\\/demo\\/items","data":1}'
    assert got == [("ql:ch:/demo/items", env), ("ql:ch:/demo", env), ("ql:ch:/", env),
                   (LOG, '{"event":"publish","time":103,"channel":"\\/demo\\/items","job":"A","data":1,'
                         '"to":[["B","in"]]}'),
                   (LOG, '{"event":"write","time":103,"job":"A","dir":"out","port":"out","data":[1]}')]


def test_generated_links_mirror_subscriptions(ql, r):
    """Seeded connect/disconnect/remove/publish walk: ql:subs members and the
    ports' link lists stay mirrored, and each publish reaches exactly the
    live input ports linked to one of the channel's levels, once."""
    rng = random.Random(616)
    chans = ["/", "/a", "/a/b", "/c"]
    jobs = ["j0", "j1", "j2"]
    for j in jobs:
        ql.put(j, tree=1, inports={"p": {}, "q": {}}, outports={"o": {}})
    for step in range(150):
        j, port = rng.choice(jobs), rng.choice(["p", "q"])
        op = rng.choice(["connect", "connect", "disconnect", "remove", "publish"])
        if op == "connect":
            ql("port.connect", step, j, "in", port, *rng.sample(chans, rng.randrange(1, 3)))
        elif op == "disconnect":
            ql("port.disconnect", step, j, "in", port, *rng.sample(chans, rng.randrange(1, 3)))
        elif op == "remove":
            assert ql("port.remove", step, j, "in", port) == 1
            assert r.hget("ql:inchannels:" + j, port) is None
            ql("port.define", step, j, "in", '{"%s":{}}' % port)
        else:
            c = rng.choice(chans)
            levels = [l for l in chans if c == l or c.startswith(l.rstrip("/") + "/")]
            want = sorted((jj, pp) for jj in jobs for pp in ("p", "q")
                          if set(json.loads(r.hget("ql:inchannels:" + jj, pp) or "[]")) & set(levels))
            sizes = {(jj, pp): r.llen("ql:in:%s:%s" % (pp, jj)) for jj, pp in want}
            assert ql("channel.publish", step, c, "1") == len(want)
            assert all(r.llen("ql:in:%s:%s" % (pp, jj)) == sizes[(jj, pp)] + 1 for jj, pp in want)
        for c in chans:
            members = {m for m in r.smembers("ql:subs:" + c)}
            linked = {"%s:%s" % (pp, jj) for jj in jobs for pp in ("p", "q")
                      if c in json.loads(r.hget("ql:inchannels:" + jj, pp) or "[]")}
            assert members == linked, (step, op, c)


def test_exm_1_spec_pipeline_example(ql, r):
    """EXM-1: the §11 example, command by command, with exactly its replies."""
    assert ql("worker.register", 100, "pipes", "Pipeline", '{"inports":{"result":{}}}') == 1
    assert ql("worker.register", 100, "pipes", "Producer", '{"outports":{"out":{}}}') == 1
    assert ql("worker.register", 100, "pipes", "Consumer", '{"inports":{"in":{}}}') == 1
    put = lambda jid, klass, data, *opts: ql("put", 100, "cli", "pipes", jid, klass, data, 0, *opts)
    assert put("P", "Pipeline", "{}", "tree", "1", "aliases", '["nightly"]') == "P"
    assert put("A", "Producer", '{"n":2}', "parent", "P", "name", "producer") == "A"
    assert put("B", "Consumer", "{}", "parent", "P", "name", "consumer") == "B"
    assert ql("port.connect", 100, "A", "out", "out", "/demo/items") == 1
    assert ql("port.connect", 100, "B", "in", "in", "/demo/items") == 1
    assert json.loads(ql("tree.get", 100, "P")) == {
        "jid": "P", "klass": "Pipeline", "queue": "pipes", "state": "waiting", "parent": False,
        "name": False, "children": {"consumer": "B", "producer": "A"}, "aliases": ["nightly"],
        "created_by": "cli", "started": False, "runs": 0, "rerun": False,
        "inports": {"result": {}}, "outports": {}, "inchannels": {}, "outchannels": {},
        "sizes": {"in": {"result": 0}, "out": {}}}
    popped = ql.pop(now=101, queue="pipes", worker="w1", count=3)
    assert [(j["jid"], j["state"], j["expires"]) for j in popped] == [
        ("P", "running", 161), ("B", "running", 161), ("A", "running", 161)]
    for j in ("P", "B", "A"):
        assert ql("job.started", 101, j, "w1") == 1
    assert ql("port.read", 102, "B", "in", "in", 5) == "[]"
    assert ql("job.suspend", 102, "B", "w1") == "suspended"
    assert ql("port.write", 103, "A", "out", "out", "1", "2") == 2
    assert ql.get("B")["state"] == "waiting" and r.lrange("ql:in:in:B", 0, -1) == ["1", "2"]
    assert ql("complete", 104, "A", "w1", "pipes", "{}") == "complete"
    assert ql.get("A")["queue"] == "pipes"
    assert ql("job.suspend", 104, "P", "w1") == "suspended"
    assert [j["jid"] for j in ql.pop(now=105, queue="pipes", worker="w1", count=3)] == ["B"]
    assert ql("port.read", 105, "B", "in", "in", 5) == "[1,2]"
    assert ql("port.write", 106, "P", "in", "result", "3") == 1
    assert ql.get("P")["state"] == "waiting"
    assert ql("complete", 106, "B", "w1", "pipes", "{}") == "complete"
    assert [j["jid"] for j in ql.pop(now=107, queue="pipes", worker="w1", count=3)] == ["P"]
    assert ql("port.read", 107, "P", "in", "result", 1) == "[3]"
    assert ql("state.set", 107, "P", "total", "3") == 1
    assert ql("complete", 108, "P", "w1", "pipes", "{}") == "complete"
    assert ql("job.terminate", 109, "P", "recursive") == 3
    assert ql("jobs", 109, "terminating", "pipes") == ["A", "B", "P"]
    popped = ql.pop(now=110, queue="pipes", worker="w1", count=3)
    assert [(j["jid"], j["state"], j["worker"]) for j in popped] == [
        ("P", "terminating", "w1"), ("B", "terminating", "w1"), ("A", "terminating", "w1")]
    for j in ("P", "B", "A"):
        assert ql("job.terminated", 110, j, "w1") == "terminated"
    assert ql("jobs", 110, "terminated", "pipes") == ["A", "B", "P"]
    assert ql("job.delete", 111, "P") == 3
    assert ql("alias.get", 111, "nightly") is None
    assert ql("channel.publish", 112, "/demo/items", "5") == 0


def test_workers_sub_channels_refused_for_input_ports(ql, r):
    """Registry events go to /qless/workers only (§5.18), so an input port on
    one of its sub-channels would never receive: refused as an argument
    error naming the channel, nothing written; /qless/workers itself and
    disconnecting an old sub-channel link still work."""
    ql.put(tree=1, inports={"i": {}})
    before = digest(r)
    for c in ("/qless/workers/pipes", "/qless/workers/a/b"):
        msg = ql.err("port.connect", 0, "jid", "in", "i", "/qless/workers", c)
        assert re.search(r'\[InvalidArgument\] Port\.connect\(\): Arg "channel" invalid: %s is reserved: '
                         r'worker-registry events go to /qless/workers only' % re.escape(c), msg), msg
    assert digest(r) == before
    assert ql("port.connect", 0, "jid", "in", "i", "/qless/workers") == 1
    assert ql("worker.register", 3, "pipes", "k", "{}") == 1
    assert ql("port.read", 4, "jid", "in", "i") == '[{"event":"register","queue":"pipes","klass":"k"}]'
    # A link made before this rule can still be removed.
    r.hset("ql:inchannels:jid", "i", '["\\/qless\\/workers","\\/qless\\/workers\\/pipes"]')
    r.sadd("ql:subs:/qless/workers/pipes", "i:jid")
    assert ql("port.disconnect", 5, "jid", "in", "i", "/qless/workers/pipes") == 1
