"""tag, track, depends."""
import json


def put(qless, *args):
    return qless("put", *args)[0].strip()


def test_tag_add_remove(qless, r):
    jid = put(qless, "q", "K", "--tags", "a")
    assert qless("tag", "add", jid, "b", "c")[0] == "a\nb\nc\n"
    assert json.loads(r.hget("ql:j:" + jid, "tags")) == ["a", "b", "c"]
    out, _ = qless("--json", "tag", "remove", jid, "a", "c")
    assert json.loads(out) == {"jid": jid, "tags": ["b"]}
    assert r.zscore("ql:t:a", jid) is None and r.zscore("ql:t:b", jid) is not None


def test_tag_get_and_top(qless):
    j1 = put(qless, "q", "K", "--tags", "red,blue")
    j2 = put(qless, "q", "K", "--tags", "red")
    assert qless("tag", "get", "red")[0] == "%s\n%s\n" % (j1, j2)
    assert json.loads(qless("tag", "get", "red", "--json", "--count", "1")[0]) == {"total": 2, "jobs": [j1]}
    rows = [line.split() for line in qless("tag", "top")[0].splitlines()]
    assert rows == [["TAG", "JOBS"], ["red", "2"]]
    assert json.loads(qless("--json", "tag", "top")[0]) == {"red": 2}


def test_tag_bad_input(qless, snapshot):
    jid = put(qless, "q", "K")
    before = snapshot()
    assert "needs add, remove, get or top" in qless("tag", "paint", jid, code=2)[1]
    assert "needs JID and at least one TAG" in qless("tag", "add", jid, code=2)[1]
    assert "no job nope" in qless("tag", "add", "nope", "x", code=1)[1]
    assert "--count must be an integer" in qless("tag", "get", "x", "--count", "lots", code=2)[1]
    assert snapshot() == before


def test_track(qless, r):
    jid = put(qless, "q", "K")
    assert qless("track", "add", jid)[0] == "tracking %s\n" % jid
    assert r.zscore("ql:tracked", jid) is not None
    rows = qless("track")[0].splitlines()
    assert len(rows) == 2 and rows[1].split()[0] == jid
    listed = json.loads(qless("--json", "track")[0])
    assert [j["jid"] for j in listed["jobs"]] == [jid] and listed["expired"] == []
    assert qless("track", "remove", jid)[0] == "not tracking %s\n" % jid
    assert r.zscore("ql:tracked", jid) is None
    qless("track", "add", "nope", code=1)
    qless("track", "follow", jid, code=2)


def test_depends(qless, r):
    a, b, c = put(qless, "q", "K"), put(qless, "q", "K"), put(qless, "q", "K")
    d = put(qless, "q", "K", "--depends", a)
    assert sorted(qless("depends", "add", d, b, c)[0].split()) == sorted([a, b, c])
    assert r.smembers("ql:j:%s-dependencies" % d) == {a, b, c}
    out, _ = qless("--json", "depends", "remove", d, b)
    assert sorted(json.loads(out)["dependencies"]) == sorted([a, c])
    assert qless("depends", "clear", d)[0] == ""
    assert r.hget("ql:j:" + d, "state") == "waiting"


def test_depends_bad_input(qless, snapshot):
    a = put(qless, "q", "K")
    before = snapshot()
    qless("depends", "add", a, code=2)
    qless("depends", "clear", code=2)
    qless("depends", "wipe", a, code=2)
    assert "no job nope" in qless("depends", "clear", "nope", code=1)[1]
    qless("depends", "add", a, "x", code=1)   # a waiting job does not accept dependencies
    assert snapshot() == before
