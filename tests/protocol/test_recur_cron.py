"""schedules.md §3.1-§3.5 and S1-S3: cron templates (RCC-*) and recur.next (RNX-1)."""
import json
import random

import pytest

from helpers import ResponseError, jids

HOURLY = "0 * * * *"


def cron(ql, expr=HOURLY, now=0, jid="jid", queue="q", *opts):
    return ql("recur", now, queue, jid, "k", "{}", "cron", expr, *opts)


def rnext(ql, now, jid="jid", *count):
    reply = ql.json("recur.next", now, jid, *count)
    return [] if reply == {} else reply


def put_times(popped):
    return [job["history"][0]["when"] for job in popped]


def test_rcc_1_create_and_get(ql, r):
    """RCC-1: the §3.3 example, 12 keys; stored in -cron, not -recur (S1)."""
    assert cron(ql) == "jid"
    assert ql.json("recur.get", 0, "jid") == {
        "backlog": 0, "count": 0, "cron": "0 * * * *", "data": "{}", "interval": 0, "jid": "jid",
        "klass": "k", "priority": 0, "queue": "q", "retries": 0, "state": "recur", "tags": {}}
    assert r.zrange("ql:q:q-cron", 0, -1, withscores=True) == [("jid", 0.0)]
    assert not r.exists("ql:q:q-recur")
    assert r.hget("ql:r:jid", "type") == "cron"
    assert r.hget("ql:features", "cron")


RCC_2 = [["cron"], ["cron", "0 24 * * *"], ["cron", ""], ["cron", HOURLY, "backlog", "1001"],
         ["cron", HOURLY, "backlog", "-1"], ["cron", HOURLY, "backlog", "1.5"],
         ["cron", HOURLY, "backlog"], ["cron", HOURLY, "priority", "x"], ["cron", HOURLY, "tags", "[}"],
         ["cron", "0 0 30 2 *"], ["cron", "1970 1 1 * 0 0 0"],
         ["crons", HOURLY]]


@pytest.mark.parametrize("args", RCC_2, ids=" ".join)
def test_rcc_2_malformed_writes_nothing(ql, r, args):
    """RCC-2: malformed cron recurs fail and write nothing."""
    ql.err("recur", 100, "q", "jid", "k", "{}", *args)
    assert r.dbsize() == 0
    assert ql("recur.get", 0, "jid") is None


def test_rcc_2_messages(ql):
    assert 'Recur(): Arg "cron" missing' in ql.err("recur", 0, "q", "jid", "k", "{}", "cron")
    assert 'Recur(): Arg "cron" invalid: hour field: value 24 out of range 0-23' in \
        ql.err("recur", 0, "q", "jid", "k", "{}", "cron", "0 24 * * *")
    assert 'Recur(): Arg "backlog" must be between 0 and 1000 for cron schedules' in \
        ql.err("recur", 0, "q", "jid", "k", "{}", "cron", HOURLY, "backlog", 1001)
    assert 'Recur(): Arg "backlog" must be an integer' in \
        ql.err("recur", 0, "q", "jid", "k", "{}", "cron", HOURLY, "backlog", 2.5)
    assert 'never fires: every allowed year is before 2026' in \
        ql.err("recur", 1772619330, "q", "jid", "k", "{}", "cron", "2020 * * * * * *")
    assert 'never fires at or after 1970-01-01T00:00:10Z' in \
        ql.err("recur", 10, "q", "jid", "k", "{}", "cron", "1970 1 1 * 0 0 0")
    # The interval form keeps its own texts.
    assert "whole number" in ql.err("recur", 0, "q", "jid", "k", "{}", "interval", 60, 0, "backlog", 1.5)
    ql("recur", 0, "q", "jid", "k", "{}", "interval", 60, 0, "backlog", 5000)


