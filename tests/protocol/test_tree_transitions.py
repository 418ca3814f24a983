"""jobtrees.md §3.2/§3.3 transitions of tree jobs through the existing
commands (TRE-2, TRE-6, TRE-7, TRN-1..TRN-10, EVT-1, EVT-3, K6, K12)."""
import pytest

from helpers import digest, failed_msg, jids, lock_lost
from tree_events import (error, held_terminating, log_only, running, status, terminating,
                         tree)


def test_hidden_defaults(ql):
    # TRE-2: listed only when asked for by name.
    assert ql("config.get", 0, "max-runs-per-minute") == 600
    assert ql("config.get", 0, "tree-log") == 1
    listed = ql.json("config.get", 0)
    assert "max-runs-per-minute" not in listed and "tree-log" not in listed
    assert len(listed) == 7


def test_jobs_lists_tree_sets_by_time(ql, r):
    # TRE-6
    for i, jid in enumerate(["c", "a", "b"]):
        running(ql, jid, now=1)
        assert ql("job.suspend", 10 - i, jid, "worker") == "suspended"
    assert ql("jobs", 0, "suspended", "queue") == ["b", "a", "c"]
    assert ql("jobs", 0, "suspended", "queue", 1, 1) == ["a"]
    terminating(ql, "t", now=20)
    ql.put("n", tree=1)
    assert ql("job.terminate", 30, "n") == 1
    assert ql("jobs", 0, "terminating", "queue") == ["t"]
    assert ql("jobs", 0, "terminated", "queue") == ["n"]
    assert ql("jobs", 0, "terminated", "other") == []
    assert 'Unknown type "bogus"' in ql.err("jobs", 0, "bogus", "queue")
    assert 'Jobs(): Arg "count"' in ql.err("jobs", 0, "terminated", "queue", 0, -1)


def test_purge_keeps_tree_jobs(ql, r):
    # TRE-7
    running(ql, "t", now=1, tags=["x"])
    assert ql.complete("t", now=2) == "complete"
    assert ql.get("t")["queue"] == "queue"
    ql.put("p")
    ql.pop(now=3)
    ql.config("jobs-history", -1)
    ql.put("q")
    ql.pop(now=4)
    ql.complete("q", now=5)
    assert ql.get("q") is None and ql.get("p")["state"] == "running"
    job = ql.get("t")
    assert job["state"] == "complete" and job["history"][-1]["what"] == "done"
    assert ql("jobs", 5, "complete") == []
    assert ql.json("tag", 5, "get", "x")["jobs"] == ["t"]
    assert ql("job.run", 6, "t") == "waiting"


# TRN-1: each row of §3.2, reached by its command, with its status events.
def _suspended(ql):
    running(ql)
    ql("job.suspend", 2, "jid", "worker")


def _complete(ql):
    running(ql)
    ql.complete(now=2)


def _failed(ql):
    running(ql)
    ql.fail("jid", 2)


def _terminated(ql):
    ql.put(tree=1)
    ql("job.terminate", 2, "jid")


