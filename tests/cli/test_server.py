"""The embedded server through `qless server start|stop|status`, in a
temporary QLESS_HOME; every server started here is stopped here."""
import os
import shutil
import subprocess
import tempfile
import time

import pytest

from conftest import CLI


@pytest.fixture
def home(base_env):
    d = tempfile.mkdtemp(prefix="qlsrv", dir="/tmp")
    env = dict(base_env, QLESS_HOME=d)
    run = lambda *a: subprocess.run([CLI, *a], env=env, capture_output=True, text=True, timeout=30)
    yield d, run
    run("server", "stop")
    shutil.rmtree(d)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is as good as gone (not ours to reap)
    with open("/proc/%d/stat" % pid) as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def status(run):
    p = run("server", "status")
    return p.returncode, p.stdout


def test_start_status_stop_restart_keeps_jobs(home):
    d, run = home
    sock = "unix://%s/redis.sock" % d
    code, out = status(run)
    assert code == 3 and out == "not running  %s\n" % sock

    p = run("server", "start")
    assert p.returncode == 0 and p.stderr == ""
    words = p.stdout.split()
    assert words[:2] == ["running", "pid"] and words[3] == sock
    pid = int(words[2])
    assert alive(pid)
    assert status(run) == (0, p.stdout)
    assert run("server", "start").stdout == p.stdout        # already running: same server

    p = run("--json", "server", "status")
    assert p.returncode == 0 and p.stdout == '{"running":true,"pid":%d,"url":"%s"}\n' % (pid, sock)

    # no --url and no QLESS_URL: the CLI uses this server
    assert run("put", "q", "K", '{"keep": 1}', "--jid", "kept").stdout == "kept\n"

    p = run("server", "stop")
    assert p.returncode == 0 and p.stdout == "not running  %s\n" % sock
    deadline = time.time() + 5
    while alive(pid):
        assert time.time() < deadline, "redis-server %d still runs after stop" % pid
        time.sleep(0.05)
    assert status(run)[0] == 3
    assert run("server", "stop").returncode == 0            # stopping twice is fine

    p = run("server", "start")
    assert p.returncode == 0
    new_pid = int(p.stdout.split()[2])
    assert new_pid != pid
    p = run("--json", "get", "kept")
    assert p.returncode == 0 and '"data":"{\\"keep\\": 1}"' in p.stdout
    run("server", "stop")
    assert status(run)[0] == 3


def test_server_started_on_demand(home):
    d, run = home
    p = run("put", "q", "K", "--jid", "j")
    assert p.returncode == 0 and p.stdout == "j\n"
    code, out = status(run)
    assert code == 0 and out.startswith("running")


def test_server_usage(home):
    _, run = home
    assert run("server").returncode == 2
    p = run("server", "reboot")
    assert p.returncode == 2 and "unknown action 'reboot'" in p.stderr
    p = run("--url", "redis://127.0.0.1:1", "server", "status")
    assert p.returncode == 2 and "--url does not apply" in p.stderr
