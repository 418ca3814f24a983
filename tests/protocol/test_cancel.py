"""§5.13 cancel (CAN-*)."""
import pytest

from helpers import jids


def canceled(jid="jid", queue="queue", worker=""):
    def enc(v):
        return "false" if v is False else '"%s"' % v
    return '{"jid":"%s","queue":%s,"event":"canceled","worker":%s}' % (jid, enc(queue), enc(worker))


def test_can_1_waiting(ql, r):
    """CAN-1: waiting job canceled -> get nil, all keys gone."""
    ql.put(tags=["foo"])
    assert ql("cancel", 0, "jid") == ["jid"]
    assert ql.get() is None
    assert r.keys("ql:j:*") == []
    assert r.zcard("ql:q:queue-work") == 0


def test_can_2_dependent_canceled(ql):
    """CAN-2: cancel b (depends on a) -> a.dependents no longer has b."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql("cancel", 0, "b")
    assert ql.get("b") is None
    assert ql.get("a")["dependents"] == {}


def test_can_3_dependency_refused(ql, r):
    """CAN-3: cancel a while b depends on a -> err(dependency), nothing changes."""
    ql.put("a")
    ql.put("b", depends=["a"])
    before = {k: r.dump(k) for k in r.keys("*")}
    assert "is a dependency of" in ql.err("cancel", 0, "a")
    assert {k: r.dump(k) for k in r.keys("*")} == before


def test_can_4_scheduled_and_missing(ql):
    """CAN-4: scheduled job canceled -> nil; nonexistent jid -> no error."""
    ql.put(delay=10)
    ql("cancel", 0, "jid")
    assert ql.get() is None
    assert ql("cancel", 0, "nothing") == ["nothing"]


def test_can_5_failed(ql, r):
    """CAN-5: failed job canceled -> stats failed 0, failures 1; lists cleaned."""
    ql.failed()
    ql("cancel", 0, "jid")
    assert ql.get() is None
    stats = ql.stats()
    assert (stats["failed"], stats["failures"]) == (0, 1)
    assert ql("failed", 0) == "{}"
    assert r.exists("ql:f:group") == 0


def test_can_6_running(ql):
    """CAN-6: running job canceled -> heartbeat err; worker lists empty."""
    ql.running()
    ql("cancel", 0, "jid")
    assert "Job jid does not exist" in ql.err("heartbeat", 0, "jid", "worker")
    assert ql.workers(1, "worker") == {"jobs": {}, "stalled": {}}
    assert ql.workers(1) == [{"name": "worker", "jobs": 0, "stalled": 0}]


def test_can_7_exhausted(ql):
    """CAN-7: jobs failed by exhausted retries (retry or pop) can be canceled."""
    ql.config("grace-period", 0)
    ql.running("a", retries=0)
    ql.retry("a")
    ql.running("b", retries=0)
    ql.pop(now=100)
    assert ql.state("b") == "failed"
    ql("cancel", 0, "a", "b")
    assert (ql.get("a"), ql.get("b")) == (None, None)


@pytest.mark.parametrize("order", [["a", "b"], ["b", "a"]])
def test_can_8_chain_together(ql, order):
    """CAN-8: cancel a b (b depends on a) in either order."""
    ql.put("a")
    ql.put("b", depends=["a"])
    assert ql("cancel", 0, *order) == order
    assert (ql.get("a"), ql.get("b")) == (None, None)


def test_can_9_partial_chain(ql):
    """CAN-9: chain a<-b<-c; cancel a b -> err(is a dependency)."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql.put("c", depends=["b"])
    assert "is a dependency" in ql.err("cancel", 0, "a", "b")
    assert ql.state("a") == "waiting" and ql.state("b") == "depends"


def test_can_10_with_missing(ql):
    """CAN-10: cancel a b c with c nonexistent -> a and b gone."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql("cancel", 0, "a", "b", "c")
    assert (ql.get("a"), ql.get("b")) == (None, None)


def test_can_11_waiting_event(ql, events):
    """CAN-11: waiting job -> only ql:log canceled with worker ""."""
    ql.put()
    with events() as ev:
        ql("cancel", 0, "jid")
    assert ev == [("ql:log", canceled())]


def test_can_11_running_event(ql, events):
    """CAN-11: running job held by wrk in q -> ql:log then ql:w:wrk."""
    ql.running(queue="q", worker="wrk")
    with events() as ev:
        ql("cancel", 0, "jid")
    msg = canceled(queue="q", worker="wrk")
    assert ev == [("ql:log", msg), ("ql:w:wrk", msg)]


@pytest.mark.parametrize("setup", [
    lambda ql: (ql.put("a"), ql.put(depends=["a"])),
    lambda ql: ql.put(delay=5),
    lambda ql: ql.failed(),
], ids=["depends", "scheduled", "failed"])
def test_can_11_other_states_event(ql, events, setup):
    """CAN-11: depends / scheduled / failed -> only ql:log with worker ""."""
    setup(ql)
    with events() as ev:
        ql("cancel", 0, "jid")
    assert ev == [("ql:log", canceled())]


def test_can_11_nonexistent_event(ql, events):
    """§9.2: a nonexistent jid -> queue and worker false."""
    with events() as ev:
        ql("cancel", 0, "c")
    assert ev == [("ql:log", canceled("c", False, False))]


def test_can_12_tracked(ql, events, r):
    """CAN-12: tracked -> ql:log canceled then ql:canceled; jid stays tracked."""
    ql.put()
    ql.track()
    with events() as ev:
        ql("cancel", 0, "jid")
    assert ev == [("ql:log", canceled()), ("ql:canceled", "jid")]
    assert r.zscore("ql:tracked", "jid") is not None


def test_can_13_tags(ql, r):
    """CAN-13: tagged job canceled -> tag get foo jobs {}."""
    ql.put(tags=["foo"])
    ql("cancel", 0, "jid")
    assert ql.tag_get("foo") == {"total": 0, "jobs": {}}
    assert r.zscore("ql:tags", "foo") == 0


def test_can_14_reply(ql):
    """CAN-14: reply is the array of given jids (empty array for none)."""
    ql.put("a")
    assert ql("cancel", 0, "a", "x", "a") == ["a", "x", "a"]
    assert ql("cancel", 0) == []


def test_can_15_completed_intact(ql, events):
    """CAN-15: cancel of a completed job leaves it intact, no event."""
    ql.running()
    ql.complete()
    with events() as ev:
        ql("cancel", 0, "jid")
    assert ev == []
    assert ql.state() == "complete"


def test_can_12_tracked_running_order(ql, events):
    """§9.3: tracked running job -> ql:log, ql:w:<w>, then ql:canceled."""
    ql.running()
    ql.track()
    with events() as ev:
        ql("cancel", 0, "jid")
    msg = canceled(worker="worker")
    assert ev == [("ql:log", msg), ("ql:w:worker", msg), ("ql:canceled", "jid")]


def test_can_12_several_jids_in_order(ql, events):
    """§9.3: per canceled jid, in argument order."""
    ql.put("a")
    ql.put("b")
    with events() as ev:
        ql("cancel", 0, "b", "a")
    assert ev == [("ql:log", canceled("b")), ("ql:log", canceled("a"))]


def test_can_2_removed_from_depends_set(ql, r):
    """§5.13 2.3: a canceled depends job leaves -depends; counts drop."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql("cancel", 0, "b")
    assert r.zscore("ql:q:queue-depends", "b") is None
    assert ql.queues(0, "queue")["depends"] == 0
    assert r.exists("ql:j:b-dependencies") == 0
