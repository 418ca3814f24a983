"""schedules.md §3.7, §3.8, S4: the `unique` option of put and recur (UNQ-1..UNQ-7)."""
import json
import os
import random

import pytest

from helpers import ResponseError, digest, jids, log_put


def report(ql, jid="j", now=0, **opts):
    return json.loads(ql.put(jid, now, unique="report", **opts))


def test_unq_1_twice_one_put(ql, events):
    """UNQ-1: two unique puts reply the jid; one history entry, one put event."""
    with events() as seen:
        assert ql.put("j", 0, unique=1) == "j"
        assert ql.put("j", 1, unique=1) == "j"
    assert seen == [log_put("j")]
    assert [h["what"] for h in ql.get("j")["history"]] == ["put"]


def _waiting(ql):
    ql.put("j")


def _scheduled(ql):
    ql.put("j", delay=100)


def _depends(ql):
    ql.put("d")
    ql.put("j", depends=["d"])


def _running(ql):
    ql.running("j")


def _stalled(ql):
    ql.running("j")   # its lock expires at 60; the put below is at 1000


def _failed(ql):
    ql.failed("j")


BLOCKING = {"waiting": _waiting, "scheduled": _scheduled, "depends": _depends,
            "running": _running, "stalled": _stalled, "failed": _failed}


@pytest.mark.parametrize("state", sorted(BLOCKING))
def test_unq_2_blocking_states_change_nothing(ql, r, events, state):
    """UNQ-2: a unique put of a pending job writes and publishes nothing."""
    BLOCKING[state](ql)
    before = digest(r)
    with events() as seen:
        assert ql.put("j", 1000, queue="other", worker="someone", data={"x": 1}, delay=0,
                      priority=9, tags=["t"], retries=1, unique=1) == "j"
        reply = report(ql, "j", 1000, queue="other", data={"x": 1}, priority=9)
    assert reply["inserted"] is False
    assert seen == []
    assert digest(r) == before


def test_unq_2_report_names_existing_state(ql):
    """§3.7: not inserted -> the existing job's state."""
    ql.failed("j")
    assert report(ql) == {"jid": "j", "inserted": False, "state": "failed"}


def test_unq_3_complete_job_put_again(ql):
    """UNQ-3: a complete job is put again: waiting, history gains a put."""
    ql.running("j")
    ql.complete("j")
    assert report(ql, now=5) == {"jid": "j", "inserted": True, "state": "waiting"}
    job = ql.get("j")
    assert job["state"] == "waiting"
    assert [h["what"] for h in job["history"]] == ["put", "popped", "done", "put"]


def test_unq_4_report_text(ql):
    """UNQ-4: the exact reply texts, keys in the spec's order."""
    assert ql.put("j", unique="report") == '{"jid":"j","inserted":true,"state":"waiting"}'
    assert ql.put("j", unique="report") == '{"jid":"j","inserted":false,"state":"waiting"}'
    assert report(ql, "k", delay=10) == {"jid": "k", "inserted": True, "state": "scheduled"}
    ql.put("d")
    assert report(ql, "e", depends=["d"]) == {"jid": "e", "inserted": True, "state": "depends"}


@pytest.mark.parametrize("mode", ["2", "0", "", "true", "REPORT", "1.0"])
def test_unq_5_bad_mode(ql, r, mode):
    """UNQ-5: any other mode -> err(Arg "unique"), nothing written."""
    assert 'Put(): Arg "unique" must be 1 or report' in ql.err(
        "put", 0, "w", "q", "j", "k", "{}", 0, "unique", mode)
    assert r.dbsize() == 0


@pytest.mark.parametrize("bad", [["data", "{]"], ["priority", "x"], ["tags", "[true]"],
                                 ["depends", "{"], ["delay", "-1"], ["retries", "-1"]])
def test_unq_5_invalid_put_errs_when_job_exists(ql, r, bad):
    """UNQ-5: validation comes before the existence check."""
    ql.put("j")
    before = digest(r)
    args = {"data": "{}", "delay": 0, "opts": ["unique", "1"]}
    if bad[0] in ("data", "delay"):
        args[bad[0]] = bad[1]
    else:
        args["opts"] += bad
    ql.err("put", 0, "w", "queue", "j", "klass", args["data"], args["delay"], *args["opts"])
    assert digest(r) == before


def test_unq_6_requeue_ignores_unique(ql):
    """UNQ-6: requeue moves a waiting job whatever `unique` says."""
    ql.put("j")
    assert ql.requeue("j", 1, queue="other", unique=1) == "j"
    assert ql.get("j")["queue"] == "other"
    assert ql.requeue("j", 2, queue="third", unique="bogus") == "j"
    assert ql.get("j")["queue"] == "third"


