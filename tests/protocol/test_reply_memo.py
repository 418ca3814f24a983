"""Job objects of one batch of calls (issue 26): the library keeps what it
encoded for one reply (klass, queue, tags, history entries) for the next
calls, and each reply must still be that job's own object."""
from helpers import fresh_job

LONG = '{"text":"%s"}' % ("x" * 300)


def popped(jid, when, worker="worker", put=0, **fields):
    job = fresh_job(jid, state="running", worker=worker, expires=when + 60, **fields)
    job["history"] = [{"q": "queue", "what": "put", "when": put},
                      {"worker": worker, "what": "popped", "when": when}]
    return job


def test_pops_of_one_in_a_row_each_reply_its_own_job(ql):
    """Pops of 1 at one `now`, each job with other klass, tags, data,
    priority, retries, tracking and history: every reply is the job's own."""
    ql.put("a", klass="K1", data='{"n":1}', tags=["x"])
    ql.put("b", klass="K2", data=LONG, tags=["y", "z"], priority=-1, retries=2)
    ql.put("c", klass="K1", data='{"n":1}', tags=["x"], priority=-2)
    ql.track("c")
    ql("log", 0, "b", "note", '{"k":"v"}')
    got = [ql.pop(5)[0], ql.pop(5)[0], ql.pop(5, worker="w2")[0]]
    assert got[0] == popped("a", 5, klass="K1", data='{"n":1}', tags=["x"])
    want_b = popped("b", 5, klass="K2", data=LONG, tags=["y", "z"], priority=-1, retries=2, remaining=2)
    want_b["history"].insert(1, {"k": "v", "what": "note", "when": 0})
    assert got[1] == want_b
    assert got[2] == popped("c", 5, worker="w2", klass="K1", data='{"n":1}', tags=["x"], priority=-2,
                            tracked=True)


def test_many_distinct_jobs_replies_stay_right(ql):
    """More distinct texts than the memo keeps (it starts afresh): replies
    of a long run of pops stay each job's own."""
    for i in range(300):
        ql.put("j%03d" % i, klass="K%d" % i, data='{"i":%d}' % i, tags=["t%d" % i], priority=-i)
    for i in range(300):
        job = ql.pop(7 + i // 10)[0]
        assert job == popped("j%03d" % i, 7 + i // 10, klass="K%d" % i, data='{"i":%d}' % i, tags=["t%d" % i],
                             priority=-i)


def test_jobs_differing_in_one_field_each_reply_its_own(ql):
    """Popped in a row at one `now`, jobs alike but for one field (klass,
    tags, data, retries or tracking) each get their own object."""
    # Put a second apart: older jobs pop first, a to f.
    ql.put("a", 0, klass="K1")
    ql.put("b", 1, klass="K2")
    ql.put("c", 2, klass="K2", tags=["t"])
    ql.put("d", 3, klass="K2", tags=["t"], data='{"d":1}')
    ql.put("e", 4, klass="K2", tags=["t"], data='{"d":1}', retries=3)
    ql.put("f", 5, klass="K2", tags=["t"], data='{"d":1}', retries=3)
    ql.track("f")
    want = [popped("a", 9, klass="K1"), popped("b", 9, put=1, klass="K2"),
            popped("c", 9, put=2, klass="K2", tags=["t"]),
            popped("d", 9, put=3, klass="K2", tags=["t"], data='{"d":1}'),
            popped("e", 9, put=4, klass="K2", tags=["t"], data='{"d":1}', retries=3, remaining=3),
            popped("f", 9, put=5, klass="K2", tags=["t"], data='{"d":1}', retries=3, remaining=3,
                   tracked=True)]
    assert [ql.pop(9)[0] for _ in want] == want
