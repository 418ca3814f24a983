"""The qless worker for Python: libqless's worker engine running Python job code.

    python3 -m qless.worker --queue Q [--queue Q2] --allow 'myapp.jobs.*' [--allow P2]
        [--pool serial|threads|processes] [--size N] [--order ordered|round-robin|shuffled]
        [--max-jobs N] [--interval S] [--heartbeat S] [--name NAME] [--url URL]
        [--reconnect-max S] [--backoff SPEC] [--backoff-queue Q=SPEC] [--backoff-class KLASS=SPEC]

The allow-list is required (--allow, repeatable, or QLESS_WORKER_ALLOW,
comma-separated): it names the job classes this worker may import, exactly
or by a prefix ending in '*'. A job of any other class fails in group
qless.ClassNotAllowed before its name is imported.

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
    """The callable for klass "pkg.module.Name" (see the module doc).

    The engine has matched klass against the allow-list; nothing here may
    reach beyond that name: every part must be an identifier (no paths or
    relative imports), Name must be public, and it must be defined in
    pkg.module or a module under it (not, say, os.system imported there)."""
    module_name, _, attr = klass.rpartition(".")
    if not module_name or not all(part.isidentifier() for part in klass.split(".")):
        raise ImportError("job class %r is not of the form module.Name" % klass)
    if attr.startswith("_"):
        raise ImportError("job class %r: %s is private, not a job class" % (klass, attr))
    target = getattr(importlib.import_module(module_name), attr)
    home = getattr(target, "__module__", None)
    if not isinstance(home, str) or (home != module_name and not home.startswith(module_name + ".")):
        raise ImportError("job class %r is defined in module %r, outside %s" % (klass, home, module_name))
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
    for arg in args:
        # Bytes that are not UTF-8 reach Python as surrogates, which the
        # core's argv cannot carry: a usage error, as the core gives.
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(arg).decode("ascii", "backslashreplace")
            print("python3 -m qless.worker: argument '%s' is not valid UTF-8 text (see --help)" % shown,
                  file=sys.stderr)
            return 2
    # os.fork, not fork(2): a process pool's children must get Python's
    # after-fork handling (locks, threading state), run with the GIL held.
    return int(_core.qless_swig_worker_main(["python3 -m qless.worker", *args], perform, os.fork, None))


if __name__ == "__main__":
    sys.exit(main())
