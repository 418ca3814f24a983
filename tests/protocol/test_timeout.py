"""§5.12 timeout (TMO-*)."""
from helpers import jids, lock_lost


def test_tmo_1_reply_and_events(ql, events):
    """TMO-1: timeout -> nil; ql:w:worker then ql:log lock_lost."""
    ql.running()
    with events() as ev:
        assert ql("timeout", 0, "jid") is None
    assert ev == lock_lost()


def test_tmo_2_state(ql, r):
    """TMO-2: stalled, timed-out history, old worker gets not currently running."""
    ql.running(pop_at=1)
    ql("timeout", 2, "jid")
    job = ql.get()
    assert job["state"] == "stalled" and job["expires"] == 0
    assert job["worker"] == "worker" and job["remaining"] == 5
    assert job["history"][-1] == {"what": "timed-out", "when": 2}
    assert r.zscore("ql:q:queue-work", "jid") == float("inf")
    assert r.zscore("ql:q:queue-locks", "jid") is None
    assert r.zscore("ql:w:worker:jobs", "jid") == 61  # left unchanged
    assert "not currently running" in ql.err("heartbeat", 3, "jid", "worker")
    assert "not currently running" in ql.err("complete", 3, "jid", "worker", "queue", "{}")


def test_tmo_3_popped_first(ql):
    """TMO-3: timed-out job pops before higher priorities."""
    ql.running("a")
    for p in range(5):
        ql.put("p%d" % p, priority=10 + p)
    ql("timeout", 1, "a")
    popped = ql.pop(now=2, worker="w2", count=2)
    assert jids(popped) == ["a", "p4"]
    assert popped[0]["remaining"] == 5  # timeout does not consume a retry


def test_tmo_4_errors(ql):
    """TMO-4: timeout of a waiting job -> err; nonexistent -> err(does not exist)."""
    ql.put()
    ql.err("timeout", 0, "jid")
    assert ql.state() == "waiting"
    assert "does not exist" in ql.err("timeout", 0, "missing")


def test_tmo_4_all_or_nothing(ql):
    """§5.12 said jids processed before an error stay timed out; issue 12 (a
    command never fails half-way) checks every jid before the first."""
    ql.running("a")
    assert "does not exist" in ql.err("timeout", 0, "a", "missing")
    assert ql.state("a") == "running"
    assert "not running" in ql.err("timeout", 0, "a", "a")
    assert ql.state("a") == "running"
