"""Users, roles and sessions: --auth-file with crypt(3) hashes."""
import re
import subprocess

from conftest import BIN, URL, run_qless


def hash_of(password):
    out = run_qless("web", "hash-password", input=password + "\n").strip()
    # One crypt(3) string and nothing else; a short password ("pw") may turn
    # up inside the hash's random characters, so only a long one is looked for.
    assert re.fullmatch(r"\$[A-Za-z0-9./$]+", out), out
    assert len(password) < 6 or password not in out
    return out


def auth_file(tmp_path, lines):
    p = tmp_path / "users"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_hash_password_makes_a_verifiable_hash(tmp_path, server, r):
    h = hash_of("s3cret")
    assert h.startswith("$y$")   # yescrypt, libcrypt's preferred method
    w = server("--auth-file", auth_file(tmp_path, ["ann:admin:" + h]))
    assert w.get("/api/session").status == 401
    w.auth = "ann:s3cret"
    s = w.get("/api/session").json()
    assert s["user"] == "ann" and s["role"] == "admin"
    w.auth = "ann:wrong"
    assert w.get("/api/queues").status == 401


def test_bcrypt_hashes_are_accepted(tmp_path, server, r):
    import crypt   # Debian's python3.11 still has it (deprecated): a bcrypt hash made elsewhere
    h = crypt.crypt("pw", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16))
    assert h.startswith("$2b$")
    w = server("--auth-file", auth_file(tmp_path, ["bob:read:" + h]))
    w.auth = "bob:pw"
    assert w.get("/api/session").json()["role"] == "read"


def test_login_form_sets_a_session_cookie_and_logout_ends_it(tmp_path, server, r):
    w = server("--auth-file", auth_file(tmp_path, ["ann:admin:" + hash_of("pw")]))
    rep = w.get("/")
    assert rep.status == 303 and rep.headers["Location"] == "/login"
    page = w.get("/login")
    assert page.status == 200 and b'action="/login"' in page.body
    bad = w.post("/login", b"user=ann&password=nope", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert bad.status == 303 and "failed" in bad.headers["Location"] and "Set-Cookie" not in bad.headers
    ok = w.post("/login", b"user=ann&password=pw", headers={"Content-Type": "application/x-www-form-urlencoded"})
    cookie = ok.headers["Set-Cookie"]
    assert ok.status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    w.cookie = cookie.split(";")[0]
    assert w.get("/").status == 200
    token = w.csrf()
    assert w.post("/logout", csrf="x").status == 403
    assert w.post("/logout", csrf=token).status == 303
    assert w.get("/api/session").status == 401


def test_role_read_may_look_but_not_change(tmp_path, server, qless, r):
    qless("put", "q", "K")
    f = auth_file(tmp_path, ["# readers and admins", "", "rita:read:" + hash_of("rita-pw"), "adam:admin:" + hash_of("adam-pw")])
    w = server("--auth-file", f)
    w.auth = "rita:rita-pw"
    assert w.get("/api/queues").status == 200
    rep = w.post("/api/queues/q/pause", csrf=w.csrf())
    assert rep.status == 403 and rep.json() == {"error": "read-only"}
    w.auth = "adam:adam-pw"
    assert w.post("/api/queues/q/pause", csrf="wrong").status == 403
    assert w.post("/api/queues/q/pause", csrf=w.csrf()).status == 200
    assert r.sismember("ql:paused_queues", "q")


def test_metrics_and_events_need_a_login_too(tmp_path, server, r):
    w = server("--auth-file", auth_file(tmp_path, ["ann:admin:" + hash_of("pw")]))
    assert w.get("/metrics").status == 401
    assert w.get("/api/events").status == 401
    assert w.get("/assets/index.html").status == 200   # the pages' files are public


def test_bad_auth_files_are_refused(tmp_path):
    for lines, word in [(["ann:boss:$y$j9T$abc$def"], "role"), (["ann:admin:plain"], "hash"), (["nocolon"], "user:role:hash"),
                        (["# only a comment"], "no users")]:
        p = subprocess.run([BIN, "--url", URL, "web", "--listen", "127.0.0.1:0", "--auth-file",
                            auth_file(tmp_path, lines)], capture_output=True, text=True, timeout=20)
        assert p.returncode == 2 and word in p.stderr, (lines, p.stderr)
    p = subprocess.run([BIN, "--url", URL, "web", "--auth-file", str(tmp_path / "missing")],
                       capture_output=True, text=True, timeout=20)
    assert p.returncode == 2 and "cannot open" in p.stderr


def test_the_password_never_reaches_the_output(tmp_path, server, r):
    w = server("--auth-file", auth_file(tmp_path, ["ann:admin:" + hash_of("pw")]))
    w.post("/login", b"user=ann&password=TopSecret99", headers={"Content-Type": "application/x-www-form-urlencoded"})
    w.stop()
    assert "TopSecret99" not in w.err
