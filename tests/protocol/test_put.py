"""§5.4 put and §5.5 requeue (PUT-*)."""
import json

import pytest

from helpers import as_list, digest, fresh_job, jids, lock_lost, log_put

PUT_1 = [
    [], ["foo"], ["foo", "bar"], ["foo", "bar", "whiz"], ["foo", "bar", "whiz", "{}"],
    ["foo", "bar", "whiz", "{]"], ["foo", "bar", "whiz", "{}", "number"],
    ["foo", "bar", "whiz", "{}", "1", "retries"],
    ["foo", "bar", "whiz", "{}", "1", "retries", "foo"],
    ["foo", "bar", "whiz", "{}", "1", "tags"],
    ["foo", "bar", "whiz", "{}", "1", "tags", "{]"],
    ["foo", "bar", "whiz", "{}", "1", "priority"],
    ["foo", "bar", "whiz", "{}", "1", "priority", "foo"],
    ["foo", "bar", "whiz", "{}", "1", "depends"],
    ["foo", "bar", "whiz", "{}", "1", "depends", "{]"],
]

OK = ["worker", "queue", "jid", "klass", "{}", "0"]
PUT_2 = [
    ["worker", "queue", "jid", "klass", "{]", "0"],
    ["worker", "queue", "jid", "klass", "{}", "number"],
    ["worker", "queue", "jid", "klass", "{}"],            # delay missing
    ["worker", "queue", "jid", "klass"],                  # data missing
    ["worker", "queue", "jid"],                           # klass missing
    ["worker", "queue"],                                  # jid missing
    ["worker"],                                           # queue missing
    OK + ["retries", "foo"], OK + ["priority", "foo"], OK + ["tags", "{]"],
    OK + ["depends", "{]"], OK + ["retries"], OK + ["tags"], OK + ["priority"],
    OK + ["depends"], OK + ["priority", "1", "retries"],
]


@pytest.mark.parametrize("args", PUT_1, ids=lambda a: " ".join(a) or "none")
def test_put_1_malformed(ql, r, args):
    """PUT-1 (and R7): malformed put -> err, and nothing was written."""
    ql.err("put", 12345, *args)
    assert r.dbsize() == 0


@pytest.mark.parametrize("args", PUT_2, ids=lambda a: " ".join(a))
def test_put_2_bad_values(ql, r, args):
    """PUT-2 (and R7): bad values in the right positions -> err, db stays empty."""
    ql.err("put", 0, *args)
    assert r.dbsize() == 0
    ql.err("requeue", 0, *args)
    assert r.dbsize() == 0


def test_put_2_bad_values_on_existing_job_change_nothing(ql, r):
    """R7: a malformed re-put of an existing job leaves its keys untouched."""
    ql.put(tags=["foo"])
    before = {k: r.dump(k) for k in r.keys("*")}
    for args in PUT_2:
        ql.err("put", 5, *args)
    assert {k: r.dump(k) for k in r.keys("*")} == before


def test_put_3_fresh_job_object(ql):
    """PUT-3: reply is the jid; get returns the exact fresh job object."""
    assert ql("put", 12345, "worker", "queue", "jid", "klass", "{}", 0) == "jid"
    job = ql.get()
    assert job == fresh_job(when=12345)
    assert set(job) == set(fresh_job())


def test_put_3_keys(ql, r):
    """PUT-3 / §2: keys written by a plain put."""
    ql.put(now=100, priority=3)
    assert r.zscore("ql:q:queue-work", "jid") == pytest.approx(3 - 100 / 1e10, abs=1e-12)
    assert r.zscore("ql:queues", "queue") == 100
    h = r.hgetall("ql:j:jid")
    assert h["state"] == "waiting" and h["worker"] == "" and h["queue"] == "queue"
    assert float(h["expires"]) == 0 and float(h["time"]) == 100
    assert h["tags"] == "{}"
    # A new job's one history entry waits in its hash (no list key yet).
    assert json.loads(h["history"]) == [100, "put", {"q": "queue"}]
    assert not r.exists("ql:j:jid-history")


def test_put_4_data_empty_array_verbatim(ql):
    """PUT-4: data `[]` stays the string `[]`."""
    ql.put(data="[]")
    assert ql.get()["data"] == "[]"


def test_put_5_data_verbatim(ql):
    """PUT-5: data is returned byte-for-byte."""
    ql.put(data='{"foo": "bar"}')
    assert ql.get()["data"] == '{"foo": "bar"}'


def test_put_6_delay(ql, r):
    """PUT-6: delay 1 -> scheduled; pop 0 -> {}; pop 2 -> 1 job."""
    ql.put(delay=1)
    assert ql.state() == "scheduled"
    assert r.zscore("ql:q:queue-scheduled", "jid") == 1
    assert ql.pop(now=0) == {}
    assert jids(ql.pop(now=2)) == ["jid"]


