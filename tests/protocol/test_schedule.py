"""schedules.md S5: schedule.list and schedule.remove, the protocol side of
the schedule facade. Cron templates are written as S1 stores them (hash with
type cron and a cron field, member of ql:q:<queue>-cron)."""
import json
import os
import random

import pytest

from helpers import digest


def cron_template(r, jid, queue="queue", next_at=3600, expr="0 * * * *", klass="klass", priority=0,
                  tags="{}"):
    r.hset("ql:r:" + jid, mapping={
        "jid": jid, "klass": klass, "data": "{}", "priority": priority, "tags": tags,
        "state": "recur", "queue": queue, "type": "cron", "cron": expr, "count": 0,
        "interval": 0, "retries": 0, "backlog": 0})
    r.zadd("ql:q:%s-cron" % queue, {jid: next_at})


CANCELED = '{"jid":"s","queue":"queue","event":"canceled","worker":""}'


def listing(ql, now=0, queue="queue", *paging):
    reply = ql.json("schedule.list", now, queue, *paging)
    return [] if reply == {} else reply


# ---- schedule.list ---------------------------------------------------------

def test_list_empty_queue(ql, r):
    assert ql("schedule.list", 0, "nothing") == "{}"
    assert r.dbsize() == 0


def test_list_entry_shapes(ql, r):
    """One entry of each kind with exactly its keys."""
    ql.recur("every", now=0, interval=90.5, offset=30, priority=2, tags=["a", "b"], klass="K1")
    cron_template(r, "crony", next_at=3600, expr="0 9 * * MON-FRI", klass="K2", priority=-1,
                  tags='["c"]')
    ql.put("later", now=0, delay=50, klass="K3", priority=5, tags=["t"])
    assert listing(ql) == [
        {"jid": "every", "klass": "K1", "kind": "interval", "interval": 90.5, "next": 30,
         "priority": 2, "tags": ["a", "b"]},
        {"jid": "crony", "klass": "K2", "kind": "cron", "cron": "0 9 * * MON-FRI", "next": 3600,
         "priority": -1, "tags": ["c"]},
        {"jid": "later", "klass": "K3", "kind": "at", "next": 50, "priority": 5, "tags": ["t"]}]
    # Empty tag lists are {} (P§0 R5), as everywhere in the protocol.
    ql.recur("bare", now=0, offset=5)
    assert '"tags":{}' in ql("schedule.list", 0, "queue", 0, 1)


def test_list_templates_first_then_jobs_by_time_then_jid_bytes(ql, r):
    """Templates (both sets merged) before jobs whatever the times; ties by
    jid compared as bytes ("B" < "a" < "b" < "é")."""
    for jid in ["b", "\u00e9", "a", "B"]:
        ql.put("job-" + jid, now=0, delay=5)
    ql.put("job-0", now=0, delay=1)
    ql.recur("b", now=0, offset=100)
    cron_template(r, "\u00e9", next_at=100)
    cron_template(r, "a", next_at=100)
    ql.recur("B", now=0, offset=100)
    ql.recur("z", now=0, offset=99)
    got = [e["jid"] for e in listing(ql)]
    assert got == ["z", "B", "a", "b", "\u00e9", "job-0", "job-B", "job-a", "job-b", "job-\u00e9"]


def test_list_only_pending_entries_of_that_queue(ql, r):
    ql.running("running")
    ql.put("waiting")
    ql.put("elsewhere", queue="other", delay=10)
    ql.recur("other-template", queue="other")
    cron_template(r, "other-cron", queue="other")
    ql.put("dep")
    ql.put("depends", delay=10, depends=["dep"])    # state depends, not scheduled
    ql.put("mine", delay=10)
    assert [e["jid"] for e in listing(ql)] == ["mine"]


def test_list_promotes_and_spawns_nothing(ql, r):
    ql.put("due", now=0, delay=10)
    ql.recur("tmpl", now=0)
    cron_template(r, "cron", next_at=0)
    before = digest(r)
    entries = listing(ql, 1000)
    assert [e["jid"] for e in entries] == ["cron", "tmpl", "due"]
    assert digest(r) == before
    assert ql.get("due")["state"] == "scheduled"


def test_list_skips_orphaned_template_members(ql, r):
    """S1: an older unrecur deletes the hash and leaves the -cron member."""
    cron_template(r, "gone")
    r.delete("ql:r:gone")
    ql.put("job", delay=5)
    assert [e["jid"] for e in listing(ql)] == ["job"]


def test_list_paging_defaults_and_bounds(ql, r):
    for i in range(3):
        ql.recur("t%d" % i, now=0, offset=i)
    for i in range(100):
        ql.put("j%03d" % i, now=0, delay=10)
    assert len(listing(ql)) == 100                      # default count 100
    assert [e["jid"] for e in listing(ql, 0, "queue", 2, 2)] == ["t2", "j000"]
    assert [e["jid"] for e in listing(ql, 0, "queue", 3, 1)] == ["j000"]
    assert [e["jid"] for e in listing(ql, 0, "queue", 101)] == ["j098", "j099"]
    assert listing(ql, 0, "queue", 103) == []
    assert len(listing(ql, 0, "queue", 0, 1000)) == 103


