"""Which Redis commands the hot paths make (issue 26): a pop or complete in
a database without options, templates or scheduled jobs skips the reads
that would find nothing, and still reads them when they are there."""
import pytest


def nested(r, call):
    """Calls of each Redis command made while `call()` runs (INFO
    commandstats, the script's own FCALL/EVALSHA left out)."""
    r.config_resetstat()
    call()
    stats = r.info("commandstats")
    return {k[len("cmdstat_"):]: v["calls"] for k, v in stats.items()
            if k[len("cmdstat_"):] not in ("fcall", "evalsha", "config|resetstat")}


def test_pop_reads_no_absent_set_nor_absent_config(ql, r):
    ql.put()
    calls = nested(r, lambda: ql.pop(1))
    # The expired locks only: no -recur, -cron or -scheduled read, no HGETALL.
    assert calls.get("zrangebyscore") == 1, calls
    assert "hgetall" not in calls, calls
    assert calls.get("exists", 0) >= 1


def test_pop_still_reads_what_is_there(ql, r):
    ql.config("queue-heartbeat", 7)
    ql.put("s", delay=5)
    ql.recur("tpl", 0, interval=100)
    ql.put("a")
    calls = nested(r, lambda: ql.pop(10, count=3))
    assert calls.get("hgetall") == 1, calls
    # Expired locks, interval and cron templates (one EXISTS says the
    # queue has templates), scheduled jobs.
    assert calls.get("zrangebyscore") == 4, calls
    jobs = ql("jobs", 10, "running", "queue")
    assert sorted(jobs) == ["a", "s", "tpl-1"]
    assert ql.get("a")["expires"] == 17


def test_complete_reads_no_absent_config(ql, r):
    ql.running()
    calls = nested(r, lambda: ql.complete(now=2))
    assert "hgetall" not in calls, calls
    assert ql.get()["state"] == "complete"


@pytest.mark.parametrize("option, value", [("jobs-history-count", 0), ("max-job-history", 1)])
def test_complete_still_applies_stored_options(ql, r, option, value):
    ql.config(option, value)
    ql.running()
    calls = nested(r, lambda: ql.complete(now=2))
    assert calls.get("hgetall") == 1, calls
    if option == "jobs-history-count":
        assert ql.get() is None
    else:
        # The literal rule of §3.3 for 1: the first entry, then the new one.
        assert [h["what"] for h in ql.get()["history"]] == ["put", "done"]
