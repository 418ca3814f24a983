"""jobtrees.md §3, §5.2 (tree, by), §5.3, §5.5-§5.7, §7 status events."""
import json
import random

import pytest

from helpers import digest, jids

LOG = "ql:ch:/qless/log"


def status(jid, now, frm, to):
    return (LOG, '{"event":"status","time":%s,"job":"%s","from":"%s","to":"%s"}'
            % (json.dumps(now), jid, frm, to))


def tree(ql, jid="jid", now=0):
    return json.loads(ql("tree.get", now, jid))


def suspended(ql, jid="jid"):
    ql.put(jid, tree=1)
    ql.pop(now=1)
    assert ql("job.suspend", 2, jid, "worker") == "suspended"


def test_put_tree_creates_tree_job(ql, events):
    # TRE-1
    with events() as got:
        ql.put(tree=1, by="parent-worker")
    assert status("jid", 0, "new", "waiting") in got
    t = tree(ql)
    assert t == {"jid": "jid", "klass": "klass", "queue": "queue", "state": "waiting",
                 "parent": False, "name": False, "children": {}, "aliases": {},
                 "created_by": "parent-worker", "started": False, "runs": 0, "rerun": False,
                 "inports": {}, "outports": {}, "inchannels": {}, "outchannels": {},
                 "sizes": {"in": {}, "out": {}}}
    # T3: get keeps its 17 keys.
    assert len(ql.get()) == 17


def test_created_by_defaults_to_worker_and_by_alone_is_plain(ql):
    # TRE-1 (created_by) and TRE-5
    ql.put("a", tree=1, worker="w1")
    assert tree(ql, "a")["created_by"] == "w1"
    ql.put("b", by="x")  # K13
    assert "is not a tree job" in ql.err("tree.get", 0, "b")
    assert ql("tree.get", 0, "missing") is None


def test_put_tree_bad_value_writes_nothing(ql, r):
    ql.put("other")
    before = digest(r)
    err = ql.err("put", 0, "worker", "queue", "jid", "klass", "{}", 0, "tree", "2")
    assert 'Put(): Arg "tree" must be 1' in err
    assert digest(r) == before


@pytest.mark.parametrize("cmd,args", [
    ("job.run", []), ("job.suspend", ["worker"]), ("job.started", ["worker"]), ("tree.get", []),
])
def test_j_checks(ql, cmd, args):
    disp = cmd[0].upper() + cmd[1:]
    assert '%s(): Arg "jid" missing' % disp in ql.err(cmd, 0)
    if cmd != "tree.get":
        assert "%s(): Job nope does not exist" % disp in ql.err(cmd, 0, "nope", *args)
    ql.put("plain")
    assert "%s(): Job plain is not a tree job" % disp in ql.err(cmd, 0, "plain", *args)


def test_started_needs_the_holder(ql):
    ql.put(tree=1)
    assert "Job.started(): Job jid is not currently running: waiting" in \
        ql.err("job.started", 1, "jid", "worker")
    ql.pop(now=1)
    assert "has been handed out to another worker: worker" in \
        ql.err("job.started", 2, "jid", "other")
    assert ql("job.started", 3, "jid", "worker") == 1
    assert tree(ql)["started"] == 3


def test_suspend_and_wake_by_run(ql, r, events):
    # TRN-3, and TRN-5 from suspended
    ql.put(tree=1)
    ql.pop(now=1)
    assert ql.stats(5)["run"]["count"] == 0
    assert "has been handed out to another worker: worker" in ql.err("job.suspend", 2, "jid", "w2")
    with events() as got:
        assert ql("job.suspend", 5, "jid", "worker") == "suspended"
    assert got[-1] == status("jid", 5, "running", "suspended")
    job = ql.get()
    assert (job["state"], job["worker"], job["expires"]) == ("suspended", "", 0)
    assert job["history"][-1] == {"what": "suspended", "when": 5}
    assert r.zscore("ql:q:queue-suspended", "jid") == 5
    assert r.zcard("ql:q:queue-locks") == 0 and r.zcard("ql:w:worker:jobs") == 0
    run = ql.stats(5)["run"]  # the run ended at the suspend: 4 s since the pop at 1
    assert (run["count"], run["mean"]) == (1, 4)
    ql.put("idle", queue="idle", tree=1)
    assert "Job.suspend(): Job idle is not currently running: waiting" in \
        ql.err("job.suspend", 5, "idle", "worker")
    assert "is not currently running: suspended" in ql.err("job.suspend", 6, "jid", "worker")
    with events() as got:
        assert ql("job.run", 7, "jid") == "waiting"
    assert got == [status("jid", 7, "suspended", "waiting")]  # K10: no ql:log put
    assert r.zcard("ql:q:queue-suspended") == 0
    assert jids(ql.pop(now=8)) == ["jid"]


