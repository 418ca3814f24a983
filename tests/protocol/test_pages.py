"""lua/pages.lua: the dashboard's tag and tracked pages list jobs oldest
first, page by offset and count, and give the whole set's total."""


def jids(page):
    return [j["jid"] for j in page["jobs"]]


def test_tagged_page_lists_oldest_first_by_window(ql):
    for now, jid in enumerate(["t1", "t2", "t3"]):
        ql.put(jid, now=now, tags=["hot"])
    page = ql.json("tagged.page", 9, "hot", 0, 2)
    assert page["total"] == 3 and jids(page) == ["t1", "t2"]
    assert jids(ql.json("tagged.page", 9, "hot", 2, 2)) == ["t3"]
    assert ql.json("tagged.page", 9, "cold")["total"] == 0


def test_tracked_page_lists_oldest_first_by_window(ql):
    for now, jid in enumerate(["k1", "k2", "k3"]):
        ql.put(jid)
        ql.track(jid, now=now)
    page = ql.json("tracked.page", 9, 1, 5)
    assert page["total"] == 3 and jids(page) == ["k2", "k3"]
