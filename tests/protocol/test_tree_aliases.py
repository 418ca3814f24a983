"""jobtrees.md §5.11 aliases and the put option `aliases` (§5.2)."""
import json
import random

from helpers import digest


def tree(ql, jid="jid"):
    return json.loads(ql("tree.get", 0, jid))


def test_put_aliases_make_a_tree_job_and_sorted_bytewise(ql):
    ql.put(aliases=["b", "B", "a"])
    assert tree(ql)["aliases"] == ["B", "a", "b"]
    assert ql("alias.get", 0, "a") == "jid"
    assert ql("alias.get", 0, "zz") is None


def test_alias_set_counts_new_and_refuses_taken(ql, r):
    # ALS-1
    ql.put("x", tree=1)
    ql.put("y", tree=1)
    assert ql("alias.set", 0, "x", "one", "two") == 2
    assert ql("alias.set", 0, "x", "one", "three") == 1
    before = digest(r)
    err = ql.err("alias.set", 0, "y", "four", "one")
    assert 'Alias.set(): alias "one" is already used by job x' in err
    assert digest(r) == before
    err = ql.err("put", 0, "w", "queue", "y", "klass", "{}", 0, "aliases", '["two"]')
    assert 'Put(): alias "two" is already used by job x' in err
    assert digest(r) == before


def test_alias_argument_errors_write_nothing(ql, r):
    ql.put("x", tree=1)
    ql.put("p")
    before = digest(r)
    assert 'Alias.set(): Arg "alias" missing' in ql.err("alias.set", 0, "x")
    assert 'Alias.set(): Arg "alias" invalid: a b' in ql.err("alias.set", 0, "x", "ok", "a b")
    assert 'Alias.set(): Arg "alias" invalid: ' in ql.err("alias.set", 0, "x", "")
    assert 'Alias.set(): Arg "alias" invalid: ' in ql.err("alias.set", 0, "x", "a" * 201)
    assert 'Alias.get(): Arg "alias" missing' in ql.err("alias.get", 0)
    assert 'Alias.del(): Arg "alias" missing' in ql.err("alias.del", 0)
    assert "Alias.set(): Job p is not a tree job" in ql.err("alias.set", 0, "p", "a")
    for bad, reason in [('{"a":1}', "not a JSON array"), ('"a"', "not a JSON array"),
                        ('["a\\tb"]', 'alias "a\\tb"'), ('[1]', "alias 1"), ('[""]', 'alias ""')]:
        err = ql.err("put", 0, "w", "queue", "new", "klass", "{}", 0, "aliases", bad)
        assert 'Put(): Arg "aliases" invalid: ' + reason in err, (bad, err)
    assert 'Put(): Arg "aliases" not JSON' in ql.err("put", 0, "w", "queue", "new", "klass", "{}",
                                                      0, "aliases", "[nan]")
    assert digest(r) == before


def test_alias_del(ql):
    # ALS-1
    ql.put(aliases=["a", "b"])
    assert ql("alias.del", 0, "a", "nope", "b") == 2
    assert tree(ql)["aliases"] == {}
    assert ql("alias.get", 0, "a") is None


def test_generated_aliases_stay_two_way_consistent(ql, r):
    """Seeded random set/del/put over few aliases and jobs: ql:aliases and
    the per-job sets always mirror each other, and one alias names one job."""
    rng = random.Random(1511)
    names, jobs = ["a%d" % i for i in range(5)], ["j%d" % i for i in range(3)]
    for jid in jobs:
        ql.put(jid, tree=1)
    for _ in range(150):
        pick = rng.sample(names, rng.randrange(1, 3))
        op, jid = rng.choice(["set", "del", "put"]), rng.choice(jobs)
        try:
            if op == "set":
                ql("alias.set", 0, jid, *pick)
            elif op == "del":
                ql("alias.del", 0, *pick)
            else:
                ql.put(jid, aliases=pick)
        except Exception as e:  # taken aliases are refused, nothing else
            assert "is already used by job" in str(e)
        forward = r.hgetall("ql:aliases")
        backward = {a: j for j in jobs for a in r.smembers("ql:aliases:" + j)}
        assert forward == backward