def test_rcc_3_hourly_pops(ql):
    """RCC-3."""
    cron(ql)
    assert jids(ql.pop(0, "q", "w", 10)) == ["jid-1"]
    assert ql.pop(3599, "q", "w", 10) == {}
    popped = ql.pop(3600, "q", "w", 10)
    assert jids(popped) == ["jid-2"] and put_times(popped) == [3600]
    assert popped[0]["spawned_from_jid"] == "jid"


def test_rcc_4_catch_up(ql):
    """RCC-4: without backlog every missed occurrence is spawned."""
    cron(ql)
    ql.pop(0, "q", "w", 10)
    popped = ql.pop(36000, "q", "w", 100)
    assert len(popped) == 10
    assert sorted(put_times(popped)) == list(range(3600, 36001, 3600))


def test_rcc_4_count_limits_and_resumes(ql):
    """Instances beyond the pop count wait for the next pop (score = next due)."""
    cron(ql)
    ql.pop(0, "q", "w", 10)
    assert len(ql.pop(36000, "q", "w", 3)) == 3
    assert rnext(ql, 36000) == [14400]
    assert sorted(put_times(ql.pop(36000, "q", "w", 100))) == list(range(14400, 36001, 3600))


def test_rcc_5_backlog(ql):
    """RCC-5: backlog 1 -> the latest due occurrence and one missed one."""
    cron(ql, "* * * * *", 0, "jid", "q", "backlog", 1)
    popped = ql.pop(600, "q", "w", 10)
    assert jids(popped) == ["jid-1", "jid-2"]
    assert put_times(popped) == [540, 600]


def test_rcc_5_backlog_larger_than_missed(ql):
    """Fewer missed occurrences than the backlog: all are spawned."""
    cron(ql, "* * * * *", 0, "jid", "q", "backlog", 50)
    assert put_times(ql.pop(300, "q", "w", 100)) == [0, 60, 120, 180, 240, 300]
    cron(ql, "* * * * * * */10", 1000, "b", "q2", "backlog", 3)
    assert put_times(ql.pop(1000 + 3600, "q2", "w", 100)) == [4570, 4580, 4590, 4600]


def test_rcc_6_first_due_from_expression(ql):
    """RCC-6."""
    cron(ql, "* * * * *", 30)
    assert rnext(ql, 30, "jid", 3) == [60, 120, 180]
    assert ql.pop(59, "q", "w", 10) == {}
    assert jids(ql.pop(60, "q", "w", 10)) == ["jid-1"]


def test_rcc_7_interval_get_unchanged(ql, r):
    """RCC-7: an interval template shows exactly the 11 keys; no -cron set, no feature mark."""
    ql.recur()
    assert set(ql.json("recur.get", 0, "jid")) == {
        "backlog", "count", "data", "interval", "jid", "klass", "priority", "queue", "retries",
        "state", "tags"}
    assert not r.exists("ql:features") and not r.exists("ql:q:queue-cron")
    assert "cron" not in r.hgetall("ql:r:jid")


def test_rcc_8_update_interval_to_cron(ql, r):
    """RCC-8."""
    ql.recur()
    assert ql("recur.update", 10, "jid", "cron", HOURLY) == 1
    view = ql.json("recur.get", 10, "jid")
    assert view["interval"] == 0 and view["cron"] == HOURLY
    assert rnext(ql, 10, "jid", 1) == [3600]
    assert not r.exists("ql:q:queue-recur")
    assert r.hget("ql:features", "cron")


def test_rcc_9_update_cron_to_interval(ql, r):
    """RCC-9: the due time stays where the cron would have fired."""
    cron(ql)
    ql.pop(0, "q", "w", 10)
    assert ql("recur.update", 10, "jid", "interval", 60) == 1
    assert rnext(ql, 10, "jid", 3) == [3600, 3660, 3720]
    view = ql.json("recur.get", 10, "jid")
    assert "cron" not in view and view["interval"] == 60
    assert r.hget("ql:r:jid", "type") == "interval" and not r.exists("ql:q:q-cron")
    assert jids(ql.pop(3600, "q", "w", 10)) == ["jid-2"]


