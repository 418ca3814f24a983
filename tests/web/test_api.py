"""The JSON API: every endpoint of the contract on a small data set, the
actions, search, /metrics (promtool) and the live events."""
import json
import shutil
import socket
import subprocess
import time

import pytest

from conftest import BIN, URL


def put(qless, queue="q", klass="K", *args):
    return qless("put", queue, klass, *args).strip()


def failed_jobs(qless, n, group="boom", queue="q"):
    jids = [put(qless, queue, "Fails") for _ in range(n)]
    qless("--worker", "w1", "pop", queue, str(n))
    for j in jids:
        qless("--worker", "w1", "fail", j, group, "it broke")
    return jids


def test_queues_and_overview(server, qless):
    put(qless, "a")
    put(qless, "a")
    put(qless, "b")
    w = server()
    items = {q["name"]: q for q in w.get("/api/queues").json()["items"]}
    assert items["a"]["waiting"] == 2 and items["b"]["waiting"] == 1
    for key in ["name", "waiting", "running", "scheduled", "stalled", "depends", "recurring", "paused",
                "max_concurrency"]:
        assert key in items["a"]
    o = w.get("/api/overview").json()
    assert len(o["queues"]) == 2 and o["failed"] == 0 and o["workers"] == 0


def test_queue_detail_with_stats_and_max_concurrency(server, qless):
    put(qless, "a")
    qless("--worker", "w1", "pop", "a")
    w = server()
    t = w.csrf()
    assert w.post("/api/queues/a/max-concurrency", {"value": 3}, csrf=t).status == 200
    d = w.get("/api/queues/a").json()
    assert d["running"] == 1 and d["max_concurrency"] == 3
    assert d["stats"]["wait"]["count"] == 1 and len(d["stats"]["wait"]["histogram"]) > 0
    assert w.post("/api/queues/a/max-concurrency", {"value": 0}, csrf=t).status == 200
    assert w.get("/api/queues/a").json()["max_concurrency"] == 0
    assert w.get("/api/queues/a?date=2001-01-01").json()["stats"]["wait"]["count"] == 0


def test_queue_jobs_page_by_state_with_paging(server, qless):
    jids = [put(qless, "q", "K", "--priority", str(i)) for i in range(30)]
    w = server()
    first = w.get("/api/queues/q/jobs?state=waiting&limit=20").json()
    assert first["total"] == 30 and len(first["items"]) == 20 and first["next"] == "20"
    rest = w.get("/api/queues/q/jobs?offset=20&limit=20").json()
    assert len(rest["items"]) == 10 and rest["next"] is None
    seen = [j["jid"] for j in first["items"] + rest["items"]]
    assert sorted(seen) == sorted(jids)
    assert seen[0] == jids[-1]   # highest priority pops first, and is listed first
    job = first["items"][0]
    for key in ["jid", "klass", "queue", "state", "priority", "worker", "tags", "expires", "retries",
                "remaining", "failure"]:
        assert key in job
    qless("--worker", "w1", "pop", "q", "2")
    assert w.get("/api/queues/q/jobs?state=running").json()["total"] == 2
    assert w.get("/api/queues/q/jobs?state=scheduled").json()["items"] == []


def test_job_detail_and_actions(server, qless, r):
    dep = put(qless, "q", "Dep")
    jid = put(qless, "q", "K", '{"x": [1, 2]}', "--tags", "a,b", "--depends", dep)
    w = server()
    j = w.get("/api/jobs/" + jid).json()
    assert j["data"] == {"x": [1, 2]} and j["tags"] == ["a", "b"] and j["dependencies"] == [dep]
    assert w.get("/api/jobs/" + dep).json()["dependents"] == [jid]
    assert j["history"] and j["tracked"] is False
    t = w.csrf()
    assert w.post("/api/jobs/%s/priority" % jid, {"priority": 9}, csrf=t).status == 200
    assert w.post("/api/jobs/%s/tags" % jid, {"add": ["c"], "remove": ["a"]}, csrf=t).status == 200
    assert w.post("/api/jobs/%s/track" % jid, csrf=t).status == 200
    j = w.get("/api/jobs/" + jid).json()
    assert j["priority"] == 9 and sorted(j["tags"]) == ["b", "c"] and j["tracked"] is True
    assert [x["jid"] for x in w.get("/api/tracked").json()["items"]] == [jid]
    assert w.post("/api/jobs/%s/untrack" % jid, csrf=t).status == 200
    assert w.get("/api/tracked").json()["items"] == []
    assert w.post("/api/jobs/%s/move" % dep, {"queue": "other"}, csrf=t).status == 200
    assert w.get("/api/jobs/" + dep).json()["queue"] == "other"
    rep = w.post("/api/jobs/%s/cancel" % dep, csrf=t)
    assert rep.status == 400 and "dependency" in rep.json()["error"]   # the library's message passes through
    assert w.post("/api/jobs/%s/cancel" % jid, csrf=t).status == 200
    assert w.get("/api/jobs/" + jid).status == 404


