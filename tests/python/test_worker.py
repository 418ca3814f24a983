"""`python3 -m qless.worker` end to end, as real worker processes (jobs in jobs/)."""
import os
import select
import signal
import subprocess
import sys
import time

import pytest

import qless
from conftest import wait_for, worker_env


def wait_for_line(proc, text, timeout=20.0):
    """Reads proc's stderr up to the first line containing text; returns what it read."""
    seen = ""
    deadline = time.monotonic() + timeout
    while text not in seen:
        ready, _, _ = select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))
        line = proc.stderr.readline() if ready else ""
        assert line, "no %r from the worker; stderr so far: %s" % (text, seen)
        seen += line
    return seen


def finish(proc, timeout=20):
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


POOLS = [["--pool", "serial"], ["--pool", "threads", "--size", "2"], ["--pool", "processes", "--size", "2"]]


@pytest.mark.parametrize("pool", POOLS, ids=lambda p: p[1])
def test_success_and_failure(client, run_worker, pool):
    queue = client.queues["work"]
    ok = queue.put("sample.Succeed", {"n": 1})
    bad = queue.put("sample.Explode", {"n": 2})
    fn = queue.put("sample.function_job", {})
    inst = queue.put("sample.Callable", {})
    proc = run_worker("--queue", "work", *pool)
    jids = (ok, bad, fn, inst)
    wait_for(lambda: all(client.jobs[j].state in ("complete", "failed") for j in jids), timeout=10)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc)
    assert code == 0, err
    done = client.jobs[ok]
    assert done.state == "complete" and done.data == {"n": 1, "seen": True}   # data sent back
    # The one call shape is a class with process(job): a function or a
    # callable class is refused, unrun.
    assert client.jobs[fn].failure["group"] == "TypeError" and client.jobs[fn].data == {}
    assert "is not a class" in client.jobs[fn].failure["message"]
    assert client.jobs[inst].failure["group"] == "TypeError" and client.jobs[inst].data == {}
    assert "has no process(job) method" in client.jobs[inst].failure["message"]
    failed = client.jobs[bad]
    assert failed.state == "failed"
    assert failed.failure["group"] == "Boom"
    message = failed.failure["message"]
    assert "Traceback" in message and "kaboom 2" in message and "raise Boom" in message


def test_queue_method_order_and_self_settled(client, run_worker):
    client.queues["second"].put("sample.ByQueue", {})
    special = client.queues["special"].put("sample.ByQueue", {})
    retried = client.queues["special"].put("sample.SelfRetry", {}, retries=3)
    missing = client.queues["special"].put("sample.NoSuchClass", {})
    exits = client.queues["special"].put("sample.Exits", {})
    code, err = finish(run_worker("--queue", "special", "--queue", "second", "--max-jobs", "4"))
    assert code == 0, err
    assert client.jobs[special].data == {"via": "special"}
    job = client.jobs[retried]
    assert job.state == "waiting" and job.remaining == 2       # the code retried it itself
    assert client.jobs[missing].failure["group"] == "AttributeError"
    assert client.jobs[exits].failure["group"] == "SystemExit"  # fails the job, not the worker
    assert client.queues["second"].length == 1                 # ordered: special first


def test_retryable_error_retries(client, run_worker):
    queue = client.queues["q"]
    now = queue.put("sample.Retryable", {}, retries=2)
    code, err = finish(run_worker("--queue", "q", "--max-jobs", "1"))
    assert code == 0, err
    job = client.jobs[now]
    assert job.state == "waiting" and job.remaining == 1
    assert job.failure["group"] == "TryAgain" and "again %s" % now in job.failure["message"]
    # The engine's backoff flags reach it through the layer unchanged.
    later = client.queues["r"].put("sample.Retryable", {}, retries=2)
    code, err = finish(run_worker("--queue", "r", "--max-jobs", "1",
                                  "--backoff-class", "sample.Retryable=fixed:60"))
    assert code == 0, err
    assert client.jobs[later].state == "scheduled" and client.jobs[later].remaining == 1


def test_retries_used_up_fail(client, run_worker):
    jid = client.queues["q"].put("sample.Retryable", {}, retries=0)
    code, err = finish(run_worker("--queue", "q", "--max-jobs", "1"))
    assert code == 0, err
    assert client.jobs[jid].state == "failed"


def test_job_client_and_lock_lost(client, run_worker, tmp_path):
    queue = client.queues["q"]
    uses = queue.put("sample.UsesClient", {})
    code, err = finish(run_worker("--queue", "q", "--max-jobs", "1", "--name", "w-py"))
    assert code == 0, err
    data = client.jobs[uses].data
    assert data["worker"] == "w-py"
    assert client.jobs[data["next"]].data == {"from": uses}
    # Lock lost while the code runs: job.lock_lost turns true, the engine
    # neither completes nor fails the job.
    out = tmp_path / "seen"
    jid = queue.put("sample.UntilLockLost", {"out": str(out)})
    proc = run_worker("--queue", "q", "--max-jobs", "1", "--heartbeat", "0.2")
    wait_for(lambda: client.jobs[jid].state == "running")
    client.timeout(jid)
    code, err = finish(proc)
    assert code == 0, err
    assert out.read_text() == "lost"
    job = client.jobs[jid]
    assert job.state == "stalled"
    assert [h["what"] for h in job.history] == ["put", "popped", "timed-out"]


