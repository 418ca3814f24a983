"""jobtrees.md §5.10 job.delete: TRM-6, TRM-7, TRM-8, K1 (dependents are
released) and K9 (deep trees, validated before the first write)."""
import json
import random

from helpers import digest

Q = "queue"


def terminated(ql, *jids, now=0):
    """Terminates never-started tree jobs: job.terminate takes them to
    `terminated` at once (§4 TERMINATE)."""
    for jid in jids:
        assert ql("job.terminate", now, jid) == 1
        assert ql.state(jid) == "terminated"


def with_ports(ql, r, jid, channels=("/a", "/a/b")):
    """Ports with values and channel links, made by the port commands."""
    assert ql("port.define", 0, jid, "in", '{"in":{},"more":{"default":0},"*":{}}') == 3
    assert ql("port.define", 0, jid, "out", '{"out":{}}') == 1
    assert ql("port.write", 0, jid, "in", "in", "1", '{"a": 2}') == 2
    assert ql("port.write", 0, jid, "in", "more", "3") == 1
    assert ql("port.write", 0, jid, "out", "out", "4") == 1
    assert ql("port.connect", 0, jid, "in", "in", *channels) == len(channels)
    assert ql("port.connect", 0, jid, "out", "out", "/z") == 1
    for c in channels:
        assert r.sismember("ql:subs:" + c, "in:" + jid)


def dump(r, key):
    kind = r.type(key)
    if kind == "string":
        return [r.get(key)]
    if kind == "hash":
        return sorted(x for kv in r.hgetall(key).items() for x in kv)
    if kind == "set":
        return sorted(r.smembers(key))
    if kind == "zset":
        return r.zrange(key, 0, -1)
    if kind == "list":
        return r.lrange(key, 0, -1)
    return []


def mentions(r, jids):
    """Keys whose name or content holds one of `jids`, apart from
    ql:tracked and statistics (ql:s:*), which §5.10 leaves alone."""
    found = set()
    for key in r.scan_iter(count=1000):
        if key == "ql:tracked" or key.startswith("ql:s:"):
            continue
        text = key + "\0" + "\0".join(dump(r, key))
        if any(j in text for j in jids):
            found.add(key)
    return found


def snapshot(r, pattern):
    return {k: (r.type(k), dump(r, k)) for k in r.scan_iter(match=pattern, count=1000)}


def test_delete_leaves_no_trace(ql, r):
    """TRM-7: a 3-job tree under a surviving parent, with aliases, tags,
    state, history, tracking, ports, values and subscriptions."""
    doomed = ["dq7root", "dq7kid1", "dq7kid2"]
    ql.put("keepG", tree=1, aliases=["g-alias"])
    ql.put("dq7root", parent="keepG", name="sub", tags=["t1"], aliases=["r1", "r2"])
    ql.put("dq7kid1", parent="dq7root", name="one", tags=["t1", "t2"], aliases=["k1"])
    ql.put("dq7kid2", parent="dq7root", name="two")
    ql.put("keep2", parent="keepG", name="other", tags=["t1"], aliases=["k2"])
    ql.track("dq7root")
    for j in doomed + ["keep2"]:
        with_ports(ql, r, j)
        ql("state.set", 0, j, "k", "[1]")
    terminated(ql, *doomed)
    survivors = snapshot(r, "*keep*")
    del survivors["ql:children:keepG"]   # checked below
    assert ql("job.delete", 5, "dq7root") == 3
    assert mentions(r, doomed) == set()
    assert r.zrange("ql:tracked", 0, -1) == ["dq7root"]
    assert ql.json("track", 6)["expired"] == ["dq7root"]
    assert r.hgetall("ql:aliases") == {"g-alias": "keepG", "k2": "keep2"}
    assert r.hgetall("ql:children:keepG") == {"other": "keep2"}
    for c in ("/a", "/a/b"):
        assert r.smembers("ql:subs:" + c) == {"in:keep2"}
    assert r.zrange("ql:t:t1", 0, -1) == ["keep2"]
    assert r.zscore("ql:tags", "t2") in (None, 0)
    after = snapshot(r, "*keep*")
    del after["ql:children:keepG"]
    assert after == survivors
    for j in doomed:
        assert ql.get(j) is None and ql("tree.get", 0, j) is None
    assert ql("alias.get", 0, "r1") is None