def test_timeout_of_a_running_job(server, qless):
    jid = put(qless)
    qless("--worker", "w1", "pop", "q")
    w = server()
    assert w.post("/api/jobs/%s/timeout" % jid, csrf=w.csrf()).status == 200
    # The lock is gone: the job waits at the head of its queue, marked stalled.
    first = w.get("/api/queues/q/jobs?state=waiting").json()["items"][0]
    assert first["jid"] == jid and first["state"] == "stalled"
    assert w.post("/api/jobs/%s/timeout" % jid, csrf=w.csrf()).status == 400   # not running any more


def test_failed_groups_retry_one_and_retry_all(server, qless):
    jids = failed_jobs(qless, 12)
    failed_jobs(qless, 2, group="other", queue="q2")
    w = server()
    f = w.get("/api/failed").json()
    assert f["groups"] == [{"group": "boom", "count": 12}, {"group": "other", "count": 2}]
    page = w.get("/api/failed/boom?limit=5").json()
    assert page["total"] == 12 and len(page["items"]) == 5
    assert page["items"][0]["failure"]["group"] == "boom" and page["items"][0]["state"] == "failed"
    t = w.csrf()
    assert w.post("/api/jobs/%s/retry" % jids[0], csrf=t).status == 200
    assert w.get("/api/jobs/" + jids[0]).json()["state"] == "waiting"
    rep = w.post("/api/failed/boom/retry-all", csrf=t).json()
    assert rep == {"done": 11, "remaining": 0}
    assert w.get("/api/queues/q/jobs").json()["total"] == 12
    rep = w.post("/api/failed/other/cancel-all", csrf=t).json()
    assert rep["done"] == 2
    assert w.get("/api/failed").json()["groups"] == []


def test_workers(server, qless):
    jid = put(qless)
    qless("--worker", "w1", "pop", "q")
    w = server()
    items = w.get("/api/workers").json()["items"]
    assert items[0]["name"] == "w1" and items[0]["jobs"] == 1
    detail = w.get("/api/workers/w1").json()
    assert [j["jid"] for j in detail["jobs"]] == [jid] and detail["stalled"] == []


def test_recurring_and_schedules(server, qless):
    qless("recur", "add", "sq", "Tick", "--interval", "5m")
    qless("recur", "add", "sq", "Cron", "--cron", "0 9 * * 1-5")
    w = server()
    items = w.get("/api/recurring").json()["items"]
    by = {i["klass"]: i for i in items}
    assert by["Tick"]["description"] == "every 5 minutes"
    n = by["Tick"]["next"]
    assert len(n) == 3 and n[1] - n[0] == 300 and n[2] - n[1] == 300
    assert len(by["Cron"]["next"]) == 3
    assert w.get("/api/overview").json()["schedules"] == 1
    assert by["Cron"]["description"] and by["Cron"]["cron"] == "0 9 * * 1-5"
    s = w.get("/api/schedules").json()["items"]
    assert [(x["name"], x["entries"]) for x in s] == [("sq", 2)]
    assert s[0]["next_run"] == min(by["Tick"]["next"][0], by["Cron"]["next"][0])
    entries = w.get("/api/schedules/sq").json()["items"]
    assert len(entries) == 2 and all(e["next_run"] and e["description"] for e in entries)


