"""Fixtures for the Python binding suite (run by ctest: see CMakeLists.txt).

Environment: QLESS_TEST_STATE (dir with `port` and `socket` of the private
redis-server), PYTHONPATH with the built `qless` package.

  url      redis://127.0.0.1:<port>/0 of the private server
  r        raw redis-py connection; the db is flushed before every test
  client   a qless.Client on url
  worker   run_worker(*args) -> subprocess.Popen of `python3 -m qless.worker`
"""
import os
import subprocess
import sys
import time

import pytest
import redis

import qless

HERE = os.path.dirname(os.path.abspath(__file__))
JOBS_DIR = os.path.join(HERE, "jobs")


def _state(name):
    state = os.environ.get("QLESS_TEST_STATE")
    if not state:
        pytest.exit("QLESS_TEST_STATE is not set: run through ctest", returncode=2)
    with open(os.path.join(state, name)) as f:
        return f.read().strip()


@pytest.fixture(scope="session")
def url():
    return "redis://127.0.0.1:%s/0" % _state("port")


@pytest.fixture(scope="session")
def _redis():
    conn = redis.Redis(unix_socket_path=_state("socket"), decode_responses=True)
    conn.ping()
    yield conn
    conn.close()


@pytest.fixture(autouse=True)
def r(_redis):
    _redis.flushall()
    return _redis


@pytest.fixture
def client(url):
    return qless.Client(url, worker_name="test-worker")


def worker_env(url):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([JOBS_DIR, env.get("PYTHONPATH", "")])
    env["QLESS_URL"] = url
    env["QLESS_WORKER_ALLOW"] = "sample.*"   # the job classes of jobs/sample.py
    return env


@pytest.fixture
def run_worker(url):
    procs = []

    def start(*args):
        proc = subprocess.Popen([sys.executable, "-m", "qless.worker", "--interval", "0.1", *args],
                                env=worker_env(url), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:   # only the workers this test started
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def wait_for(predicate, timeout=5.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("condition not met within %.1fs" % timeout)