def test_not_terminated_descendant_refuses_all(ql, r):
    """TRM-6: one job of the tree not terminated -> nothing is deleted."""
    ql.put("p", tree=1)
    ql.put("a", parent="p", name="a")
    ql.put("b", parent="p", name="b")
    ql.put("c", parent="b", name="c")
    terminated(ql, "p", "a", "b")
    before = digest(r)
    assert "Job.delete(): Job c is not terminated: waiting" in ql.err("job.delete", 1, "p")
    assert "Job.delete(): Job c is not terminated: waiting" in ql.err("job.delete", 1, "b")
    assert digest(r) == before
    terminated(ql, "c")
    ql.put("d", parent="a", name="d")
    ql.pop(now=1)
    assert "Job.delete(): Job d is not terminated: running" in ql.err("job.delete", 2, "p")
    assert ql("job.delete", 2, "b") == 2


def test_subtree_delete_keeps_the_rest(ql, r):
    """TRM-8: deleting a subtree root removes that subtree and its entry in
    the parent; the parent and the sibling subtree stay."""
    ql.put("p", tree=1)
    ql.put("a", parent="p", name="a")
    ql.put("a1", parent="a", name="x")
    ql.put("b", parent="p", name="b")
    ql.put("b1", parent="b", name="x")
    terminated(ql, "a", "a1", "b", "b1")
    assert ql("job.delete", 1, "a") == 2
    assert ql.get("a") is None and ql.get("a1") is None
    t = json.loads(ql("tree.get", 1, "p"))
    assert (t["state"], t["children"]) == ("waiting", {"b": "b"})
    assert json.loads(ql("tree.get", 1, "b"))["children"] == {"x": "b1"}
    assert r.zrange("ql:q:queue-terminated", 0, -1) == ["b", "b1"]
    # A root: no parent entry to remove.
    assert ql("job.delete", 1, "b") == 2
    assert r.exists("ql:children:p") == 0


def test_delete_releases_dependents(ql, r):
    """K1: jobs outside the tree that wait for it are released as
    `depends … off` would release them, not refused."""
    ql.put("p", tree=1)
    ql.put("c", parent="p", name="c")
    ql.put("x", queue="other")
    ql.put("d1", queue="q2", depends=["c"])
    ql.put("d2", queue="q2", depends=["c", "x"])
    ql.put("d3", queue="q2", depends=["p", "c"])
    terminated(ql, "p", "c")
    assert ql("job.delete", 3, "p") == 2
    assert ql.state("d1") == "waiting" and ql.state("d3") == "waiting"
    assert sorted(r.zrange("ql:q:q2-work", 0, -1)) == ["d1", "d3"]
    assert r.zrange("ql:q:q2-depends", 0, -1) == ["d2"]
    assert ql.get("d2")["dependencies"] == ["x"]
    assert ql.get("d1")["dependencies"] == {}
    assert r.smembers("ql:j:x-dependents") == {"d2"}


def test_dependencies_inside_the_tree_go_with_it(ql, r):
    """Links between jobs of the tree are dropped with them; links to
    outside dependencies are undone on both sides."""
    ql.put("p", tree=1)
    ql.put("c", parent="p", name="c")
    ql.put("out", queue="other")
    # Dependency sets written directly: a terminated job keeps none of its
    # own (K1), but job.delete must not rely on that.
    r.sadd("ql:j:c-dependencies", "p", "out")
    r.sadd("ql:j:p-dependents", "c")
    r.sadd("ql:j:out-dependents", "c")
    terminated(ql, "p", "c")
    assert ql("job.delete", 3, "p") == 2
    assert r.exists("ql:j:out-dependents") == 0
    assert ql.state("out") == "waiting"


