"""§5.30-5.34 and §11 recurring jobs (REC-*)."""
import pytest

from helpers import jids

OK = ["queue", "jid", "klass", "{}", "interval", "60", "0"]
REC_1 = [[], ["queue"], ["queue", "jid"], ["queue", "jid", "klass"],
         ["queue", "jid", "klass", "{}"], ["queue", "jid", "klass", "[}"],
         ["queue", "jid", "klass", "{}", "foo"], ["queue", "jid", "klass", "{}", "interval"],
         ["queue", "jid", "klass", "{}", "interval", "foo"],
         ["queue", "jid", "klass", "{}", "interval", "60", "foo"],
         ["queue", "jid", "klass", "{}", "foo", "60", "0"],
         OK + ["tags"], OK + ["tags", "[}"], OK + ["priority"], OK + ["priority", "foo"],
         OK + ["retries"], OK + ["retries", "foo"], OK + ["backlog"], OK + ["backlog", "foo"],
         ["queue", "jid", "klass", "{}", "interval", "0", "0"],
         ["queue", "jid", "klass", "{}", "interval", "-5", "0"]]


@pytest.mark.parametrize("args", REC_1, ids=lambda a: " ".join(a) or "none")
def test_rec_1_malformed(ql, r, args):
    """REC-1 / REC-3: malformed recur -> err, nothing written."""
    ql.err("recur", 0, *args)
    assert r.dbsize() == 0


def test_rec_1_unknown_type_message(ql):
    """§5.30: unknown schedule type names it."""
    assert "foo" in ql.err("recur", 0, "queue", "jid", "klass", "{}", "foo", 60, 0)


REC_2 = [["priority"], ["priority", "foo"], ["interval"], ["interval", "foo"], ["retries"],
         ["retries", "foo"], ["data"], ["data", "[}"], ["klass"], ["queue"], ["backlog"],
         ["backlog", "foo"]]


@pytest.mark.parametrize("args", REC_2, ids=" ".join)
def test_rec_2_update_malformed(ql, r, args):
    """REC-2: malformed recur.update on an existing template -> err, unchanged."""
    ql.recur()
    before = r.hgetall("ql:r:jid")
    ql.err("recur.update", 0, "jid", *args)
    assert r.hgetall("ql:r:jid") == before


def test_rec_3_update_errors(ql):
    """REC-3: unknown option key and unknown template -> err."""
    ql.recur()
    assert "foo" in ql.err("recur.update", 0, "jid", "foo", "bar")
    ql.err("recur.update", 0, "nothing", "priority", 1)


def test_rec_3_update_all_or_nothing(ql):
    """§5.32 said earlier pairs stay applied when a later one errors; issue 12
    (a command never fails half-way) checks every pair before the first."""
    ql.recur()
    ql.err("recur.update", 0, "jid", "priority", 7, "bogus", 1)
    ql.err("recur.update", 0, "jid", "priority", 7, "interval", "nan")
    assert ql.json("recur.get", 0, "jid")["priority"] == 0


def test_rec_4_basic(ql):
    """REC-4 (§11.3): pop 0 -> jid-1; pop 59 -> {}; pop 61 -> jid-2."""
    ql.recur()
    first = ql.pop(now=0)
    assert jids(first) == ["jid-1"] and first[0]["spawned_from_jid"] == "jid"
    assert ql.pop(now=59) == {}
    assert jids(ql.pop(now=61)) == ["jid-2"]


def test_rec_4_offset(ql):
    """REC-4: offset 10: pop 9, 11, 69, 71 -> none, jid-1, none, jid-2."""
    ql.recur(offset=10)
    assert ql.pop(now=9) == {}
    assert jids(ql.pop(now=11)) == ["jid-1"]
    assert ql.pop(now=69) == {}
    assert jids(ql.pop(now=71)) == ["jid-2"]


def test_rec_4_multiple_history_whens(ql):
    """REC-4: pop 599 count 10 -> 10 jobs with put whens 0, 60, …, 540."""
    ql.recur()
    popped = ql.pop(now=599, count=10)
    assert jids(popped) == ["jid-%d" % i for i in range(1, 11)]
    assert [j["history"][0]["when"] for j in popped] == list(range(0, 600, 60))
    assert ql.pop(now=599, count=100) == {}