def test_thread_pool_runs_jobs_concurrently(client, run_worker):
    queue = client.queues["q"]
    jids = [queue.put("sample.Record", {"sleep": 0.5}) for _ in range(4)]
    proc = run_worker("--queue", "q", "--pool", "threads", "--size", "4")
    wait_for(lambda: all(client.jobs[j].state == "complete" for j in jids), timeout=10)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc)
    assert code == 0, err
    runs = [client.jobs[j].data for j in jids]
    assert {r["pid"] for r in runs} == {proc.pid}            # threads of the worker itself
    assert len({r["thread"] for r in runs}) >= 2
    # Some two jobs overlapped in time.
    assert any(a["start"] < b["end"] and b["start"] < a["end"] for a in runs for b in runs if a is not b)


def test_process_pool_runs_jobs_in_children(client, run_worker):
    queue = client.queues["q"]
    jids = [queue.put("sample.Record", {"sleep": 0.3}) for _ in range(4)]
    proc = run_worker("--queue", "q", "--pool", "processes", "--size", "2")
    wait_for(lambda: all(client.jobs[j].state == "complete" for j in jids), timeout=10)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc)
    assert code == 0, err
    pids = {client.jobs[j].data["pid"] for j in jids}
    assert proc.pid not in pids and len(pids) == 2
    for pid in pids:   # the children are gone with their parent
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("signum,pool", [(signal.SIGTERM, POOLS[0]), (signal.SIGINT, POOLS[0]),
                                         (signal.SIGTERM, POOLS[1]), (signal.SIGTERM, POOLS[2])],
                         ids=["TERM-serial", "INT-serial", "TERM-threads", "TERM-processes"])
def test_graceful_stop_finishes_running_job(client, run_worker, signum, pool):
    queue = client.queues["q"]
    first = queue.put("sample.Succeed", {"sleep": 1.5}, priority=1)
    proc = run_worker("--queue", "q", *pool)
    wait_for(lambda: client.jobs[first].state == "running")
    second = queue.put("sample.Succeed", {})
    proc.send_signal(signum)
    code, err = finish(proc)
    assert code == 0, err
    assert client.jobs[first].state == "complete"
    if pool[1] == "serial":    # busy with the first job: never took the second
        assert client.jobs[second].state == "waiting"


def test_sigquit_exits_at_once(client, run_worker):
    jid = client.queues["q"].put("sample.Succeed", {"sleep": 20})
    proc = run_worker("--queue", "q")
    wait_for(lambda: client.jobs[jid].state == "running")
    started = time.monotonic()
    proc.send_signal(signal.SIGQUIT)
    code, err = finish(proc, timeout=5)
    assert code != 0 and time.monotonic() - started < 2
    assert client.jobs[jid].state == "running"


def test_idle_worker_stops_on_sigterm(client, run_worker):
    proc = run_worker("--queue", "empty")
    # A SIGTERM before the engine installs its handlers would kill the
    # process outright: wait for the line it logs once they are in place.
    started = wait_for_line(proc, "working on")
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc, timeout=5)
    assert code == 0, started + err


def test_usage_errors_exit_2(run_worker):
    code, err = finish(run_worker("--queue", "q", "--mode", "fork"))
    assert code == 2 and "--mode" in err
    code, err = finish(run_worker("--queue", "q", "--pool", "bogus"))
    assert code == 2 and "bogus" in err


def test_retryable_error_is_exported():
    assert issubclass(qless.RetryableError, Exception)
    assert not issubclass(qless.RetryableError, qless.Error)   # raised by job code, not the library


def test_output_of_pool_children_is_not_lost(client, url):
    jid = client.queues["q"].put("sample.Prints", {})
    env = worker_env(url)
    env.pop("PYTHONUNBUFFERED", None)   # block-buffered stdout, as in production
    proc = subprocess.Popen([sys.executable, "-m", "qless.worker", "--queue", "q", "--interval", "0.1",
                             "--pool", "processes"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: client.jobs[jid].state == "complete")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "printed %s" % jid in out


def test_resolve_stays_within_the_class_name():
    """The engine matched klass against the allow-list; target reaches
    nothing beyond that name (stdlib modules stand in for job modules)."""
    import json
    from qless.worker import job_code, target as resolve
    assert resolve("json.loads") is json.loads
    assert resolve("json.JSONDecodeError") is not None   # defined in json.decoder, under json
    with pytest.raises(TypeError, match="is not a class"):
        job_code("json.loads", "q", "perform")          # the call shape is a class with process(job)
    for klass in ["json.codecs",          # a module json imports
                  "os.system",            # defined in posix, imported by os
                  "json._default_decoder",
                  "json/../os.system", "os..system", ".os.system", "system"]:
        with pytest.raises(ImportError):
            resolve(klass)
