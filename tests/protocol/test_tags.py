"""§5.17 tag (TAG-*)."""
import random

import pytest

TAG_1 = [[], ["add"], ["remove"], ["get"], ["get", "foo", "bar"], ["get", "foo", "0", "bar"],
         ["top", "bar"], ["top", "0", "bar"], ["foo"]]


@pytest.mark.parametrize("args", TAG_1, ids=lambda a: " ".join(a) or "none")
def test_tag_1_malformed(ql, r, args):
    """TAG-1: malformed tag commands -> err."""
    ql.err("tag", 0, *args)
    assert r.dbsize() == 0


def test_tag_2_add(ql, r):
    """TAG-2: tag add jid foo -> ["foo"]; indexed."""
    ql.put()
    assert ql.json("tag", 3, "add", "jid", "foo") == ["foo"]
    assert ql.get()["tags"] == ["foo"]
    assert r.zscore("ql:t:foo", "jid") == 3
    assert r.zscore("ql:tags", "foo") == 1


def test_tag_3_remove(ql, r):
    """TAG-3: tag remove jid foo -> {}."""
    ql.put(tags=["foo"])
    assert ql("tag", 0, "remove", "jid", "foo") == "{}"
    assert ql.get()["tags"] == {}
    assert r.zscore("ql:t:foo", "jid") is None


def test_tag_4_no_duplicates(ql, r):
    """TAG-4: adding an existing tag does not duplicate it."""
    ql.put(tags=["foo"])
    assert ql.json("tag", 0, "add", "jid", "foo") == ["foo"]
    assert ql.json("tag", 0, "add", "jid", "foo", "foo", "foo") == ["foo"]
    assert ql.get()["tags"] == ["foo"]
    assert r.zscore("ql:tags", "foo") == 5  # counted on every add (§5.17)


def test_tag_5_remove_absent(ql):
    """TAG-5: removing an absent tag leaves tags unchanged."""
    ql.put(tags=["foo"])
    assert ql.json("tag", 0, "remove", "jid", "bar") == ["foo"]
    assert ql.get()["tags"] == ["foo"]


def test_tag_6_get(ql):
    """TAG-6: get foo [foo], get bar [bar], get both [bar, foo]."""
    ql.put("foo", tags=["foo", "both"])
    ql.put("bar", tags=["bar", "both"])
    assert ql.tag_get("foo") == {"total": 1, "jobs": ["foo"]}
    assert ql.tag_get("bar") == {"total": 1, "jobs": ["bar"]}
    assert ql.tag_get("both") == {"total": 2, "jobs": ["bar", "foo"]}


def test_tag_7_get_before_and_after(ql):
    """TAG-7: get foo before add -> jobs {}; after -> [jid]."""
    ql.put()
    assert ql.tag_get("foo") == {"total": 0, "jobs": {}}
    ql("tag", 0, "add", "jid", "foo")
    assert ql.tag_get("foo") == {"total": 1, "jobs": ["jid"]}


def test_tag_8_insertion_order(ql):
    """TAG-8: tags keep insertion order through adds and random removes."""
    ql.put()
    tags = ["t%d" % i for i in range(20)]
    for tag in tags:
        ql("tag", 0, "add", "jid", tag)
    assert ql.get()["tags"] == tags
    rng = random.Random(7)
    for tag in rng.sample(tags, 10):
        tags.remove(tag)
        assert ql.json("tag", 0, "remove", "jid", tag) == tags
    assert ql.get()["tags"] == tags


def test_tag_9_canceled(ql):
    """TAG-9: canceled job disappears from tag get."""
    ql.put(tags=["foo"])
    ql.put("other", tags=["foo"])
    ql("cancel", 0, "jid")
    assert ql.tag_get("foo") == {"total": 1, "jobs": ["other"]}


def test_tag_10_purged_by_age(ql):
    """TAG-10: jobs-history 100: listed at 99, gone after a completion at 101."""
    ql.config("jobs-history", 100)
    ql.running(tags=["foo"])
    ql.complete(now=0)
    ql.running("other", put_at=99, pop_at=99)
    assert ql.tag_get("foo", 99) == {"total": 1, "jobs": ["jid"]}
    ql.complete("other", now=101)
    assert ql.tag_get("foo", 101) == {"total": 0, "jobs": {}}
    assert ql.get() is None


def test_tag_10_purged_by_count(ql):
    """TAG-10: jobs-history-count 1: completing a second job unindexes the first."""
    ql.config("jobs-history-count", 1)
    ql.running("a", tags=["foo"])
    ql.complete("a")
    assert ql.tag_get("foo") == {"total": 1, "jobs": ["a"]}
    ql.running("b", put_at=1, pop_at=1)
    ql.complete("b", now=1)
    assert ql.tag_get("foo") == {"total": 0, "jobs": {}}


def test_tag_11_top(ql):
    """TAG-11: jobs 0..9 with tags [i..9] -> top = 9..1."""
    for i in range(10):
        ql.put(str(i), tags=[str(t) for t in range(i, 10)])
    assert ql.json("tag", 0, "top", 0, 20) == [str(t) for t in range(9, 0, -1)]


def test_tag_11_top_empty(ql):
    """§5.17: top with nothing used twice -> {}."""
    ql.put(tags=["once"])
    assert ql("tag", 0, "top") == "{}"


def test_tag_12_recurring(ql):
    """TAG-12: recurring template tags -> instance listed under the tag."""
    ql.recur(tags=["foo"])
    ql.pop()
    assert ql.tag_get("foo") == {"total": 1, "jobs": ["jid-1"]}


def test_tag_13_paging(ql):
    """TAG-13: 100 jobs tagged at 0..99 -> pages by tagging time."""
    for t in range(100):
        ql.put(str(t), now=t, tags=["foo"])
    first = ql.tag_get("foo", 0, 0, 50)
    assert first == {"total": 100, "jobs": [str(t) for t in range(50)]}
    assert ql.tag_get("foo", 0, 50, 50)["jobs"] == [str(t) for t in range(50, 100)]
    assert len(ql.tag_get("foo")["jobs"]) == 25


def test_tag_14_top_paging(ql):
    """TAG-14: tags 0..9 used by 5..14 jobs -> top 0 5 = 9..5, top 5 5 = 4..0."""
    for tag in range(10):
        for n in range(5 + tag):
            ql.put("%d-%d" % (tag, n), tags=[str(tag)])
    assert ql.json("tag", 0, "top", 0, 5) == ["9", "8", "7", "6", "5"]
    assert ql.json("tag", 0, "top", 5, 5) == ["4", "3", "2", "1", "0"]


def test_tag_15_missing_job(ql, r):
    """TAG-15: tag add/remove on a nonexistent job -> err(does not exist)."""
    assert "does not exist" in ql.err("tag", 0, "add", "jid", "foo")
    ql.err("tag", 0, "remove", "jid", "foo")
    assert r.dbsize() == 0


def test_tag_no_events_no_history(ql, events):
    """§3.3/§9.3: tag writes no history and publishes nothing."""
    ql.put()
    ql.track()
    with events() as ev:
        ql("tag", 0, "add", "jid", "foo")
        ql("tag", 0, "remove", "jid", "foo")
    assert ev == []
    assert len(ql.get()["history"]) == 1
