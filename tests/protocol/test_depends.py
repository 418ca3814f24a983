"""§5.14 depends (DEP-*)."""
import pytest

from helpers import jids


def test_dep_1_order(ql):
    """DEP-1: b depends on a -> only a pops; after a completes b pops."""
    ql.put("a")
    ql.put("b", depends=["a"])
    assert jids(ql.pop(count=10)) == ["a"]
    assert ql.pop(count=10) == {}
    ql.complete("a")
    assert jids(ql.pop(count=10)) == ["b"]


def test_dep_2_delay(ql):
    """DEP-2: b depends on a with delay 1000 -> scheduled after a; peek 1000 returns it."""
    ql.put("a")
    ql.put("b", depends=["a"], delay=1000)
    ql.pop()
    ql.complete("a", now=1)
    assert ql.state("b") == "scheduled"
    assert ql.peek(now=999) == {}
    assert jids(ql.peek(now=1000)) == ["b"]
    assert ql.state("b") == "waiting"


def test_dep_3_many(ql):
    """DEP-3: 10 dependencies; b waits for the last one."""
    deps = [str(i) for i in range(10)]
    for d in deps:
        ql.put(d)
    ql.put("b", depends=deps)
    assert sorted(ql.get("b")["dependencies"]) == sorted(deps)
    popped = jids(ql.pop(count=20))
    assert sorted(popped) == sorted(deps)
    for d in popped[:-1]:
        ql.complete(d)
        assert ql.state("b") == "depends"
    ql.complete(popped[-1])
    assert ql.state("b") == "waiting"


def test_dep_4_chain(ql):
    """DEP-4: chain 0<-1<-...<-9 pops one at a time in sequence."""
    ql.put("0")
    for i in range(1, 10):
        ql.put(str(i), depends=[str(i - 1)])
    for i in range(10):
        assert jids(ql.pop(count=10)) == [str(i)]
        ql.complete(str(i))


def test_dep_5_on(ql):
    """DEP-5: depends 3 c on b (c depends on a) -> c.dependencies [a, b]."""
    ql.put("a")
    ql.put("b")
    ql.put("c", depends=["a"])
    assert ql("depends", 3, "c", "on", "b") == 1
    assert sorted(ql.get("c")["dependencies"]) == ["a", "b"]
    assert ql.get("b")["dependents"] == ["c"]


def test_dep_5_on_ignores_missing_and_complete(ql):
    """§5.14: `on` ignores nonexistent and completed jobs."""
    ql.put("a")
    ql.put("c", depends=["a"])
    ql.running("done")
    ql.complete("done")
    ql("depends", 0, "c", "on", "nothing", "done")
    assert ql.get("c")["dependencies"] == ["a"]


def test_dep_6_off_one_at_a_time(ql, r):
    """DEP-6: depends off <jid> one by one -> waiting after the last."""
    for d in ("a", "b", "c"):
        ql.put(d)
    ql.put("x", depends=["a", "b", "c"])
    for d in ("a", "b"):
        assert ql("depends", 0, "x", "off", d) == 1
        assert ql.state("x") == "depends"
        assert ql.get(d)["dependents"] == {}
    ql("depends", 5, "x", "off", "c")
    assert ql.state("x") == "waiting"
    assert r.zscore("ql:q:queue-depends", "x") is None
    assert r.zscore("ql:q:queue-work", "x") == pytest.approx(-5e-10)


def test_dep_7_off_all(ql):
    """DEP-7: depends off all -> waiting immediately, links removed."""
    ql.put("a")
    ql.put("b")
    ql.put("x", depends=["a", "b"], delay=100)
    assert ql("depends", 0, "x", "off", "all") == 1
    assert ql.state("x") == "waiting"
    assert ql.get("x")["dependencies"] == {}
    assert ql.get("a")["dependents"] == {}
    assert "x" in jids(ql.peek(count=10))


@pytest.mark.parametrize("setup,state", [
    (lambda ql: ql.put("x"), "waiting"),
    (lambda ql: ql.put("x", delay=10), "scheduled"),
    (lambda ql: None, None),
    (lambda ql: ql.failed("x"), "failed"),
    (lambda ql: ql.running("x"), "running"),
])
@pytest.mark.parametrize("sub", [["on", "a"], ["off", "a"], ["off", "all"]])
def test_dep_8_not_depends_state(ql, setup, state, sub):
    """DEP-8: depends on a job not in the depends state -> err."""
    ql.put("a")
    setup(ql)
    msg = ql.err("depends", 0, "x", *sub)
    assert "in the depends state" in msg
    if state:
        assert state in msg
        assert ql.get("a")["dependents"] == {}


def test_dep_9_bogus_subcommand(ql):
    """DEP-9: unknown subcommand -> err."""
    ql.put("a")
    ql.put("c", depends=["a"])
    ql.err("depends", 0, "c", "bogus")
    ql.err("depends", 0, "c")
    ql.err("depends", 0)


def test_dep_no_events(ql, events):
    """§9.3: depends and dependency release publish nothing of their own."""
    ql.put("a")
    ql.put("b")
    ql.put("c", depends=["a"])
    with events() as ev:
        ql("depends", 0, "c", "on", "b")
        ql("depends", 0, "c", "off", "all")
    assert ev == []