def recur(ql, jid="r", now=0, **kw):
    return ql.recur(jid, now, **kw)


def test_unq_7_recur_existing_template_kept(ql, r, events):
    """UNQ-7: a unique recur of a scheduled template writes nothing."""
    assert recur(ql, interval=60, offset=5, unique=1) == "r"
    ql.pop(now=5)
    before = digest(r)
    with events() as seen:
        assert recur(ql, now=7, interval=10, offset=0, priority=3, queue="other", unique=1) == "r"
        assert recur(ql, now=7, unique="report") == '{"jid":"r","inserted":false}'
    assert seen == [] and digest(r) == before
    assert r.zscore("ql:q:queue-recur", "r") == 65


def test_unq_7_recur_new_template_report(ql):
    """§3.8: a new template is written as without the option."""
    assert recur(ql, unique="report") == '{"jid":"r","inserted":true}'
    assert ql.json("recur.get", 0, "r")["interval"] == 60
    assert jids(ql.pop(now=0)) == ["r-1"]


def test_unq_7_recur_bad_mode_and_validation_first(ql, r):
    """§3.8: the same modes and text; other arguments are still checked."""
    recur(ql)
    before = digest(r)
    assert 'Recur(): Arg "unique" must be 1 or report' in ql.err(
        "recur", 0, "queue", "r", "klass", "{}", "interval", 60, 0, "unique", "yes")
    ql.err("recur", 0, "queue", "r", "klass", "{}", "interval", 0, 0, "unique", "1")
    ql.err("recur", 0, "queue", "r", "klass", "{}", "interval", 60, 0, "unique", "1", "backlog", "x")
    assert digest(r) == before


def test_unq_7_cron_set_counts_as_pending(ql, r):
    """S1/S4: a template found in the queue's -cron set is pending too."""
    recur(ql)
    r.zrem("ql:q:queue-recur", "r")
    r.zadd("ql:q:queue-cron", {"r": 3600})
    before = digest(r)
    assert recur(ql, now=1, interval=5, unique="report") == '{"jid":"r","inserted":false}'
    assert digest(r) == before


def test_s4_finished_template_replaced_keeping_count(ql, r):
    """S4: a template in neither set (finished) counts as absent."""
    recur(ql)
    ql.pop(now=0)
    r.zrem("ql:q:queue-recur", "r")
    assert recur(ql, now=100, interval=30, unique="report") == '{"jid":"r","inserted":true}'
    got = ql.json("recur.get", 0, "r")
    assert (got["interval"], got["count"]) == (30, 1)
    assert jids(ql.pop(now=100)) == ["r-2"]


def test_unique_put_generative(ql, r):
    """Seeded random life cycles of a few jids: a unique put inserts exactly
    when the job is absent or complete, and otherwise leaves the database as
    it was."""
    seed = int(os.environ.get("QLESS_FUZZ_SEED") or random.randrange(2 ** 32))
    rng = random.Random(seed)
    now = 0
    for step in range(250):
        now += rng.choice([0, 1, 30, 90])
        jid = rng.choice(["a", "b", "c"])
        action = rng.choice(["unique", "unique", "put", "pop", "complete", "fail", "cancel"])
        state = ql.state(jid)
        where = "seed %d step %d %s %s (state %s)" % (seed, step, action, jid, state)
        if action == "unique":
            before = digest(r)
            history = len(ql.get(jid)["history"]) if state else 0
            reply = report(ql, jid, now, delay=rng.choice([0, 0, 20]),
                           depends=rng.sample(sorted({"a", "b", "c"} - {jid}), rng.randrange(2)))
            pending = state is not None and state != "complete"
            assert reply["inserted"] is not pending, where
            if pending:
                assert reply["state"] == state and digest(r) == before, where
            else:
                job = ql.get(jid)
                assert reply["state"] == job["state"] in ("waiting", "scheduled", "depends"), where
                assert len(job["history"]) == history + 1, where
        elif action == "put":
            ql.put(jid, now)
        elif action == "pop":
            ql.pop(now=now, count=3)
        else:
            # Moves the life cycle on; refusals (a stalled lock, dependents) are fine.
            try:
                {"complete": lambda: ql.complete(jid, now), "fail": lambda: ql.fail(jid, now),
                 "cancel": lambda: ql("cancel", now, jid)}[action]()
            except ResponseError:
                pass