def test_config(server, qless):
    qless("config", "set", "heartbeat", "77")
    c = server().get("/api/config").json()
    assert str(c["heartbeat"]) == "77" and "jobs-history" in c


def test_search_by_each_filter_and_combined(server, qless):
    a = put(qless, "q1", "Alpha", "--tags", "red")
    b = put(qless, "q1", "Beta", "--tags", "red,blue")
    c = put(qless, "q2", "Alpha")
    w = server()

    def jids(query):
        rep = w.get("/api/search?" + query)
        assert rep.status == 200, rep.body
        return sorted(j["jid"] for j in rep.json()["items"])

    assert jids("jid=" + a) == [a]
    assert jids("prefix=" + a[:12]) == sorted(x for x in [a, b, c] if x.startswith(a[:12]))
    assert jids("tag=red") == sorted([a, b])
    assert jids("class=Alpha") == sorted([a, c])
    assert jids("class=Alpha&queue=q2") == [c]
    assert jids("tag=red&class=Beta") == [b]
    assert jids("queue=q1") == sorted([a, b])
    assert jids("queue=q1&state=waiting") == sorted([a, b])
    assert jids("class=Nobody") == []
    assert w.get("/api/search?class=Alpha").json()["total"] == 2
    assert w.get("/api/search?class=Alpha&queue=q2").json()["total"] is None


def test_search_pages_with_a_cursor(server, qless):
    jids = {put(qless, "q", "Many") for _ in range(23)}
    put(qless, "q", "Other")
    w = server()
    seen, cursor, pages = [], None, 0
    while True:
        rep = w.get("/api/search?class=Many&limit=10" + ("&cursor=" + cursor if cursor else "")).json()
        seen += [j["jid"] for j in rep["items"]]
        pages += 1
        cursor = rep["next"]
        if not cursor:
            break
    assert sorted(seen) == sorted(jids) and pages == 3


def test_search_skips_canceled_jobs(server, qless):
    a = put(qless, "q", "Gone")
    b = put(qless, "q", "Gone")
    qless("cancel", a)
    assert [j["jid"] for j in server().get("/api/search?class=Gone").json()["items"]] == [b]


def test_metrics_pass_promtool(server, qless):
    put(qless, "a")
    failed_jobs(qless, 2)
    w = server()
    rep = w.get("/metrics")
    assert rep.status == 200 and rep.headers["Content-Type"].startswith("text/plain")
    text = rep.body.decode()
    assert 'qless_jobs{queue="a",state="waiting"} 1' in text
    assert "qless_failed_jobs 2" in text
    assert 'qless_jobs_failed_total{queue="q"} 2' in text
    assert 'qless_wait_seconds_count{queue="q"} 2' in text
    promtool = shutil.which("promtool")
    assert promtool, "promtool missing: scripts/deps.sh installs prometheus"
    p = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    cli = subprocess.run([BIN, "--url", URL, "metrics"], capture_output=True, text=True, timeout=30)
    assert cli.returncode == 0 and 'qless_jobs{queue="a",state="waiting"} 1' in cli.stdout


def read_events(sock, want, timeout=10):
    """Reads SSE text until every string of want was seen."""
    sock.settimeout(timeout)
    buf = b""
    end = time.time() + timeout
    while time.time() < end and not all(x.encode() in buf for x in want):
        chunk = sock.recv(65536)
        if not chunk:
            break
        buf += chunk
    return buf.decode(errors="replace")


def test_events_stream_job_events_and_counts(server, qless, r):
    w = server()
    host, port = w.base[len("http://"):].split(":")
    s = socket.create_connection((host, int(port)))
    s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    head = read_events(s, ["retry: 3000"])
    assert "text/event-stream" in head and "Content-Security-Policy" in head
    time.sleep(0.5)   # the subscription is made when the first page connects
    jid = put(qless, "live")
    text = read_events(s, ["event: counts"])
    assert "event: job" in text and jid in text and '"event":"put"' in text
    counts = [l for l in text.splitlines() if l.startswith("data: [")]
    assert counts and json.loads(counts[-1][6:])[0]["name"] == "live"
    s.close()