def test_rec_4_count_bounds_spawn(ql):
    """§11.2: at most n instances per call; the rest come later."""
    ql.recur()
    assert jids(ql.pop(now=599, count=3)) == ["jid-1", "jid-2", "jid-3"]
    assert len(jids(ql.pop(now=599, count=100))) == 7


def test_rec_4_backlog(ql):
    """REC-4: backlog 1, pop 600 -> 2 jobs, first jid-1 (due 540 and 600)."""
    ql.recur(backlog=1)
    popped = ql.pop(now=600, count=100)
    assert jids(popped) == ["jid-1", "jid-2"]
    assert [j["history"][0]["when"] for j in popped] == [540, 600]


def test_rec_4_priority_against_waiting(ql):
    """REC-4: low put at 0, template high priority 10 -> high-1 then low."""
    ql.put("low")
    ql.recur("high", priority=10)
    assert jids(ql.pop(count=10)) == ["high-1", "low"]


def test_rec_4_attributes(ql):
    """REC-4: retries 2, tags, data [] copied into the instance."""
    ql.recur(retries=2, tags=["foo", "bar"], data="[]")
    job = ql.pop()[0]
    assert (job["retries"], job["remaining"]) == (2, 2)
    assert job["tags"] == ["foo", "bar"]
    assert job["data"] == "[]"
    assert ql.tag_get("foo")["jobs"] == ["jid-1"]


def test_rec_4_full_instance(ql):
    """§11.3 full instance example."""
    ql.recur(priority=10, tags=["foo"], retries=2)
    assert ql.pop(now=0) == [{
        "jid": "jid-1", "klass": "klass", "state": "running", "queue": "queue",
        "worker": "worker", "tracked": False, "priority": 10, "expires": 60, "retries": 2,
        "remaining": 2, "data": "{}", "tags": ["foo"],
        "history": [{"q": "queue", "what": "put", "when": 0},
                    {"what": "popped", "when": 0, "worker": "worker"}],
        "failure": {}, "spawned_from_jid": "jid", "dependents": {}, "dependencies": {}}]


@pytest.mark.parametrize("key,value,field,expected", [
    ("priority", 10, "priority", 10),
    ("retries", 2, "retries", 2),
    ("data", '{"foo": "bar"}', "data", '{"foo": "bar"}'),
    ("klass", "class", "klass", "class"),
])
def test_rec_4_update_attribute(ql, key, value, field, expected):
    """REC-4: recur.update priority/retries/data/klass -> next instance has it."""
    ql.recur()
    ql.pop(now=0)
    assert ql("recur.update", 0, "jid", key, value) == 1
    assert ql.pop(now=60)[0][field] == expected


def test_rec_4_update_interval(ql):
    """REC-4: recur.update interval 10 after pop 0 -> pop 60 gives 6 instances."""
    ql.recur()
    ql.pop(now=0)
    ql("recur.update", 0, "jid", "interval", 10)
    assert len(jids(ql.pop(now=60, count=100))) == 6


def test_rec_4_update_queue(ql):
    """REC-4: recur.update queue other -> pop from other only."""
    ql.recur()
    ql.pop(now=0)
    ql("recur.update", 0, "jid", "queue", "other")
    assert ql.pop(now=60) == {}
    assert jids(ql.pop(now=60, queue="other")) == ["jid-2"]


def test_rec_4_unrecur(ql, r):
    """REC-4 / REC-7: unrecur after first pop -> no more instances; reply 1."""
    ql.recur()
    ql.pop(now=0)
    assert ql("unrecur", 0, "jid") == 1
    assert ql.pop(now=60) == {}
    assert r.exists("ql:r:jid") == 0
    assert ql.state("jid-1") == "running"
    assert ql("unrecur", 0, "unknown") == 1


def test_rec_4_tag_untag(ql):
    """REC-4: recur.tag foo -> instance tags ["foo"]; recur.untag -> {}."""
    ql.recur()
    ql.pop(now=0)
    assert ql.json("recur.tag", 0, "jid", "foo") == ["foo"]
    assert ql.pop(now=60)[0]["tags"] == ["foo"]
    assert ql("recur.untag", 0, "jid", "foo") == "{}"
    assert ql.pop(now=120)[0]["tags"] == {}


def test_rec_4_rerecur(ql):
    """REC-4: re-recur at 60 keeps the count: next instance jid-2."""
    ql.recur()
    ql.pop(now=0)
    ql.recur(now=60)
    assert jids(ql.pop(now=60)) == ["jid-2"]


