"""jobtrees.md §4 TERMINATE/TERMINATED-NOW, §5.8 job.terminate, §5.9
job.terminated (TRM-1..TRM-5, K1 termination side, K2)."""
import random

import pytest

from helpers import digest, lock_lost
from tree_events import held_terminating, log_only, running, status, terminating, tree

SETS = ("work", "scheduled", "depends", "locks", "suspended", "terminating", "terminated")


def homes(r, jid="jid"):
    return {k for k in SETS if r.zscore("ql:q:queue-" + k, jid) is not None}


def _queued(ql):
    running(ql, started=True)
    ql.put(now=2)


def _suspended(ql):
    running(ql, started=True)
    ql("job.suspend", 2, "jid", "worker")


def _complete(ql):
    running(ql, started=True)
    ql.complete(now=2)


def _failed(ql):
    running(ql, started=True)
    ql.fail("jid", 2)


@pytest.mark.parametrize("setup", [_queued, lambda ql: running(ql, started=True), _suspended,
                                   _complete, _failed],
                         ids=["queued", "running", "suspended", "complete", "failed"])
def test_terminate_started_job(ql, r, events, setup):
    # TRM-1
    setup(ql)
    state = ql.state()
    with events() as got:
        assert ql("job.terminate", 5, "jid") == 1
    job = ql.get()
    assert (job["state"], job["worker"], job["expires"]) == ("terminating", "", 0)
    assert job["history"][-1] == {"what": "terminating", "when": 5}
    assert homes(r) == {"work", "terminating"}
    assert r.zscore("ql:q:queue-terminating", "jid") == 5
    assert r.zscore("ql:completed", "jid") is None
    assert r.llen("ql:f:group") == 0 and not r.sismember("ql:failures", "group")
    assert ql.stats(5)["failed"] == 0
    assert r.zcard("ql:w:worker:jobs") == 0
    expected = [status("jid", 5, state, "terminating")]
    if state == "running":
        expected = lock_lost() + expected
    assert [m for m in got if m[0] != "ql:track"] == expected


def test_terminate_never_started_job(ql, r, events):
    # TRM-2: nothing to shut down, so it ends at once.
    ql.put(tree=1)
    ql.pop(now=1)
    with events() as got:
        assert ql("job.terminate", 2, "jid") == 1
    assert log_only(got) == [status("jid", 2, "running", "terminating"),
                             status("jid", 2, "terminating", "terminated")]
    job = ql.get()
    assert (job["state"], job["worker"]) == ("terminated", "")
    assert [h["what"] for h in job["history"]][-2:] == ["terminating", "terminated"]
    assert homes(r) == {"terminated"} and r.zcard("ql:w:worker:jobs") == 0


def test_terminate_is_idempotent_and_recursive_counts_changes(ql, r):
    # TRM-3
    ql.put("root", tree=1)
    ql.put("a", tree=1, parent="root", name="a")
    ql.put("b", tree=1, parent="root", name="b")
    assert ql("job.terminate", 1, "a") == 1
    terminating(ql, "s", now=1)
    before = digest(r)
    assert ql("job.terminate", 2, "a") == 0
    assert ql("job.terminate", 2, "s") == 0
    assert digest(r) == before
    assert ql("job.terminate", 3, "root", "recursive") == 2
    assert ql("job.terminate", 4, "root", "recursive") == 0
    assert {ql.state(j) for j in ("root", "a", "b")} == {"terminated"}


def test_recursive_order_is_preorder_by_name(ql, events):
    # TRM-4: children in byte order of their names ("B" < "a" < "b").
    ql.put("r", tree=1)
    for jid, parent, name in [("x", "r", "b"), ("y", "r", "a"), ("z", "y", "z"), ("w", "y", "c"),
                              ("v", "r", "B")]:
        ql.put(jid, tree=1, parent=parent, name=name)
    with events() as got:
        assert ql("job.terminate", 1, "r", "recursive") == 6
    order = [m[1].split('"job":"')[1].split('"')[0] for m in log_only(got)]
    assert order == [j for j in "rvywzx" for _ in (1, 2)]