def test_run_while_running_sets_rerun_and_suspend_requeues(ql, events):
    ql.put(tree=1)
    ql.pop(now=1)
    assert ql("job.run", 2, "jid") == "running"
    assert tree(ql)["rerun"] is True
    with events() as got:
        assert ql("job.suspend", 3, "jid", "worker") == "waiting"
    assert status("jid", 3, "running", "waiting") in got
    assert tree(ql)["rerun"] is False
    assert ql.get()["state"] == "waiting"


def test_run_queued_is_no_change_and_delay_schedules(ql, r):
    # TRN-5 (waiting, and a delay)
    ql.put(tree=1, delay=0)
    before = digest(r)
    assert ql("job.run", 1, "jid") == "waiting"
    assert digest(r) == before
    suspended(ql, "s")
    assert ql("job.run", 3, "s", 10) == "scheduled"
    assert r.zscore("ql:q:queue-scheduled", "s") == 13
    assert 'Job.run(): Arg "delay"' in ql.err("job.run", 3, "s", "-1")


def test_complete_keeps_queue_and_run_wakes(ql, r, events):
    ql.put(tree=1)
    ql.pop(now=1)
    with events() as got:
        assert ql.complete(now=2) == "complete"
    assert status("jid", 2, "running", "complete") in got
    assert ql.get()["queue"] == "queue"
    assert ql("job.run", 3, "jid") == "waiting"
    assert r.zscore("ql:completed", "jid") is None
    assert jids(ql.pop(now=4)) == ["jid"]


def test_failed_tree_job_run_clears_failure(ql, r):
    ql.put(tree=1)
    ql.pop(now=1)
    ql.fail("jid", 2)
    assert ql("job.run", 3, "jid") == "waiting"
    assert r.llen("ql:f:group") == 0 and not r.sismember("ql:failures", "group")
    assert ql.get()["state"] == "waiting"


def test_put_moves_suspended_out_of_the_set(ql, r, events):
    suspended(ql)
    with events() as got:
        ql.put(queue="other")
    assert status("jid", 0, "suspended", "waiting") in got
    assert r.zcard("ql:q:queue-suspended") == 0
    assert tree(ql)["queue"] == "other"


def test_put_of_terminating_is_refused(ql, r):
    ql.put(tree=1)
    r.hset("ql:j:jid", "state", "terminating")  # job.terminate comes later
    before = digest(r)
    assert "Put(): Job jid cannot go from terminating to waiting" in ql.err("put", 0, "worker",
        "queue", "jid", "klass", "{}", 0)
    assert "cannot go from terminating to scheduled" in ql.err("requeue", 0, "worker",
        "queue", "jid", "klass", "{}", 5)
    assert "Job.run(): Job jid cannot go from terminating to waiting" in ql.err("job.run", 0, "jid")
    assert digest(r) == before


def test_tree_log_zero_silences_status(ql, events):
    ql.config("tree-log", "0")
    with events() as got:
        ql.put(tree=1)
    assert not [m for m in got if m[0] == LOG]


def test_plain_job_life_publishes_nothing_on_tree_log(ql, events):
    # T2: plain jobs are untouched by the tree layer.
    with events() as got:
        ql.put()
        ql.pop(now=1)
        ql.complete(now=2)
    assert not [m for m in got if m[0] == LOG]
    assert ql.get()["queue"] == ""


def test_generated_walk_keeps_state_sets_consistent(ql, r):
    """Seeded random walk over put/pop/suspend/run/complete/fail: after each
    step the job sits in exactly the set its state names."""
    rng = random.Random(1515)
    homes = {"waiting": "work", "scheduled": "scheduled", "running": "locks",
             "suspended": "suspended"}
    ql.put(tree=1)
    for now in range(1, 120):
        state = ql.get()["state"]
        step = rng.choice(["pop", "suspend", "run", "complete", "fail", "put", "rerun"])
        if step == "pop":
            ql.pop(now=now)
        elif step == "put":
            ql.put(now=now, delay=rng.choice([0, 0, 3]))
        elif state == "running" and step in ("suspend", "complete", "fail", "rerun"):
            if step == "suspend":
                ql("job.suspend", now, "jid", "worker")
            elif step == "complete":
                ql.complete(now=now)
            elif step == "fail":
                ql.fail("jid", now)
            else:
                ql("job.run", now, "jid")
        elif step == "run":
            ql("job.run", now, "jid", rng.choice([0, 2]))
        state = ql.get()["state"]
        for kind in ("work", "scheduled", "locks", "suspended"):
            inside = r.zscore("ql:q:queue-" + kind, "jid") is not None
            assert inside == (homes.get(state) == kind), (now, step, state, kind)
        assert (r.zscore("ql:completed", "jid") is not None) == (state == "complete")
        assert (r.llen("ql:f:group") == 1) == (state == "failed")


def test_cancel_refuses_tree_jobs_and_cancels_nothing(ql, r):
    # TRE-8
    ql.put("plain")
    ql.put("t", tree=1)
    before = digest(r)
    assert "Cancel(): t is a tree job: terminate and delete it" in ql.err("cancel", 0, "plain", "t")
    assert digest(r) == before
    assert ql("cancel", 0, "plain") == ["plain"]
