"""qless schedule listen (schedules.md §8, CLI-5): each job runs a shell
command; its exit status completes or fails the job; SIGTERM stops it
gracefully; bad arguments change nothing."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import CLI


def put(qless, queue, n, klass="K"):
    return [qless("put", queue, klass, json.dumps({"i": i}))[0].strip() for i in range(n)]


def states(r, jids):
    return [r.hget("ql:j:" + jid, "state") for jid in jids]


def test_listen_completes_max_jobs_on_a_pool(qless, r):
    jids = put(qless, "q", 5)
    out, _ = qless("schedule", "listen", "q", "--exec", "cat >/dev/null", "--pool", "2", "--max-jobs", "3")
    assert out == ""
    s = states(r, jids)
    assert s.count("complete") == 3 and s.count("waiting") == 2
    for jid, state in zip(jids, s):
        if state == "complete":
            history = json.loads(qless("--json", "get", jid)[0])["history"]
            assert [h.get("worker", "")[-2:] for h in history if h["what"] == "popped"] in (["-1"], ["-2"])


def test_command_gets_the_job_on_stdin_and_in_its_environment(qless, r, tmp_path):
    jids = put(qless, "q", 2, klass="My.Klass")
    cmd = 'cat > "$OUT/$QLESS_JID.json"; printf "%s|%s" "$QLESS_KLASS" "$QLESS_QUEUE" > "$OUT/$QLESS_JID.env"'
    qless("schedule", "listen", "q", "--exec", cmd, "--max-jobs", "2", env={"OUT": str(tmp_path)})
    for jid in jids:
        job = json.loads((tmp_path / (jid + ".json")).read_text())
        assert job["jid"] == jid and job["klass"] == "My.Klass" and job["queue"] == "q"
        assert job["state"] == "running" and "i" in json.loads(job["data"])
        assert (tmp_path / (jid + ".env")).read_text() == "My.Klass|q"
    assert states(r, jids) == ["complete", "complete"]


@pytest.mark.parametrize("cmd,group,message", [
    pytest.param("echo oops >&2; exit 3", "exit-3", "oops\n", id="exit-3"),
    pytest.param("exit 1", "exit-1", "", id="no-stderr"),
    pytest.param("printf 'bad \\377\\376 bytes' >&2; exit 2", "exit-2", "bad ?? bytes", id="not-utf8"),
    pytest.param("kill -9 $$", "exit-137", "", id="signal"),
    # 3000 two-byte characters and END: the last 4 KiB begin inside one
    pytest.param("i=0; while [ $i -lt 3000 ]; do printf '\\303\\251'; i=$((i+1)); done >&2; printf END >&2; "
                 "exit 4", "exit-4", "\u00e9" * 2046 + "END", id="last-4KiB"),
])
def test_a_failing_command_fails_the_job(qless, r, cmd, group, message):
    jid, = put(qless, "q", 1)
    qless("schedule", "listen", "q", "--exec", cmd, "--max-jobs", "1")
    job = r.hgetall("ql:j:" + jid)
    assert job["state"] == "failed"
    failure = json.loads(job["failure"])
    assert failure["group"] == group
    assert failure["message"] == message


def test_sigterm_lets_the_running_command_finish(url, base_env, r, qless):
    jids = put(qless, "q", 3)
    p = subprocess.Popen([CLI, "--url", url, "schedule", "listen", "q", "--exec", "sleep 0.5"],
                         env=base_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20  # a bound against hanging, not a timing claim
        while "running" not in states(r, jids) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "running" in states(r, jids)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0 and out == "" and err == ""
    s = states(r, jids)
    assert s.count("complete") == 1 and s.count("waiting") == 2


@pytest.mark.parametrize("args,reason", [
    (["schedule"], "needs a subcommand"),
    (["schedule", "frob"], "unknown subcommand 'frob'"),
    (["schedule", "listen", "q"], "needs --exec"),
    (["schedule", "listen", "q", "--exec", ""], "--exec is empty"),
    (["schedule", "listen", "--exec", "true"], "needs one QUEUE"),
    (["schedule", "listen", "q", "r", "--exec", "true"], "unexpected argument 'r'"),
    (["schedule", "listen", "", "--exec", "true"], "QUEUE is empty"),
    (["schedule", "listen", "q", "--exec", "true", "--pool", "0"], "--pool"),
    (["schedule", "listen", "q", "--exec", "true", "--pool", "129"], "--pool"),
    (["schedule", "listen", "q", "--exec", "true", "--pool", "x"], "--pool"),
    (["schedule", "listen", "q", "--exec", "true", "--max-jobs", "-1"], "--max-jobs"),
    (["schedule", "listen", "q", "--exec", "true", "--max-jobs", "1.5"], "--max-jobs"),
    (["schedule", "listen", "q", "--exec", "true", "--frob"], "unknown option --frob"),
])
def test_bad_arguments_are_usage_errors_and_run_nothing(qless, snapshot, args, reason):
    put(qless, "q", 1)
    before = snapshot()
    _, err = qless(*args, code=2)
    assert reason in err
    assert snapshot() == before


def test_help(qless):
    out, _ = qless("schedule", "--help")
    assert "schedule listen QUEUE --exec CMD" in out
    out2, _ = qless("schedule", "listen", "--help")
    assert "--max-jobs" in out2