def test_put_7_retries(ql):
    """PUT-7: retries 2 -> retries 2, remaining 2."""
    ql.put(retries=2)
    job = ql.get()
    assert (job["retries"], job["remaining"]) == (2, 2)


def test_put_8_tags(ql, r):
    """PUT-8: tags ["foo"] -> tags ["foo"]; indexed in ql:t:foo."""
    ql.put(now=7, tags=["foo"])
    assert ql.get()["tags"] == ["foo"]
    assert r.zscore("ql:t:foo", "jid") == 7
    assert r.zscore("ql:tags", "foo") == 1


def test_put_8_duplicate_tags_kept(ql, r):
    """§5.4 note: a tag repeated in the list is kept twice and counted twice."""
    ql.put(tags=["foo", "foo"])
    assert ql.get()["tags"] == ["foo", "foo"]
    assert r.zscore("ql:tags", "foo") == 2


def test_put_9_priority(ql):
    """PUT-9: priority 1 -> priority 1."""
    ql.put(priority=1)
    assert ql.get()["priority"] == 1


def test_put_options_later_duplicate_wins_unknown_ignored(ql):
    """§5.4 notes: later duplicates override; unknown option names are ignored."""
    ql.put(priority=1, whatever="x", **{"retries": 3})
    ql("put", 0, "worker", "queue", "j2", "klass", "{}", 0, "priority", 1, "priority", 4)
    assert ql.get()["priority"] == 1 and ql.get()["retries"] == 3
    assert ql.get("j2")["priority"] == 4


def test_put_10_depends(ql, r):
    """PUT-10: b depends on a."""
    ql.put("a")
    ql.put("b", depends=["a"])
    assert ql.get("a")["dependents"] == ["b"]
    b = ql.get("b")
    assert b["dependencies"] == ["a"] and b["state"] == "depends"
    assert r.zscore("ql:q:queue-depends", "b") == 0
    assert r.zscore("ql:q:queue-work", "b") is None


def test_put_11_depends_with_delay(ql, r):
    """PUT-11: depends + delay 1 -> state depends, same links, field scheduled."""
    ql.put("a")
    ql.put("b", delay=1, depends=["a"])
    assert ql.get("a")["dependents"] == ["b"]
    b = ql.get("b")
    assert b["dependencies"] == ["a"] and b["state"] == "depends"
    assert float(r.hget("ql:j:b", "scheduled")) == 1
    assert r.zscore("ql:q:queue-scheduled", "b") is None


def test_put_12_move(ql):
    """PUT-12: re-put into `other` moves the job."""
    ql.put(data='{"a": 1}')
    ql.put(queue="other", data='{"a": 1}')
    job = ql.get()
    assert job["queue"] == "other" and job["state"] == "waiting"
    assert job["data"] == '{"a": 1}'
    assert job["history"] == [{"q": "queue", "what": "put", "when": 0},
                              {"q": "other", "what": "put", "when": 0}]


def test_put_13_reput_keeps_and_replaces(ql):
    """PUT-13: re-put without options keeps priority/tags/retries; with, replaces."""
    ql.put(priority=1, tags=["foo"], retries=2)
    ql.put()
    job = ql.get()
    assert (job["priority"], job["tags"], job["retries"]) == (1, ["foo"], 2)
    ql.put(priority=2, tags=["bar"], retries=3)
    job = ql.get()
    assert (job["priority"], job["tags"], job["retries"], job["remaining"]) == (2, ["bar"], 3, 3)


def test_put_13_reput_reindexes_tags(ql, r):
    """§5.4 steps 2/10: old tags are unindexed before the new ones are indexed."""
    ql.put(tags=["foo"])
    ql.put(tags=["bar"])
    assert r.zscore("ql:t:foo", "jid") is None
    assert r.zscore("ql:tags", "foo") == 0
    assert r.zscore("ql:t:bar", "jid") == 0 and r.zscore("ql:tags", "bar") == 1
    ql.put()  # keeps ["bar"]: unindexed then indexed again
    assert r.zscore("ql:tags", "bar") == 1


def test_put_14_reput_keeps_dependencies(ql):
    """PUT-14: re-put c elsewhere without depends keeps its dependencies."""
    ql.put("a")
    ql.put("b")
    ql.put("c", depends=["a"])
    ql.put("c", queue="other")
    assert ql.get("c")["dependencies"] == ["a"]
    assert ql.get("c")["state"] == "depends"
    assert ql.get("a")["dependents"] == ["c"]
    assert ql.get("b")["dependents"] == {}


