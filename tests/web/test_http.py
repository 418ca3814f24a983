"""The HTTP layer of `qless web`: headers, methods, CSRF, --read-only, bad
parameters, and the loopback rule."""
import subprocess

from conftest import BIN, URL

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def test_every_reply_carries_the_security_headers(server):
    w = server()
    for path in ["/", "/api/session", "/api/queues", "/api/nothing", "/metrics", "/assets/index.html"]:
        rep = w.get(path)
        assert rep.headers["Content-Security-Policy"] == CSP, path
        assert rep.headers["X-Content-Type-Options"] == "nosniff", path
        assert rep.headers["Referrer-Policy"] == "no-referrer", path


def test_index_and_assets_are_built_in(server):
    w = server()
    rep = w.get("/")
    assert rep.status == 200 and rep.headers["Content-Type"].startswith("text/html")
    assert b"<html" in rep.body
    assert w.get("/assets/index.html").body == rep.body
    assert w.get("/assets/nope.js").status == 404


def test_session_gives_a_token_and_the_role(server):
    s = server().get("/api/session").json()
    assert len(s["csrf"]) == 64 and s["role"] == "admin" and s["read_only"] is False and s["user"] == "local"


def test_unknown_endpoint_is_404_and_wrong_method_405(server, qless):
    w = server()
    rep = w.get("/api/bogus")
    assert rep.status == 404 and "error" in rep.json()
    rep = w.get("/api/queues/q/pause")
    assert rep.status == 405 and "POST" in rep.json()["error"]
    rep = w.post("/api/queues", csrf=w.csrf())
    assert rep.status == 405
    assert w.request("DELETE", "/api/queues").status == 405


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(server, qless, r):
    qless("put", "q", "K")
    w = server()
    for token in [None, "", "0" * 64, w.csrf()[:-1] + "x"]:
        rep = w.post("/api/queues/q/pause", csrf=token)
        assert rep.status == 403 and rep.json() == {"error": "CSRF token missing or wrong"}, token
    assert not r.sismember("ql:paused_queues", "q")
    rep = w.post("/api/queues/q/pause", csrf=w.csrf())
    assert rep.status == 200 and r.sismember("ql:paused_queues", "q")
    assert w.get("/api/queues").json()["items"][0]["paused"] is True


def test_read_only_refuses_every_mutation(server, qless, r):
    jid = qless("put", "q", "K").strip()
    w = server("--read-only")
    assert w.get("/api/session").json()["read_only"] is True
    token = w.csrf()
    for path, body in [("/api/queues/q/pause", {}), ("/api/jobs/%s/cancel" % jid, {}),
                       ("/api/jobs/%s/priority" % jid, {"priority": 3}), ("/api/failed/g/retry-all", {})]:
        rep = w.post(path, body, csrf=token)
        assert rep.status == 403 and rep.json() == {"error": "read-only"}, path
    assert r.exists("ql:j:" + jid) and not r.sismember("ql:paused_queues", "q")
    assert w.get("/api/queues").status == 200


def test_bad_parameters_are_400_with_a_message(server, qless):
    qless("put", "q", "K")
    w = server()
    cases = [
        ("/api/queues/q/jobs?limit=0", "limit"), ("/api/queues/q/jobs?limit=501", "limit"),
        ("/api/queues/q/jobs?offset=-1", "offset"), ("/api/queues/q/jobs?offset=x", "offset"),
        ("/api/queues/q/jobs?state=bogus", "state"), ("/api/queues/q?date=yesterday", "date"),
        ("/api/search", "at least one"), ("/api/search?state=waiting", "Search()"),
        ("/api/tracked?limit=1e3", "limit"), ("/api/queues/q/jobs?state=%ff", "UTF-8"),
    ]
    for path, word in cases:
        rep = w.get(path)
        assert rep.status == 400, (path, rep.status, rep.body)
        assert word in rep.json()["error"], (path, rep.json())


def test_bad_bodies_are_400(server, qless):
    jid = qless("put", "q", "K").strip()
    w = server()
    t = w.csrf()
    for path, body in [("/api/queues/q/max-concurrency", {"value": -1}), ("/api/queues/q/max-concurrency", {}),
                       ("/api/jobs/%s/priority" % jid, {"priority": "high"}),
                       ("/api/jobs/%s/move" % jid, {"queue": ""}),
                       ("/api/jobs/%s/tags" % jid, {"add": "x"}), ("/api/jobs/%s/tags" % jid, b"[1,2]"),
                       ("/api/jobs/%s/tags" % jid, b"{not json")]:
        rep = w.post(path, body, csrf=t)
        assert rep.status == 400 and rep.json()["error"], (path, rep.body)


def test_unknown_job_is_404(server):
    rep = server().get("/api/jobs/nope")
    assert rep.status == 404 and "nope" in rep.json()["error"]


def test_each_reply_says_its_protocol_calls(server, qless):
    qless("put", "q", "K")
    w = server()
    assert int(w.get("/api/queues").headers["X-Qless-Calls"]) == 2
    assert int(w.get("/api/queues/q/jobs").headers["X-Qless-Calls"]) == 1


def test_a_non_loopback_address_needs_an_auth_file():
    for addr in ["0.0.0.0:0", "[::]:0", "192.0.2.1:0"]:
        p = subprocess.run([BIN, "--url", URL, "web", "--listen", addr], capture_output=True, text=True, timeout=20)
        assert p.returncode == 2, (addr, p.stdout, p.stderr)
        assert "--auth-file" in p.stderr and "loopback" in p.stderr


def test_bad_listen_values_are_usage_errors():
    for addr in ["localhost", "127.0.0.1:99999", "127.0.0.1:x", "nohost:80", ":80"]:
        p = subprocess.run([BIN, "--url", URL, "web", "--listen", addr], capture_output=True, text=True, timeout=20)
        assert p.returncode == 2 and "--listen" in p.stderr, (addr, p.stderr)
