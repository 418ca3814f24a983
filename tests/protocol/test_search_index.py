"""lua/search_index.lua and search_reindex.lua (index upkeep) and page_trees.lua (the tree page's subscribers):
search.reindex (jobs put before the index existed), job.delete dropping
its jobs' index members, and tree.walk's bounded channel subscribers."""
import json

INDEX = "ql:s:index"


def members(r, jid):
    return {m for m in r.zrange(INDEX, 0, -1) if m == "j:" + jid or m.endswith("\0" + jid)}


def by_class(ql, klass):
    return sorted(j["jid"] for j in ql.json("search", 0, "", 500, 5000, "class", klass)["jobs"])


def reindex_all(ql, count):
    """Calls search.reindex until it is done; returns its replies."""
    replies, cursor = [], ""
    while True:
        rep = ql.json("search.reindex", 0, cursor, count)
        replies.append(rep)
        assert len(replies) < 1000, "reindex does not finish"
        if rep["next"] is False:
            return replies
        cursor = rep["next"]


def test_reindex_finds_jobs_in_every_place(ql, r):
    ql.put("w1", queue="a", klass="Old")
    ql.put("s1", queue="a", klass="Old", delay=100)
    ql.put("d1", queue="a", klass="Old", depends='["w1"]')
    ql.running("r1", queue="b", klass="Old")
    ql.failed("f1", queue="b", klass="Old", group="boom")
    ql.running("c1", queue="b", klass="Old")
    assert ql.complete("c1", 1, "worker", "b") == "complete"
    ql.put("t1", queue="a", klass="Old", tree=1)
    assert ql("job.terminate", 1, "t1") == 1
    everyone = ["c1", "d1", "f1", "r1", "s1", "t1", "w1"]
    r.delete(INDEX)                      # as if put before the index existed
    assert by_class(ql, "Old") == []
    replies = reindex_all(ql, 2)
    assert len(replies) > 3 and all(rep["looked"] <= 2 for rep in replies)
    assert sum(rep["added"] for rep in replies) == len(everyone)
    assert replies[-1]["at"] == "done"
    assert by_class(ql, "Old") == everyone
    for jid in everyone:
        assert members(r, jid) == {"j:" + jid, "k:Old\0" + jid}
    # Again: nothing new, nothing broken.
    assert sum(rep["added"] for rep in reindex_all(ql, 1000)) == 0
    assert by_class(ql, "Old") == everyone


def test_reindex_resumes_after_the_last_job_seen(ql, r):
    for jid in ("x1", "x2", "x3"):
        ql.put(jid, queue="a", klass="Old")
    order = r.zrange("ql:q:a-work", 0, -1)
    r.delete(INDEX)
    first = ql.json("search.reindex", 0, "", 2)
    assert first["looked"] == 2 and first["next"] and first["at"] == "queue a work"
    # The first job seen leaves: the ranks shift, the cursor must not skip.
    ql("cancel", 0, order[0])
    rest = ql.json("search.reindex", 0, first["next"], 1000)
    assert rest["next"] is False
    assert members(r, order[2]) == {"j:" + order[2], "k:Old\0" + order[2]}


def test_reindex_refuses_bad_arguments_and_writes_nothing(ql, r):
    ql.put("x1", queue="a")
    r.delete(INDEX)
    for cursor in ("nope", "{}", '{"p":1,"n":"a","k":1,"o":-1}', "[1]"):
        assert 'Arg "cursor"' in ql.err("search.reindex", 0, cursor)
    for count in ("0", "5001", "-1", "x"):
        assert 'Arg "count"' in ql.err("search.reindex", 0, "", count)
    assert r.exists(INDEX) == 0


def test_reindex_with_a_cursor_of_a_gone_queue_goes_on(ql, r):
    ql.put("x1", queue="a")
    ql.put("z1", queue="z")
    r.delete(INDEX)
    gone = json.dumps({"p": 1, "n": "m", "k": 3, "o": 7})   # no queue m: continue at z
    rep = ql.json("search.reindex", 0, gone, 1000)
    assert rep["next"] is False and members(r, "z1") and not members(r, "x1")


