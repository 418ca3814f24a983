"""§5.11 heartbeat and §7 locks, grace periods, retries (HB-*, LCK-*, GRC-*)."""
import pytest

from helpers import EXHAUSTED, failed_msg, jids, lock_lost


@pytest.mark.parametrize("args", [[], ["jid"], ["jid", "worker", "[}"]])
def test_hb_1_malformed(ql, r, args):
    """HB-1: malformed heartbeat -> err."""
    ql.err("heartbeat", 0, *args)
    assert r.dbsize() == 0


def test_hb_1_bad_data_on_running_job(ql):
    """HB-1: bad data on a running job -> err, lock unchanged."""
    ql.running(pop_at=1)
    ql.err("heartbeat", 3, "jid", "worker", "[}")
    assert ql.get()["expires"] == 61


def test_hb_2_renews(ql, r):
    """HB-2: popped at 1 (expires 61), heartbeat at 3 -> 63 in all three places."""
    ql.running(pop_at=1)
    assert ql.heartbeat("jid", 3) == 63
    assert ql.get()["expires"] == 63
    assert r.zscore("ql:q:queue-locks", "jid") == 63
    assert r.zscore("ql:w:worker:jobs", "jid") == 63
    assert r.zscore("ql:workers", "worker") == 3


def test_hb_2_fraction_truncated_in_reply(ql):
    """§5.11: reply truncated, stored expiry keeps the fraction."""
    ql.running()
    assert ql.heartbeat("jid", 3.75) == 63
    assert ql.get()["expires"] == 63.75


def test_hb_2_queue_heartbeat(ql):
    """§5.11 step 1: <queue>-heartbeat overrides heartbeat."""
    ql.config("queue-heartbeat", 5)
    ql.running()
    assert ql.heartbeat("jid", 10) == 15
    ql("config.unset", 0, "queue-heartbeat")
    ql.config("heartbeat", 20)
    assert ql.heartbeat("jid", 10) == 30


@pytest.mark.parametrize("setup,state", [
    (lambda ql: ql.put(), "waiting"),
    (lambda ql: ql.failed(), "failed"),
    (lambda ql: (ql.put("a"), ql.put(depends=["a"])), "depends"),
    (lambda ql: ql.put(delay=10), "scheduled"),
    (lambda ql: (ql.running(), ql.complete()), "complete"),
])
def test_hb_3_not_running(ql, setup, state):
    """HB-3: heartbeat of a non-running job -> err naming the state."""
    setup(ql)
    msg = ql.err("heartbeat", 0, "jid", "worker")
    assert "not currently running" in msg and state in msg


def test_hb_3_missing(ql):
    """HB-3: nonexistent -> err(Job jid does not exist)."""
    assert "Job jid does not exist" in ql.err("heartbeat", 0, "jid", "worker")


def test_hb_4_other_worker(ql):
    """HB-4: other worker -> err(another worker); owner succeeds."""
    ql.running()
    assert "given out to another worker" in ql.err("heartbeat", 0, "jid", "other")
    assert ql.heartbeat("jid", 1) == 61


def test_hb_5_canceled(ql):
    """HB-5: canceled job -> err(Job jid does not exist)."""
    ql.running()
    ql("cancel", 0, "jid")
    assert "Job jid does not exist" in ql.err("heartbeat", 0, "jid", "worker")


def test_hb_6_moved(ql):
    """HB-6: job moved by put -> err(waiting)."""
    ql.running()
    ql.put(queue="other", worker="other")
    assert "waiting" in ql.err("heartbeat", 0, "jid", "worker")


def test_hb_7_grace_zero_handout(ql):
    """HB-7 (grace 0): lock expiry hands the job to another worker at once."""
    ql.config("grace-period", 0)
    ql.put(now=0)
    ql.pop(now=1)
    assert ql.pop(now=2) == {}
    job = ql.pop(now=71, worker="another")[0]
    assert job["jid"] == "jid"
    assert (job["expires"], job["remaining"], job["worker"]) == (131, 4, "another")
    assert job["history"] == [{"q": "queue", "what": "put", "when": 0},
                              {"what": "popped", "when": 1, "worker": "worker"},
                              {"what": "timed-out", "when": 71},
                              {"what": "popped", "when": 71, "worker": "another"}]
    assert "given out to another" in ql.err("heartbeat", 1000, "jid", "worker")


def test_hb_8_refreshes_worker(ql):
    """HB-8: heartbeat keeps the worker alive (max-worker-age 10)."""
    ql.config("max-worker-age", 10)
    ql.running(pop_at=1)
    ql.heartbeat("jid", 10)
    assert ql.workers(15) == [{"name": "worker", "jobs": 1, "stalled": 0}]


def test_hb_9_data_reencoded(ql):
    """HB-9: heartbeat data is stored re-encoded."""
    ql.running()
    ql.heartbeat("jid", 1, "worker", '{"a":  [1, 2]}')
    assert ql.get()["data"] == '{"a":[1,2]}'
    ql.heartbeat("jid", 1, "worker", "[]")
    assert ql.get()["data"] == "{}"


def test_hb_no_events(ql, events):
    """§9.3: heartbeat publishes nothing (even tracked)."""
    ql.running()
    ql.track()
    with events() as ev:
        ql.heartbeat("jid", 1)
    assert ev == []


@pytest.fixture
def expired_at_once(ql):
    """LCK-*: grace 0 and heartbeat -10: a popped lock is already expired."""
    ql.config("grace-period", 0)
    ql.config("heartbeat", -10)
    return ql


