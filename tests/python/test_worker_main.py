"""The SWIG wrapper qless_swig_worker_main in this process: its trampolines
and the perform protocol of swig/python.i, with Python callables standing in
for qless.worker.perform."""
import contextlib
import os
import signal
import sys
import threading
import time

import pytest

import qless
from qless import _core


@contextlib.contextmanager
def reported():
    """What the trampolines reported through sys.unraisablehook. Set inside
    the test: pytest installs its own hook around the test call."""
    seen = []
    saved, sys.unraisablehook = sys.unraisablehook, lambda u: seen.append((u.exc_type, u.object))
    try:
        yield seen
    finally:
        sys.unraisablehook = saved


def run(url, queue, perform, *flags, log=None, jobs=None):
    # The trampoline requires an allow-list; these performs ignore the class.
    argv = ["test-worker", "--url", url, "--queue", queue, "--interval", "0.1", "--name", "inproc", "--allow", "*"]
    if jobs is not None:
        argv += ["--max-jobs", str(jobs)]
    return _core.qless_swig_worker_main(argv + list(flags), perform, None, log, None, None)


def test_outcomes(client, url):
    queue = client.queues["q"]
    answers = {"none": None, "fail": ("fail", "G", "m1"), "retry": ("retry", "R", "m2"),
               "raise": ValueError("bad value"), "int": 42, "kind": ("explode", "G", "m"),
               "short": ("fail", "G")}
    jids = {name: queue.put("K", {"name": name}, retries=3) for name in answers}
    threads = set()

    def perform(job, client_h, phase, outcome):
        threads.add(threading.get_ident())
        answer = answers[qless.Job(job, None).data["name"]]
        if isinstance(answer, Exception):
            raise answer
        return answer

    with reported() as unraisable:
        assert run(url, "q", perform, jobs=len(answers)) == 0
    assert threads == {threading.get_ident()}          # serial: on the calling thread
    job = {name: client.jobs[jid] for name, jid in jids.items()}
    assert job["none"].state == "complete"
    assert job["fail"].state == "failed" and job["fail"].failure["group"] == "G"
    assert job["fail"].failure["message"] == "m1"
    assert job["retry"].state == "waiting" and job["retry"].remaining == 2
    assert job["retry"].failure["group"] == "R"
    assert job["raise"].failure["group"] == "ValueError" and job["raise"].failure["message"] == "bad value"
    assert job["int"].failure["group"] == "TypeError" and "42" in job["int"].failure["message"]
    assert job["kind"].failure["group"] == "ValueError" and "explode" in job["kind"].failure["message"]
    assert job["short"].failure["group"] == "TypeError"
    # Each of the four bad answers was reported, naming perform.
    assert sorted(t.__name__ for t, _ in unraisable) == ["TypeError", "TypeError", "ValueError", "ValueError"]
    assert all(obj is perform for _, obj in unraisable)


def test_borrowed_handles_are_forgotten_after_the_call(client, url):
    jid = client.queues["q"].put("K", {})
    kept = []

    def perform(job, client_h, phase, outcome):
        kept.append((job, client_h))
        assert _core.qless_job_jid(job) == jid and _core.qless_job_state(job) == "running"
        assert _core.qless_client_worker_name(client_h) == "inproc"
        assert not _core.qless_job_lock_lost(job)

    before = qless.handle_count()
    assert run(url, "q", perform, jobs=1) == 0
    job, client_h = kept[0]
    # The proxies outlive the call but no longer point at the engine's
    # (freed) job: the library sees NULL and refuses instead of crashing.
    assert _core.qless_job_jid(job) is None
    with pytest.raises(qless.InvalidArgument):
        _core.qless_job_complete(job, None)
    with pytest.raises(qless.InvalidArgument):
        _core.qless_client_queue_names(client_h)
    del kept, job, client_h
    assert qless.handle_count() == before                  # and they never owned anything
    assert client.jobs[jid].state == "complete"


def test_thread_pool_calls_perform_from_its_threads(client, url):
    queue = client.queues["q"]
    jids = [queue.put("K", {}) for _ in range(4)]
    lock = threading.Lock()
    running, peak, done, threads = [0], [0], [0], set()

    def perform(job, client_h, phase, outcome):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
            threads.add(threading.get_ident())
        time.sleep(0.4)   # releases the GIL: other pool threads run meanwhile
        with lock:
            running[0] -= 1
            done[0] += 1
            if done[0] == len(jids):
                # A graceful stop, sent while the engine's handler is
                # installed: the run cannot have ended before this.
                os.kill(os.getpid(), signal.SIGTERM)

    assert run(url, "q", perform, "--pool", "threads", "--size", "4") == 0
    assert peak[0] >= 2 and threading.get_ident() not in threads
    assert [client.jobs[j].state for j in jids] == ["complete"] * 4


def test_log_callback(client, url):
    client.queues["q"].put("K", {})
    lines = []
    assert run(url, "q", lambda job, c, phase, outcome: None, log=lines.append, jobs=1) == 0
    assert lines and all(isinstance(line, str) and "\n" not in line for line in lines)
    client.queues["q"].put("K", {})

    def broken(line):
        raise RuntimeError("log broke")

    with reported() as unraisable:
        assert run(url, "q", lambda job, c, phase, outcome: None, log=broken, jobs=1) == 0   # reported, not fatal
    assert unraisable and all(t is RuntimeError and obj is broken for t, obj in unraisable)


def test_arguments_are_checked(url):
    with pytest.raises(TypeError, match="perform must be callable"):
        _core.qless_swig_worker_main(["w"], None, None, None, None, None)
    with pytest.raises(TypeError, match="fork must be callable or None"):
        _core.qless_swig_worker_main(["w"], print, 3, None, None, None)
    with pytest.raises(TypeError, match="log must be callable or None"):
        _core.qless_swig_worker_main(["w"], print, None, "stderr", None, None)
    with pytest.raises(TypeError, match="list of strings"):
        _core.qless_swig_worker_main(["w", 1], print, None, None, None, None)
    assert _core.qless_swig_worker_main(["w", "--url", url, "--no-such-flag"], print, None, None, None, None) == 2
    assert _core.qless_swig_worker_main([], print, None, None, None, None) == 2      # no --queue
