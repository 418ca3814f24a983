"""§5.19 jobs (JOB-*)."""
import pytest

JOB_1 = [["complete", "foo"], ["complete", "0", "foo"], ["foo", "queue", "0", "25"], []]
for state in ("running", "stalled", "scheduled", "depends", "recurring"):
    JOB_1 += [[state], [state, "queue", "foo"], [state, "queue", "0", "foo"]]


@pytest.mark.parametrize("args", JOB_1, ids=lambda a: " ".join(a) or "none")
def test_job_1_malformed(ql, r, args):
    """JOB-1: malformed jobs -> err."""
    ql.err("jobs", 0, *args)
    assert r.dbsize() == 0


def test_job_1_unknown_state_message(ql):
    """§5.19: unknown state -> Unknown type."""
    assert "foo" in ql.err("jobs", 0, "foo", "queue")


def test_job_2_complete(ql):
    """JOB-2: completed at 0..n -> n+1 entries, newest first."""
    for i in range(5):
        ql.running(str(i), put_at=i, pop_at=i)
        ql.complete(str(i), now=i)
        listing = ql("jobs", 0, "complete")
        assert len(listing) == i + 1 and listing[0] == str(i)
    assert ql("jobs", 0, "complete") == ["4", "3", "2", "1", "0"]


def test_job_3_running(ql):
    """JOB-3: popped at 0..n -> running list grows, last = newest."""
    for i in range(5):
        ql.running(str(i), put_at=i, pop_at=i)
        listing = ql("jobs", i, "running", "queue")
        assert len(listing) == i + 1 and listing[-1] == str(i)
    assert ql("jobs", 0, "running", "other") == []


def test_job_4_stalled(ql):
    """JOB-4: heartbeat 10; popped at t -> jobs (t+20) stalled includes it last."""
    ql.config("heartbeat", 10)
    for t in range(5):
        ql.running(str(t), put_at=t, pop_at=t)
        listing = ql("jobs", t + 20, "stalled", "queue")
        assert listing[-1] == str(t)
    assert ql("jobs", 30, "stalled", "queue") == ["0", "1", "2", "3", "4"]
    assert ql("jobs", 12, "running", "queue") == ["2", "3", "4"]  # inclusive bound
    assert ql("jobs", 12.5, "running", "queue") == ["3", "4"]


def test_job_5_scheduled(ql):
    """JOB-5: delays 1..10 -> scheduled list grows, last = newest."""
    for d in range(1, 11):
        ql.put(str(d), delay=d)
        listing = ql("jobs", 0, "scheduled", "queue")
        assert len(listing) == d and listing[-1] == str(d)


def test_job_6_depends(ql):
    """JOB-6: jobs depending on a -> depends list grows, last = newest."""
    ql.put("a")
    for i in range(5):
        ql.put(str(i), now=i, depends=["a"])
        listing = ql("jobs", 0, "depends", "queue")
        assert len(listing) == i + 1 and listing[-1] == str(i)


@pytest.mark.parametrize("offset", [0, 10])
def test_job_7_recurring(ql, offset):
    """JOB-7: templates recur'ed at 0..9 -> recurring list grows, last = newest."""
    for i in range(10):
        ql.recur(str(i), now=i, offset=offset)
        listing = ql("jobs", 0, "recurring", "queue")
        assert len(listing) == i + 1 and listing[-1] == str(i)


def test_job_8_scheduled_promoted(ql):
    """JOB-8: delay 10 -> jobs 20 scheduled is empty (promoted)."""
    ql.put(delay=10)
    assert ql("jobs", 20, "scheduled", "queue") == []
    assert ql.state() == "waiting"


def test_job_9_complete_paging(ql):
    """JOB-9: 100 completed -> 0 50 = 99..50, 50 50 = 49..0."""
    for i in range(100):
        ql.running(str(i), put_at=i, pop_at=i)
        ql.complete(str(i), now=i)
    assert ql("jobs", 0, "complete", 0, 50) == [str(i) for i in range(99, 49, -1)]
    assert ql("jobs", 0, "complete", 50, 50) == [str(i) for i in range(49, -1, -1)]
    assert len(ql("jobs", 0, "complete")) == 25


def test_job_10_running_paging(ql):
    """JOB-10: 100 running (heartbeat 1000) -> pages by lock expiry."""
    ql.config("heartbeat", 1000)
    for i in range(100):
        ql.running(str(i), put_at=i, pop_at=i)
    assert ql("jobs", 100, "running", "queue", 0, 50) == [str(i) for i in range(50)]
    assert ql("jobs", 100, "running", "queue", 50, 50) == [str(i) for i in range(50, 100)]