def test_no_subscription_while_no_one_looks(server, r):
    w = server()
    assert w.get("/api/queues").status == 200
    assert r.pubsub_numpat() == 0 and r.pubsub_numsub("ql:log") == [("ql:log", 0)]


def test_tree_drawn_with_children_and_terminated(server, qless):
    top = put(qless, "tq", "Top", "--tree")
    kid = put(qless, "tq", "Kid", "--tree", "--parent", top, "--name", "kid")
    plain = put(qless, "tq", "Plain")
    w = server()
    t = w.get("/api/trees/" + top).json()
    assert t["jid"] == top and t["klass"] == "Top" and t["status"] == "waiting" and t["truncated"] is False
    assert [(c["name"], c["jid"], c["klass"]) for c in t["children"]] == [("kid", kid, "Kid")]
    assert t["ports"] == {"in": [], "out": []} and t["aliases"] == [] and t["state"] == {}
    qless("state", "set", top, "step", "3")
    assert w.get("/api/trees/" + top).json()["state"] == {"step": 3}
    assert w.get("/api/trees/nope").status == 404
    rep = w.get("/api/trees/" + plain)
    assert rep.status == 400 and "not a tree job" in rep.json()["error"]
    assert int(w.get("/api/trees/" + top).headers["X-Qless-Calls"]) == 1
    assert w.post("/api/trees/%s/terminate" % top, {"recursive": True}, csrf=w.csrf()).status == 200
    assert w.get("/api/trees/" + top).json()["status"] in ("terminating", "terminated")


def test_tree_sends_channel_subscribers(server, qless):
    top = put(qless, "tq", "Top", "--tree", "--outports", '{"out": {}}')
    kid = put(qless, "tq", "Kid", "--parent", top, "--name", "kid", "--inports", '{"in": {}}')
    far = put(qless, "tq", "Far", "--tree", "--inports", '{"feed": {}}')   # not in the tree
    bare = put(qless, "tq", "Bare", "--tree")
    qless("port", "connect", top, "out", "out", "/news", "/quiet")
    qless("port", "connect", kid, "in", "in", "/news")
    qless("port", "connect", far, "in", "feed", "/news")
    w = server()
    rep = w.get("/api/trees/" + top)
    t = rep.json()
    want = sorted([{"jid": kid, "port": "in"}, {"jid": far, "port": "feed"}], key=lambda s: s["jid"])
    assert t["subscribers"] == [{"channel": "/news", "total": 2, "jobs": want},
                                {"channel": "/quiet", "total": 0, "jobs": []}]
    assert t["channels_truncated"] is False
    assert int(rep.headers["X-Qless-Calls"]) == 1
    assert t["children"][0]["ports"]["in"] == [{"name": "in", "size": 0, "channels": ["/news"]}]
    bare_tree = w.get("/api/trees/" + bare).json()
    assert bare_tree["subscribers"] == [] and bare_tree["channels_truncated"] is False


def seed_failed(r, n, queue, group):
    """n failed jobs through pipelined protocol calls (put, pop, fail)."""
    import os
    sha = r.script_load(open(os.environ["QLESS_LUA_SCRIPT"]).read())
    now = time.time()
    p = r.pipeline(transaction=False)
    for i in range(n):
        p.evalsha(sha, 0, "put", now, "", queue, "F-%05d" % i, "Fails", "{}", 0)
    for _ in range(0, n, 1000):
        p.evalsha(sha, 0, "pop", now, queue, "w1", 1000)
    for i in range(n):
        p.evalsha(sha, 0, "fail", now, "F-%05d" % i, "w1", group, "it broke")
    p.execute()


def test_retry_all_over_5000_jobs_takes_two_requests(server, r):
    seed_failed(r, 5100, "big", "mass")
    w = server()
    assert w.get("/api/failed").json()["groups"] == [{"group": "mass", "count": 5100}]
    t = w.csrf()
    assert w.post("/api/failed/mass/retry-all", csrf=t).json() == {"done": 5000, "remaining": 100}
    assert w.post("/api/failed/mass/retry-all", csrf=t).json() == {"done": 100, "remaining": 0}
    assert w.get("/api/queues/big/jobs").json()["total"] == 5100
    assert w.get("/api/failed").json()["groups"] == []