def test_tree_delete_drops_index_members(ql, r):
    ql.put("root", tree=1, klass="Tree")
    ql.put("kid", parent="root", name="k", klass="Kid")
    ql.put("other", klass="Kid")
    assert members(r, "kid") and members(r, "root")
    assert ql("job.terminate", 1, "root", "recursive") == 2   # both jobs
    assert ql("job.delete", 2, "root") == 2
    assert members(r, "root") == set() and members(r, "kid") == set()
    assert members(r, "other") == {"j:other", "k:Kid\0other"}
    assert by_class(ql, "Kid") == ["other"]


def subscribe(ql, jid, channel, port="in"):
    ql.put(jid, tree=1)
    assert ql("port.define", 0, jid, "in", json.dumps({port: {}})) == 1
    assert ql("port.connect", 0, jid, "in", port, channel) == 1


def test_tree_walk_lists_subscribers_bounded(ql, r):
    ql.put("root", tree=1)
    assert ql("port.define", 0, "root", "out", '{"out":{}}') == 1
    assert ql("port.connect", 0, "root", "out", "out", "/news", "/quiet") == 2
    for i in range(25):
        subscribe(ql, "s%02d" % i, "/news")
    r.sadd("ql:subs:/news", "in:ghost")          # a stale member: counted, not listed
    walk = ql.json("tree.walk", 0, "root")
    subs = {c["channel"]: c for c in walk["subscribers"]}
    assert sorted(subs) == ["/news", "/quiet"] and walk["channels_truncated"] is False
    assert subs["/news"]["total"] == 26
    listed = subs["/news"]["jobs"]
    assert len(listed) == 20 and all(s["port"] == "in" for s in listed)
    assert [s["jid"] for s in listed] == sorted(s["jid"] for s in listed)
    assert {s["jid"] for s in listed} <= {"s%02d" % i for i in range(25)}
    assert subs["/quiet"]["total"] == 0 and subs["/quiet"]["jobs"] in ({}, [])


def test_tree_walk_subscribers_of_a_child_port_and_channel_cap(ql, r):
    ql.put("root", tree=1)
    subscribe(ql, "kid", "/orders")
    r.delete("ql:j:kid")   # gone behind the engine's back: a stale member, counted, not listed
    ql.put("kid2", parent="root", name="k", tree=1)
    assert ql("port.define", 0, "kid2", "in", '{"in":{}}') == 1
    assert ql("port.connect", 0, "kid2", "in", "in", "/orders") == 1
    walk = ql.json("tree.walk", 0, "root")
    assert walk["subscribers"] == [{"channel": "/orders", "total": 2, "jobs": [{"jid": "kid2", "port": "in"}]}]
    assert ql("port.define", 0, "root", "out", '{"out":{}}') == 1
    assert ql("port.connect", 0, "root", "out", "out", *["/c%02d" % i for i in range(60)]) == 60
    walk = ql.json("tree.walk", 0, "root")
    assert len(walk["subscribers"]) == 50 and walk["channels_truncated"] is True


def test_tree_walk_without_ports_has_no_subscribers(ql):
    ql.put("root", tree=1)
    walk = ql.json("tree.walk", 0, "root")
    assert walk["subscribers"] in ({}, []) and walk["channels_truncated"] is False


def test_search_cursor_minus_zero_starts_over(ql, r):
    # A worker's jobs page by rank. "-0" reads as the number -0, which went
    # on to ZRANGE as the text "-0" (a Lua runtime error) instead of
    # starting from the first job.
    for i in range(3):
        ql.put(jid="m%d" % i, queue="a", klass="K")
    ql.pop(queue="a", worker="w1", count=3)
    first = ql.json("search", 0, "", 10, 1000, "worker", "w1")
    assert len(first["jobs"]) == 3
    for cursor in ("-0", "0", "-1", "x"):
        again = ql.json("search", 0, cursor, 10, 1000, "worker", "w1")
        assert [j["jid"] for j in again["jobs"]] == [j["jid"] for j in first["jobs"]]