def test_recursive_deep_chain_is_a_loop(ql):
    # K9: a chain deeper than Lua's C stack allows for recursion.
    ql.r.eval("""
        for i = 1, 3000 do
          local key = 'ql:j:n' .. i
          redis.call('hset', key, 'tree', '1', 'state', 'waiting', 'queue', 'queue', 'jid', 'n' .. i)
          redis.call('hset', 'ql:children:n' .. i, 'c', 'n' .. (i + 1))
        end
        redis.call('hset', 'ql:j:n3001', 'tree', '1', 'state', 'waiting', 'queue', 'queue')
    """, 0)
    assert ql("job.terminate", 1, "n1", "recursive") == 3001
    assert ql.state("n3001") == "terminated"


def test_terminate_arguments(ql, r):
    ql.put("plain")
    ql.put(tree=1)
    before = digest(r)
    assert 'Job.terminate(): Arg "jid" missing' in ql.err("job.terminate", 0)
    assert "Job.terminate(): Job nope does not exist" in ql.err("job.terminate", 0, "nope")
    assert "Job.terminate(): Job plain is not a tree job" in ql.err("job.terminate", 0, "plain")
    assert 'Job.terminate(): Arg "mode" must be recursive' in ql.err("job.terminate", 0, "jid", "all")
    assert digest(r) == before


def test_terminated_checks(ql, r):
    # TRM-5
    ql.put("plain", queue="other")
    terminating(ql, "t")
    ql.put(tree=1, now=3, queue="other")
    before = digest(r)
    assert "Job.terminated(): Job jid is not terminating: waiting" in ql.err(
        "job.terminated", 3, "jid", "worker")
    assert 'Job.terminated(): Arg "worker" missing' in ql.err("job.terminated", 3, "jid")
    assert "Job.terminated(): Job plain is not a tree job" in ql.err("job.terminated", 3, "plain", "w")
    assert "Job.terminated(): Job t is not currently running: terminating" in ql.err(
        "job.terminated", 3, "t", "worker")
    assert digest(r) == before
    assert ql.pop(now=3, worker="w1")[0]["jid"] == "t"
    before = digest(r)
    assert "Job.terminated(): Job t has been handed out to another worker: w1" in ql.err(
        "job.terminated", 4, "t", "w2")
    assert digest(r) == before


def test_terminated_ends_the_shutdown_run(ql, r, events):
    held_terminating(ql)
    with events() as got:
        assert ql("job.terminated", 10, "jid", "worker") == "terminated"
    assert log_only(got) == [status("jid", 10, "terminating", "terminated")]
    assert homes(r) == {"terminated"} and r.zcard("ql:w:worker:jobs") == 0
    assert ql.stats(10)["run"]["count"] == 1   # the shutdown run (terminate stopped the first)
    assert ql("jobs", 10, "terminated", "queue") == ["jid"]


def test_terminate_drops_dependency_links(ql, r):
    # K1: a depends job stops waiting; dependents of a terminated job wait on.
    ql.put("d")
    ql.put("jid", tree=1, depends=["d"])
    ql.put("t", tree=1)
    ql.put("after", depends=["t"])
    assert ql("job.terminate", 1, "jid") == 1
    assert ql("job.terminate", 1, "t") == 1
    assert r.smembers("ql:j:d-dependents") == set()
    assert not r.exists("ql:j:jid-dependencies")
    assert r.zscore("ql:q:queue-depends", "jid") is None
    assert ql.state("after") == "depends"
    assert r.smembers("ql:j:t-dependents") == {"after"}


def test_restart_from_terminated(ql):
    # TRN-6
    terminating(ql)
    ql.pop(now=3)
    ql("job.terminated", 4, "jid", "worker")
    before = tree(ql)
    assert before["runs"] == 2 and before["started"] == 1
    assert ql("job.run", 5, "jid") == "waiting"
    after = tree(ql)
    assert (after["runs"], after["started"], after["rerun"]) == (0, False, False)
    assert ql.pop(now=6)[0]["state"] == "running" and tree(ql)["runs"] == 1


def test_features_mark_tree_jobs(ql, r):
    # K2
    ql.put("plain")
    assert r.hget("ql:features", "tree") is None
    ql.put("t", tree=1)
    assert r.hget("ql:features", "tree") == "0.1.0"


