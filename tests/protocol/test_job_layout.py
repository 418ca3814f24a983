"""§2 job hash fields: a new job stores no `jid` field and no priority 0,
and its `put` entry waits in its hash field `history`; jobs stored the way
before (fields written, history in a list) keep working."""
import json

import pytest


def to_list_layout(r, jid="jid"):
    """Rewrites a new job as the previous layout stored it: the put entry in
    the history list, no `history` field."""
    entry = r.hget("ql:j:" + jid, "history")
    assert entry is not None
    r.hdel("ql:j:" + jid, "history")
    r.rpush("ql:j:" + jid + "-history", entry)


def life(ql, r, jid, list_layout):
    """put (stored in the list layout if asked), log, pop, complete of one
    job, alone in its queue; its history after each step."""
    ql.put(jid, now=1)
    if list_layout:
        to_list_layout(r, jid)
    seen = [ql.get(jid)["history"]]
    ql("log", 2, jid, "note", '{"k":"v"}')
    seen.append(ql.get(jid)["history"])
    assert [j["jid"] for j in ql.pop(now=3)] == [jid]
    seen.append(ql.get(jid)["history"])
    ql.complete(jid, now=4)
    seen.append(ql.get(jid)["history"])
    return seen


def test_put_entry_in_hash_then_list(ql, r):
    """The put entry sits in the hash; the pop moves it to the list."""
    ql.put(now=100)
    assert not r.exists("ql:j:jid-history")
    assert ql.get()["history"] == [{"q": "queue", "what": "put", "when": 100}]
    popped = ql.pop(now=101)
    assert popped[0]["history"] == [{"q": "queue", "what": "put", "when": 100},
                                    {"what": "popped", "when": 101, "worker": "worker"}]
    assert r.hexists("ql:j:jid", "history") == 0
    assert [json.loads(e) for e in r.lrange("ql:j:jid-history", 0, -1)] == [
        [100, "put", {"q": "queue"}], [101, "popped", {"worker": "worker"}]]


def test_upgrade_in_place_same_history(ql, r):
    """A job stored in the list layout runs through its life with the same
    history, at every step, as one stored in the new layout."""
    assert life(ql, r, "old", True) == life(ql, r, "new", False)
    assert r.hexists("ql:j:old", "history") == 0
    assert r.lrange("ql:j:old-history", 0, -1) == r.lrange("ql:j:new-history", 0, -1)


def test_requeue_appends_after_the_put(ql, r):
    """A re-put of a waiting job moves the first entry into the list first."""
    ql.put(now=1)
    ql.requeue(now=2, queue="other")
    assert r.hexists("ql:j:jid", "history") == 0
    assert [h["when"] for h in ql.get()["history"]] == [1, 2]
    assert ql.get()["history"][1]["q"] == "other"


def test_list_and_field_together(ql, r):
    """A field entry beside a list (a hash put over a leftover list) reads
    after the list, and the next append keeps that order."""
    r.rpush("ql:j:jid-history", json.dumps([0, "lost"]))
    ql.put(now=5)
    assert [h["what"] for h in ql.get()["history"]] == ["lost", "put"]
    popped = ql.pop(now=6)
    assert [h["what"] for h in ql.get()["history"]] == ["lost", "put", "popped"]
    # pop's reply reads the list back when its push did not make it.
    assert popped[0]["history"] == ql.get()["history"]


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
@pytest.mark.parametrize("count", [1, 3])
def test_pop_reply_history_is_stored_history(ql, r, limit, count):
    """The history pop replies with (without reading the list back when its
    push made it) is the stored one, for every limit, in both layouts."""
    ql.config("max-job-history", limit)
    for i in range(3):
        ql.put("j%d" % i, now=1)
    to_list_layout(r, "j1")
    r.hset("ql:j:j2", "history", json.dumps([{"q": "queue", "put": 1}]))
    popped = ql.pop(now=2, count=count)
    assert popped and all(job["history"] == ql.get(job["jid"])["history"] for job in popped)


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_history_limit_both_layouts(ql, r, limit):
    """max-job-history keeps the same entries in either layout."""
    ql.config("max-job-history", limit)
    assert life(ql, r, "old", True) == life(ql, r, "new", False)


def test_delete_leaves_no_field_or_list(ql, r):
    """cancel of a waiting job removes its hash (and with it the entry)."""
    ql.put()
    ql("cancel", 0, "jid")
    assert r.keys("ql:j:*") == []


def test_new_job_omits_jid_and_zero_priority(ql, r):
    """The key names the jid and priority 0 is the absent default."""
    ql.put("a")
    ql.put("b", priority=3)
    assert r.hmget("ql:j:a", "jid", "priority") == [None, None]
    assert r.hmget("ql:j:b", "jid", "priority") == [None, "3"]
    assert ql.get("a")["jid"] == "a" and ql.get("a")["priority"] == 0
    assert ql.get("b")["priority"] == 3


def test_old_fields_kept_and_replaced(ql, r):
    """A job with the old fields reads alike; a re-put at priority 0
    replaces a stored priority."""
    ql.put("a", priority=3)
    r.hset("ql:j:a", mapping={"jid": "a", "priority": "3"})
    assert ql.get("a")["jid"] == "a"
    ql.requeue("a", priority=0)
    assert r.hget("ql:j:a", "priority") == "0"
    assert ql.get("a")["priority"] == 0
    assert ql.pop()[0]["priority"] == 0


@pytest.mark.parametrize("old_text", [False, True])
def test_time_field_reads_back_exactly(ql, r, old_text):
    """`time` is written as %.17g (old qless wrote %.20f): either reads back
    as the very same double, so the wait statistics are exact."""
    put_at, pop_at = 86400 * 3 + 0.123456789, 86400 * 3 + 1.987654321
    ql.put(now=put_at)
    assert float(r.hget("ql:j:jid", "time")) == put_at
    if old_text:
        r.hset("ql:j:jid", "time", "%.20f" % put_at)
    ql.pop(now=pop_at)
    wait = ql.stats(now=pop_at, date=pop_at)["wait"]
    # The reply writes numbers as cjson does, to 14 significant digits.
    assert wait["count"] == 1 and wait["mean"] == float("%.14g" % (pop_at - put_at))
