"""§5.9 fail, §5.22 failed, §5.23 unfail (FAIL-*, UNF-*)."""
import pytest

from helpers import EXHAUSTED, failed_msg, fresh_job, jids, lock_lost

FAIL_1 = [[], ["jid"], ["jid", "worker"], ["jid", "worker", "group"],
          ["jid", "worker", "group", "message"],
          ["jid", "worker", "group", "message", "[}"]]


@pytest.mark.parametrize("args", FAIL_1, ids=lambda a: " ".join(a) or "none")
def test_fail_1_malformed(ql, r, args):
    """FAIL-1: malformed fail (job absent) -> err, nothing written."""
    ql.err("fail", 0, *args)
    assert r.dbsize() == 0


def test_fail_1_bad_data_on_running_job(ql):
    """§5.9: data given and not valid JSON -> err; the job stays running."""
    ql.running()
    ql.err("fail", 0, "jid", "worker", "group", "message", "[}")
    assert ql.state() == "running"


def test_fail_2_failed_object(ql, r):
    """FAIL-2: put 0, pop 1, fail 2 -> the failed job object."""
    ql.running(put_at=0, pop_at=1)
    assert ql.fail("jid", 2) == "jid"
    failure = {"group": "group", "message": "message", "when": 2, "worker": "worker"}
    assert ql.get() == fresh_job(
        state="failed", failure=failure,
        history=[{"q": "queue", "what": "put", "when": 0},
                 {"what": "popped", "when": 1, "worker": "worker"},
                 {"group": "group", "what": "failed", "when": 2, "worker": "worker"}])
    assert r.hget("ql:j:jid", "expires") == ""
    assert r.lrange("ql:f:group", 0, -1) == ["jid"]
    assert r.smembers("ql:failures") == {"group"}
    assert r.zcard("ql:q:queue-locks") == 0


def test_fail_2_when_is_floored(ql):
    """§3.2: fail's `when` is floor(now)."""
    ql.running()
    ql.fail("jid", 2.75)
    assert ql.get()["failure"]["when"] == 2


def test_fail_2_data_reencoded(ql):
    """§5.9 step 7: data is the cjson re-encoding ([] -> {}, spaces dropped)."""
    ql.running("a")
    ql.fail("a", 0, "worker", "group", "message", "[]")
    assert ql.get("a")["data"] == "{}"
    ql.running("b")
    ql.fail("b", 0, "worker", "group", "message", r'{"x":  [1, "a\/b"]}')
    assert ql.get("b")["data"] == '{"x":[1,"a\\/b"]}'


@pytest.mark.parametrize("setup,state", [
    (lambda ql: ql.put(), "waiting"),
    (lambda ql: (ql.put("a"), ql.put(depends=["a"])), "depends"),
    (lambda ql: ql.put(delay=10), "scheduled"),
    (lambda ql: (ql.running(), ql.complete()), "complete"),
    (lambda ql: ql.failed(), "failed"),
])
def test_fail_3_not_running(ql, setup, state):
    """FAIL-3: fail of a non-running job -> err naming the state."""
    setup(ql)
    msg = ql.err("fail", 0, "jid", "worker", "group", "message")
    assert "not currently running" in msg and state in msg


def test_fail_3_missing(ql):
    """FAIL-3: nonexistent -> err(does not exist)."""
    assert "does not exist" in ql.err("fail", 0, "jid", "worker", "group", "message")


def test_fail_4_another_worker(ql):
    """FAIL-4: job re-put and popped by another-worker; fail by worker -> err."""
    ql.running()
    ql.put()
    ql.pop(worker="another-worker")
    assert "another worker" in ql.err("fail", 0, "jid", "worker", "group", "message")
    assert ql.fail("jid", 0, "another-worker") == "jid"


def test_fail_5_failed_listing(ql):
    """FAIL-5: failed 0 -> {"group":1}; failed 0 group -> total/jobs."""
    ql.failed()
    assert ql("failed", 0) == '{"group":1}'
    assert ql.json("failed", 0, "group") == {"total": 1, "jobs": ["jid"]}


@pytest.mark.parametrize("args", [["foo", "foo"], ["foo", "0", "foo"]])
def test_fail_6_failed_malformed(ql, args):
    """FAIL-6: failed with non-numeric start/limit -> err."""
    ql.err("failed", 0, *args)


def test_fail_7_paging(ql):
    """FAIL-7: 100 failures at 0..99 -> newest first, paged by start/limit."""
    for t in range(100):
        ql.failed(str(t), now=t)
    assert ql.json("failed", 0, "group", 0, 50) == {
        "total": 100, "jobs": [str(t) for t in range(99, 49, -1)]}
    assert ql.json("failed", 0, "group", 50, 50)["jobs"] == [str(t) for t in range(49, -1, -1)]
    assert len(ql.json("failed", 0, "group")["jobs"]) == 25


