"""§5.8 complete (CMP-*)."""
import pytest

from helpers import fresh_job, jids

CMP_1 = [["next"], ["delay"], ["delay", "foo"], ["depends"], ["depends", "[}"],
         ["depends", '["foo"]', "delay", "5"], ["depends", '["foo"]']]


@pytest.mark.parametrize("opts", CMP_1, ids=" ".join)
def test_cmp_1_malformed(ql, r, opts):
    """CMP-1: malformed complete (job absent) -> err, nothing written."""
    ql.err("complete", 0, "jid", "worker", "queue", "{}", *opts)
    assert r.dbsize() == 0


@pytest.mark.parametrize("args", [[], ["jid"], ["jid", "worker"], ["jid", "worker", "queue"],
                                  ["jid", "worker", "queue", "{]"]])
def test_cmp_1_missing_arguments(ql, r, args):
    """§5.8 validation: jid/worker/queue/data missing or bad -> err."""
    ql.err("complete", 0, *args)
    assert r.dbsize() == 0


def test_cmp_2_running_job_bad_options(ql, r):
    """CMP-2: delay/depends without next, or no data -> err; job untouched."""
    ql.running()
    before = {k: r.dump(k) for k in r.keys("*")}
    msg = ql.err("complete", 0, "jid", "worker", "queue", "{}", "delay", 5)
    assert "delay" in msg and "next" in msg
    msg = ql.err("complete", 0, "jid", "worker", "queue", "{}", "depends", '["x"]')
    assert "depends" in msg and "next" in msg
    ql.err("complete", 0, "jid", "worker", "queue")
    assert {k: r.dump(k) for k in r.keys("*")} == before
    assert ql.complete() == "complete"


def test_cmp_3_waiting_job(ql):
    """CMP-3: waiting job -> err(waiting); after pop it completes."""
    ql.put()
    msg = ql.err("complete", 0, "jid", "worker", "queue", "{}")
    assert "not currently running" in msg and "waiting" in msg
    ql.pop()
    assert ql.complete() == "complete"


def test_cmp_4_depends_job(ql):
    """CMP-4: depends-state job -> err(depends)."""
    ql.put("a")
    ql.put("jid", depends=["a"])
    assert "depends" in ql.err("complete", 0, "jid", "worker", "queue", "{}")


def test_cmp_5_scheduled_job(ql):
    """CMP-5: scheduled job -> err(scheduled)."""
    ql.put(delay=10)
    assert "scheduled" in ql.err("complete", 0, "jid", "worker", "queue", "{}")


def test_cmp_6_missing_job(ql):
    """CMP-6: nonexistent job -> err(does not exist)."""
    assert "does not exist" in ql.err("complete", 0, "jid", "worker", "queue", "{}")


def test_cmp_7_failed_job(ql):
    """CMP-7: failed job -> err(failed)."""
    ql.failed()
    assert "failed" in ql.err("complete", 0, "jid", "worker", "queue", "{}")


def test_cmp_7_complete_and_stalled_states_named(ql):
    """§5.8: the state name appears for `complete` and `stalled` jobs too."""
    ql.running()
    ql("timeout", 0, "jid")
    assert "stalled" in ql.err("complete", 0, "jid", "worker", "queue", "{}")
    ql.pop(worker="worker")
    ql.complete()
    msg = ql.err("complete", 0, "jid", "worker", "queue", "{}")
    assert "not currently running" in msg and "complete" in msg


def test_cmp_8_failure_kept_until_complete(ql):
    """CMP-8: fail 2, re-put 3, pop 4 -> failure kept; complete -> {}."""
    ql.running(put_at=0, pop_at=1)
    ql.fail("jid", 2)
    ql.put(now=3)
    job = ql.pop(now=4)[0]
    failure = {"group": "group", "message": "message", "when": 2, "worker": "worker"}
    assert job["failure"] == failure
    ql.complete(now=5)
    assert ql.get()["failure"] == {}


