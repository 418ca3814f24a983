"""§5.6 pop (POP-*)."""
import pytest

from helpers import digest, fresh_job, jids


@pytest.mark.parametrize("args", [[], ["queue"], ["queue", "worker"],
                                  ["queue", "worker", "number"]])
def test_pop_1_malformed(ql, r, args):
    """POP-1: malformed pop -> err, nothing written."""
    ql.err("pop", 12345, *args)
    assert r.dbsize() == 0


def test_pop_2_empty(ql):
    """POP-2: empty queue -> {}."""
    assert ql("pop", 0, "queue", "worker", 10) == "{}"


def test_pop_3_full_object(ql, r):
    """POP-3: put at 0, pop 1 -> running, expires 61, history put@0 popped@1."""
    ql.put()
    job = ql.pop(now=1)
    expected = fresh_job(state="running", worker="worker", expires=61,
                         history=[{"q": "queue", "what": "put", "when": 0},
                                  {"what": "popped", "when": 1, "worker": "worker"}])
    assert job == [expected]
    assert ql.get() == expected
    assert r.zscore("ql:q:queue-locks", "jid") == 61
    assert r.zscore("ql:w:worker:jobs", "jid") == 61
    assert r.zscore("ql:q:queue-work", "jid") is None
    assert r.zscore("ql:workers", "worker") == 1


def test_pop_4_batches(ql):
    """POP-4: 10 jobs at 0..9; pop 7 -> 0..6; next pop -> 7..9."""
    for t in range(10):
        ql.put(str(t), now=t)
    assert jids(ql.pop(now=100, count=7)) == [str(t) for t in range(7)]
    assert jids(ql.pop(now=100, count=7)) == ["7", "8", "9"]
    assert ql.pop(now=100, count=7) == {}


def test_pop_5_priority_order(ql):
    """POP-5: priorities 9..-10 pop in priority order."""
    for p in range(-10, 10):
        ql.put(str(p), priority=p)
    assert jids(ql.pop(count=100)) == [str(p) for p in range(9, -11, -1)]


def test_pop_5_time_order(ql):
    """POP-5: jobs put at 0..99 pop oldest first."""
    for t in range(100):
        ql.put(str(t), now=t)
    assert jids(ql.pop(now=100, count=100)) == [str(t) for t in range(100)]


def test_pop_5_equal_scores_by_descending_jid(ql):
    """§2.3: exact score ties come out in descending jid byte order."""
    for jid in ("a", "c", "b"):
        ql.put(jid)
    assert jids(ql.pop(count=3)) == ["c", "b", "a"]


def test_pop_5_fractional_negative_priority(ql):
    """§2.3: priorities may be negative or fractional."""
    ql.put("a", priority=-0.5)
    ql.put("b", priority=0.25, now=5)
    ql.put("c", priority=0.25, now=1)
    assert jids(ql.pop(now=6, count=3)) == ["c", "b", "a"]


def test_pop_6_moved_job(ql):
    """POP-6: moved job pops only from the new queue."""
    ql.put()
    ql.put(queue="other")
    assert ql.pop() == {}
    assert jids(ql.pop(queue="other")) == ["jid"]


def test_pop_7_concurrency_cap(ql):
    """POP-7: queue-max-concurrency 5: pop 10 -> 5; each complete frees one slot."""
    ql.config("queue-max-concurrency", 5)
    for i in range(10):
        ql.put(str(i), now=i)
    popped = jids(ql.pop(now=10, count=10))
    assert popped == [str(i) for i in range(5)]
    assert ql.pop(now=10, count=10) == {}
    assert ql.queues(10, "queue")["running"] == 5


def test_pop_7_each_completion_one_more(ql):
    """POP-7: with the cap reached, every completion allows exactly one pop."""
    ql.config("queue-max-concurrency", 5)
    for i in range(10):
        ql.put(str(i), now=i)
    running = jids(ql.pop(now=10, count=10))
    for _ in range(5):
        ql.complete(running.pop(0), now=10)
        got = jids(ql.pop(now=10, count=10))
        assert len(got) == 1
        running += got
    assert ql.pop(now=10, count=10) == {}


def test_pop_8_cap_lowered(ql):
    """POP-8: 10 running, cap lowered to 5 -> no pops until running < 5."""
    for i in range(20):
        ql.put(str(i), now=i)
    running = jids(ql.pop(now=20, count=10))
    assert len(running) == 10
    ql.config("queue-max-concurrency", 5)
    for _ in range(5):
        ql.complete(running.pop(0), now=20)
        assert ql.pop(now=20, count=10) == {}
    ql.complete(running.pop(0), now=20)
    assert len(jids(ql.pop(now=20, count=10))) == 1
    # running is 5 again
    assert ql.pop(now=20, count=10) == {}


def test_pop_9_cap_and_expired_lock(ql):
    """POP-9: cap 1, grace 0: pop at expires+10 re-hands the same job, remaining 4."""
    ql.config("queue-max-concurrency", 1)
    ql.config("grace-period", 0)
    ql.put("jid", now=0)
    ql.put("other", now=1)
    ql.pop(now=0)
    assert ql.pop(now=30) == {}
    job = ql.pop(now=70, worker="another")
    assert jids(job) == ["jid"]
    assert job[0]["remaining"] == 4 and job[0]["worker"] == "another"


