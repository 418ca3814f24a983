"""settle: settle a held job and reserve the next in one call (not in the
original protocol; libqless's worker engine uses it).

The reference is the two calls it replaces: every scenario runs once as
complete/fail/retry followed by pop and once as settle, from the same
database, and the key dumps, the published events and the popped jobs must
be identical."""
import json

import pytest

from helpers import jids


def dump(r):
    return {k: r.dump(k) for k in sorted(r.keys("*"))}


def hold_first(ql, jobs=3, queue="queue"):
    """Jobs j0..j{n-1} waiting in `queue`, j0 popped by `worker` at 1."""
    for i in range(jobs):
        ql.put("j%d" % i, now=0, queue=queue, priority=jobs - i)
    assert jids(ql.pop(now=1, queue=queue)) == ["j0"]


SETTLES = [
    # (settle arguments after `how`, the old command and its arguments)
    (["complete", "j0", "queue", '{"a": 1}'],
     ("complete", ["j0", "worker", "queue", '{"a": 1}'])),
    (["fail", "j0", "queue", '{"b": 2}', "group", "it broke"],
     ("fail", ["j0", "worker", "group", "it broke", '{"b": 2}'])),
    (["retry", "j0", "queue", "{}", "0"],
     ("retry", ["j0", "queue", "worker", "0"])),
    (["retry", "j0", "queue", "{}", "30", "Timeout", "try later"],
     ("retry", ["j0", "queue", "worker", "30", "Timeout", "try later"])),
]


def settle_matches(ql, r, events, hold, now, count, old, settle):
    """From the state hold() makes, once the old command (name, args) then a
    pop of `count`, once settle with the arguments after `count`: the keys,
    events, settled fields and popped jobs must be the same. Returns both
    results (settle's first)."""
    hold()
    with events() as ev_old:
        result_old = ql(old[0], now, *old[1])
        settled_old = r.hmget("ql:j:j0", "state", "queue", "worker", "expires", "remaining", "failure")
        popped_old = ql.pop(now=now, count=count) if count else {}
    state_old = dump(r)

    r.flushall()
    hold()
    with events() as ev_new:
        reply = ql("settle", now, "worker", '["queue"]', count, *settle)
    assert json.loads(reply[2]) == popped_old
    assert dump(r) == state_old
    assert list(ev_new) == list(ev_old)
    assert reply[1] == settled_old
    return reply[0], result_old


@pytest.mark.parametrize("settle,old", SETTLES, ids=lambda v: v[0] if isinstance(v, list) else v[0])
@pytest.mark.parametrize("count", [0, 1, 2])
def test_settle_equals_old_command_then_pop(ql, r, events, settle, old, count):
    result, result_old = settle_matches(ql, r, events, lambda: hold_first(ql), 2, count, old, settle)
    assert result == result_old


def test_settle_exhausted_retry_reports_failed(ql, r):
    ql.put("j0", retries=0)
    ql.pop(now=1)
    result, fields, jobs = ql("settle", 2, "worker", '["queue"]', 1, "retry", "j0", "queue", "{}", "0")
    assert result == -1
    assert fields[0] == "failed"
    assert json.loads(fields[5])["group"] == "failed-retries-queue"
    assert jobs == "{}"


def test_settle_pops_from_first_queue_with_work(ql):
    ql.put("a", queue="q2")
    ql.put("b", queue="q3")
    result, fields, jobs = ql("settle", 1, "worker", '["q1", "q2", "q3"]', 5)
    assert result is None and fields is None
    assert jids(json.loads(jobs)) == ["a"]
    assert jids(json.loads(ql("settle", 1, "worker", '["q1", "q2", "q3"]', 5)[2])) == ["b"]
    assert ql("settle", 1, "worker", '["q1", "q2", "q3"]', 5)[2] == "{}"