@pytest.mark.parametrize("args,name", [
    ([], "queue"), (["queue", "x"], "offset"), (["queue", "-1"], "offset"), (["queue", "1.5"], "offset"),
    (["queue", "inf"], "offset"), (["queue", "0", "0"], "count"), (["queue", "0", "1001"], "count"),
    (["queue", "0", "2.5"], "count"), (["queue", "0", "x"], "count"), (["queue", "0", "nan"], "count")])
def test_list_bad_arguments(ql, r, args, name):
    ql.put("j", delay=5)
    before = digest(r)
    assert 'Schedule.list(): Arg "%s"' % name in ql.err("schedule.list", 0, *args)
    assert digest(r) == before


def test_list_generative_order_and_pages(ql, r):
    """Seeded: random templates of both kinds and scheduled jobs with tied
    times; the listing is the model order (templates by time then jid
    bytes, then jobs the same way) and every page is its slice."""
    seed = int(os.environ.get("QLESS_FUZZ_SEED") or random.randrange(2 ** 32))
    rng = random.Random(seed)
    alphabet = ["a", "B", "b", "\u00e9", "0", "-", "\u00e9a", "ab"]
    for _ in range(4):
        r.flushall()
        templates, jobs = {}, {}
        for _ in range(rng.randrange(0, 15)):
            jid = "".join(rng.sample(alphabet, rng.randrange(1, 3)))
            at = rng.choice([0, 5, 5, 7])
            r.delete("ql:r:" + jid)
            r.zrem("ql:q:queue-recur", jid)
            r.zrem("ql:q:queue-cron", jid)
            if rng.random() < 0.5:
                cron_template(r, jid, next_at=at)
            else:
                ql.recur(jid, now=0, offset=at)
            templates[jid] = at
        for _ in range(rng.randrange(0, 15)):
            jid = "j" + "".join(rng.sample(alphabet, rng.randrange(1, 3)))
            at = rng.choice([1, 3, 3])
            ql.put(jid, now=0, delay=at)
            jobs[jid] = at

        def order(group):
            return [j for j, _ in sorted(group.items(), key=lambda kv: (kv[1], kv[0].encode()))]
        model = order(templates) + order(jobs)
        where = "seed %d" % seed
        assert [e["jid"] for e in listing(ql)] == model, where
        for _ in range(5):
            offset, count = rng.randrange(0, len(model) + 2), rng.randrange(1, 6)
            page = [e["jid"] for e in listing(ql, 0, "queue", offset, count)]
            assert page == model[offset:offset + count], (where, offset, count)


# ---- schedule.remove -------------------------------------------------------

def test_remove_interval_template(ql, r, events):
    ql.recur("t")
    assert ql("schedule.remove", 0, "queue", "t") == 1
    assert ql("recur.get", 0, "t") is None
    assert r.zcard("ql:q:queue-recur") == 0


def test_remove_cron_template(ql, r):
    cron_template(r, "c")
    assert ql("schedule.remove", 0, "queue", "c") == 1
    assert not r.exists("ql:r:c") and r.zcard("ql:q:queue-cron") == 0


def test_remove_finished_template(ql, r):
    cron_template(r, "done")
    r.zrem("ql:q:queue-cron", "done")
    assert ql("schedule.remove", 0, "queue", "done") == 1
    assert not r.exists("ql:r:done")


def test_remove_scheduled_job_as_cancel(ql, r, events):
    ql.put("s", delay=10, tags=["t"])
    with events() as seen:
        assert ql("schedule.remove", 0, "queue", "s") == 1
    assert ql.get("s") is None
    assert r.zcard("ql:q:queue-scheduled") == 0 and r.zcard("ql:t:t") == 0
    assert seen == [("ql:log", CANCELED)]


def _waiting(ql):
    ql.put("x")


def _running(ql):
    ql.running("x")


def _depends(ql):
    ql.put("d")
    ql.put("x", delay=10, depends=["d"])


def _failed(ql):
    ql.failed("x")


def _complete(ql):
    ql.running("x")
    ql.complete("x")


def _other_queue(ql):
    ql.put("x", queue="other", delay=10)
    ql.recur("x", queue="other")


def _missing(ql):
    ql.put("y", delay=10)


@pytest.mark.parametrize("setup", [_waiting, _running, _depends, _failed, _complete, _other_queue, _missing],
                         ids=lambda f: f.__name__[1:])
def test_remove_leaves_everything_else(ql, r, events, setup):
    setup(ql)
    before = digest(r)
    with events() as seen:
        assert ql("schedule.remove", 0, "queue", "x") == 0
    assert seen == [] and digest(r) == before


def test_remove_scheduled_job_with_dependents_refused(ql, r):
    ql.put("first", delay=10)
    ql.put("second", depends=["first"])
    before = digest(r)
    assert "Schedule.remove(): first is a dependency of second" in ql.err("schedule.remove", 0, "queue", "first")
    assert digest(r) == before


@pytest.mark.parametrize("args,name", [([], "queue"), (["queue"], "jid"), (["queue", "x-history"], "jid")])
def test_remove_bad_arguments(ql, r, args, name):
    ql.put("x", delay=5)
    before = digest(r)
    assert 'Schedule.remove(): Arg "%s"' % name in ql.err("schedule.remove", 0, *args)
    assert digest(r) == before
