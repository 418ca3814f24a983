"""A seeded generative test of the API's query parameters and bodies: random
offsets, limits, states, filters, dates and garbage never give a 5xx (except
a libqless error passed through as JSON) and never stop the server."""
import os
import random
import urllib.parse

from conftest import run_qless

GARBAGE = ["", "-1", "0", "1", "25", "500", "501", "99999999999999999999", "1e3", "0x10", " 1", "nan", "x",
           "%00", "%ff", "%", "%2", "a/b", "../../etc", "\u00e9", "'", "<script>", "null", "[]", "{}"]
STATES = ["waiting", "running", "scheduled", "stalled", "depends", "recurring", "complete", "failed", "suspended"]
PARAMS = ["offset", "limit", "state", "date", "jid", "prefix", "tag", "class", "queue", "worker", "cursor", "x"]
PATHS = ["/api/queues", "/api/overview", "/api/queues/{q}", "/api/queues/{q}/jobs", "/api/jobs/{j}",
         "/api/failed", "/api/failed/{g}", "/api/workers", "/api/workers/{w}", "/api/tracked", "/api/recurring",
         "/api/schedules", "/api/schedules/{q}", "/api/trees/{j}", "/api/config", "/api/search", "/metrics"]
POSTS = ["/api/queues/{q}/pause", "/api/queues/{q}/max-concurrency", "/api/jobs/{j}/priority", "/api/jobs/{j}/tags",
         "/api/jobs/{j}/move", "/api/jobs/{j}/retry", "/api/jobs/{j}/track", "/api/failed/{g}/retry-all"]


def value(rng, jids):
    return rng.choice(GARBAGE + STATES + jids + ["q", "K", "red", "w1", "boom", "2026-11-28", "1999-02-31"])


def quoted(rng, v):
    """Mostly fully escaped; sometimes with raw '%', '/' and other characters left in."""
    return urllib.parse.quote(v, safe="" if rng.random() < 0.8 else "%/.'<>[]{}")


def seg(rng, pool):
    return quoted(rng, rng.choice(pool + GARBAGE[1:]))


def test_random_queries_never_break_the_server(server, qless):
    seed = int(os.environ.get("QLESS_WEB_SEED") or random.randrange(2 ** 31))
    rng = random.Random(seed)
    jids = [run_qless("put", "q", "K", "--tags", "red").strip() for _ in range(5)]
    w = server()
    t = w.csrf()
    for i in range(400):
        if rng.random() < 0.8:
            path = rng.choice(PATHS)
            query = "&".join("%s=%s" % (rng.choice(PARAMS), quoted(rng, value(rng, jids)))
                             for _ in range(rng.randrange(4)))
            url = path.format(q=seg(rng, ["q"]), j=seg(rng, jids), g=seg(rng, ["boom"]), w=seg(rng, ["w1"]))
            rep = w.get(url + ("?" + query if query else ""))
            what = url + "?" + query
        else:
            url = rng.choice(POSTS).format(q=seg(rng, ["q"]), j=seg(rng, jids), g=seg(rng, ["boom"]))
            body = rng.choice([{}, {"value": rng.choice([1, -1, "x", None, 2.5])}, {"priority": rng.choice([1, "a"])},
                               {"add": rng.choice([["t"], "t", [1]])}, {"queue": rng.choice(["q", "", 3])},
                               b"garbage", b"[]"])
            rep = w.post(url, body, csrf=t)
            what = "POST %s %r" % (url, body)
        assert rep.status in (200, 400, 404, 405), "seed %d step %d: %s -> %d %r" % (seed, i, what, rep.status, rep.body)
        if not url.startswith("/metrics") and rep.status != 200:
            assert rep.json()["error"], (seed, what)
    assert w.get("/api/queues").status == 200