def test_cmp_9_completed_object(ql, r):
    """CMP-9: put 0, pop 1, complete 2 -> `complete` and the exact object."""
    ql.running(put_at=0, pop_at=1)
    assert ql.complete(now=2) == "complete"
    assert ql.get() == fresh_job(
        state="complete", queue="",
        history=[{"q": "queue", "what": "put", "when": 0},
                 {"what": "popped", "when": 1, "worker": "worker"},
                 {"what": "done", "when": 2}])
    assert r.zscore("ql:completed", "jid") == 2
    assert r.zcard("ql:q:queue-locks") == 0


def test_cmp_9_data_replaced_verbatim(ql):
    """§5.8 step 2: data = the argument, verbatim."""
    ql.running()
    ql.complete(data='{"result": [1, 2]}')
    assert ql.get()["data"] == '{"result": [1, 2]}'


def test_cmp_10_next(ql):
    """CMP-10: complete … next foo -> `waiting`; pop foo returns it."""
    ql.running()
    assert ql.complete(now=2, next="foo") == "waiting"
    job = ql.get()
    assert (job["state"], job["queue"], job["worker"]) == ("waiting", "foo", "")
    assert job["history"][-2:] == [{"what": "done", "when": 2},
                                   {"q": "foo", "what": "put", "when": 2}]
    assert jids(ql.pop(now=3, queue="foo")) == ["jid"]


def test_cmp_11_empty_array_data_through_next(ql):
    """CMP-11: data [] kept through complete … next."""
    ql.running(data="[]")
    ql.complete(data="[]", next="foo")
    assert ql.pop(queue="foo")[0]["data"] == "[]"


def test_cmp_12_wrong_worker_or_queue(ql):
    """CMP-12: wrong worker -> err(another worker); wrong queue -> err(another queue)."""
    ql.running()
    assert "another worker" in ql.err("complete", 0, "jid", "other", "queue", "{}")
    assert "another queue" in ql.err("complete", 0, "jid", "worker", "other", "{}")
    assert ql.state() == "running"


def _complete_n(ql, n, start=0):
    for i in range(start, start + n):
        ql.running(str(i), put_at=i, pop_at=i)
        ql.complete(str(i), now=i)


def test_cmp_13_history_count(ql, r):
    """CMP-13: jobs-history-count 5, 10 completions -> 5 jobs exist."""
    ql.config("jobs-history-count", 5)
    _complete_n(ql, 10)
    existing = [str(i) for i in range(10) if ql.get(str(i)) is not None]
    assert existing == ["5", "6", "7", "8", "9"]
    assert r.zcard("ql:completed") == 5
    assert r.exists("ql:j:0-history") == 0


def test_cmp_14_history_age(ql, r):
    """CMP-14: jobs-history -1, 10 completions -> none exist."""
    ql.config("jobs-history", -1)
    _complete_n(ql, 10)
    assert [ql.get(str(i)) for i in range(10)] == [None] * 10
    assert r.zcard("ql:completed") == 0


def test_cmp_15_tracked_completion_events(ql, events):
    """CMP-15: ql:completed jid then the completed log message."""
    ql.running()
    ql.track()
    with events() as ev:
        ql.complete()
    assert ev == [("ql:completed", "jid"),
                  ("ql:log", '{"jid":"jid","event":"completed","queue":"queue"}')]


def test_cmp_16_advance_event(ql, events):
    """CMP-16: complete … next queue -> only the advanced message."""
    ql.running()
    with events() as ev:
        ql.complete(next="queue")
    assert ev == [("ql:log", '{"jid":"jid","to":"queue","event":"advanced","queue":"queue"}')]


def test_cmp_16_tracked_advance_events(ql, events):
    """§9.3: tracked advance -> ql:completed jid then advanced."""
    ql.running()
    ql.track()
    with events() as ev:
        ql.complete(next="foo")
    assert ev == [("ql:completed", "jid"),
                  ("ql:log", '{"jid":"jid","to":"foo","event":"advanced","queue":"queue"}')]


def test_cmp_17_next_depends_delay(ql, r):
    """CMP-17: next foo depends ["b"] delay 10 -> depends; b done at 6 -> scheduled."""
    ql.put("a", now=0)
    assert jids(ql.pop(now=1)) == ["a"]
    ql.put("b", now=2)
    reply = ql("complete", 3, "a", "worker", "queue", "{}", "next", "foo",
               "depends", '["b"]', "delay", 10)
    assert reply == "depends"
    assert ql.state("a") == "depends"
    assert float(r.hget("ql:j:a", "scheduled")) == 13
    assert jids(ql.pop(now=4)) == ["b"]
    ql.complete("b", now=6)
    assert ql.state("a") == "scheduled"
    assert r.zscore("ql:q:foo-scheduled", "a") == 13
    assert ql.peek(now=12, queue="foo") == {}
    assert jids(ql.peek(now=13, queue="foo")) == ["a"]
    assert ql.state("a") == "waiting"