def test_put_15_reput_replaces_dependencies(ql):
    """PUT-15: re-put c with depends ["b"] swaps a for b."""
    ql.put("a")
    ql.put("b")
    ql.put("c", depends=["a"])
    ql.put("c", depends=["b"])
    assert ql.get("a")["dependents"] == {}
    assert ql.get("b")["dependents"] == ["c"]
    assert ql.get("c")["dependencies"] == ["b"]
    assert sorted(jids(ql.pop(count=5))) == ["a", "b"]
    assert ql.complete("a") == "complete"
    assert ql.state("c") == "depends"
    assert ql.complete("b") == "complete"
    assert ql.state("c") == "waiting"
    assert jids(ql.pop()) == ["c"]


def test_put_16_event(ql, events):
    """PUT-16: untracked put publishes only the put log message."""
    with events() as ev:
        ql.put()
    assert ev == [log_put()]


def test_put_17_tracked_reput(ql, events):
    """PUT-17: tracked re-put -> put log message then ql:put jid."""
    ql.put()
    ql.track()
    with events() as ev:
        ql.put()
    assert ev == [log_put(), ("ql:put", "jid")]


def test_put_18_lock_lost_for_other_worker(ql, events):
    """PUT-18: put by another worker of a running job -> lock_lost for the holder."""
    ql.running()
    with events() as ev:
        ql("put", 0, "another", "another", "jid", "klass", "{}", 10)
    assert ev == [log_put(queue="another")] + lock_lost()


def test_put_19_no_lock_lost_for_own_job(ql, events):
    """PUT-19: re-put by the holder -> only the put message."""
    ql.running()
    with events() as ev:
        ql.put()
    assert ev == [log_put()]


def test_put_20_failed_job_reput(ql, r):
    """PUT-20: failed job re-put -> waiting and peekable; removed from failure lists."""
    ql.failed()
    ql.put()
    assert ql.state() == "waiting"
    assert jids(ql.peek()) == ["jid"]
    assert r.exists("ql:f:group") == 0
    assert r.smembers("ql:failures") == set()
    # failure is not cleared by put (§3.2)
    assert ql.get()["failure"]["group"] == "group"


def test_put_21_exhausted_job_reput(ql):
    """PUT-21: job failed by exhausted retries, re-put -> waiting."""
    ql.running(retries=0)
    assert ql.retry() == -1
    assert ql.state() == "failed"
    ql.put()
    assert ql.state() == "waiting"


def test_put_22_reput_resets_remaining(ql):
    """PUT-22: re-put of a job whose remaining was decremented -> remaining = retries."""
    ql.running()
    assert ql.retry() == 4
    assert ql.get()["remaining"] == 4
    ql.put()
    assert ql.pop()[0]["remaining"] == 5


def test_put_23_dependency_on_completed_job(ql):
    """PUT-23: dependency on a completed job is satisfied."""
    ql.running("a")
    ql.complete("a")
    ql.put("b", depends=["a"])
    assert ql.state("b") == "waiting"
    assert jids(ql.peek()) == ["b"]
    assert ql.get("b")["dependencies"] == {}


def test_put_24_dependency_on_missing_job(ql):
    """PUT-24: dependency on a nonexistent job is satisfied."""
    ql.put("b", depends=["a"])
    assert ql.state("b") == "waiting"
    assert jids(ql.peek()) == ["b"]


def test_put_25_delay_with_missing_dependency(ql):
    """PUT-25: delay 10 + dependency on nonexistent job -> scheduled."""
    ql.put("b", delay=10, depends=["a"])
    assert ql.state("b") == "scheduled"


def test_put_26_reput_removes_from_worker(ql):
    """PUT-26: re-put running job leaves the worker's lists; old heartbeat -> err(waiting)."""
    ql.running()
    ql.put()
    assert ql.workers(4, "worker") == {"jobs": {}, "stalled": {}}
    assert "waiting" in ql.err("heartbeat", 5, "jid", "worker")


def test_put_27_failed_stat_decremented(ql):
    """PUT-27: putting a failed job back decrements `failed`, keeps `failures`."""
    ql.failed()
    stats = ql.stats()
    assert (stats["failed"], stats["failures"]) == (1, 1)
    ql.put()
    stats = ql.stats()
    assert (stats["failed"], stats["failures"]) == (0, 1)


def test_put_27_failed_stat_uses_destination_queue(ql, r):
    """§5.4 step 11: the decrement goes to the queue named in THIS put."""
    ql.failed()
    ql.put(queue="other")
    assert r.hget("ql:s:stats:0:queue", "failed") == "1"
    assert r.hget("ql:s:stats:0:other", "failed") == "-1"


def test_put_28_requeue_moves(ql):
    """PUT-28: requeue of an existing job -> new queue, same reply as put."""
    ql.put()
    assert ql("requeue", 1, "worker", "queue-2", "jid", "klass", "{}", 0) == "jid"
    job = ql.get()
    assert job["queue"] == "queue-2"
    assert job["history"][-1] == {"q": "queue-2", "what": "put", "when": 1}


