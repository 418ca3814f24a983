"""§5.18 track (TRK-*)."""
import pytest

from helpers import fresh_job


@pytest.mark.parametrize("args", [["track"], ["untrack"], ["foo"]])
def test_trk_1_malformed(ql, args):
    """TRK-1: track 0 track / untrack (no jid) / foo -> err."""
    ql.put()
    ql.err("track", 0, *args)


def test_trk_1_unknown_subcommand_with_jid(ql):
    """§5.18: subcommand other than track/untrack -> err."""
    ql.put()
    ql.err("track", 0, "foo", "jid")


def test_trk_1_subcommand_case_insensitive(ql):
    """§5.18: the subcommand is compared case-insensitively."""
    ql.put()
    assert ql.json("track", 0, "TRACK", "jid") == 1
    assert ql.json("track", 0, "UnTrack", "jid") == 1


def test_trk_2_listing(ql):
    """TRK-2: tracked waiting job -> {"jobs":[<object tracked:true>],"expired":{}}."""
    ql.put()
    assert ql.track() == 1
    assert ql.json("track", 0) == {"jobs": [fresh_job(tracked=True)], "expired": {}}


def test_trk_2_reply_values(ql):
    """§5.18: track replies 1 when newly tracked, 0 otherwise; same for untrack."""
    ql.put()
    assert ql("track", 0, "track", "jid") == "1"
    assert ql("track", 0, "track", "jid") == "0"
    assert ql("track", 0, "untrack", "jid") == "1"
    assert ql("track", 0, "untrack", "jid") == "0"


def test_trk_2_order(ql):
    """§5.18: listing walks ql:tracked in ascending tracking time."""
    for jid, t in (("a", 5), ("b", 1), ("c", 3)):
        ql.put(jid)
        ql.track(jid, now=t)
    assert [j["jid"] for j in ql.json("track", 0)["jobs"]] == ["b", "c", "a"]


def test_trk_3_untracked(ql):
    """TRK-3: after untrack -> {"jobs":{},"expired":{}}."""
    ql.put()
    ql.track()
    ql.json("track", 0, "untrack", "jid")
    assert ql("track", 0) in ('{"jobs":{},"expired":{}}', '{"expired":{},"jobs":{}}')


def test_trk_4_missing(ql, r):
    """TRK-4: tracking a nonexistent job -> err(does not exist)."""
    assert "does not exist" in ql.err("track", 0, "track", "jid")
    assert r.dbsize() == 0


def test_trk_5_get_flag(ql):
    """TRK-5: get shows tracked true/false."""
    ql.put()
    assert ql.get()["tracked"] is False
    ql.track()
    assert ql.get()["tracked"] is True
    ql.json("track", 0, "untrack", "jid")
    assert ql.get()["tracked"] is False


def test_trk_6_events(ql, events):
    """TRK-6: ql:track jid / ql:untrack jid (published even without change)."""
    ql.put()
    with events() as ev:
        ql.track()
        ql.track()
        ql.json("track", 0, "untrack", "jid")
        ql.json("track", 0, "untrack", "jid")
    assert ev == [("ql:track", "jid"), ("ql:track", "jid"),
                  ("ql:untrack", "jid"), ("ql:untrack", "jid")]


def test_trk_7_expired(ql):
    """TRK-7: a tracked job that was canceled is listed under expired."""
    ql.put("a")
    ql.put("b")
    ql.track("a")
    ql.track("b", now=1)
    ql("cancel", 0, "a")
    listing = ql.json("track", 0)
    assert listing["expired"] == ["a"]
    assert [j["jid"] for j in listing["jobs"]] == ["b"]


def test_trk_7_purged_completed_job_expired(ql):
    """§12.1: a purged completed job stays tracked and is listed as expired."""
    ql.config("jobs-history", -1)
    ql.running()
    ql.track()
    ql.complete()
    assert ql.json("track", 0) == {"jobs": {}, "expired": ["jid"]}
