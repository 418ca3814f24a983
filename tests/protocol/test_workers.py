"""§5.26 workers, §5.27 worker.deregister, §12.2 (WRK-*)."""
import pytest

from helpers import as_list


def test_wrk_1_listing(ql):
    """WRK-1 (grace 0): popped at 1 -> worker detail and list."""
    ql.config("grace-period", 0)
    ql.running(pop_at=1)
    assert ql("workers", 2, "worker") in ('{"jobs":["jid"],"stalled":{}}',
                                          '{"stalled":{},"jobs":["jid"]}')
    assert ql.workers(2) == [{"name": "worker", "jobs": 1, "stalled": 0}]


def test_wrk_1_activity_order(ql):
    """§5.26: list ordered most recent activity first."""
    for t, w in ((1, "a"), (3, "b"), (2, "c")):
        ql.pop(now=t, worker=w)
    assert [w["name"] for w in ql.workers(5)] == ["b", "c", "a"]


def test_wrk_2_forgotten(ql, r):
    """WRK-2: max-worker-age 10; pop at 1 (no jobs) -> workers 15 = {}."""
    ql.config("max-worker-age", 10)
    ql.pop(now=1)
    assert ql("workers", 15) == "{}"
    assert r.exists("ql:workers") == 0


def test_wrk_3_heartbeat_keeps(ql):
    """WRK-3: max-worker-age 10; pop 1, heartbeat 10 -> listed at 15 with jobs 1."""
    ql.config("max-worker-age", 10)
    ql.running(pop_at=1)
    ql.heartbeat("jid", 10)
    assert ql.workers(15) == [{"name": "worker", "jobs": 1, "stalled": 0}]


def test_wrk_4_stalled_after_expiry(ql):
    """WRK-4: lock expired, peek at expires+10 -> jobs {}, stalled [jid]."""
    ql.running()
    ql.peek(now=70)
    assert ql.workers(70, "worker") == {"jobs": {}, "stalled": ["jid"]}
    assert ql.workers(70) == [{"name": "worker", "jobs": 0, "stalled": 1}]


def test_wrk_5_handed_to_another(ql):
    """WRK-5: job handed to another after expiry -> original worker empty."""
    ql.config("grace-period", 0)
    ql.running()
    ql.pop(now=70, worker="another")
    assert ql.workers(70, "worker") == {"jobs": {}, "stalled": {}}
    assert ql.workers(70, "another") == {"jobs": ["jid"], "stalled": {}}


@pytest.mark.parametrize("action", [
    lambda ql: ql("cancel", 1, "jid"),
    lambda ql: ql.fail("jid", 1),
    lambda ql: ql.complete("jid", 1),
    lambda ql: ql.put("jid", 1),
], ids=["cancel", "fail", "complete", "put"])
def test_wrk_6_job_leaves_worker(ql, action):
    """WRK-6: cancel/fail/complete/re-put -> worker shows no jobs."""
    ql.running()
    action(ql)
    assert ql.workers(2, "worker") == {"jobs": {}, "stalled": {}}
    assert ql.workers(2) == [{"name": "worker", "jobs": 0, "stalled": 0}]


def test_wrk_7_deregister(ql, r):
    """WRK-7: 10 workers; worker.deregister removes each."""
    names = ["w%d" % i for i in range(10)]
    for n in names:
        ql.pop(now=1, worker=n)
    for n in names:
        assert ql("worker.deregister", 2, n) is None
        assert n not in [w["name"] for w in as_list(ql.workers(2))]
    assert ql("workers", 2) == "{}"
    ql.err("worker.deregister", 2)


def test_wrk_7_deregister_keeps_jobs_key(ql, r):
    """§5.27: ql:w:<w>:jobs is not deleted."""
    ql.running()
    ql("worker.deregister", 0, "worker")
    assert r.zscore("ql:w:worker:jobs", "jid") == 60


def test_wrk_8_age_boundary(ql):
    """WRK-8: max-worker-age 3600, last seen 0 -> workers 3600 = {}."""
    ql.config("max-worker-age", 3600)
    ql.pop(now=0)
    assert ql.workers(3599) == [{"name": "worker", "jobs": 0, "stalled": 0}]
    assert ql("workers", 3600) == "{}"


def test_wrk_9_unknown(ql):
    """WRK-9: unknown worker -> {"jobs":{},"stalled":{}}."""
    assert ql.workers(0, "nobody") == {"jobs": {}, "stalled": {}}


def test_wrk_10_retried(ql):
    """WRK-10: retried job removed from the worker's lists."""
    ql.running()
    ql.retry()
    assert ql.workers(1, "worker") == {"jobs": {}, "stalled": {}}
    assert ql.workers(1) == [{"name": "worker", "jobs": 0, "stalled": 0}]