def test_put_28_requeue_events(ql, events):
    """§5.5: requeue publishes exactly what put does."""
    ql.running()
    with events() as ev:
        ql.requeue(worker="another", queue="q2")
    assert ev == [log_put(queue="q2")] + lock_lost()


def test_put_29_requeue_canceled(ql):
    """PUT-29: requeue of a canceled or unknown job -> err(does not exist)."""
    ql.put()
    ql("cancel", 0, "jid")
    assert "does not exist" in ql.err("requeue", 0, "worker", "queue", "jid", "klass", "{}", 0)
    assert "does not exist" in ql.err("requeue", 0, "worker", "queue", "x", "klass", "{}", 0)
    assert ql.get("x") is None


def test_put_30_completed_job_reput(ql, r):
    """PUT-30: putting a completed job removes it from `jobs complete`."""
    ql.running()
    ql.complete()
    assert ql("jobs", 0, "complete") == ["jid"]
    ql.put()
    assert ql("jobs", 0, "complete") == []
    assert r.zscore("ql:completed", "jid") is None
    assert ql.state() == "waiting"


# A queue key held by another program (a string where qless keeps a sorted
# set): put refuses with Redis's WRONGTYPE and writes nothing, whichever of
# the queue's sets the job would go to.
FOREIGN_PUTS = [("work", {}), ("scheduled", {"delay": 5}), ("depends", {"depends": ["dep"]})]


@pytest.mark.parametrize("kind,opts", FOREIGN_PUTS, ids=[k for k, _ in FOREIGN_PUTS])
def test_put_into_foreign_queue_key_writes_nothing(ql, r, events, kind, opts):
    ql.put("dep", queue="other")
    ql.put("old", queue="queue2")
    r.set("ql:q:queue-" + kind, "another program's value")
    delay = opts.pop("delay", 0)
    for jid in ("new", "old", "dep"):   # a new job, a move, a re-put in place
        before = digest(r)
        with events() as ev:
            msg = ql.err("put", 3, "worker", "queue", jid, "klass", "{}", delay,
                         *[x for k, v in opts.items() for x in (k, json.dumps(v))])
        assert msg.startswith("WRONGTYPE"), msg
        assert digest(r) == before, jid
        assert ev == [], jid


@pytest.mark.parametrize("kind", ["work", "locks", "depends", "scheduled"])
def test_reput_with_foreign_key_in_old_queue_writes_nothing(ql, r, events, kind):
    """A job moved from its old queue leaves each of that queue's sets, and a
    re-put in place the other sets of its queue: a key of another program's
    among them refuses the put before anything is written."""
    ql.put("moved", queue="old")
    ql.put("stays", queue="queue", delay=5)
    r.set("ql:q:old-" + kind, "another program's value")
    jids = ["moved"]
    if kind != "scheduled":   # "stays" is in its queue's scheduled set itself
        r.set("ql:q:queue-" + kind, "another program's value")
        jids.append("stays")
    for jid in jids:
        before = digest(r)
        with events() as ev:
            msg = ql.err("put", 3, "worker", "queue", jid, "klass", "{}", 0)
        assert msg.startswith("WRONGTYPE"), msg
        assert digest(r) == before, jid
        assert ev == [], jid


@pytest.mark.parametrize("tags,stored", [([1, 2, 3], ["1", "2", "3"]), ([2.5, -7, "x"], ["2.5", "-7", "x"]),
                                         ([0.1, 1e20], ["0.1", "1e+20"])])
def test_put_numeric_tags_stored_as_decimal_text(ql, r, tags, stored):
    """Upstream qless takes JSON numbers in tags (and depends): their decimal
    text is stored and indexed."""
    ql.put(tags=tags)
    assert ql.get()["tags"] == stored
    for tag in stored:
        assert r.zscore("ql:t:" + tag, "jid") == 0
    assert ql.tag_get(stored[0])["jobs"] == ["jid"]


def test_put_numeric_depends_and_recur_tags(ql):
    ql.put("12")
    ql.put("jid", depends=[12])
    assert ql.state("jid") == "depends"
    assert ql.get()["dependencies"] == ["12"]
    ql.recur("r", tags=[7])
    assert ql.json("recur.get", 0, "r")["tags"] == ["7"]


@pytest.mark.parametrize("bad", ['[{}]', '[true]', '[[1]]', '[null]', '["a",false]'])
def test_put_tags_other_types_refused(ql, r, bad):
    for name in ("tags", "depends"):
        msg = ql.err("put", 0, "worker", "queue", "jid", "klass", "{}", 0, name, bad)
        assert '[InvalidArgument] Put(): Arg "%s" must be a JSON array of strings or numbers: %s' % (name, bad) \
            in msg, msg
        assert r.dbsize() == 0