def test_completed_job_purged_at_once(ql):
    ql.config("jobs-history-count", 0)
    hold_first(ql, jobs=1)
    result, fields, _ = ql("settle", 2, "worker", '["queue"]', 0, "complete", "j0", "queue", "{}")
    assert result == "complete"
    assert fields == [None] * 6


@pytest.mark.parametrize("how", [["complete", "j0", "queue", "{}"],
                                 ["fail", "j0", "queue", "{}", "g", "m"],
                                 ["retry", "j0", "queue", "{}", "0"]])
def test_lock_refused_writes_nothing(ql, r, how):
    """Another worker holds j0 (its lock expired and was handed over): the
    settle is refused with complete/fail/retry's error and nothing is popped."""
    ql.config("heartbeat", 10)
    hold_first(ql, jobs=1)
    assert ql.pop(now=1000, worker="other") == {}       # the grace period starts
    assert jids(ql.pop(now=2000, worker="other")) == ["j0"]
    before = dump(r)
    msg = ql.err("settle", 2001, "worker", '["queue"]', 1, *how)
    assert "another worker" in msg
    assert dump(r) == before


@pytest.mark.parametrize("how", [["fail", "j0", "other", "{}", "g", "m"],
                                 ["retry", "j0", "other", "{}", "0"]])
def test_queue_must_be_the_jobs(ql, r, how):
    hold_first(ql)
    before = dump(r)
    msg = ql.err("settle", 2, "worker", '["queue"]', 1, *how)
    assert "running in another queue: queue" in msg
    assert dump(r) == before


def test_unknown_job(ql, r):
    hold_first(ql)
    before = dump(r)
    msg = ql.err("settle", 2, "worker", '["queue"]', 1, "complete", "nope", "queue", "{}")
    assert "does not exist" in msg
    assert dump(r) == before


# ---- tree jobs (jobtrees.md §9): suspend and terminated ----------------------

def hold_tree(ql, rerun=False):
    """Tree job j0 and plain jobs j1, j2 waiting; j0 popped by `worker` at 1
    (and woken by job.run while it runs when rerun)."""
    ql.put("j0", now=0, priority=3, tree=1)
    for i in (1, 2):
        ql.put("j%d" % i, now=0, priority=3 - i)
    assert jids(ql.pop(now=1)) == ["j0"]
    if rerun:
        assert ql("job.run", 1, "j0") == "running"


@pytest.mark.parametrize("rerun", [False, True])
@pytest.mark.parametrize("count", [0, 1, 2])
def test_settle_suspend_equals_job_suspend_then_pop(ql, r, events, count, rerun):
    result, result_old = settle_matches(ql, r, events, lambda: hold_tree(ql, rerun), 2, count,
                                        ("job.suspend", ["j0", "worker"]), ["suspend", "j0", "queue", "{}"])
    assert result == result_old == ("waiting" if rerun else "suspended")


def test_settle_suspend_refusals_write_nothing(ql, r):
    hold_tree(ql)
    ql.put("plain", now=0, queue="other")
    ql.pop(now=1, queue="other")
    before = dump(r)
    assert "is not a tree job" in ql.err("settle", 2, "worker", '["queue"]', 1, "suspend", "plain", "other", "{}")
    assert "another worker" in ql.err("settle", 2, "thief", '["queue"]', 1, "suspend", "j0", "queue", "{}")
    assert "suspend takes <jid> <queue> <data>" in ql.err(
        "settle", 2, "worker", '["queue"]', 1, "suspend", "j0", "queue", "{}", "extra")
    assert 'Arg "how" must be complete, fail, retry, suspend or terminated: bogus' in ql.err(
        "settle", 2, "worker", '["queue"]', 1, "bogus", "j0", "queue", "{}")
    assert dump(r) == before


def hold_terminating(ql):
    """Tree job j0 started, terminated and handed out for its shutdown run
    at 3; plain jobs j1, j2 waiting."""
    hold_tree(ql)
    assert ql("job.started", 1, "j0", "worker") == 1
    assert ql("job.terminate", 2, "j0") == 1
    popped = ql.pop(now=3)
    assert jids(popped) == ["j0"] and popped[0]["state"] == "terminating"


