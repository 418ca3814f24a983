"""§5.10 retry (RTY-*)."""
import pytest

from helpers import jids

RTY_1 = [[], ["jid"], ["jid", "queue"], ["jid", "queue", "worker"],
         ["jid", "queue", "worker", "foo"]]


@pytest.mark.parametrize("args", RTY_1, ids=lambda a: " ".join(a) or "none")
def test_rty_1_malformed(ql, r, args):
    """RTY-1: malformed retry (job absent) -> err, nothing written."""
    ql.err("retry", 0, *args)
    assert r.dbsize() == 0


def test_rty_1_bad_delay_on_running_job(ql):
    """§5.10: non-numeric delay -> err even for a running job; job unchanged."""
    ql.running()
    ql.err("retry", 0, "jid", "queue", "worker", "foo")
    job = ql.get()
    assert job["state"] == "running" and job["remaining"] == 5


@pytest.mark.parametrize("setup", [
    lambda ql: ql.put(),
    lambda ql: (ql.running(), ql.complete()),
    lambda ql: ql.failed(),
], ids=["waiting", "complete", "failed"])
def test_rty_2_not_running(ql, setup):
    """RTY-2: waiting / completed / failed -> err(not currently running)."""
    setup(ql)
    assert "not currently running" in ql.err("retry", 0, "jid", "queue", "worker")


def test_rty_3_other_worker(ql):
    """RTY-3: other worker -> err(another worker)."""
    ql.running()
    assert "another worker" in ql.err("retry", 0, "jid", "queue", "other")
    assert ql.get()["remaining"] == 5


@pytest.mark.parametrize("command,args", [
    ("complete", ["jid", "worker", "queue", "{}"]),
    ("fail", ["jid", "worker", "group", "message"]),
    ("heartbeat", ["jid", "worker"]),
    ("retry", ["jid", "queue", "worker"]),
])
def test_rty_4_after_retry(ql, command, args):
    """RTY-4: after retry the same worker cannot complete/fail/heartbeat/retry."""
    ql.running()
    ql.retry()
    assert "not currently running" in ql.err(command, 0, *args)


def test_rty_5_missing(ql):
    """RTY-5: nonexistent -> err(does not exist)."""
    assert "does not exist" in ql.err("retry", 0, "jid", "queue", "worker")


def test_rty_6_exhausted_with_group(ql, r):
    """RTY-6: retries 0, retry with group+message -> -1 and the failed object."""
    ql.running(retries=0)
    assert ql.retry("jid", 0, "queue", "worker", 0, "group", "message") == -1
    job = ql.get()
    assert (job["state"], job["remaining"], job["retries"]) == ("failed", -1, 0)
    assert (job["expires"], job["worker"]) == (0, "")
    assert job["failure"] == {"group": "group", "message": "message", "when": 0,
                              "worker": "worker"}
    assert job["history"][-1] == {"group": "group", "what": "failed", "when": 0}
    assert r.lrange("ql:f:group", 0, -1) == ["jid"]
    assert r.smembers("ql:failures") == {"group"}


def test_rty_7_exhausted_default_message(ql):
    """RTY-7: retries 0, retry without group -> failed-retries-queue failure."""
    ql.running(retries=0)
    assert ql.retry("jid", 0, "queue", "worker", 0) == -1
    job = ql.get()
    assert job["failure"] == {"group": "failed-retries-queue",
                              "message": 'Job exhausted retries in queue "queue"',
                              "when": 0, "worker": ""}
    assert job["history"][-1] == {"group": "failed-retries-queue", "what": "failed", "when": 0}


def test_rty_7_exhausted_when_not_floored(ql):
    """§3.2: exhaustion with the default message keeps the unfloored now."""
    ql.running(retries=0)
    ql.retry("jid", 2.5)
    assert ql.get()["failure"]["when"] == 2.5
    assert ql.get()["history"][-1]["when"] == 2