def test_generated_terminate_walk_keeps_sets_consistent(ql, r):
    """Seeded walk over the life-cycle commands of a small tree, with
    terminate/terminated/timeout among them: after each step every job sits in
    exactly the sets its state names, and no worker list holds a job that is
    not held."""
    rng = random.Random(1516)
    jobs = ["r", "a", "b"]
    ql.put("r", tree=1)
    ql.put("a", tree=1, parent="r", name="a")
    ql.put("b", tree=1, parent="a", name="b")
    want = {"waiting": {"work"}, "scheduled": {"scheduled"}, "running": {"locks"},
            "stalled": {"work"}, "suspended": {"suspended"}, "complete": set(),
            "failed": set(), "terminated": {"terminated"}}
    seen = set()
    for now in range(1, 300):
        jid = rng.choice(jobs)
        step = rng.choice(["pop", "pop", "started", "suspend", "complete", "fail", "run", "put",
                           "terminate", "terminate-r", "terminated", "timeout", "heartbeat"])
        try:
            if step == "pop":
                ql.pop(now=now, count=2)
            elif step == "started":
                ql("job.started", now, jid, "worker")
            elif step == "suspend":
                ql("job.suspend", now, jid, "worker")
            elif step == "complete":
                ql.complete(jid, now)
            elif step == "fail":
                ql.fail(jid, now)
            elif step == "run":
                ql("job.run", now, jid)
            elif step == "put":
                ql.put(jid, now=now)
            elif step == "terminate":
                ql("job.terminate", now, jid)
            elif step == "terminate-r":
                ql("job.terminate", now, jid, "recursive")
            elif step == "terminated":
                ql("job.terminated", now, jid, "worker")
            elif step == "timeout":
                ql("timeout", now, jid)
            else:
                ql.heartbeat(jid, now)
        except Exception as e:   # refusals are part of the walk
            assert "ResponseError" in type(e).__name__, e
        for j in jobs:
            job = ql.get(j)
            state = job["state"]
            seen.add((state, bool(job["worker"])))
            if state == "terminating":
                expect = {"terminating", "locks" if job["worker"] else "work"}
            else:
                expect = want[state]
            assert homes(r, j) == expect, (now, step, j, state)
            assert (r.zscore("ql:w:worker:jobs", j) is not None) == (job["worker"] != ""), (now, step, j)
    assert {("terminating", True), ("terminating", False), ("terminated", False), ("running", True),
            ("suspended", False), ("stalled", True)} <= seen, seen


def test_leave_of_stalled_job_clears_the_worker_list(ql, r, events):
    # K6: a timed-out job keeps its worker field; LEAVE drops the jid from
    # that worker's list (lock_lost was already sent by the timeout).
    running(ql, started=True)
    ql("timeout", 2, "jid")
    assert r.zscore("ql:w:worker:jobs", "jid") is not None
    with events() as got:
        assert ql("job.terminate", 3, "jid") == 1
    assert r.zcard("ql:w:worker:jobs") == 0
    assert log_only(got) == [status("jid", 3, "stalled", "terminating")]
    assert homes(r) == {"work", "terminating"}


def test_leave_of_failed_uncounts_its_failure_day(ql):
    # K14: the failure is taken off the day it happened, in the job's queue,
    # however many days later the job leaves the failed state.
    day = 86400
    running(ql, started=True)
    ql.fail("jid", 2)
    ql.put("other", queue="elsewhere", tree=1)
    ql.pop(queue="elsewhere", now=3 * day)
    ql.fail("other", 3 * day)
    assert ql.stats(0)["failed"] == 1
    assert ql("job.terminate", 3 * day + 5, "jid") == 1
    assert ql.stats(0)["failed"] == 0
    assert ql.stats(0, queue="elsewhere", date=3 * day)["failed"] == 1
    assert ql.stats(0, date=3 * day)["failed"] == 0


def test_heartbeat_after_terminate_names_the_state(ql, r):
    """A running tree job terminated under its worker: the worker's heartbeat
    (and complete/fail) is refused as a lost lock naming the job's state,
    not as "given out to another worker: " with an empty name."""
    running(ql, started=True)
    assert ql("job.terminate", 2, "jid") == 1
    before = digest(r)
    msg = ql.err("heartbeat", 3, "jid", "worker")
    assert "[LockLost] Heartbeat(): Job jid not currently running: terminating (no worker holds it)" in msg, msg
    assert "another worker" not in msg
    assert digest(r) == before