def test_rcc_9_interval_must_be_positive(ql):
    """S2: the interval a cron template turns into is > 0."""
    cron(ql)
    before = ql("recur.get", 0, "jid")
    assert 'Recur(): Arg "interval" must be greater than 0: 0' in \
        ql.err("recur.update", 0, "jid", "interval", 0)
    assert ql("recur.get", 0, "jid") == before


def test_rcc_9_finished_to_interval(ql):
    """§3.4: a finished template is re-added at now + interval."""
    cron(ql, "1970 1 1 * 0 0 0")
    ql.pop(0, "q", "w", 10)
    ql("recur.update", 100, "jid", "interval", 60)
    assert rnext(ql, 100, "jid", 2) == [160, 220]


def test_rcc_10_bad_cron_pair_applies_nothing(ql, r):
    """RCC-10: cron pairs are validated before the first write."""
    ql.recur()
    before = r.hgetall("ql:r:jid")
    ql.err("recur.update", 0, "jid", "priority", 5, "cron", "bad")
    ql.err("recur.update", 0, "jid", "priority", 5, "cron", "0 0 30 2 *")
    assert r.hgetall("ql:r:jid") == before
    assert ql.json("recur.get", 0, "jid")["priority"] == 0


def test_rcc_10_backlog_rules_s3(ql, r):
    """S3: with a cron pair every backlog pair is limited to 0-1000; without
    one, by the type the template has where the pair stands."""
    ql.recur()
    before = r.hgetall("ql:r:jid")
    ql.err("recur.update", 0, "jid", "backlog", 5000, "cron", HOURLY)
    ql.err("recur.update", 0, "jid", "cron", HOURLY, "backlog", 1001)
    assert r.hgetall("ql:r:jid") == before
    ql("recur.update", 0, "jid", "backlog", 5000)            # interval: any whole number
    cron(ql, HOURLY, 0, "c")
    ql.err("recur.update", 0, "c", "backlog", 1001)           # cron template
    ql.err("recur.update", 0, "c", "backlog", 1.5)
    ql("recur.update", 0, "c", "backlog", 1000)
    ql("recur.update", 0, "c", "interval", 60, "backlog", 5000)   # interval by then
    assert ql.json("recur.get", 0, "c")["backlog"] == 5000


def test_rcc_11_finished_template(ql, r):
    """RCC-11: a template without further fire times is kept but leaves -cron."""
    cron(ql, "1970 1 1 * 0 0 0")
    assert jids(ql.pop(0, "q", "w", 10)) == ["jid-1"]
    assert ql("jobs", 1, "recurring", "q") == []
    assert not r.exists("ql:q:q-cron")
    assert ql.json("recur.get", 1, "jid")["count"] == 1
    assert rnext(ql, 1, "jid", 5) == []
    cron(ql, "* * * * *", 10)
    assert jids(ql.pop(60, "q", "w", 10)) == ["jid-2"]


def test_rcc_12_corrupted_and_orphaned_entries(ql, r):
    """RCC-12: a corrupted expression, a hash deleted by an older script's
    unrecur, and a hash retyped by an older recur do not break pop."""
    cron(ql, HOURLY, 0, "bad")
    cron(ql, HOURLY, 0, "gone")
    cron(ql, HOURLY, 0, "retyped")
    cron(ql, HOURLY, 0, "good")
    r.hset("ql:r:bad", "cron", "0 99 * * *")
    r.delete("ql:r:gone")
    r.hset("ql:r:retyped", "type", "interval")
    assert jids(ql.pop(0, "q", "w", 10)) == ["good-1"]
    assert r.zrange("ql:q:q-cron", 0, -1) == ["good"]
    assert ql.json("recur.get", 0, "bad")["count"] == 0
    assert rnext(ql, 0, "bad") == []