def test_rty_7_group_named_after_queue_argument(ql):
    """§5.10 step 4: default group uses the queue argument, message the job queue."""
    ql.running(retries=0)
    ql.retry("jid", 0, "elsewhere")
    failure = ql.get()["failure"]
    assert failure["group"] == "failed-retries-elsewhere"
    assert failure["message"] == 'Job exhausted retries in queue "queue"'


def test_rty_8_delay(ql, r):
    """RTY-8: retry with delay 10 -> scheduled; pop 0 -> {}."""
    ql.running()
    assert ql.retry("jid", 0, "queue", "worker", 10) == 4
    assert ql.state() == "scheduled"
    assert r.zscore("ql:q:queue-scheduled", "jid") == 10
    assert ql.pop(now=0) == {}
    assert jids(ql.pop(now=10)) == ["jid"]


def test_rty_9_fresh_job(ql, r):
    """RTY-9: retries 5 -> reply 4, poppable again; no history, worker kept."""
    ql.running()
    assert ql.retry() == 4
    job = ql.get()
    assert job["state"] == "waiting" and job["remaining"] == 4
    assert [h["what"] for h in job["history"]] == ["put", "popped"]
    assert job["worker"] == "worker"  # §5.10: worker/expires keep their old values
    assert r.zcard("ql:q:queue-locks") == 0
    assert jids(ql.pop(now=1)) == ["jid"]


def test_rty_9_group_message_recorded(ql):
    """§5.10 step 5: non-exhausted retry with group+message sets failure."""
    ql.running()
    ql.retry("jid", 3.5, "queue", "worker", 0, "g", "m")
    assert ql.get()["failure"] == {"group": "g", "message": "m", "when": 3, "worker": "worker"}
    assert ql.state() == "waiting"


def test_rty_9_into_other_queue(ql):
    """§5.10: the job goes to the queue argument; the queue field is not changed."""
    ql.running()
    ql.retry("jid", 0, "other")
    assert jids(ql.peek(queue="other")) == ["jid"]
    assert ql.get()["queue"] == "queue"


def test_rty_10_tracked_exhausted_events(ql, events):
    """RTY-10: tracked exhausted retry -> only ql:failed jid."""
    ql.running(retries=0)
    ql.track()
    with events() as ev:
        ql.retry("jid", 0, "queue", "worker", 0, "group", "message")
    assert ev == [("ql:failed", "jid")]


def test_rty_10_non_exhausting_retry_silent(ql, events):
    """§9.3: a non-exhausting retry publishes nothing even when tracked."""
    ql.running()
    ql.track()
    with events() as ev:
        ql.retry()
    assert ev == []


def test_rty_11_removed_from_worker(ql):
    """RTY-11: retry removes the job from the worker."""
    ql.running()
    ql.retry()
    assert ql.workers(3600, "worker") == {"jobs": {}, "stalled": {}}


def test_rty_12_stats(ql):
    """RTY-12: exhausted retry at 3 -> failed 1, failures 1."""
    ql.running(retries=0, pop_at=1)
    ql.retry("jid", 3)
    stats = ql.stats()
    assert (stats["failed"], stats["failures"]) == (1, 1)


def test_rty_12_non_exhausting_retry_no_stats(ql, r):
    """§8.1: retries that do not exhaust change no counter."""
    ql.running()
    ql.retry()
    assert r.exists("ql:s:stats:0:queue") == 0


def test_rty_13_cancel_exhausted(ql):
    """RTY-13: a job failed via exhausted retry can be canceled."""
    ql.running(retries=0)
    ql.retry()
    assert ql("cancel", 0, "jid") == ["jid"]
    assert ql.get() is None
    assert ql("failed", 0) == "{}"


def test_rty_9_retry_clears_grace(ql, r):
    """§5.10 step 1: retry deletes `grace`, so the next lock loss gets a notice again."""
    ql.running()
    assert ql.pop(now=60, worker="another") == {}   # notice, grace = 1
    assert r.hget("ql:j:jid", "grace") == "1"
    assert ql.retry("jid", 65) == 4
    assert r.hexists("ql:j:jid", "grace") == 0
    assert ql.pop(now=66)[0]["expires"] == 126
    assert ql.pop(now=126, worker="another") == {}  # notice, not hand-out