def test_rec_4_rerecur_move(ql):
    """REC-4: re-recur at 60 in `other` -> pop 60 other returns jid-2."""
    ql.recur()
    ql.pop(now=0)
    ql.recur(now=60, queue="other")
    assert ql.pop(now=60) == {}
    assert jids(ql.pop(now=60, queue="other")) == ["jid-2"]


def test_rec_4_rerecur_attributes(ql):
    """REC-4: re-recur with new attributes -> jid-2 carries them."""
    ql.recur()
    ql.pop(now=0)
    ql.recur(now=60, klass="class", data='{"foo": "bar"}', interval=10, priority=5,
             tags=["bar"], retries=5)
    job = ql.pop(now=60)[0]
    assert job["jid"] == "jid-2"
    assert (job["klass"], job["data"], job["priority"]) == ("class", '{"foo": "bar"}', 5)
    assert (job["tags"], job["retries"], job["expires"]) == (["bar"], 5, 120)
    assert job["history"] == [{"q": "queue", "what": "put", "when": 60},
                              {"what": "popped", "when": 60, "worker": "worker"}]


def test_rec_4_queues_and_jobs(ql):
    """REC-4: queues recurring count; jobs recurring lists templates by due time."""
    ql.recur("a", offset=30)
    ql.recur("b", offset=10)
    assert ql.queues(0, "queue")["recurring"] == 2
    assert ql("jobs", 0, "recurring", "queue") == ["b", "a"]


def test_rec_4_no_events_not_tracked(ql, events, r):
    """§11.2 step 3: spawning publishes nothing, instances not tracked."""
    ql.recur()
    r.zrem("ql:queues", "queue")
    with events() as ev:
        ql.peek(now=0)
    assert ev == []
    assert r.zscore("ql:queues", "queue") is None
    assert ql.get("jid-1")["tracked"] is False


def test_rec_5_get(ql):
    """REC-5: recur.get exact object; unknown -> nil."""
    ql("recur", 0, "queue", "jid", "klass", "{}", "interval", 60, 0)
    assert ql.json("recur.get", 0, "jid") == {
        "backlog": 0, "count": 0, "data": "{}", "interval": 60, "jid": "jid",
        "klass": "klass", "priority": 0, "queue": "queue", "retries": 0,
        "state": "recur", "tags": {}}
    assert ql("recur.get", 0, "unknown") is None


def test_rec_5_get_after_spawns(ql):
    """§5.31: count follows the instances; options echoed."""
    ql.recur(priority=3, retries=1, backlog=4, tags=["x"])
    ql.pop(now=120, count=10)
    got = ql.json("recur.get", 0, "jid")
    assert (got["count"], got["priority"], got["retries"], got["backlog"], got["tags"]) == \
        (3, 3, 1, 4, ["x"])


def test_rec_6_instance_names(ql):
    """REC-6: instance jids <jid>-1, <jid>-2 with spawned_from_jid."""
    ql.recur("tmpl", interval=10)
    popped = ql.pop(now=10, count=10)
    assert jids(popped) == ["tmpl-1", "tmpl-2"]
    assert {j["spawned_from_jid"] for j in popped} == {"tmpl"}


def test_rec_8_tag_replies(ql, r):
    """REC-8: recur.tag/untag reply JSON lists; unknown template -> err."""
    ql.recur(tags=["a"])
    assert ql("recur.tag", 0, "jid", "b", "a") == '["a","b"]'
    assert ql.json("recur.tag", 0, "jid", "c", "c") == ["a", "b", "c", "c"]
    assert ql.json("recur.untag", 0, "jid", "c", "a") == ["b"]
    assert r.exists("ql:t:a", "ql:tags") == 0
    assert "does not exist" in ql.err("recur.tag", 0, "nothing", "foo")
    ql.err("recur.untag", 0, "nothing", "foo")


def test_rec_4_backlog_rounds_up(ql):
    """§11.2 step 3: skipped occurrences = ceil(k - backlog) (pop 610 -> only the 600 one)."""
    ql.recur(backlog=1)
    popped = ql.pop(now=610, count=100)
    assert jids(popped) == ["jid-1"]
    assert popped[0]["history"][0]["when"] == 600
    assert jids(ql.pop(now=660, count=100)) == ["jid-2"]
