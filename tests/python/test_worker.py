"""`python3 -m qless.worker` end to end, as a subprocess (jobs in jobs/)."""
import signal
import time

import pytest

import qless
from conftest import wait_for


def finish(proc, timeout=20):
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


@pytest.mark.parametrize("mode", ["serial", "fork"])
def test_success_and_failure(client, run_worker, mode):
    queue = client.queues["work"]
    ok = queue.put("sample.Succeed", {"n": 1})
    bad = queue.put("sample.Explode", {"n": 2})
    fn = queue.put("sample.function_job", {})
    inst = queue.put("sample.Callable", {})
    code, err = finish(run_worker("--queue", "work", "--max-jobs", "4", "--mode", mode))
    assert code == 0, err
    done = client.jobs[ok]
    assert done.state == "complete" and done.data == {"n": 1, "seen": True}
    assert client.jobs[fn].state == "complete" and client.jobs[fn].data == {"function": True}
    assert client.jobs[inst].state == "complete" and client.jobs[inst].data == {"called": True}
    failed = client.jobs[bad]
    assert failed.state == "failed"
    assert failed.failure["group"] == "Boom"
    assert "Traceback" in failed.failure["message"] and "kaboom 2" in failed.failure["message"]
    assert "raise Boom" in failed.failure["message"]
    assert err.count("completed" if mode == "serial" else "done in child") >= 3
    assert "failed Boom" in err or mode == "fork"


def test_queue_method_order_and_self_settled(client, run_worker):
    client.queues["second"].put("sample.ByQueue", {})
    special = client.queues["special"].put("sample.ByQueue", {})
    retried = client.queues["special"].put("sample.SelfRetry", {}, retries=3)
    missing = client.queues["special"].put("sample.NoSuchClass", {})
    code, err = finish(run_worker("--queue", "special", "--queue", "second", "--max-jobs", "3"))
    assert code == 0, err
    assert client.jobs[special].data == {"via": "special"}
    job = client.jobs[retried]
    assert job.state == "waiting" and job.remaining == 2       # the code retried it itself
    assert client.jobs[missing].failure["group"] == "AttributeError"
    assert client.queues["second"].length == 1                 # ordered: special first


def test_long_job_is_heartbeaten(client, url, run_worker):
    queue = client.queues["slow"]
    queue.heartbeat = 2
    client.config["grace-period"] = 0     # an expired lock is handed out at once
    jid = queue.put("sample.Succeed", {"sleep": 5})
    proc = run_worker("--queue", "slow", "--max-jobs", "1")
    wait_for(lambda: client.jobs[jid].state == "running")
    time.sleep(3)
    # Without heartbeats the 2 s lock would have expired: another worker
    # would now be handed the job.
    thief = qless.Client(url, worker_name="thief")
    assert thief.queues["slow"].pop() is None
    code, err = finish(proc)
    assert code == 0, err
    job = client.jobs[jid]
    assert job.state == "complete"
    assert "timed-out" not in [h["what"] for h in job.history]


def test_lost_lock_is_dropped(client, run_worker):
    queue = client.queues["q"]
    jid = queue.put("sample.Succeed", {"sleep": 2})
    proc = run_worker("--queue", "q", "--max-jobs", "1", "--heartbeat", "0.2")
    wait_for(lambda: client.jobs[jid].state == "running")
    client.timeout(jid)
    code, err = finish(proc)
    assert code == 0, err
    job = client.jobs[jid]
    assert job.state == "stalled"                  # neither completed nor failed
    assert "dropped" in err
    assert [h["what"] for h in job.history] == ["put", "popped", "timed-out"]


def test_fork_child_killed_on_lost_lock(client, run_worker):
    queue = client.queues["q"]
    jid = queue.put("sample.Succeed", {"sleep": 30})
    proc = run_worker("--queue", "q", "--max-jobs", "1", "--mode", "fork")
    wait_for(lambda: client.jobs[jid].state == "running")
    started = time.monotonic()
    queue.put("sample.Succeed", {}, jid=jid)        # re-put: the lock is gone
    code, err = finish(proc, timeout=10)
    assert code == 0, err
    assert time.monotonic() - started < 5
    assert "child killed" in err
    assert client.jobs[jid].state == "waiting"


def test_fork_child_crash_fails_job(client, run_worker):
    jid = client.queues["q"].put("sample.crash", {})
    code, err = finish(run_worker("--queue", "q", "--max-jobs", "1", "--mode", "fork"))
    assert code == 0, err
    failure = client.jobs[jid].failure
    assert failure["group"] == "ChildDied" and "status 3" in failure["message"]


def test_round_robin(client, run_worker):
    a = [client.queues["a"].put("sample.Succeed", {}) for _ in range(2)]
    b = [client.queues["b"].put("sample.Succeed", {}) for _ in range(2)]
    code, err = finish(run_worker("--queue", "a", "--queue", "b", "--order", "round-robin",
                                  "--max-jobs", "2"))
    assert code == 0, err
    states = [client.jobs[j].state for j in (a[0], b[0])]
    assert states == ["complete", "complete"]


@pytest.mark.parametrize("signum,mode", [(signal.SIGTERM, "serial"), (signal.SIGINT, "serial"),
                                         (signal.SIGTERM, "fork")])
def test_graceful_stop_finishes_current_job(client, run_worker, signum, mode):
    queue = client.queues["q"]
    first = queue.put("sample.Succeed", {"sleep": 1.5}, priority=1)
    second = queue.put("sample.Succeed", {})
    proc = run_worker("--queue", "q", "--mode", mode)
    wait_for(lambda: client.jobs[first].state == "running")
    proc.send_signal(signum)
    code, err = finish(proc)
    assert code == 0, err
    assert client.jobs[first].state == "complete"
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
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc, timeout=5)
    assert code == 0, err