@pytest.mark.parametrize("count", [0, 1, 2])
def test_settle_terminated_equals_job_terminated_then_pop(ql, r, events, count):
    result, result_old = settle_matches(ql, r, events, lambda: hold_terminating(ql), 4, count,
                                        ("job.terminated", ["j0", "worker"]), ["terminated", "j0", "queue", "{}"])
    assert result == result_old == "terminated"


def test_settle_terminated_refusals_write_nothing(ql, r):
    hold_tree(ql)
    before = dump(r)
    assert "is not terminating: running" in ql.err(
        "settle", 2, "worker", '["queue"]', 1, "terminated", "j0", "queue", "{}")
    assert "terminated takes <jid> <queue> <data>" in ql.err(
        "settle", 2, "worker", '["queue"]', 1, "terminated", "j0", "queue", "{}", "x")
    assert dump(r) == before


# ---- the batch form: several settles and a pop in one call -------------------

def hold_three(ql):
    """Jobs j0..j4 waiting; j0, j1, j2 popped by `worker` at 1."""
    for i in range(5):
        ql.put("j%d" % i, now=0, priority=5 - i)
    assert jids(ql.pop(now=1, count=3)) == ["j0", "j1", "j2"]


BATCH = [["complete", "j0", "queue", '{"a": 1}'],
         ["fail", "j1", "queue", '{"b": 2}', "group", "it broke"],
         ["retry", "j2", "queue", "{}", "30", "Timeout", "try later"]]


def batch_args(settles):
    args = ["batch"]
    for s in settles:
        args += [len(s)] + s
    return args


@pytest.mark.parametrize("count", [0, 2])
def test_batch_equals_singles_then_pop(ql, r, events, count):
    """A batch leaves the keys, events, outcomes and popped jobs that the
    same settles made one by one, then a pop of `count`, leave."""
    hold_three(ql)
    with events() as ev_old:
        singles = [ql("settle", 2, "worker", "[]", 0, *s)[:2] for s in BATCH]
        popped_old = ql.pop(now=2, count=count) if count else {}
    state_old = dump(r)

    r.flushall()
    hold_three(ql)
    with events() as ev_new:
        outcomes, jobs = ql("settle", 2, "worker", '["queue"]', count, *batch_args(BATCH))
    assert outcomes == singles
    assert json.loads(jobs) == popped_old
    assert dump(r) == state_old
    assert list(ev_new) == list(ev_old)
    if count:
        assert jids(json.loads(jobs)) == ["j3", "j4"]


def test_batch_refused_job_left_as_it_was(ql, r):
    """j1 now runs for another worker: its outcome is fail's lock error and
    its keys are untouched, while j0 and j2 settle and the pop happens."""
    hold_three(ql)
    r.hset("ql:j:j1", "worker", "other")
    j1_before = {k: r.dump(k) for k in ("ql:j:j1", "ql:j:j1-history")}
    msg = ql.err("fail", 2, "j1", "worker", "group", "it broke", "{}")
    outcomes, jobs = ql("settle", 2, "worker", '["queue"]', 1, *batch_args(BATCH))
    assert outcomes[0][0] == "complete"
    assert outcomes[1][0] is None and outcomes[1][1].startswith("[")
    assert outcomes[1][1].split("] ", 1)[1] in msg
    assert outcomes[2][0] == 4 and outcomes[2][1][0] == "scheduled"
    assert {k: r.dump(k) for k in j1_before} == j1_before
    assert jids(json.loads(jobs)) == ["j3"]


def test_batch_repeated_job_refused_second_time(ql):
    hold_three(ql)
    twice = [BATCH[0], ["complete", "j0", "queue", "{}"]]
    outcomes, jobs = ql("settle", 2, "worker", "[]", 0, *batch_args(twice))
    assert outcomes[0][0] == "complete"
    assert outcomes[1][0] is None and outcomes[1][1].startswith("[")
    assert jobs == "{}"


