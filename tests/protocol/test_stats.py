"""§8 statistics and §5.28 stats (STA-*)."""
import math

import pytest


@pytest.mark.parametrize("args", [[], ["queue"], ["queue", "foo"]])
def test_sta_1_malformed(ql, r, args):
    """STA-1: stats 0 / stats 0 queue / stats 0 queue foo -> err."""
    ql.err("stats", 0, *args)
    assert r.dbsize() == 0


def test_sta_2_empty(ql):
    """STA-2: empty -> counts 0; exact shape."""
    zero = {"count": 0, "mean": 0, "std": 0, "histogram": [0] * 148}
    assert ql.stats() == {"retries": 0, "failed": 0, "failures": 0, "wait": zero, "run": zero}


def _check_dist(stat):
    assert stat["count"] == 20
    assert stat["mean"] == pytest.approx(9.5)
    assert stat["std"] == pytest.approx(5.916079783099, rel=1e-9)
    assert stat["histogram"][:20] == [1] * 20
    assert sum(stat["histogram"]) == 20


def test_sta_3_wait(ql):
    """STA-3: 20 jobs put at 0, popped at 0..19 -> wait distribution."""
    for i in range(20):
        ql.put(str(i))
    for t in range(20):
        ql.pop(now=t)
    _check_dist(ql.stats()["wait"])
    assert ql.stats()["run"]["count"] == 0


def test_sta_4_run(ql):
    """STA-4: 20 jobs put+popped at 0, completed at 0..19 -> run distribution."""
    for i in range(20):
        ql.put(str(i))
    popped = [j["jid"] for j in ql.pop(count=20)]
    for t, jid in enumerate(popped):
        ql.complete(jid, now=t)
    stats = ql.stats()
    _check_dist(stats["run"])
    assert stats["wait"]["count"] == 20 and stats["wait"]["mean"] == 0


def test_sta_5_fail_and_reput(ql):
    """STA-5: fail -> failed 1, failures 1; re-put -> failed 0, failures 1."""
    ql.failed()
    s = ql.stats()
    assert (s["failed"], s["failures"]) == (1, 1)
    ql.put()
    s = ql.stats()
    assert (s["failed"], s["failures"]) == (0, 1)


def test_sta_6_fail_and_cancel(ql):
    """STA-6: fail then cancel -> failed 0, failures 1."""
    ql.failed()
    ql("cancel", 0, "jid")
    s = ql.stats()
    assert (s["failed"], s["failures"]) == (0, 1)


def test_sta_7_retries_counter(ql):
    """STA-7: heartbeat -10; put, pop -> retries 0; second pop -> retries 1."""
    ql.config("heartbeat", -10)
    ql.put()
    ql.pop()
    assert ql.stats()["retries"] == 0
    ql.pop()
    assert ql.stats()["retries"] == 1


def test_sta_8_cross_day(ql, r):
    """STA-8: fail at 0, re-put at 129600 -> failed 0 on both days."""
    ql.failed()
    ql.put(now=129600)
    assert ql.stats(date=0)["failed"] == 0
    assert ql.stats(date=129600)["failed"] == 0
    assert ql.stats(date=0)["failures"] == 1


def test_sta_9_retry_exhausted(ql):
    """STA-9: retries 0, pop 1, retry 3 -> failed 1, failures 1."""
    ql.running(pop_at=1, retries=0)
    ql.retry("jid", 3)
    s = ql.stats()
    assert (s["failed"], s["failures"]) == (1, 1)


def test_sta_10_lock_exhausted(ql):
    """STA-10: heartbeat -10, grace 0, retries 0; pop 1, pop 2 -> failed 1, failures 1."""
    ql.config("heartbeat", -10)
    ql.config("grace-period", 0)
    ql.put(retries=0)
    ql.pop(now=1)
    ql.pop(now=2)
    s = ql.stats()
    assert (s["failed"], s["failures"], s["retries"]) == (1, 1, 1)


def test_sta_11_histogram_buckets(ql):
    """STA-11 / §8.3: 148 entries; s/m/h/d bucket placement."""
    waits = [0, 59, 60, 119, 3599, 3600, 86399, 86400, 6 * 86400, 7 * 86400]
    for i, w in enumerate(waits):
        ql.put(str(i), now=-w)
        ql.pop(now=0)   # each pop at day 0 records wait w
    h = ql.stats()["wait"]["histogram"]
    assert len(h) == 148
    expected = [0] * 148
    for idx in (0, 59, 60, 60, 60 + 58, 119, 119 + 22, 142, 147):
        expected[idx] += 1
    assert h == expected
    assert ql.stats()["wait"]["count"] == 10


def test_sta_day_binning(ql, r):
    """§8: stats keys are per day bin(now); `stats` reads bin(date)."""
    ql.put(now=86400 + 10)
    ql.pop(now=86400 + 15)
    assert r.hget("ql:s:wait:86400:queue", "total") == "1"
    assert ql.stats(date=86400 * 2 - 1)["wait"]["count"] == 1
    assert ql.stats(date=0)["wait"]["count"] == 0


def test_sta_negative_day(ql, r):
    """§ notation: bin(-5) = -86400."""
    ql.put(now=-10)
    ql.pop(now=-5)
    assert r.hget("ql:s:wait:-86400:queue", "total") == "1"
    assert ql.stats(date=-1)["wait"]["mean"] == 5


def test_sta_wait_of_recurring_instance(ql):
    """§8.1: an instance's wait is measured from its nominal due time."""
    ql.recur()
    ql.pop(now=30)
    wait = ql.stats()["wait"]
    assert (wait["count"], wait["mean"]) == (1, 30)


def test_sta_wait_after_advance(ql):
    """§8.1: complete sets `time`, so the next wait counts from the completion."""
    ql.running()
    ql.complete(now=10, next="q2")
    ql.pop(now=25, queue="q2")
    wait = ql.stats(queue="q2")["wait"]
    assert (wait["count"], wait["mean"]) == (1, 15)
    run = ql.stats()["run"]
    assert (run["count"], run["mean"]) == (1, 10)