def _chain(r, n, last_state="terminated"):
    """n nested tree jobs (c0 the root, c<i+1> the child of c<i>), written
    in one call: putting 20,000 children one by one would dominate the
    suite's time for no gain."""
    r.eval("""
      local n, last = tonumber(ARGV[1]), ARGV[2]
      for i = 0, n - 1 do
        local jid = 'c' .. i
        local state = i == n - 1 and last or 'terminated'
        redis.call('hset', 'ql:j:' .. jid, 'jid', jid, 'klass', 'k', 'queue', 'q', 'state', state,
          'tree', '1', 'worker', '', 'expires', '0', 'priority', '0', 'data', '{}', 'tags', '{}')
        if i > 0 then redis.call('hset', 'ql:j:' .. jid, 'parent', 'c' .. (i - 1), 'name', 'n') end
        if i < n - 1 then redis.call('hset', 'ql:children:' .. jid, 'n', 'c' .. (i + 1)) end
        redis.call('zadd', 'ql:q:q-' .. (state == 'terminated' and 'terminated' or 'work'), i, jid)
      end""", 0, n, last_state)


def test_deep_chain_deletes_without_recursion(ql, r):
    """K9: 20,000 nested children; a waiting leaf refuses the whole delete
    before anything is written, a terminated one lets it all go."""
    _chain(r, 20000, "waiting")
    # Counts, not a digest of 40,000 keys: a write before the refusal
    # would delete at least the root's keys.
    before = (r.dbsize(), r.zcard("ql:q:q-terminated"), r.hlen("ql:j:c0"), r.hlen("ql:children:c0"))
    assert "Job.delete(): Job c19999 is not terminated: waiting" in ql.err("job.delete", 1, "c0")
    assert (r.dbsize(), r.zcard("ql:q:q-terminated"), r.hlen("ql:j:c0"), r.hlen("ql:children:c0")) == before
    terminated(ql, "c19999")
    assert ql("job.delete", 1, "c0") == 20000
    assert r.dbsize() == 0


def test_generated_bad_input_writes_nothing(ql, r):
    """Seeded bad calls: missing, suffixed, unknown, plain, not terminated
    (anywhere in the tree); each fails with its message, nothing written."""
    ql.put("plain")
    ql.put("t0", tree=1)
    for i in range(1, 8):
        ql.put("t%d" % i, parent="t%d" % ((i - 1) // 2), name="n%d" % i)
    rng = random.Random(5100)
    for _ in range(60):
        live = rng.sample(range(8), rng.randrange(1, 4))
        for i in range(8):
            r.hset("ql:j:t%d" % i, "state", "waiting" if i in live else "terminated")
        before = digest(r)
        root = rng.randrange(8)
        under = [i for i in range(8) if _under(i, root)]
        kind = rng.choice(["tree", "tree", "missing", "suffix", "unknown", "plain"])
        if kind == "tree":
            if not set(under) & set(live):
                continue
            err = ql.err("job.delete", 1, "t%d" % root)
            assert "is not terminated: waiting" in err
            assert any("Job t%d is" % i in err for i in set(under) & set(live))
        else:
            args = {"missing": [], "suffix": ["t1-dependents"], "unknown": ["nope"],
                    "plain": ["plain"]}[kind]
            text = {"missing": 'Arg "jid" missing', "suffix": 'Arg "jid" must not end in "-dependents"',
                    "unknown": "Job nope does not exist", "plain": "Job plain is not a tree job"}[kind]
            assert "Job.delete(): " + text in ql.err("job.delete", 1, *args)
        assert digest(r) == before


def _under(i, root):
    """Whether t<i> is t<root> or below it in the heap-shaped test tree."""
    while i > root:
        i = (i - 1) // 2
    return i == root
