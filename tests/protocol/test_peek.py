"""§5.7 peek (PEEK-*)."""
import pytest

from helpers import fresh_job, jids


@pytest.mark.parametrize("args", [[], ["foo"], ["foo", "number"]])
def test_peek_1_malformed(ql, r, args):
    """PEEK-1: peek 12345 / peek 12345 foo / peek 12345 foo number -> err."""
    ql.err("peek", 12345, *args)
    assert r.dbsize() == 0


def test_peek_2_empty(ql):
    """PEEK-2: empty queue -> {} (the JSON text `{}`)."""
    assert ql("peek", 0, "queue", 10) == "{}"


def test_peek_3_one_job(ql):
    """PEEK-3: full job object of the waiting job."""
    ql.put()
    assert ql.peek() == [fresh_job()]


def test_peek_4_time_order(ql):
    """PEEK-4: put at 0 and 2 -> [jid, jid2]."""
    ql.put("jid", now=0)
    ql.put("jid2", now=2)
    assert jids(ql.peek(now=3, count=10)) == ["jid", "jid2"]


def test_peek_5_priority_order(ql):
    """PEEK-5: priorities -10..9 at the same time -> 9..-10."""
    for p in range(-10, 10):
        ql.put(str(p), priority=p)
    assert jids(ql.peek(count=100)) == [str(p) for p in range(9, -11, -1)]


def test_peek_6_age_order(ql):
    """PEEK-6: 100 jobs put at 0..99 -> 0..99."""
    for t in range(100):
        ql.put(str(t), now=t)
    assert jids(ql.peek(now=100, count=100)) == [str(t) for t in range(100)]


def test_peek_count_limits(ql):
    """§5.7: at most `count` jobs; count 0 -> {}."""
    for t in range(5):
        ql.put(str(t), now=t)
    assert jids(ql.peek(now=9, count=3)) == ["0", "1", "2"]
    assert ql.peek(now=9, count=0) == {}


def test_peek_7_moved_job(ql):
    """PEEK-7: a moved job is visible only in the new queue."""
    ql.put()
    ql.put(queue="other")
    assert ql.peek(queue="queue") == {}
    assert jids(ql.peek(queue="other")) == ["jid"]


def test_peek_8_spawns_recurring(ql):
    """PEEK-8: recur interval 10 at 0 -> peek 99 returns 10 instances."""
    ql.recur(interval=10)
    assert jids(ql.peek(now=99, count=100)) == ["jid-%d" % i for i in range(1, 11)]


def test_peek_9_priority_command_reorders(ql):
    """PEEK-9: a(0), b(1) -> [b, a]; priority a 2 -> [a, b]."""
    ql.put("a", priority=0)
    ql.put("b", priority=1)
    assert jids(ql.peek(count=10)) == ["b", "a"]
    assert ql("priority", 0, "a", 2) == 2
    assert jids(ql.peek(count=10)) == ["a", "b"]


def test_peek_10_no_state_change(ql, r, events):
    """PEEK-10: peek changes nothing, registers no worker, publishes nothing."""
    ql.put()
    ql.track()
    with events() as ev:
        job = ql.peek()[0]
    assert ev == []
    assert job["state"] == "waiting"
    assert ql.get()["history"] == [{"q": "queue", "what": "put", "when": 0}]
    assert r.exists("ql:workers") == 0


def test_peek_11_promotes_scheduled(ql):
    """PEEK-11: peek after the scheduled time returns the job, now waiting."""
    ql.put(delay=10)
    assert ql.peek(now=5) == {}
    assert ql.state() == "scheduled"
    assert jids(ql.peek(now=10)) == ["jid"]
    assert ql.state() == "waiting"


def test_peek_ignores_pause(ql):
    """§5.7: peek ignores pause."""
    ql.put()
    ql("pause", 0, "queue")
    assert jids(ql.peek()) == ["jid"]


def test_peek_lists_expired_locks_first(ql):
    """§5.7 step 1: expired locks come first and are not modified."""
    ql.running("old")
    ql.put("new", priority=100)
    peeked = ql.peek(now=61, count=5)
    assert jids(peeked) == ["old", "new"]
    assert peeked[0]["state"] == "running" and peeked[0]["worker"] == "worker"
    assert ql.get("old")["history"][-1]["what"] == "popped"