def test_cmp_18_depends_next(ql):
    """CMP-18: complete b … depends ["a"] next queue -> b depends on a."""
    ql.put("a", now=0)
    ql.put("b", now=1)
    assert jids(ql.pop(now=2, count=1)) == ["a"]
    assert jids(ql.pop(now=2, count=1)) == ["b"]
    ql.put("a", now=2)
    assert ql("complete", 3, "b", "worker", "queue", "{}", "depends", '["a"]',
              "next", "queue") == "depends"
    assert ql.state("b") == "depends"
    assert ql.get("b")["dependencies"] == ["a"]
    assert ql.get("a")["dependents"] == ["b"]
    assert jids(ql.peek(now=3, count=10)) == ["a"]


def test_cmp_18_satisfied_depends_ignores_delay(ql):
    """§5.8 7.6: only satisfied dependencies -> WORK-ADD, reply waiting, delay ignored."""
    ql.running()
    assert ql("complete", 0, "jid", "worker", "queue", "{}", "next", "q2",
              "depends", '["gone"]', "delay", 10) == "waiting"
    assert jids(ql.peek(queue="q2")) == ["jid"]


def test_cmp_19_next_delay(ql):
    """CMP-19: complete … next q2 delay 10 -> `scheduled`, state field waiting."""
    ql.running()
    assert ql.complete(now=1, next="q2", delay=10) == "scheduled"
    assert ql("jobs", 1, "scheduled", "q2") == ["jid"]
    assert ql.state() == "waiting"  # §4 exception
    assert ql.pop(now=5, queue="q2") == {}
    assert jids(ql.pop(now=11, queue="q2")) == ["jid"]


def test_cmp_20_removed_from_worker(ql):
    """CMP-20: completion removes the job from the worker."""
    ql.running()
    ql.complete(now=1)
    assert ql.workers(2) == [{"name": "worker", "jobs": 0, "stalled": 0}]
    assert ql.workers(2, "worker") == {"jobs": {}, "stalled": {}}


def test_cmp_21_run_stats(ql):
    """CMP-21: run statistics recorded on completion."""
    ql.running(pop_at=0)
    ql.complete(now=5)
    run = ql.stats()["run"]
    assert run["count"] == 1 and run["mean"] == 5
    assert run["histogram"][5] == 1


def test_cmp_22_releases_dependents(ql):
    """CMP-22: completing a releases b; with b's delay pending b becomes scheduled."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql.put("c", depends=["a"], delay=100)
    assert jids(ql.pop(now=1, count=10)) == ["a"]
    ql.complete("a", now=2)
    assert ql.state("b") == "waiting"
    assert ql.state("c") == "scheduled"
    assert ql.get("a")["dependents"] == {}
    assert jids(ql.pop(now=3, count=10)) == ["b"]
    assert jids(ql.pop(now=100, count=10)) == ["c"]


def test_cmp_22_advance_does_not_release(ql):
    """§5.8 7.7: an advance (next) does not release dependents."""
    ql.put("a")
    ql.put("b", depends=["a"])
    ql.pop(count=10)
    ql.complete("a", next="queue")
    assert ql.state("b") == "depends"


def test_cmp_14_age_boundary_inclusive(ql):
    """§12.1: purge by age covers scores in [0, now - jobs-history] inclusive."""
    ql.config("jobs-history", 100)
    ql.running("a")
    ql.complete("a", now=0)
    ql.running("b", put_at=99, pop_at=99)
    ql.complete("b", now=99)
    assert ql.state("a") == "complete"
    ql.running("c", put_at=100, pop_at=100)
    ql.complete("c", now=100)
    assert ql.get("a") is None and ql.state("b") == "complete"
    assert ql("jobs", 100, "complete") == ["c", "b"]