def test_rcc_13_queues_and_jobs(ql):
    """RCC-13 / S1: queues counts both kinds; jobs recurring lists interval templates first."""
    ql.recur("i1", queue="q", offset=500)
    ql.recur("i2", queue="q", offset=5)
    cron(ql, "* * * * *", 0, "c1")
    cron(ql, HOURLY, 0, "c2")
    assert ql.queues(0, "q")["recurring"] == 4
    assert ql("jobs", 0, "recurring", "q") == ["i2", "i1", "c1", "c2"]
    assert ql("jobs", 0, "recurring", "q", 1, 2) == ["i1", "c1"]
    assert ql("jobs", 0, "recurring", "q", 3, 5) == ["c2"]
    assert ql("jobs", 0, "recurring", "q", 2, 0) == []
    assert ql("jobs", 0, "recurring", "q", 9, 5) == []


def test_rcc_13_other_commands(ql, r):
    """RCC-13: unrecur, recur.tag/untag and recur.update queue|klass|data|retries."""
    cron(ql)
    assert ql("recur.tag", 0, "jid", "a", "b") == '["a","b"]'
    assert ql("recur.untag", 0, "jid", "a") == '["b"]'
    for pair in (("klass", "K2"), ("data", '{"x":1}'), ("retries", 3), ("priority", 4)):
        assert ql("recur.update", 0, "jid", *pair) == 1
    assert ql("recur.update", 0, "jid", "queue", "other") == 1
    assert not r.exists("ql:q:q-cron") and r.zscore("ql:q:other-cron", "jid") == 0
    assert ql.pop(0, "q", "w", 10) == {}
    job = ql.pop(0, "other", "w", 10)[0]
    assert (job["klass"], job["data"], job["retries"], job["priority"], job["tags"]) == \
        ("K2", '{"x":1}', 3, 4, ["b"])
    assert ql("unrecur", 0, "jid") == 1
    assert not r.exists("ql:r:jid") and not r.exists("ql:q:other-cron")
    assert ql.pop(3600, "other", "w", 10) == {}


def test_rcc_14_rerecur_across_types(ql, r):
    """RCC-14: re-recur moves the template between -cron and -recur and
    keeps count; as interval the cron field is gone."""
    cron(ql)
    ql.pop(0, "q", "w", 10)
    ql("recur", 10, "q2", "jid", "k", "{}", "interval", 60, 0)
    assert "cron" not in r.hgetall("ql:r:jid")
    assert not r.exists("ql:q:q-cron") and r.zscore("ql:q:q2-recur", "jid") == 10
    assert jids(ql.pop(10, "q2", "w", 10)) == ["jid-2"]
    cron(ql, "@daily", 20, "jid", "q3")
    assert not r.exists("ql:q:q2-recur") and r.zscore("ql:q:q3-cron", "jid") == 86400
    assert ql.json("recur.get", 20, "jid")["cron"] == "@daily"


def test_rcc_4_names_normalised(ql):
    """CRN-4: recur.get shows NORM(expr)."""
    cron(ql, "  0 9 * *\tmon-fri ")
    assert ql.json("recur.get", 0, "jid")["cron"] == "0 9 * * MON-FRI"


def test_rcc_spawn_shares_the_pop_count(ql):
    """Interval and cron instances together never exceed the pop count."""
    ql.recur("i", queue="q", interval=10)
    cron(ql, "* * * * * * *", 0, "c")
    assert len(ql.pop(100, "q", "w", 15)) == 15
    assert len(ql.peek(100, "q", 100)) > 15


def test_rnx_1_recur_next(ql):
    """RNX-1 and §3.5 count checks."""
    assert "Recur.next(): Recurring job nope does not exist" in ql.err("recur.next", 0, "nope")
    assert 'Recur.next(): Arg "jid" missing' in ql.err("recur.next", 0)
    ql("recur", 0, "q", "jid", "k", "{}", "interval", 60, 10)
    assert rnext(ql, 0, "jid", 3) == [10, 70, 130]
    assert rnext(ql, 0, "jid") == [10]
    for bad in ("0", "1001", "x", "2.5"):
        assert 'Recur.next(): Arg "count" must be between 1 and 1000' in \
            ql.err("recur.next", 0, "jid", bad)


