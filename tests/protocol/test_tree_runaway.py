"""jobtrees.md §4 RUNAWAY and K11 (RUN-1, RUN-2)."""
from helpers import jids
from tree_events import error, log_only, status, terminating, tree


def test_fourth_run_in_a_minute_is_a_runaway(ql, r, events):
    # RUN-1
    ql.config("max-runs-per-minute", 3)
    ql.put(tree=1)
    for now in (60, 70, 80):
        assert jids(ql.pop(now=now)) == ["jid"]
        ql.retry("jid", now)
    with events() as got:
        assert ql.pop(now=119) == {}
    assert log_only(got) == [status("jid", 119, "waiting", "terminating"),
                             status("jid", 119, "terminating", "terminated"),
                             error("jid", 119, "runaway: more than 3 runs in a minute")]
    job = ql.get()
    assert (job["state"], job["worker"]) == ("terminated", "")
    assert job["history"][-1] == {"reason": "runaway", "what": "terminated", "when": 119}
    assert r.zscore("ql:q:queue-terminated", "jid") == 119
    assert r.zcard("ql:q:queue-work") == 0 and r.zcard("ql:q:queue-locks") == 0
    assert tree(ql)["runs"] == 3
    # A restart in the next window runs again.
    assert ql("job.run", 120, "jid") == "waiting"
    assert ql.pop(now=121)[0]["state"] == "running"


def test_window_is_the_calendar_minute(ql):
    ql.config("max-runs-per-minute", 2)
    ql.put(tree=1)
    for now in (58, 59, 60, 61):   # two in minute 0, two in minute 1
        assert jids(ql.pop(now=now)) == ["jid"]
        ql.retry("jid", now)
    assert tree(ql)["runs"] == 4 and ql.state() == "waiting"


def test_zero_disables_the_guard(ql):
    # RUN-2
    ql.config("max-runs-per-minute", 0)
    ql.put(tree=1, retries=50)
    for now in range(30):
        assert jids(ql.pop(now=now)) == ["jid"]
        ql.retry("jid", now)
    assert tree(ql)["runs"] == 30


def test_held_back_job_is_not_replaced(ql, r):
    # K11
    ql.config("max-runs-per-minute", 1)
    ql.put("a", tree=1, priority=10)
    assert jids(ql.pop(now=1)) == ["a"]
    ql.retry("a", 1)
    ql.put("b", now=1, priority=5)
    ql.put("c", now=1)
    assert jids(ql.pop(now=2, count=2)) == ["b"]
    assert ql.state("a") == "terminated" and ql.state("c") == "waiting"
    assert r.zrange("ql:q:queue-locks", 0, -1) == ["b"]
    assert r.zrange("ql:w:worker:jobs", 0, -1) == ["b"]


def test_runaway_during_shutdown_runs_and_reaped_locks(ql, r, events):
    ql.config("max-runs-per-minute", 2)
    ql.config("grace-period", 0)
    ql.config("heartbeat", 5)
    terminating(ql, now=2)                  # its first run at t=1
    assert ql.pop(now=3)[0]["state"] == "terminating"
    with events() as got:
        assert ql.pop(now=10) == {}         # the shutdown lock expired at 8: a third hand-out
    assert log_only(got) == [status("jid", 10, "terminating", "terminated"),
                             error("jid", 10, "runaway: more than 2 runs in a minute")]
    assert r.zcard("ql:w:worker:jobs") == 0 and r.zcard("ql:q:queue-locks") == 0