def test_fail_8_exhausted_by_lock_expiry(ql):
    """FAIL-8: retries 0, grace 0, lock expiry -> group failed-retries-queue."""
    ql.config("grace-period", 0)
    ql.running(retries=0)
    assert ql.pop(now=70, worker="another") == {}
    assert ql.json("failed", 0) == {"failed-retries-queue": 1}
    assert ql.json("failed", 0, "failed-retries-queue") == {"total": 1, "jobs": ["jid"]}
    job = ql.get()
    assert job["state"] == "failed" and job["worker"] == ""
    assert job["failure"] == {"group": "failed-retries-queue",
                              "message": 'Job exhausted retries in queue "queue"',
                              "when": 70, "worker": ""}
    assert job["history"][-1] == {"group": "failed-retries-queue", "what": "failed", "when": 70}


def test_fail_9_tracked_events(ql, events):
    """FAIL-9: tracked fail -> failed log message then ql:failed jid."""
    ql.running()
    ql.track()
    with events() as ev:
        ql.fail("jid", 0, "worker", "grp", "mess")
    assert ev == [failed_msg(group="grp", message="mess"), ("ql:failed", "jid")]


def test_fail_9_untracked_event_escaping(ql, events):
    """§9.2: the failed message is cjson-escaped; untracked -> only ql:log."""
    ql.running()
    with events() as ev:
        ql.fail("jid", 0, "worker", "grp", 'say "hi" a/b')
    assert ev == [failed_msg(group="grp", message='say \\"hi\\" a\\/b')]


def test_fail_10_removed_from_worker(ql):
    """FAIL-10: fail removes the job from the worker's jobs."""
    ql.running()
    ql.fail("jid", 1)
    assert ql.workers(2, "worker") == {"jobs": {}, "stalled": {}}
    assert ql.workers(2) == [{"name": "worker", "jobs": 0, "stalled": 0}]


def test_fail_11_during_grace(ql):
    """FAIL-11: fail during the grace period succeeds; nothing handed out afterwards."""
    ql.running(pop_at=1)
    assert ql.pop(now=61, worker="another") == {}
    assert ql.fail("jid", 65) == "jid"
    assert ql.pop(now=80, worker="another") == {}
    assert ql.state() == "failed"


def test_fail_12_empty_listings(ql):
    """FAIL-12: failed 0 -> {}; failed 0 nogroup -> {"total":0,"jobs":{}}."""
    assert ql("failed", 0) == "{}"
    assert ql.json("failed", 0, "nogroup") == {"total": 0, "jobs": {}}


def test_fail_stats(ql, r):
    """§5.9 step 5: failures and failed counters on day bin(now) of the job queue."""
    ql.running()
    ql.fail("jid", 86400 * 2 + 5)
    assert r.hgetall("ql:s:stats:172800:queue") == {"failures": "1", "failed": "1"}


def test_unf_1_unfail(ql, r):
    """UNF-1: 10 failed jobs; unfail 100 -> all waiting, reply 10, group gone."""
    for t in range(10):
        ql.failed(str(t), now=t)
    assert ql("unfail", 20, "queue", "group", 100) == 10
    assert [ql.state(str(t)) for t in range(10)] == ["waiting"] * 10
    assert ql("failed", 20) == "{}"
    assert r.exists("ql:f:group") == 0
    job = ql.get("0")
    assert job["history"][-1] == {"q": "queue", "what": "put", "when": 20}
    assert job["failure"]["group"] == "group"   # failure kept
    assert ql.stats()["failed"] == 10           # statistic not decremented
    assert len(jids(ql.pop(now=21, count=100))) == 10


def test_unf_1_oldest_first_and_count(ql):
    """§5.23: unfail moves the `count` oldest failures into the named queue."""
    for t in range(5):
        ql.failed(str(t), now=t)
    assert ql("unfail", 10, "other", "group", 2) == 2
    assert ql.state("0") == "waiting" and ql.get("0")["queue"] == "other"
    assert ql.state("1") == "waiting" and ql.state("2") == "failed"
    assert ql.json("failed", 10, "group") == {"total": 3, "jobs": ["4", "3", "2"]}
    assert ql.json("failed", 10) == {"group": 3}


def test_unf_1_default_count_and_no_events(ql, events, r):
    """§5.23: default count 25; no events; queue not registered."""
    for t in range(30):
        ql.failed(str(t), now=t, queue="q")
    r.zrem("ql:queues", "q")
    with events() as ev:
        assert ql("unfail", 40, "q", "group") == 25
    assert ev == []
    assert r.zscore("ql:queues", "q") is None


def test_unf_2_malformed(ql, r):
    """UNF-2: unfail without group / with count x -> err."""
    ql.err("unfail", 0, "queue")
    ql.err("unfail", 0)
    ql.err("unfail", 0, "queue", "group", "x")
    assert r.dbsize() == 0


def test_unf_1_resets_remaining(ql):
    """§5.23 step 2: remaining = the job's retries."""
    ql.running(retries=3)
    ql.retry()
    ql.pop()
    ql.fail("jid", 1)
    assert ql.get()["remaining"] == 2
    ql("unfail", 2, "queue", "group")
    assert ql.get()["remaining"] == 3
