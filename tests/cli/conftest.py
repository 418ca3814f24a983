"""Fixtures for the end-to-end tests of the `qless` command line.

Environment (set by ctest, see tests/CMakeLists.txt and tests/cli/CMakeLists.txt):
  QLESS_TEST_STATE  directory with `socket` and `port` of the private redis-server
  QLESS_CLI         the qless executable under test

Fixtures:
  r       raw redis connection (decoded strings) to prepare and inspect state
  url     the server's URL for --url (its unix socket)
  qless   qless(*args, code=0, env=None) -> (stdout, stderr): runs the CLI with
          --url, asserting the exit status
  raw     raw(*args, env=None) -> CompletedProcess, no --url, nothing asserted
  snapshot  snapshot() -> every key with its type and contents, to prove that
            a refused command changed nothing
"""
import os
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from suite_env import r, require_env, sock  # noqa: E402,F401 (r and sock are fixtures)


def _require_env(name):
    return require_env(name, "cli")


CLI = _require_env("QLESS_CLI")


@pytest.fixture(scope="session")
def url(sock):
    return "unix://" + sock


@pytest.fixture(scope="session")
def base_env():
    """No QLESS_URL, and a private QLESS_HOME: a test that forgot --url must
    not reach (or start) anything in the real home."""
    home = tempfile.mkdtemp(prefix="qlcli", dir="/tmp")
    env = dict(os.environ)
    env.pop("QLESS_URL", None)
    env["QLESS_HOME"] = home
    env["TZ"] = "UTC"
    yield env
    subprocess.run([CLI, "server", "stop"], env=env, capture_output=True, timeout=30)
    for name in os.listdir(home):
        path = os.path.join(home, name)
        if os.path.isdir(path):
            for sub in os.listdir(path):
                os.unlink(os.path.join(path, sub))
            os.rmdir(path)
        else:
            os.unlink(path)
    os.rmdir(home)


@pytest.fixture(autouse=True)
def _fresh_db(r):
    r.flushall()
    yield


@pytest.fixture
def raw(base_env):
    def run(*args, env=None, timeout=20):
        e = dict(base_env)
        e.update(env or {})
        return subprocess.run([CLI, *args], env=e, capture_output=True, text=True, timeout=timeout)
    return run


@pytest.fixture
def qless(raw, url):
    def run(*args, code=0, env=None):
        p = raw("--url", url, *args, env=env)
        assert p.returncode == code, "qless %s: exit %d, expected %d\nstdout: %s\nstderr: %s" % (
            " ".join(args), p.returncode, code, p.stdout, p.stderr)
        if code == 0:
            assert p.stderr == "", p.stderr
        else:
            # exactly one line on stderr, naming the program
            assert p.stderr.startswith("qless: ") and p.stderr.count("\n") == 1, p.stderr
            assert p.stdout == "", p.stdout
        return p.stdout, p.stderr
    return run


def _dump(r):
    state = {}
    for key in r.keys("*"):
        kind = r.type(key)
        if kind == "string":
            value = r.get(key)
        elif kind == "hash":
            value = r.hgetall(key)
        elif kind == "list":
            value = r.lrange(key, 0, -1)
        elif kind == "set":
            value = sorted(r.smembers(key))
        elif kind == "zset":
            value = r.zrange(key, 0, -1, withscores=True)
        else:
            value = None
        state[key] = (kind, value)
    return state


@pytest.fixture
def snapshot(r):
    return lambda: _dump(r)
