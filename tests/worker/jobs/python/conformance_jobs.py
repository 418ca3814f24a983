"""The Python job classes of the worker conformance suite (tests/worker/):
klass "conformance_jobs.Noop", ".Boom", ".Flaky" and ".Tree", run by
`python3 -m qless.worker` with this directory on PYTHONPATH."""
import os
import time
# A function of another module under a name inside the allow-list
# (conformance_jobs.sleep): the worker must refuse to run it as a job class.
from time import sleep  # noqa: F401

import qless


class ConformanceError(Exception):
    """A plain (not retryable) error: the job fails in group ConformanceError."""


class ConformanceRetry(qless.RetryableError):
    """A retryable error: the job is retried with the backoff policy."""


def _log(path, what, jid):
    # One write on an O_APPEND descriptor: lines from concurrent workers
    # never interleave, which the suite relies on to detect overlaps.
    line = "%s %s %.6f %d\n" % (what, jid, time.time(), os.getpid())
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


class Noop:
    @staticmethod
    def process(job):
        data = job.data
        if data.get("log"):
            _log(data["log"], "start", job.jid)
        if data.get("sleep"):   # no time.sleep(0): it waits for the timer slack
            time.sleep(float(data["sleep"]))
        if data.get("log"):
            _log(data["log"], "end", job.jid)


class Boom:
    @staticmethod
    def process(job):
        raise ConformanceError("boom %s" % job.jid)


class Flaky:
    @staticmethod
    def process(job):
        raise ConformanceRetry("flaky %s" % job.jid)


class Tree:
    """The tree class of test_tree_conformance.py (its contract is there)."""
    inports = {"in": {}}
    outports = ["out"]

    @staticmethod
    def startup(job):
        _log(job.data["log"], "startup", job.jid)
        crash = job.data.get("crash")
        if not crash:
            return
        try:
            os.close(os.open(crash, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            return
        os._exit(3)

    @staticmethod
    def process(job):
        _log(job.data["log"], "perform", job.jid)
        values = job.read("in", 10)
        if not values:
            return job.suspend()
        job.write("out", *[v * 2 for v in values])
        job.store["seen"] = job.store.get("seen", 0) + len(values)

    @staticmethod
    def shutdown(job):
        _log(job.data["log"], "shutdown", job.jid)
