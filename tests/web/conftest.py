"""Fixtures for the tests of `qless web` (the dashboard's HTTP server).

Environment (set by ctest, tests/web/CMakeLists.txt):
  QLESS_TEST_STATE  directory with `socket` of the private redis-server
  QLESS_WEB_BIN     the qless executable under test (also its ASan build)

Fixtures:
  r        raw redis connection (decoded strings), flushed for each test
  qless    qless(*args, input=None, code=0) -> stdout: runs the CLI with --url
  server   server(*flags) -> Web: starts `qless web --listen 127.0.0.1:0 ...`
           and stops it (by its pid) after the test; its stderr must be free of
           sanitizer reports and it must exit 0 on SIGTERM
"""
import base64
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
import redis

BIN = os.environ.get("QLESS_WEB_BIN")
STATE = os.environ.get("QLESS_TEST_STATE")
if not BIN or not STATE:
    pytest.exit("QLESS_WEB_BIN/QLESS_TEST_STATE not set: run through ctest (ctest -R web)", returncode=2)
with open(os.path.join(STATE, "socket")) as _f:
    SOCK = _f.read().strip()
URL = "unix://" + SOCK
SANITIZER = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:")


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


class Web:
    """One running `qless web`."""

    def __init__(self, proc, base, errfile):
        self.proc, self.base, self.errfile = proc, base, errfile
        self.cookie = None
        self.auth = None
        self.err = None   # its stderr, read (and the file removed) once it stopped

    def request(self, method, path, body=None, headers=None, csrf=None):
        data = None
        h = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if csrf is not None:
            h["X-CSRF-Token"] = csrf
        if self.cookie:
            h["Cookie"] = self.cookie
        if self.auth:
            h["Authorization"] = "Basic " + base64.b64encode(self.auth.encode()).decode()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(req, timeout=30) as resp:
                return Reply(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as e:
            return Reply(e.code, e.headers, e.read())

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body=body if body is not None else {}, **kw)

    def csrf(self):
        return self.get("/api/session").json()["csrf"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("qless web did not stop on SIGTERM")
        if self.err is None:
            with open(self.errfile) as f:
                self.err = f.read()
            os.unlink(self.errfile)
        err = self.err
        assert not SANITIZER.search(err), err
        assert self.proc.returncode == 0, (self.proc.returncode, err)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def r():
    conn = redis.Redis(unix_socket_path=SOCK, decode_responses=True)
    conn.flushall()
    yield conn
    conn.close()


def run_qless(*args, input=None, code=0):
    p = subprocess.run([BIN, "--url", URL] + list(args), input=input, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == code, (args, p.returncode, p.stdout, p.stderr)
    return p.stdout if code == 0 else p.stderr


@pytest.fixture
def qless():
    return run_qless


def start_web(*flags):
    errfile = tempfile.mktemp(prefix="qlweb-err-", dir="/tmp")
    err = open(errfile, "w")
    proc = subprocess.Popen([BIN, "--url", URL, "web", "--listen", "127.0.0.1:0"] + list(flags),
                            stdout=subprocess.PIPE, stderr=err, text=True)
    err.close()
    line = proc.stdout.readline()
    m = re.search(r"listening on (http://\S+)", line)
    if not m:
        proc.kill()
        proc.wait()
        raise AssertionError("qless web did not start: %r %s" % (line, open(errfile).read()))
    return Web(proc, m.group(1).rstrip("/"), errfile)


@pytest.fixture
def server(r):
    started = []

    def start(*flags):
        w = start_web(*flags)
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()