def test_pop_10_cap_and_fail(ql):
    """POP-10: cap 1: failing the running job frees the slot."""
    ql.config("queue-max-concurrency", 1)
    ql.put("a", now=0)
    ql.put("b", now=1)
    assert jids(ql.pop(now=2, count=5)) == ["a"]
    assert ql.pop(now=2, count=5) == {}
    ql.fail("a", 3)
    assert jids(ql.pop(now=4, count=5)) == ["b"]


def test_pop_11_pause(ql, r):
    """POP-11: paused queue -> {}; queues shows paused, waiting 10; unpause -> 10."""
    for i in range(10):
        ql.put(str(i), now=i)
    assert ql("pause", 0, "queue") is None
    assert ql.pop(now=10, count=100) == {}
    counts = ql.queues(10, "queue")
    assert counts["paused"] is True and counts["waiting"] == 10
    assert ql("unpause", 0, "queue") is None
    assert ql.queues(10, "queue")["paused"] is False
    assert len(jids(ql.pop(now=10, count=100))) == 10


def test_pop_12_tracked_event(ql, events):
    """POP-12: tracked job popped -> ql:popped jid (only that)."""
    ql.put()
    ql.put("untracked")
    ql.track()
    with events() as ev:
        ql.pop(count=2)
    assert ev == [("ql:popped", "jid")]


def test_pop_13_registers_worker(ql):
    """POP-13: pop registers the worker even with no job; a paused pop does not."""
    assert ql.pop(now=1, worker="idle") == {}
    assert ql.workers(2) == [{"name": "idle", "jobs": 0, "stalled": 0}]
    ql("pause", 0, "queue")
    ql.pop(now=1, worker="paused")
    assert [w["name"] for w in ql.workers(2)] == ["idle"]


def test_pop_14_queue_heartbeat(ql):
    """POP-14: <queue>-heartbeat overrides heartbeat."""
    ql.config("heartbeat", 30)
    ql.put("a")
    assert ql.pop(now=1)[0]["expires"] == 31
    ql.config("queue-heartbeat", 7)
    ql.put("b")
    assert ql.pop(now=1)[0]["expires"] == 8
    ql.put("c", queue="other")
    assert ql.pop(now=1, queue="other")[0]["expires"] == 31


def test_pop_15_timed_out_first(ql):
    """POP-15: a timed-out job pops before higher-priority waiting jobs."""
    ql.running("slow")
    ql.put("urgent", priority=100)
    ql("timeout", 1, "slow")
    assert jids(ql.pop(now=2, worker="another", count=1)) == ["slow"]
    assert jids(ql.pop(now=2, count=1)) == ["urgent"]


def test_pop_count_zero(ql, r):
    """§5.6 step 8: count 0 -> {} (worker still registered)."""
    ql.put()
    assert ql.pop(count=0) == {}
    assert ql.state() == "waiting"


def test_pop_wait_time_uses_put_time(ql, r):
    """§5.6 step 9: time field becomes the pop time."""
    ql.put(now=3)
    ql.pop(now=10)
    assert float(r.hget("ql:j:jid", "time")) == 10


@pytest.mark.parametrize("kind", ["work", "locks", "scheduled", "recur"])
def test_pop_from_foreign_queue_key_writes_nothing(ql, r, events, kind):
    """A queue key held by another program (a string where qless keeps a
    sorted set): pop refuses with Redis's WRONGTYPE before writing anything
    (it used to register the worker in ql:workers first). With due
    scheduled and recurring jobs, a foreign work set refuses too."""
    if kind == "work":
        ql.put("later", delay=1)
        ql.recur("r", interval=1)
    r.set("ql:q:queue-" + kind, "another program's value")
    before = digest(r)
    with events() as ev:
        msg = ql.err("pop", 10, "queue", "worker", 5)
    assert msg.startswith("WRONGTYPE"), msg
    assert digest(r) == before
    assert ev == []


@pytest.mark.parametrize("kind", ["work", "scheduled", "recur", "cron"])
@pytest.mark.parametrize("path", ["expired lock", "due template"])
def test_pop_reaping_or_spawning_with_foreign_key_writes_nothing(ql, r, events, kind, path):
    """Expired locks and due recurring templates are written before pop reads
    the queue's later sets: a foreign key among those refuses the pop with
    nothing written either."""
    if path == "expired lock":
        ql.running("stalled", put_at=0, pop_at=0)   # its lock expired long before 1000
    else:
        ql.recur("r", interval=1)                    # due since 0
    if kind == "recur" and path == "due template":
        kind = "cron"   # the template set itself is read first
    r.set("ql:q:queue-" + kind, "another program's value")
    before = digest(r)
    with events() as ev:
        msg = ql.err("pop", 1000, "queue", "worker2", 5)
    assert msg.startswith("WRONGTYPE"), msg
    assert digest(r) == before
    assert ev == []