ROWS = [
    ("new-put", lambda ql: None, lambda ql: ql.put(now=5, tree=1), [("new", "waiting")]),
    ("queued-move", lambda ql: ql.put(tree=1), lambda ql: ql.put(now=5, queue="o", delay=3), []),
    ("pop", lambda ql: ql.put(tree=1), lambda ql: ql.pop(now=5), [("waiting", "running")]),
    ("running-put", running, lambda ql: ql.put(now=5), [("running", "waiting")]),
    ("running-requeue", running, lambda ql: ql.requeue(now=5, delay=2), [("running", "scheduled")]),
    ("retry", running, lambda ql: ql.retry("jid", 5), [("running", "waiting")]),
    ("complete-next", running, lambda ql: ql.complete(now=5, next="o"), [("running", "waiting")]),
    ("complete-rerun", lambda ql: (running(ql), ql("job.run", 2, "jid")),
     lambda ql: ql.complete(now=5), [("running", "waiting")]),
    ("suspend-rerun", lambda ql: (running(ql), ql("job.run", 2, "jid")),
     lambda ql: ql("job.suspend", 5, "jid", "worker"), [("running", "waiting")]),
    ("timeout", running, lambda ql: ql("timeout", 5, "jid"), [("running", "stalled")]),
    ("suspend", running, lambda ql: ql("job.suspend", 5, "jid", "worker"), [("running", "suspended")]),
    ("complete", running, lambda ql: ql.complete(now=5), [("running", "complete")]),
    ("fail", running, lambda ql: ql.fail("jid", 5), [("running", "failed")]),
    ("retry-exhausted", lambda ql: running(ql, retries=0), lambda ql: ql.retry("jid", 5),
     [("running", "failed")]),
    ("suspended-run", _suspended, lambda ql: ql("job.run", 5, "jid"), [("suspended", "waiting")]),
    ("suspended-put", _suspended, lambda ql: ql.put(now=5), [("suspended", "waiting")]),
    ("complete-run", _complete, lambda ql: ql("job.run", 5, "jid"), [("complete", "waiting")]),
    ("complete-put", _complete, lambda ql: ql.put(now=5), [("complete", "waiting")]),
    ("failed-run", _failed, lambda ql: ql("job.run", 5, "jid"), [("failed", "waiting")]),
    ("failed-put", _failed, lambda ql: ql.put(now=5), [("failed", "waiting")]),
    ("unfail", _failed, lambda ql: ql("unfail", 5, "queue", "group"), [("failed", "waiting")]),
    ("terminate-queued", lambda ql: running(ql, started=True) or ql.put(now=2),
     lambda ql: ql("job.terminate", 5, "jid"), [("waiting", "terminating")]),
    ("terminate-running", lambda ql: running(ql, started=True),
     lambda ql: ql("job.terminate", 5, "jid"), [("running", "terminating")]),
    ("terminate-suspended", lambda ql: (running(ql, started=True), ql("job.suspend", 2, "jid", "worker")),
     lambda ql: ql("job.terminate", 5, "jid"), [("suspended", "terminating")]),
    ("terminate-complete", lambda ql: (running(ql, started=True), ql.complete(now=2)),
     lambda ql: ql("job.terminate", 5, "jid"), [("complete", "terminating")]),
    ("terminate-failed", lambda ql: (running(ql, started=True), ql.fail("jid", 2)),
     lambda ql: ql("job.terminate", 5, "jid"), [("failed", "terminating")]),
    ("terminate-unstarted", lambda ql: ql.put(tree=1), lambda ql: ql("job.terminate", 5, "jid"),
     [("waiting", "terminating"), ("terminating", "terminated")]),
    ("terminated", lambda ql: held_terminating(ql), lambda ql: ql("job.terminated", 5, "jid", "worker"),
     [("terminating", "terminated")]),
    ("terminated-run", _terminated, lambda ql: ql("job.run", 5, "jid"), [("terminated", "waiting")]),
    ("terminated-put", _terminated, lambda ql: ql.put(now=5, delay=1), [("terminated", "scheduled")]),
]


