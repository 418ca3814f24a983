"""The qless worker for Python: libqless's worker engine running Python job code.

    python3 -m qless.worker --queue Q [--queue Q2] [--pool serial|threads|processes]
        [--size N] [--order ordered|round-robin|shuffled] [--max-jobs N] [--interval S]
        [--heartbeat S] [--name NAME] [--url URL] [--reconnect-max S]
        [--backoff SPEC] [--backoff-queue Q=SPEC] [--backoff-class KLASS=SPEC]

Every flag is the engine's (qless_worker_main; see --help): it reserves jobs,
heartbeats them, runs pools, handles SIGTERM/SIGINT (finish running jobs, exit
0) and SIGQUIT (exit at once), and settles each job. This module only finds
and calls the job's code. klass "pkg.module.Name" is imported; Name is then
called with the job:
  * a class with a method named like the job's queue, or with ``process``
    (a staticmethod/classmethod, the qless convention): Name.<method>(job)
  * another class: Name()(job)
  * a function: Name(job)
Returning completes the job (with the data the code left in job.data). An
exception fails it with group = the exception's class name and message = the
traceback; a qless.RetryableError retries it after the backoff delay instead.
The job's ``client`` is the engine's connection for the job (valid during the
call only) and ``job.lock_lost`` turns true once the lock is gone: long job
code may stop early, the engine will not settle the job.
"""
import importlib
import os
import sys
import traceback
from typing import Any, Callable, Optional, Sequence, Tuple

from . import _core
from .client import Client
from .errors import RetryableError
from .job import Job

Outcome = Optional[Tuple[str, str, str]]


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


def perform(handle: Any, client_handle: Any) -> Outcome:
    """The engine's perform callback (see swig/python.i): runs the job's code
    and answers None (complete), ("fail", group, message) or ("retry", group,
    message). Both handles are borrowed for this call only."""
    job = Job(handle, Client._borrowed(client_handle))
    try:
        try:
            resolve(job.klass, job.queue)(job)
        finally:
            job._sync()   # the engine settles with the data the code left
    except RetryableError as exc:
        return ("retry", type(exc).__name__, traceback.format_exc())
    except BaseException as exc:   # SystemExit too: it fails the job, not the worker
        return ("fail", type(exc).__name__, traceback.format_exc())
    finally:
        _flush()
    return None


def _flush() -> None:
    # A pool child exits from C, skipping Python's shutdown: what job code
    # printed would stay in the buffers and be lost.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # closed or broken: not the job's failure
            pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the worker with argv (default: sys.argv[1:]); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    # os.fork, not fork(2): a process pool's children must get Python's
    # after-fork handling (locks, threading state), run with the GIL held.
    return int(_core.qless_swig_worker_main(["python3 -m qless.worker", *args], perform, os.fork, None))


if __name__ == "__main__":
    sys.exit(main())
