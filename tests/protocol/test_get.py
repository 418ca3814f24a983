"""§5.2 get, §5.3 multiget, §3 job object (GET-*)."""
import json

from helpers import JOB_KEYS, fresh_job


def test_get_1_unknown_and_missing(ql):
    """GET-1: unknown jid -> nil; no jid -> err."""
    assert ql("get", 0, "nothing") is None
    ql.err("get", 0)


def test_get_1_exactly_17_keys(ql):
    """§3.1: the job object has exactly the 17 keys."""
    ql.put()
    assert len(JOB_KEYS) == 17
    assert set(ql.get()) == JOB_KEYS


def test_get_2_multiget(ql):
    """GET-2: multiget a b a with only a -> a twice; multiget x -> {}."""
    ql.put("a")
    got = ql.json("multiget", 0, "a", "b", "a")
    assert got == [fresh_job("a"), fresh_job("a")]
    assert ql("multiget", 0, "x") == "{}"
    assert ql("multiget", 0) == "{}"


def test_get_2_multiget_order(ql):
    """§5.3: argument order."""
    ql.put("a")
    ql.put("b")
    assert [j["jid"] for j in ql.json("multiget", 0, "b", "a")] == ["b", "a"]


def test_get_no_side_effects(ql, r, events):
    """§5.2: get changes nothing and publishes nothing."""
    ql.put()
    before = {k: r.dump(k) for k in r.keys("*")}
    with events() as ev:
        ql.get()
    assert ev == []
    assert {k: r.dump(k) for k in r.keys("*")} == before


def test_get_expires_renders_numeric(ql, r):
    """§3.1: expires is 0 when the field is empty (after a failure)."""
    ql.failed()
    assert r.hget("ql:j:jid", "expires") == ""
    assert ql.get()["expires"] == 0


def test_get_legacy_history_migrated(ql, r):
    """§3.4: a legacy `history` field is converted before reading."""
    ql.put()
    r.delete("ql:j:jid-history")
    r.hset("ql:j:jid", "history", json.dumps(
        [{"q": "queue", "put": 1.5, "popped": 2.5, "worker": "w", "failed": 3, "done": 4}]))
    assert ql.get()["history"] == [{"q": "queue", "what": "put", "when": 1},
                                   {"what": "popped", "when": 2, "worker": "w"},
                                   {"what": "failed", "when": 3},
                                   {"what": "done", "when": 4}]
    assert r.hexists("ql:j:jid", "history") == 0
