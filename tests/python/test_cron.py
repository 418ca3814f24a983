"""Cron templates and due times from Python (schedules.md §6.1 cron_next,
§6.3): the TimeList the object model returns, Recur's cron members and
Queue.recur(cron=)."""
import time

import pytest

import qless

N = 1772619330   # 2026-03-04T10:15:30Z, a Wednesday
WEEKDAYS_9AM = [1772701200, 1772787600, 1773046800]   # RNX-2


@pytest.fixture
def at_n(client):
    """The client's clock moved to N (the server computes from the time sent)."""
    client.set_time_offset(N - time.time())
    return client


def test_cron_next_is_rnx2(at_n):
    assert at_n.cron_next("0 9 * * 1-5", 3) == WEEKDAYS_9AM
    assert at_n.cron_next("0 9 * * mon-fri", 1) == WEEKDAYS_9AM[:1]


def test_cron_next_errors(at_n):
    with pytest.raises(qless.InvalidArgument, match="hour field: value 24 out of range 0-23"):
        at_n.cron_next("0 24 * * *", 1)
    with pytest.raises(qless.InvalidArgument, match='count'):
        at_n.cron_next("0 9 * * *", 0)
    with pytest.raises(qless.InvalidArgument, match="never fires"):
        at_n.cron_next("0 0 31 2 *", 1)


def test_cron_template_reads_and_converts(at_n, r):
    queue = at_n.queues["crons"]
    jid = queue.recur("Report", {"r": 1}, cron="0 9 * * mon-fri", unique=True)
    assert jid == qless.unique_jid("crons", "Report", {"r": 1}, cron="0 9 * * 1-5")
    assert queue.recur("Report", {"r": 1}, cron="0 9 * * MON-FRI", unique=True) == jid
    recur = at_n.recurring[jid]
    assert (recur.cron, recur.interval) == ("0 9 * * MON-FRI", 0)
    assert recur.next(3) == WEEKDAYS_9AM
    assert "cron 0 9 * * MON-FRI" in repr(recur)
    recur.cron = "0 6 * * *"
    assert at_n.recurring[jid].next(2) == [1772690400, 1772776800]
    recur.interval = 60
    assert (recur.cron, at_n.recurring[jid].cron, recur.interval) == (None, None, 60)
    assert r.hget("ql:r:" + jid, "type") == "interval"


def test_interval_template_has_no_cron_and_a_next(at_n):
    jid = at_n.queues["crons"].recur("Ping", interval=60, offset=10)
    recur = at_n.recurring[jid]
    assert recur.cron is None
    assert [round(t - recur.next(1)[0]) for t in recur.next(3)] == [0, 60, 120]


def test_bad_cron_template_writes_nothing(at_n, r):
    with pytest.raises(qless.InvalidArgument, match="day-of-week field"):
        at_n.queues["crons"].recur("K", cron="0 9 * * 8")
    with pytest.raises(qless.InvalidArgument, match="never fires"):
        at_n.queues["crons"].recur("K", cron="0 0 31 2 *")
    assert r.keys("ql:r:*") == [] and at_n.queues["crons"].recurring() == []
