"""§5.20 queues, §5.21 length, §5.24 pause, §5.25 queue.forget (QUE-*, LEN-*, FGT-*, PAU-*)."""
import pytest


def counts(name="queue", **kw):
    base = {"name": name, "waiting": 0, "stalled": 0, "running": 0, "scheduled": 0,
            "depends": 0, "recurring": 0, "paused": False}
    base.update(kw)
    return base


def test_que_1_stalled(ql):
    """QUE-1 (grace 0): popped job, queues at expires+10 -> stalled 1."""
    ql.config("grace-period", 0)
    ql.running()
    assert ql.queues(70, "queue") == counts(stalled=1)
    assert ql.queues(70) == [counts(stalled=1)]


def test_que_2_each_count(ql):
    """QUE-2: waiting / running / depends / scheduled / recurring counts."""
    ql.put("w")
    assert ql.queues(0, "queue") == counts(waiting=1)
    ql.pop()
    assert ql.queues(0, "queue") == counts(running=1)
    ql.put("a", queue="q2")
    ql.put("b", queue="q2", depends=["a"])
    assert ql.queues(0, "q2") == counts("q2", waiting=1, depends=1)
    ql.put("s", queue="q3", delay=10)
    assert ql.queues(0, "q3") == counts("q3", scheduled=1)
    ql.recur("r0", queue="q4", offset=0)
    assert ql.queues(0, "q4") == counts("q4", recurring=1)
    ql.recur("r10", queue="q5", offset=10)
    assert ql.queues(0, "q5") == counts("q5", recurring=1)


def test_que_2_listing_order(ql):
    """§5.20: listing ordered by first-seen time, ties by name."""
    ql.put("a", queue="zeta", now=1)
    ql.put("b", queue="beta", now=1)
    ql.put("c", queue="alpha", now=5)
    ql.put("d", queue="zeta", now=9)   # re-registration does not change the score
    assert [q["name"] for q in ql.queues(10)] == ["beta", "zeta", "alpha"]


def test_que_2_unknown_and_empty(ql):
    """§5.20: any name works; no queues -> {}."""
    assert ql("queues", 0) == "{}"
    assert ql.queues(0, "nothing") == counts("nothing")


def test_que_3_paused(ql):
    """QUE-3: paused queue shows paused true."""
    ql.put()
    ql("pause", 0, "queue", "other")
    assert ql.queues(0, "queue")["paused"] is True
    assert ql.queues(0, "other")["paused"] is True
    ql("unpause", 0, "other")
    assert ql.queues(0, "other")["paused"] is False


def test_que_4_advance(ql):
    """QUE-4: complete … next another -> [another (waiting 1), queue (all 0)]."""
    ql.running()
    ql.complete(now=0, next="another")
    assert ql.queues(0) == [counts("another", waiting=1), counts()]


def test_que_5_recur_update_queue(ql):
    """QUE-5: recur.update queue another -> another recurring 1, queue all 0."""
    ql.recur()
    assert ql("recur.update", 0, "jid", "queue", "another") == 1
    assert ql.queues(0) == [counts("another", recurring=1), counts()]


def test_que_6_scheduled_promoted(ql):
    """QUE-6: delay 10 -> queues 20 shows waiting 1, scheduled 0."""
    ql.put(delay=10)
    assert ql.queues(5, "queue") == counts(scheduled=1)
    assert ql.queues(20, "queue") == counts(waiting=1)
    assert ql.state() == "waiting"


def test_que_grace_counts_as_running(ql):
    """§5.20: a job in its grace period counts as running; stalled-state jobs as waiting."""
    ql.running("a")
    ql.pop(now=60)        # notice: lock moved to 70
    assert ql.queues(65, "queue") == counts(running=1)
    ql.running("b")
    ql("timeout", 0, "b")
    assert ql.queues(65, "queue")["waiting"] == 1


def test_len_1_length(ql):
    """LEN-1: length = running + stalled + waiting + scheduled."""
    ql.config("heartbeat", 10)
    ql.running("run", put_at=0, pop_at=0)      # stalled at 20
    ql.running("run2", put_at=15, pop_at=15)   # running at 20
    ql.put("w1")
    ql.put("w2")
    ql.put("s", delay=100)
    ql.put("d", depends=["w1"])
    ql.recur("r", offset=1000)
    assert ql("length", 20, "queue") == 5
    assert ql("length", 20, "other") == 0
    ql.err("length", 0)


def test_fgt_1_forget(ql, r):
    """FGT-1: queue.forget removes the name; a later put re-adds it."""
    ql.put()
    ql.put("b", queue="other")
    assert ql("queue.forget", 0, "queue") is None
    assert [q["name"] for q in ql.queues(0)] == ["other"]
    assert r.zscore("ql:q:queue-work", "jid") is not None   # contents untouched
    ql.put("c", now=5)
    assert [q["name"] for q in ql.queues(6)] == ["other", "queue"]
    ql.err("queue.forget", 0)


def test_pau_1_malformed(ql, r):
    """PAU-1: pause / unpause with no names -> err."""
    ql.err("pause", 0)
    ql.err("unpause", 0)
    assert r.dbsize() == 0


def test_pau_other_commands_work(ql):
    """§5.24: a paused queue accepts put/peek/complete."""
    ql.running()
    ql("pause", 0, "queue")
    ql.put("b")
    assert [j["jid"] for j in ql.peek()] == ["b"]
    assert ql.complete() == "complete"
    assert ql("length", 0, "queue") == 1


def test_que_1_stalled_boundary(ql):
    """§5.20: stalled = ZCOUNT locks 0 now (a lock expiring exactly now is stalled)."""
    ql.running()   # expires 60
    assert ql.queues(59.5, "queue") == counts(running=1)
    assert ql.queues(60, "queue") == counts(stalled=1)