def test_rnx_1_overdue_and_no_writes(ql, r):
    """recur.next starts at the (possibly overdue) score and writes nothing."""
    cron(ql, "* * * * * * */30")
    before = r.dbsize(), r.zrange("ql:q:q-cron", 0, -1, withscores=True)
    assert rnext(ql, 1000, "jid", 3) == [0, 30, 60]
    assert (r.dbsize(), r.zrange("ql:q:q-cron", 0, -1, withscores=True)) == before


def test_rcc_5_backlog_against_oracle(ql):
    """§3.2 backlog (PREV) on generated expressions: a template created at t
    with backlog 2 and popped later spawns exactly the fire times among the
    last three at or before the pop that are not before its first due time
    (the day-by-day oracle of CRN-16 searching backwards)."""
    from test_cron import generate
    seed = random.randrange(2 ** 32)
    rng = random.Random(seed)
    compared = 0
    for i in range(400):
        expr, oracle = generate(rng)
        created = rng.randint(1577836800, 2840140800)    # 2020 .. 2060
        popped_at = created + rng.choice([0, 59, 3600, 86400 * 3, 86400 * 40, 86400 * 400, 86400 * 4000])
        jid = "t%d" % i
        try:
            ql("recur", created, "q%d" % i, jid, "k", "{}", "cron", expr, "backlog", 2)
        except ResponseError:
            assert oracle.first(created) is None, "seed %d: %r" % (seed, expr)
            continue
        s0 = oracle.first(created)
        latest, t = [], popped_at
        while len(latest) < 3:
            t = oracle.prev(t)
            if t is None or t < s0:
                break
            latest.append(t)
            t -= 1
        got = put_times(ql.pop(popped_at, "q%d" % i, "w", 10) or [])
        assert got == sorted(latest), "seed %d: %r created %d popped %d" % (seed, expr, created, popped_at)
        compared += len(got) > 0
    assert compared > 80, "seed %d: too few spawns compared (%d)" % (seed, compared)


def test_rcc_2_failed_rerecur_leaves_template(ql, r):
    """A re-recur that fails on its cron arguments changes nothing."""
    ql.recur()
    before = r.hgetall("ql:r:jid"), r.zrange("ql:q:queue-recur", 0, -1, withscores=True)
    for expr in ("0 0 30 2 *", "bad", "1970 1 1 * 0 0 0"):
        ql.err("recur", 100, "queue", "jid", "k", "{}", "cron", expr)
    ql.err("recur", 100, "queue", "jid", "k", "{}", "cron", HOURLY, "backlog", 2000)
    assert (r.hgetall("ql:r:jid"), r.zrange("ql:q:queue-recur", 0, -1, withscores=True)) == before
    assert not r.exists("ql:features")


def test_rcc_2_not_utf8_names_the_argument(ql):
    """The dispatcher's UTF-8 check names the cron argument in both commands."""
    assert 'Recur(): Arg "cron" not valid UTF-8 (argument 6)' in \
        ql.err("recur", 0, "q", "jid", "k", "{}", "cron", b"0 \xff * * *")
    assert 'Recur(): Arg "interval" not valid UTF-8 (argument 6)' in \
        ql.err("recur", 0, "q", "jid", "k", "{}", "interval", b"\xff", 0)
    assert 'Cron.next(): Arg "cron" not valid UTF-8 (argument 1)' in \
        ql.err("cron.next", 0, b"0 \xff * * *")
    assert 'Recur.next(): Arg "count" not valid UTF-8 (argument 2)' in \
        ql.err("recur.next", 0, "jid", b"\xff")
