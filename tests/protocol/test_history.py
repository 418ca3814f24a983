"""§5.15 priority, §5.16 log, §3.3 history (PRI-*, LOG-*, HIS-*)."""
import pytest


@pytest.mark.parametrize("args", [[], ["jid"], ["jid", "foo"]])
def test_pri_1_malformed(ql, args):
    """PRI-1: priority 0 / priority 0 jid / priority 0 jid foo -> err."""
    ql.put()
    ql.err("priority", 0, *args)
    assert ql.get()["priority"] == 0


def test_pri_2_missing(ql, r):
    """PRI-2: nonexistent job -> err(does not exist)."""
    assert "does not exist" in ql.err("priority", 0, "jid", 5)
    assert r.dbsize() == 0


def test_pri_3_reply_and_rescore(ql, r, events):
    """PRI-3: reply is the priority; work score = priority exactly; no history/events."""
    ql.put(now=100)
    with events() as ev:
        assert ql("priority", 0, "jid", 5) == 5
    assert ev == []
    assert r.zscore("ql:q:queue-work", "jid") == 5
    assert ql.get()["priority"] == 5
    assert len(ql.get()["history"]) == 1


def test_pri_3_not_in_work_set(ql, r):
    """§5.15: a job not in the work set is only re-prioritised."""
    ql.put(delay=10)
    ql("priority", 0, "jid", 3)
    assert r.zscore("ql:q:queue-work", "jid") is None
    ql.pop(now=20)
    assert ql.get()["priority"] == 3


def test_log_1_entry(ql, events):
    """LOG-1: log 0 jid foo {"foo":"bar"} -> extra history entry; nil; no events."""
    ql.put()
    with events() as ev:
        assert ql("log", 0, "jid", "foo", '{"foo":"bar"}') is None
    assert ev == []
    assert ql.get()["history"] == [{"q": "queue", "what": "put", "when": 0},
                                   {"foo": "bar", "what": "foo", "when": 0}]


def test_log_1_without_data_and_overrides(ql):
    """§3.3: extras `what`/`when` are overwritten; no data -> plain entry."""
    ql.put()
    ql("log", 5.9, "jid", "plain")
    ql("log", 6, "jid", "m", '{"what":"x","when":99,"k":1}')
    assert ql.get()["history"][1:] == [{"what": "plain", "when": 5},
                                       {"k": 1, "what": "m", "when": 6}]


def test_log_2_missing(ql, r):
    """LOG-2: log on a nonexistent job -> err(does not exist); malformed -> err."""
    assert "does not exist" in ql.err("log", 0, "jid", "foo")
    ql.err("log", 0, "jid")
    ql.err("log", 0)
    assert r.dbsize() == 0
    ql.put()
    ql.err("log", 0, "jid", "foo", "[}")
    assert len(ql.get()["history"]) == 1


def test_his_1_limit(ql, r):
    """HIS-1: max-job-history 5, 100 puts at 0..99 -> whens 0, 96..99."""
    ql.config("max-job-history", 5)
    for t in range(100):
        ql.put(now=t)
    history = ql.get()["history"]
    assert [h["when"] for h in history] == [0, 96, 97, 98, 99]
    assert all(h == {"q": "queue", "what": "put", "when": h["when"]} for h in history)
    assert r.llen("ql:j:jid-history") == 5


def test_his_1_default_limit(ql):
    """§3.3: default limit 100 keeps the first entry and the newest 99."""
    for t in range(150):
        ql.put(now=t)
    whens = [h["when"] for h in ql.get()["history"]]
    assert whens == [0] + list(range(51, 150))


def test_his_1_unlimited(ql):
    """§3.3: max-job-history <= 0 -> no limit."""
    ql.config("max-job-history", 0)
    for t in range(120):
        ql.put(now=t)
    assert len(ql.get()["history"]) == 120


def test_his_storage_format(ql, r):
    """§3.3 storage: JSON arrays [when, what, extras], 2 elements without extras."""
    ql.running()
    ql.complete(now=1.5)
    stored = r.lrange("ql:j:jid-history", 0, -1)
    assert stored[-1] == '[1,"done"]'
    assert stored[0] == '[0,"put",{"q":"queue"}]'