def put_many(r, n, queue, klass, tags=None):
    """n jobs through the protocol script, pipelined (the CLI would take a process each)."""
    import os
    sha = r.script_load(open(os.environ["QLESS_LUA_SCRIPT"]).read())
    p = r.pipeline(transaction=False)
    opts = ["tags", json.dumps(tags)] if tags else []
    for i in range(n):
        p.evalsha(sha, 0, "put", time.time(), "", queue, "%s-%05d" % (klass, i), klass, "{}", 0, *opts)
    p.execute()


def test_search_work_is_bounded_and_resumes(server, r):
    # 1,200 candidates, none matching: the first page stops at its budget of
    # 1,000 with a cursor, the second finishes the scan.
    put_many(r, 1200, "q1", "Many")
    w = server()
    first = w.get("/api/search?class=Many&queue=q2").json()
    assert first["items"] == [] and first["next"]
    second = w.get("/api/search?class=Many&queue=q2&cursor=" + first["next"]).json()
    assert second["items"] == [] and second["next"] is None


def test_every_page_costs_the_same_calls_whatever_the_data(server, qless, r):
    def calls():
        w = server()
        out = {}
        for path in ["/api/overview", "/api/queues", "/api/queues/q", "/api/queues/q/jobs", "/api/failed",
                     "/api/failed/boom", "/api/workers", "/api/workers/w1", "/api/tracked", "/api/recurring",
                     "/api/schedules", "/api/config", "/api/search?class=K", "/api/search?tag=red",
                     "/api/search?queue=q", "/api/jobs/K-00000", "/api/trees/" + top]:
            rep = w.get(path)
            assert rep.status == 200, (path, rep.body)
            out[path] = int(rep.headers["X-Qless-Calls"])
        w.stop()
        return out

    put_many(r, 5, "q", "K", ["red"])
    top = put(qless, "q", "Top", "--tree")
    failed_jobs(qless, 2, queue="fq")
    few = calls()
    put_many(r, 600, "q", "K", ["red"])
    failed_jobs(qless, 30, queue="fq")
    assert calls() == few


def test_reindex_finds_jobs_put_before_the_index(server, qless, r):
    put_many(r, 7, "q", "Old")
    failed_jobs(qless, 1, queue="fq")
    r.delete("ql:s:index")                       # as if put before the index existed
    w = server()
    assert w.get("/api/search?class=Old").json()["items"] == []
    lines = qless("web", "reindex", "--batch", "3").strip().splitlines()
    assert len(lines) > 3 and all(line.startswith("reindex: ") for line in lines)
    assert lines[-1] == "reindex: done: 8 jobs looked at, 8 added to the search index"
    found = w.get("/api/search?class=Old").json()
    assert found["total"] == 7 and len(found["items"]) == 7
    assert len(w.get("/api/search?prefix=Old-0000").json()["items"]) == 7
    assert len(w.get("/api/search?class=Fails").json()["items"]) == 1
    assert qless("web", "reindex").strip() == "reindex: done: 8 jobs looked at, 0 added to the search index"
    assert 'Arg "count"' in qless("web", "reindex", "--batch", "0", code=2)


def test_tree_delete_leaves_nothing_in_the_search_index(server, qless, r):
    top = put(qless, "tq", "Gone", "--tree")
    kid = put(qless, "tq", "Gone", "--parent", top, "--name", "k")
    w = server()
    t = w.csrf()
    assert w.get("/api/search?class=Gone").json()["total"] == 2
    assert w.post("/api/trees/%s/terminate" % top, {"recursive": True}, csrf=t).status == 200
    assert w.post("/api/trees/%s/delete" % top, csrf=t).status == 200
    assert w.get("/api/search?class=Gone").json()["total"] == 0
    assert [m for m in r.zrange("ql:s:index", 0, -1) if top in m or kid in m] == []


def test_help_names_both_docs(qless):
    text = qless("web", "--help")
    assert "docs/web.md" in text and "docs/web-pages.md" in text and "reindex" in text