def test_lck_1_handout_decrements(expired_at_once):
    """LCK-1: pop by worker then by another at 0 -> retries 5, remaining 4."""
    ql = expired_at_once
    ql.running()
    job = ql.pop(worker="another")[0]
    assert (job["retries"], job["remaining"], job["worker"]) == (5, 4, "another")


def test_lck_2_exhausted(expired_at_once):
    """LCK-2: retries 0 -> second pop {}, failed; re-put -> waiting."""
    ql = expired_at_once
    ql.running(retries=0)
    assert ql.pop(worker="another") == {}
    assert ql.state() == "failed"
    ql.put()
    assert ql.state() == "waiting"


def test_lck_3_complete_next_resets(expired_at_once):
    """LCK-3: after a lost lock, complete … next queue then pop -> remaining 5."""
    ql = expired_at_once
    ql.running()
    assert ql.pop(worker="another")[0]["remaining"] == 4
    ql.complete(worker="another", next="queue")
    assert ql.pop()[0]["remaining"] == 5


def test_lck_4_reput_resets(expired_at_once):
    """LCK-4: after a lost lock, re-put then pop -> remaining 5."""
    ql = expired_at_once
    ql.running()
    ql.pop(worker="another")
    ql.put()
    assert ql.pop()[0]["remaining"] == 5


def test_grc_1_notice_then_handout(ql, r):
    """GRC-1 (grace 10): pop 71 -> {} (notice); pop 81 -> the job."""
    ql.running(pop_at=1)
    assert ql.pop(now=71, worker="another") == {}
    job = ql.get()
    assert job["state"] == "running" and job["worker"] == "worker" and job["expires"] == 61
    assert r.hget("ql:j:jid", "grace") == "1"
    assert r.zscore("ql:q:queue-locks", "jid") == 81
    assert r.zscore("ql:w:worker:jobs", "jid") is None
    assert ql.pop(now=80, worker="another") == {}
    assert jids(ql.pop(now=81, worker="another")) == ["jid"]
    assert r.hexists("ql:j:jid", "grace") == 0


def test_grc_2_each_loss_gets_grace(ql):
    """GRC-2 (grace 10): retries 20; ten cycles of notice then hand-out."""
    ql.put(retries=20)
    ql.pop(now=0)
    expires = 60
    for i in range(10):
        assert ql.pop(now=expires + 10) == {}, i
        job = ql.pop(now=expires + 20)
        assert jids(job) == ["jid"], i
        assert job[0]["remaining"] == 19 - i
        expires = job[0]["expires"]


def test_grc_3_fail_during_grace(ql):
    """GRC-3 (grace 10): after the notice the owner fails the job; nothing handed out."""
    ql.running()
    assert ql.pop(now=70, worker="another") == {}
    assert ql.fail("jid", 72) == "jid"
    assert ql.pop(now=90, worker="another") == {}


def test_grc_3_heartbeat_keeps_grace(ql, r):
    """§7.3: heartbeat in grace renews but keeps grace=1: next expiry hands out."""
    ql.running()
    ql.pop(now=60)
    assert ql.heartbeat("jid", 65) == 125
    assert r.hget("ql:j:jid", "grace") == "1"
    assert jids(ql.pop(now=125, worker="another")) == ["jid"]


def test_grc_4_tracked_notice_events(ql, events, r):
    """GRC-4: tracked job, pop at expires+10 -> ql:stalled, lock_lost x2; {}."""
    ql.running()
    ql.track()
    with events() as ev:
        assert ql.pop(now=70, worker="another") == {}
    assert ev == [("ql:stalled", "jid")] + lock_lost()
    assert r.hget("ql:s:stats:0:queue", "retries") == "1"
    assert ql.get()["history"][-1] == {"what": "timed-out", "when": 70}


def test_grc_5_exhausted_events(ql, events):
    """GRC-5 (grace 0): retries 0 -> {}, failed, lock_lost x2 then failed message."""
    ql.config("grace-period", 0)
    ql.running(retries=0)
    with events() as ev:
        assert ql.pop(now=70) == {}
    assert ql.state() == "failed"
    assert ev == lock_lost() + [failed_msg(group="failed-retries-queue", message=EXHAUSTED)]


def test_grc_5_tracked_exhausted_events(ql, events):
    """§9.3 pop order: stalled, lock_lost x2, ql:failed, failed message."""
    ql.config("grace-period", 0)
    ql.running(retries=0)
    ql.track()
    with events() as ev:
        ql.pop(now=70)
    assert ev == ([("ql:stalled", "jid")] + lock_lost() +
                  [("ql:failed", "jid"),
                   failed_msg(group="failed-retries-queue", message=EXHAUSTED)])


def test_grc_handout_event_order(ql, events):
    """§9.3: tracked hand-out after grace -> only ql:popped."""
    ql.running()
    ql.track()
    ql.pop(now=60)
    with events() as ev:
        assert jids(ql.pop(now=70, worker="another")) == ["jid"]
    assert ev == [("ql:popped", "jid")]


def test_grc_stalled_order_before_work(ql):
    """§5.6: re-handed stalled jobs come first, in lock-expiry order."""
    ql.config("grace-period", 0)
    ql.put("a", now=0)
    ql.put("b", now=1)
    ql.pop(now=5, count=1)   # a expires 65
    ql.pop(now=3, count=1)   # b expires 63
    ql.put("c", now=4, priority=100)
    assert jids(ql.pop(now=100, worker="w2", count=3)) == ["b", "a", "c"]
