"""A qless worker: reserves jobs from queues and runs the Python code named
by each job's klass.

    python3 -m qless.worker --url redis://127.0.0.1:6379 --queue q [--queue q2]
        [--order ordered|round-robin] [--mode serial|fork] [--max-jobs N]
        [--interval S] [--heartbeat S] [--name NAME]

klass "pkg.module.Name" is imported; Name is then called with the job:
  * a class with a method named like the job's queue, or with ``process``
    (a staticmethod/classmethod, the qless convention): Name.<method>(job)
  * another class: Name()(job)
  * a function: Name(job)
When the code returns and the job is still running, it is completed; when it
raises, the job fails with group = the exception's class name and message =
the traceback. A job whose lock was lost meanwhile (timed out, re-put,
canceled, handed to another worker) is dropped: neither completed nor failed.

Locks are kept alive by the core's heartbeater (its own thread and
connection) every third of the lock time, or every --heartbeat seconds.
--mode fork runs each job in a child process while the parent heartbeats;
the child is killed as soon as the lock is lost.

SIGTERM/SIGINT: finish the current job, then exit 0. SIGQUIT: exit at once
(in fork mode the child is killed).
"""
import argparse
import importlib
import os
import signal
import sys
import time
import traceback
from typing import Any, Callable, List, Optional, Sequence, TextIO

from . import _core
from .client import Client
from .errors import LockLost
from .job import Job


def resolve(klass: str, queue: str = "") -> Callable[[Job], Any]:
    """The callable for klass "pkg.module.Name" (see the module doc)."""
    module_name, _, attr = klass.rpartition(".")
    if not module_name:
        raise ImportError("job class %r is not of the form module.Name" % klass)
    target = getattr(importlib.import_module(module_name), attr)
    if isinstance(target, type):
        method = getattr(target, queue, None) if queue else None
        if not callable(method):
            method = getattr(target, "process", None)
        if callable(method):
            return method
        return lambda job: target()(job)
    if callable(target):
        return target
    raise TypeError("%s is neither a class nor a function" % klass)


class Heartbeater:
    """qless_heartbeater: renews a job's lock from a C thread (own connection)."""

    def __init__(self, job: Job, interval: float) -> None:
        self._h: Any = _core.qless_heartbeater_new(job._h, interval)

    @property
    def lost(self) -> bool:
        return self._h is not None and bool(_core.qless_heartbeater_lost(self._h))

    @property
    def beats(self) -> int:
        return _core.qless_heartbeater_beats(self._h) if self._h is not None else 0

    def stop(self) -> None:
        # Dropping the handle frees it; the destructor joins the thread
        # (releasing the GIL while it waits).
        self._h = None


def perform(job: Job, beater: Optional[Heartbeater] = None) -> str:
    """Runs the job's code and settles the job; returns what happened:
    "completed", "failed <group>", "handled <state>" (the code completed,
    failed or retried it itself) or "dropped" (lock lost: the heartbeater
    saw it, or complete/fail was refused). The beater, if any, is stopped
    before the job is settled so no beat races the completion. Never raises
    for the job's own errors."""
    group = None
    try:
        resolve(job.klass, job.queue)(job)
    except Exception as exc:   # the job's error, reported to qless
        group = type(exc).__name__
        message = traceback.format_exc()
    lost = beater is not None and beater.lost
    if beater is not None:
        beater.stop()
    if job.state != "running":
        return "handled %s" % job.state
    if lost:
        return "dropped"
    try:
        if group is None:
            job.complete()
            return "completed"
        job.fail(group, message)
        return "failed %s" % group
    except LockLost:
        return "dropped"