@pytest.mark.parametrize("args,fragment", [
    (["batch"], "batch takes <n> <how> <jid> <queue> <data> ... per job"),
    (["batch", 4, "complete", "j0", "queue"], 'Arg "n" of batch item 1 must count'),
    (["batch", 3, "complete", "j0", "queue", "{}"], 'Arg "n" of batch item 1 must count'),
    (["batch", 4, "complete", "j0", "queue", "{}", "x"], 'Arg "n" not a number: x'),
    (["batch", 4, "complete", "j0", "queue", "{}", 5, "fail", "j1", "queue", "{}", "g"],
     "fail takes <jid> <queue> <data> <group> <message>"),
    (["batch", 4, "complete", "j0", "queue", "{}", 5, "retry", "j2", "queue", "{}", "x"], 'Arg "delay"'),
    (["batch", 4, "complete", "j0", "queue", "{}", 4, "bogus", "j2", "queue", "{}"], 'Arg "how" must be'),
])
def test_batch_bad_item_refuses_whole_call(ql, r, args, fragment):
    """A malformed item anywhere refuses the whole call before any write:
    j0, settled by the first item, stays running."""
    hold_three(ql)
    before = dump(r)
    assert fragment in ql.err("settle", 2, "worker", '["queue"]', 1, *args)
    assert dump(r) == before


def test_batch_retry_without_failure_takes_no_following_item(ql):
    """retry's optional <group> <message> are read only within its own n."""
    hold_three(ql)
    items = [["retry", "j0", "queue", "{}", "0"], ["complete", "j1", "queue", "{}"]]
    outcomes, _ = ql("settle", 2, "worker", "[]", 0, *batch_args(items))
    assert outcomes[0][0] == 4 and outcomes[0][1][0] == "waiting"
    assert outcomes[1][0] == "complete"


# ---- the lean forms: results without the fields ------------------------------

@pytest.mark.parametrize("settle,old", SETTLES, ids=lambda v: v[0] if isinstance(v, list) else v[0])
@pytest.mark.parametrize("count", [0, 2])
def test_lean_equals_full_without_fields(ql, r, events, settle, old, count):
    """lean writes what the full form writes and replies its result and
    popped jobs, flat: {result, jobs}."""
    hold_first(ql)
    with events() as ev_full:
        result, _, jobs = ql("settle", 2, "worker", '["queue"]', count, *settle)
    state_full = dump(r)
    r.flushall()
    hold_first(ql)
    with events() as ev_lean:
        reply = ql("settle", 2, "worker", '["queue"]', count, "lean", *settle)
    assert reply == [result, jobs]
    assert dump(r) == state_full
    assert list(ev_lean) == list(ev_full)


def test_lean_batch_results_and_errors(ql, r):
    """lean batch: results in order, false (nil) for a refused settle, whose
    index and error text are in errors; the rest as the full batch."""
    hold_three(ql)
    r.hset("ql:j:j1", "worker", "other")
    full, jobs_full = ql("settle", 2, "worker", '["queue"]', 1, *batch_args(BATCH))
    state_full = dump(r)
    r.flushall()
    hold_three(ql)
    r.hset("ql:j:j1", "worker", "other")
    results, errors, jobs = ql("settle", 2, "worker", '["queue"]', 1, "lean", *batch_args(BATCH))
    assert results == ["complete", None, 4]
    assert errors == [2, full[1][1]]
    assert jobs == jobs_full
    assert dump(r) == state_full


def test_lean_batch_bad_item_refuses_whole_call(ql, r):
    hold_three(ql)
    before = dump(r)
    assert "fail takes" in ql.err("settle", 2, "worker", '["queue"]', 1, "lean", "batch",
                                  4, "complete", "j0", "queue", "{}", 5, "fail", "j1", "queue", "{}", "g")
    assert dump(r) == before
