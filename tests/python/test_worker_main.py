"""The SWIG wrapper qless_py_worker_main in this process: the trampoline
of swig/worker.i with Python's hooks (swig/python.i), with Python callables
standing in for qless.worker.run (the dispatcher: what it raises is the
job's outcome)."""
import os
import signal
import threading
import time

import pytest

import qless
from qless import _core


def run(url, queue, perform, *flags, jobs=None):
    # The trampoline requires an allow-list; these performs ignore the class.
    argv = ["test-worker", "--url", url, "--queue", queue, "--interval", "0.1", "--name", "inproc", "--allow", "*"]
    if jobs is not None:
        argv += ["--max-jobs", str(jobs)]
    return _core.qless_py_worker_main(argv + list(flags), perform, os.fork, None, None)


class Again(qless.RetryableError):
    pass


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text")


def test_outcomes(client, url):
    queue = client.queues["q"]
    answers = {"none": None, "value": 42, "raise": ValueError("bad value"), "retry": Again("later"),
               "exit": SystemExit(3), "unprintable": Unprintable()}
    jids = {name: queue.put("K", {"name": name}, retries=3) for name in answers}
    threads, phases = set(), set()

    def perform(job, client_h, phase):
        threads.add(threading.get_ident())
        phases.add(phase)
        answer = answers[qless.Job(job, None).data["name"]]
        if isinstance(answer, BaseException):
            raise answer
        return answer

    assert run(url, "q", perform, jobs=len(answers)) == 0
    assert threads == {threading.get_ident()}          # serial: on the calling thread
    assert phases == {"perform"}
    job = {name: client.jobs[jid] for name, jid in jids.items()}
    assert job["none"].state == "complete"
    assert job["value"].state == "complete"            # what perform returns is ignored
    failure = job["raise"].failure
    assert job["raise"].state == "failed" and failure["group"] == "ValueError"
    assert "Traceback" in failure["message"] and "ValueError: bad value" in failure["message"]
    assert "raise answer" in failure["message"]
    assert job["retry"].state == "waiting" and job["retry"].remaining == 2
    assert job["retry"].failure["group"] == "Again" and "Again: later" in job["retry"].failure["message"]
    assert job["exit"].failure["group"] == "SystemExit"            # fails the job, not the worker
    assert job["unprintable"].failure["group"] == "Unprintable"    # described all the same
    assert job["unprintable"].failure["message"]


def test_borrowed_handles_are_forgotten_after_the_call(client, url):
    jid = client.queues["q"].put("K", {})
    kept = []

    def perform(job, client_h, phase):
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

    def perform(job, client_h, phase):
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


def test_arguments_are_checked(url):
    with pytest.raises(TypeError, match="run must be callable"):
        _core.qless_py_worker_main(["w"], None, os.fork, None, None)
    with pytest.raises(TypeError, match="fork must be callable"):
        _core.qless_py_worker_main(["w"], print, 3, None, None)
    with pytest.raises(TypeError, match="list of strings"):
        _core.qless_py_worker_main(["w", 1], print, os.fork, None, None)
    assert _core.qless_py_worker_main(["w", "--url", url, "--no-such-flag"], print, os.fork, None, None) == 2
    assert _core.qless_py_worker_main([], print, os.fork, None, None) == 2      # no --queue
    # --require is Ruby's and PHP's (run->loads_files): an unknown flag here.
    assert _core.qless_py_worker_main(["w", "--queue", "q", "--require", "x.py"], print, os.fork, None, None) == 2


def test_main_args_give_the_allow_list_and_files(monkeypatch):
    from qless._util import strlist
    allow, files = _core.qless_worker_main_args(["--queue", "q", "--allow", "a.*", "-r", "f1", "--allow", "b.C",
                                                 "--require", "f2"])
    assert strlist(allow) == ["a.*", "b.C"] and strlist(files) == ["f1", "f2"]
    monkeypatch.setenv("QLESS_WORKER_ALLOW", " x.* , ,y.Z")
    assert strlist(_core.qless_worker_main_args(["--queue", "q"])[0]) == ["x.*", "y.Z"]
    assert strlist(_core.qless_worker_main_args(["--allow", "w.*"])[0]) == ["w.*"]   # the flags replace it
    # A flag's value is never read as a flag; --help asks for nothing.
    assert strlist(_core.qless_worker_main_args(["--name", "--allow", "--queue", "q"])[0]) == ["x.*", "y.Z"]
    assert [strlist(v) for v in _core.qless_worker_main_args(["--allow", "a.*", "--help"])] == [[], []]