class Worker:
    def __init__(self, client: Client, queues: Sequence[str], order: str = "ordered",
                 mode: str = "serial", interval: float = 5.0, max_jobs: Optional[int] = None,
                 heartbeat: Optional[float] = None, log: TextIO = sys.stderr) -> None:
        if mode not in ("serial", "fork"):
            raise ValueError("mode must be serial or fork")
        if order not in ("ordered", "round-robin"):
            raise ValueError("order must be ordered or round-robin")
        self.client = client
        self.queues = list(queues)
        self.mode = mode
        self.interval = interval
        self.max_jobs = max_jobs
        self.heartbeat = heartbeat
        self.log_file = log
        self.processed = 0
        self.stopping = False
        self._child: Optional[int] = None
        # fork mode also watches ql:w:<name> to kill a child at once.
        self._h: Any = _core.qless_swig_worker_new(client._h, self.queues, order == "round-robin",
                                                   mode == "fork")

    @property
    def name(self) -> str:
        return _core.qless_worker_name(self._h)

    def log(self, text: str) -> None:
        print("qless-worker %s: %s" % (self.name, text), file=self.log_file, flush=True)

    def reserve(self) -> Optional[Job]:
        handle = _core.qless_worker_reserve(self._h)
        return None if handle is None else Job(handle, self.client)

    def beat_interval(self, job: Job) -> float:
        if self.heartbeat:
            return self.heartbeat
        return max(0.5, job.ttl / 3.0)

    def install_signals(self) -> None:
        def graceful(signum: int, frame: Any) -> None:
            if not self.stopping:
                self.log("%s: stopping after the current job" % signal.Signals(signum).name)
            self.stopping = True

        def immediate(signum: int, frame: Any) -> None:
            self.log("SIGQUIT: exiting now")
            if self._child:
                try:
                    os.kill(self._child, signal.SIGKILL)
                except OSError:
                    pass
            os._exit(1)

        signal.signal(signal.SIGTERM, graceful)
        signal.signal(signal.SIGINT, graceful)
        signal.signal(signal.SIGQUIT, immediate)

    def run(self) -> int:
        self.log("working on %s (%s mode)" % (", ".join(self.queues), self.mode))
        while not self.stopping and (self.max_jobs is None or self.processed < self.max_jobs):
            job = self.reserve()
            if job is None:
                self._idle()
                continue
            started = time.monotonic()
            outcome = self._fork(job) if self.mode == "fork" else self._serial(job)
            self.processed += 1
            self.log("%s %s %s in %.3fs" % (job.jid, job.klass, outcome, time.monotonic() - started))
        self.log("exiting after %d job(s)" % self.processed)
        return 0

    def _idle(self) -> None:
        # Sleep in slices so SIGTERM is honoured promptly.
        deadline = time.monotonic() + self.interval
        while not self.stopping and time.monotonic() < deadline:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def _serial(self, job: Job) -> str:
        beater = Heartbeater(job, self.beat_interval(job))
        try:
            outcome = perform(job, beater)
        finally:
            beater.stop()
        return outcome + (" (lock lost)" if outcome == "dropped" else "")

    def _fork(self, job: Job) -> str:
        jid = job.jid
        pid = os.fork()
        if pid == 0:
            self._child_main(jid)
        self._child = pid
        # Started after the fork, so the child never inherits its thread.
        beater = Heartbeater(job, self.beat_interval(job))
        try:
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    self._child = None   # reaped: its pid may be reused, never signal it again
                    break
                if beater.lost or jid in _lost(self._h, 100):
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return "dropped (lock lost, child killed)"
        finally:
            beater.stop()
            self._child = None
        if os.waitstatus_to_exitcode(status) == 0:
            return "done in child"
        # The child died without settling the job (crash or os._exit).
        code = os.waitstatus_to_exitcode(status)
        try:
            job.refresh()
            if job.state == "running" and job.worker == self.name:
                job.fail("ChildDied", "worker child exited with %s" % (
                    "signal %d" % -code if code < 0 else "status %d" % code))
                return "failed ChildDied"
        except Exception as exc:   # report, keep working
            return "child died; could not fail the job: %s" % exc
        return "child died (%d)" % code

    def _child_main(self, jid: str) -> None:
        # The child never touches the parent's connections: it opens its own
        # client under the same worker name and exits without cleanup.
        code = 0
        try:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)   # the parent decides
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGQUIT, signal.SIG_DFL)
            client = Client(self.client.url, worker_name=self.client.worker_name)
            job = client.jobs[jid]
            if job is not None:
                outcome = perform(job)
                if outcome != "completed" and not outcome.startswith("handled"):
                    self.log("%s %s %s (child)" % (jid, job.klass, outcome))
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)


def _lost(handle: Any, timeout_ms: int) -> List[str]:
    from ._util import strlist
    return strlist(_core.qless_worker_lost_locks(handle, timeout_ms))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m qless.worker", description="Run a qless worker.")
    parser.add_argument("--url", default=None, help="redis:// or unix:// URL (default: $QLESS_URL)")
    parser.add_argument("--queue", "-q", action="append", required=True, help="queue to work on (repeatable)")
    parser.add_argument("--order", choices=("ordered", "round-robin"), default="ordered")
    parser.add_argument("--mode", choices=("serial", "fork"), default="serial")
    parser.add_argument("--max-jobs", type=int, default=None, help="exit after N jobs")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds to sleep when idle")
    parser.add_argument("--heartbeat", type=float, default=None,
                        help="seconds between heartbeats (default: a third of the lock time)")
    parser.add_argument("--name", default=None, help="worker name (default: <hostname>-<pid>)")
    args = parser.parse_args(argv)
    client = Client(args.url, worker_name=args.name)
    worker = Worker(client, args.queue, order=args.order, mode=args.mode, interval=args.interval,
                    max_jobs=args.max_jobs, heartbeat=args.heartbeat)
    worker.install_signals()
    return worker.run()


if __name__ == "__main__":
    sys.exit(main())
