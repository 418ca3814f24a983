"""jobtrees.md §5.2 parent/name, §5.4 job.adopt/job.disown, K7, K9."""
import json
import random

from helpers import digest


def tree(ql, jid):
    return json.loads(ql("tree.get", 0, jid))


def put_err(ql, jid, *opts):
    return ql.err("put", 0, "w", "queue", jid, "klass", "{}", 0, *opts)


def test_put_child_links_both_ways(ql):
    # HIE-1
    ql.put("p", tree=1)
    ql.put("c", parent="p", name="kid.1")
    assert tree(ql, "p")["children"] == {"kid.1": "c"}
    t = tree(ql, "c")
    assert (t["parent"], t["name"]) == ("p", "kid.1")
    ql.put("c", parent="p", name="kid.1")  # the same link again is fine
    assert tree(ql, "p")["children"] == {"kid.1": "c"}


def test_put_parent_form_and_precondition_errors_write_nothing(ql, r):
    # TRE-3 (parent, name), HIE-2 (a taken name)
    ql.put("p", tree=1)
    ql.put("plain")
    ql.put("c", parent="p", name="a")
    ql.put("other", tree=1)
    before = digest(r)
    cases = [
        (("name", "a"), 'Put(): Arg "parent" missing'),
        (("parent", "p"), 'Put(): Arg "name" missing'),
        (("parent", "p", "name", "a b"), 'Put(): Arg "name" invalid: a b'),
        (("parent", "p", "name", "x" * 201), 'Put(): Arg "name" invalid: '),
        (("parent", "p", "name", "z", "unique", "1"), 'Put(): Arg "unique" cannot be combined with parent'),
        (("parent", "nope", "name", "z"), "Put(): Parent nope does not exist"),
        (("parent", "plain", "name", "z"), "Put(): Job plain is not a tree job"),
    ]
    for opts, text in cases:
        assert text in put_err(ql, "new", *opts), opts
    assert "Put(): Job c already has parent p" in put_err(ql, "c", "parent", "other", "name", "a")
    assert "Put(): Job c already has parent p" in put_err(ql, "c", "parent", "p", "name", "b")
    assert 'Put(): child name "a" of p is already used by job c' in \
        put_err(ql, "new", "parent", "p", "name", "a")
    assert "Put(): Job p cannot be a child of c: cycle" in put_err(ql, "p", "parent", "c", "name", "x")
    assert "Put(): Job p cannot be a child of p: cycle" in put_err(ql, "p", "parent", "p", "name", "x")
    assert digest(r) == before


def test_adopt_and_disown(ql, r):
    # HIE-2, HIE-3
    for j in ("p", "c", "d", "e"):
        ql.put(j, tree=1)
    assert ql("job.adopt", 0, "p", "n", "c") == 1
    assert ql("job.adopt", 0, "c", "m", "d") == 1
    before = digest(r)
    assert "Job.adopt(): Job p cannot be a child of d: cycle" in ql.err("job.adopt", 0, "d", "x", "p")
    assert "Job.adopt(): Job d already has parent c" in ql.err("job.adopt", 0, "p", "y", "d")
    assert 'Job.adopt(): child name "n" of p is already used by job c' in \
        ql.err("job.adopt", 0, "p", "n", "e")
    assert 'Job.adopt(): Arg "name" invalid: a/b' in ql.err("job.adopt", 0, "p", "a/b", "d")
    assert 'Job.adopt(): Arg "jid" missing' in ql.err("job.adopt", 0, "p", "q")
    assert 'Job.disown(): child "zz" of p does not exist' in ql.err("job.disown", 0, "p", "zz")
    assert 'Job.disown(): Arg "name" missing' in ql.err("job.disown", 0, "p")
    assert digest(r) == before
    assert ql("job.disown", 0, "p", "n") == "c"
    assert tree(ql, "p")["children"] == {}
    t = tree(ql, "c")
    assert (t["parent"], t["name"], t["children"]) == (False, False, {"m": "d"})


def test_generated_adoptions_stay_a_forest(ql, r):
    """Seeded random adopt/disown/put-with-parent: links stay mirrored both
    ways and walking up from any job ends at a root within n steps."""
    rng = random.Random(1504)
    jobs = ["j%d" % i for i in range(6)]
    for j in jobs:
        ql.put(j, tree=1)
    for _ in range(200):
        a, b, name = rng.choice(jobs), rng.choice(jobs), rng.choice(["x", "y"])
        op = rng.choice(["adopt", "adopt", "disown", "put"])
        try:
            if op == "adopt":
                ql("job.adopt", 0, a, name, b)
            elif op == "disown":
                ql("job.disown", 0, a, name)
            else:
                ql.put(b, parent=a, name=name)
        except Exception as e:
            assert any(t in str(e) for t in ("cycle", "already", "does not exist")), str(e)
        for j in jobs:
            parent, name = r.hmget("ql:j:" + j, "parent", "name")
            if parent is not None:
                assert r.hget("ql:children:" + parent, name) == j
            for n, c in r.hgetall("ql:children:" + j).items():
                assert r.hmget("ql:j:" + c, "parent", "name") == [j, n]
            up, steps = j, 0
            while up is not None:
                up, steps = r.hget("ql:j:" + up, "parent"), steps + 1
                assert steps <= len(jobs)