@pytest.mark.parametrize("setup,act,moves", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_every_transition_publishes_its_status(ql, events, setup, act, moves):
    setup(ql)
    with events() as got:
        act(ql)
    assert [m for m in log_only(got) if '"status"' in m[1]] == [status("jid", 5, *m) for m in moves]
    if moves:
        assert ql.state() == moves[-1][1]


def test_shutdown_handout_is_no_state_change(ql, events):
    terminating(ql)
    with events() as got:
        job = ql.pop(now=3)[0]
    assert job["state"] == "terminating" and log_only(got) == []
    assert tree(ql)["runs"] == 2


def test_terminating_job_refuses_put_and_run(ql, r):
    # TRN-2 and K12: the error names the state the put would have made.
    terminating(ql)
    ql.put("d")
    before = digest(r)
    assert "Put(): Job jid cannot go from terminating to waiting" in ql.err(
        "put", 3, "worker", "queue", "jid", "klass", "{}", 0)
    assert "Put(): Job jid cannot go from terminating to scheduled" in ql.err(
        "put", 3, "worker", "queue", "jid", "klass", "{}", 5)
    assert "Put(): Job jid cannot go from terminating to depends" in ql.err(
        "put", 3, "worker", "queue", "jid", "klass", "{}", 0, "depends", '["d"]')
    assert "Requeue(): Job jid cannot go from terminating to waiting" in ql.err(
        "requeue", 3, "worker", "queue", "jid", "klass", "{}", 0)
    assert "Job.run(): Job jid cannot go from terminating to waiting" in ql.err("job.run", 3, "jid")
    assert digest(r) == before


def test_complete_with_rerun_runs_again(ql, r, events):
    # TRN-4
    running(ql)
    assert ql("job.run", 2, "jid") == "running"
    with events() as got:
        assert ql.complete(now=3) == "waiting"
    assert ("ql:log", '{"jid":"jid","to":"queue","event":"advanced","queue":"queue"}') in got
    assert [h["what"] for h in ql.get()["history"]][-2:] == ["done", "put"]
    assert tree(ql)["rerun"] is False
    assert r.zscore("ql:completed", "jid") is None
    assert jids(ql.pop(now=4)) == ["jid"] and tree(ql)["runs"] == 2


def test_complete_rerun_does_not_release_dependents(ql):
    running(ql)
    ql.put("after", depends=["jid"])
    ql("job.run", 2, "jid")
    assert ql.complete(now=3) == "waiting"
    assert ql.state("after") == "depends"


def test_pop_counts_runs_and_clears_rerun(ql):
    running(ql)
    ql("job.run", 2, "jid")
    ql.retry("jid", 3)   # a retry keeps the request to run again
    assert tree(ql)["rerun"] is True
    ql.pop(now=4)
    assert (tree(ql)["rerun"], tree(ql)["runs"]) == (False, 2)


def test_retry_and_unfail_keep_p5_replies(ql, r):
    # TRN-7: same replies and sets as for a plain job.
    running(ql)
    ql.put("plain")
    ql.pop(now=1)
    assert ql.retry("jid", 2, "queue", "worker", 3) == ql.retry("plain", 2, "queue", "worker", 3) == 4
    assert ql.state("jid") == ql.state("plain") == "scheduled"
    ql.pop(now=6, count=2)
    ql.fail("jid", 7)
    ql.fail("plain", 7)
    assert ql("unfail", 8, "q2", "group", 5) == 2
    assert {ql.get(j)["queue"] for j in ("jid", "plain")} == {"q2"}
    assert r.zcard("ql:q:q2-work") == 2


def test_held_terminating_job(ql, r):
    # TRN-8
    held_terminating(ql)
    assert ql.heartbeat("jid", 4) == 64
    assert r.zscore("ql:q:queue-locks", "jid") == 64
    assert "Complete(): Job jid is not currently running: terminating" in ql.err(
        "complete", 5, "jid", "worker", "queue", "{}")
    assert "Fail(): Job jid not currently running: terminating" in ql.err(
        "fail", 5, "jid", "worker", "g", "m")
    assert "Retry(): Job jid is not currently running: terminating" in ql.err(
        "retry", 5, "jid", "queue", "worker")
    assert "given out to another worker: worker" in ql.err("heartbeat", 5, "jid", "other")


def test_timeout_of_held_terminating_job(ql, r, events):
    # TRN-9 and K6
    held_terminating(ql)
    ql.put("other", now=3, priority=50)
    with events() as got:
        assert ql("timeout", 4, "jid") is None
    assert got == lock_lost()
    job = ql.get()
    assert (job["state"], job["worker"], job["expires"]) == ("terminating", "", 0)
    assert r.zscore("ql:q:queue-work", "jid") == float("inf")
    assert r.zcard("ql:q:queue-locks") == 0 and r.zcard("ql:w:worker:jobs") == 0
    assert "Job.terminated(): Job jid is not currently running: terminating" in ql.err(
        "job.terminated", 5, "jid", "worker")
    popped = ql.pop(now=6, worker="w2")
    assert [(j["jid"], j["state"]) for j in popped] == [("jid", "terminating")]
    assert ql("job.terminated", 7, "jid", "w2") == "terminated"


def test_timeout_of_unheld_terminating_job_is_refused(ql, r):
    terminating(ql)
    before = digest(r)
    assert "Timeout(): Job jid not running" in ql.err("timeout", 3, "jid")
    assert digest(r) == before


@pytest.mark.parametrize("retries", [0, 1])
def test_terminating_job_whose_lock_expires(ql, r, events, retries):
    # TRN-10: handed out again while retries last, then terminated.
    ql.config("grace-period", 0)
    held_terminating(ql, retries=retries)   # lock until 63
    if retries:
        popped = ql.pop(now=100, worker="w2")
        assert [(j["jid"], j["state"], j["worker"]) for j in popped] == [("jid", "terminating", "w2")]
    with events() as got:
        assert ql.pop(now=200, worker="w3") == {}
    assert log_only(got) == [status("jid", 200, "terminating", "terminated"),
                             error("jid", 200, "shutdown exhausted its retries")]
    assert ql.state() == "terminated"
    assert r.zscore("ql:q:queue-terminated", "jid") == 200
    for kind in ("work", "locks", "terminating"):
        assert r.zscore("ql:q:queue-" + kind, "jid") is None
    assert r.zcard("ql:w:worker:jobs") == r.zcard("ql:w:w2:jobs") == 0
    assert r.llen("ql:f:failed-retries-queue") == 0


def test_running_tree_job_whose_retries_run_out_by_lock_expiry(ql, events):
    ql.config("grace-period", 0)
    running(ql, retries=0)
    with events() as got:
        ql.pop(now=100, worker="w2")
    assert status("jid", 100, "running", "failed") in got
    assert ql.state() == "failed"


def test_fail_events_exact(ql, events):
    # EVT-1 (status, error) and EVT-3: P§9 `failed` first, then the tree events.
    running(ql)
    with events() as got:
        ql.fail("jid", 2, "worker", "boom/grp", 'said "no"')
    logged = [m for m in got if m[0] in ("ql:log", "ql:ch:/qless/log")]
    assert logged == [
        ("ql:log", '{"message":"said \\"no\\"","jid":"jid","group":"boom\\/grp",'
                   '"event":"failed","worker":"worker"}'),
        ("ql:ch:/qless/log", '{"event":"status","time":2,"job":"jid","from":"running","to":"failed"}'),
        ("ql:ch:/qless/log", '{"event":"error","time":2,"job":"jid","error":"boom\\/grp: said \\"no\\""}'),
    ]


def test_error_survives_tree_log_zero(ql, events):
    ql.config("tree-log", 0)
    running(ql)
    with events() as got:
        ql.fail("jid", 2.5)
    assert log_only(got) == [error("jid", 2.5, "group: message")]


def test_plain_jobs_unchanged(ql, events):
    # T2: plain fail/retry/timeout/unfail publish nothing on the tree log.
    ql.config("grace-period", 0)
    with events() as got:
        ql.failed("a")
        ql("unfail", 1, "queue", "group")
        ql.pop(now=2)
        ql.retry("a", 3)
        ql.pop(now=4)
        ql("timeout", 5, "a")
        ql.pop(now=6)
    assert log_only(got) == []
    assert failed_msg("a") in got
