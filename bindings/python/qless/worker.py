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

Tree classes (jobtrees.md §9): a class with ``inports``/``outports`` (a list
of port names, or {name: {} or {"default": value}}) or a ``startup(job)`` /
``shutdown(job)`` static- or classmethod beside its perform method. The
engine registers its ports on the worker's queues, runs startup once before
the first perform of a job's life, shutdown when the job is terminated, and
suspends a job whose perform called ``job.suspend()``. Since classes are
imported lazily, the worker finds its tree classes in the allow-list before
it starts: an exact pattern "pkg.mod.Name" names one (imported now, when
pkg.mod exists); "pkg.mod.*" takes the tree classes of module pkg.mod (those
defined in it or below it, as "pkg.mod.Name"); "*" finds none. A tree class
found no other way runs its jobs as plain jobs (job.suspend raises
StateError).
"""
import importlib
import importlib.util
import json
import os
import sys
import traceback
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _core
from .client import Client
from .errors import RetryableError
from .job import Job
from .tree import _ports_json

Outcome = Optional[Tuple[str, str, str]]


def target(klass: str) -> Any:
    """What klass "pkg.module.Name" names (a class or a function).

    The engine has matched klass against the allow-list; nothing here may
    reach beyond that name: every part must be an identifier (no paths or
    relative imports), Name must be public, and it must be defined in
    pkg.module or a module under it (not, say, os.system imported there)."""
    module_name, _, attr = klass.rpartition(".")
    if not module_name or not all(part.isidentifier() for part in klass.split(".")):
        raise ImportError("job class %r is not of the form module.Name" % klass)
    if attr.startswith("_"):
        raise ImportError("job class %r: %s is private, not a job class" % (klass, attr))
    found = getattr(importlib.import_module(module_name), attr)
    _check_home(klass, found, module_name)
    return found


def _check_home(klass: str, found: Any, module_name: str) -> None:
    home = getattr(found, "__module__", None)
    if not isinstance(home, str) or (home != module_name and not home.startswith(module_name + ".")):
        raise ImportError("job class %r is defined in module %r, outside %s" % (klass, home, module_name))


def resolve(klass: str, queue: str = "") -> Callable[[Job], Any]:
    """The callable for klass (see the module doc and target)."""
    found = target(klass)
    if isinstance(found, type):
        method = getattr(found, queue, None) if queue else None
        if not callable(method):
            method = getattr(found, "process", None)
        if callable(method):
            return method
        return lambda job: found()(job)
    if callable(found):
        return found
    raise TypeError("%s is neither a class nor a function" % klass)


def is_tree_class(found: Any) -> bool:
    """A class that declares ports or tree hooks."""
    return isinstance(found, type) and (
        getattr(found, "inports", None) is not None or getattr(found, "outports", None) is not None
        or callable(getattr(found, "startup", None)) or callable(getattr(found, "shutdown", None)))


def tree_config(klass: str, found: type) -> str:
    """The worker.register config of a tree class: JSON text."""
    config = {}
    for side in ("inports", "outports"):
        ports = getattr(found, side, None) or {}
        if not isinstance(ports, (dict, list, tuple)) or (
                not isinstance(ports, dict) and not all(isinstance(p, str) for p in ports)):
            raise TypeError("tree class %s: %s must be a dict or a list of port names, not %r"
                            % (klass, side, ports))
        config[side] = json.loads(_ports_json(ports) or "{}")
    return json.dumps(config, separators=(",", ":"))


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):   # a parent package that is missing or not a package
        return False


def tree_classes(patterns: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The tree classes the allow-list patterns name and their configs (see
    the module doc): ([klass], [config JSON]), empty when there are none."""
    found: Dict[str, str] = {}

    def add(klass: str, obj: Any) -> None:
        if klass not in found and is_tree_class(obj):
            found[klass] = tree_config(klass, obj)

    for pattern in patterns:
        if pattern.endswith(".*"):
            module_name = pattern[:-2]
            if all(p.isidentifier() for p in module_name.split(".")) and _module_exists(module_name):
                module = importlib.import_module(module_name)
                for attr in sorted(vars(module)):
                    obj = getattr(module, attr)
                    home = getattr(obj, "__module__", None)
                    if not attr.startswith("_") and isinstance(home, str) and (
                            home == module_name or home.startswith(module_name + ".")):
                        add(module_name + "." + attr, obj)
        elif "*" not in pattern:
            module_name, _, attr = pattern.rpartition(".")
            # Patterns that name no class are the engine's to refuse or to miss.
            if module_name and all(p.isidentifier() for p in pattern.split(".")) and \
                    not attr.startswith("_") and _module_exists(module_name):
                obj = getattr(importlib.import_module(module_name), attr, None)
                if obj is not None:
                    _check_home(pattern, obj, module_name)
                    add(pattern, obj)
    return list(found), list(found.values())


def allow_patterns(args: Sequence[str]) -> List[str]:
    """The allow-list among the flags (--allow P, --allow=P), else the one of
    $QLESS_WORKER_ALLOW, as the engine reads them."""
    patterns = []
    for i, arg in enumerate(args):
        if arg == "--allow" and i + 1 < len(args):
            patterns.append(args[i + 1])
        elif arg.startswith("--allow="):
            patterns.append(arg[len("--allow="):])
    if not patterns:
        patterns = [p for p in os.environ.get("QLESS_WORKER_ALLOW", "").split(",") if p]
    return patterns


def perform(handle: Any, client_handle: Any, phase: str = "perform", outcome: Any = None) -> Outcome:
    """The engine's callback (see swig/python.i): runs the job's code for
    phase "perform", or its class's "startup"/"shutdown" hook (a tree job;
    none: nothing to do), and answers None (complete), ("fail", group,
    message) or ("retry", group, message). Both handles and the outcome are
    lent for this call only."""
    job = Job(handle, Client._borrowed(client_handle), outcome)
    try:
        try:
            if phase == "perform":
                resolve(job.klass, job.queue)(job)
            else:
                hook = getattr(target(job.klass), phase, None)
                if callable(hook):
                    hook(job)
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
    try:
        klasses, configs = tree_classes(allow_patterns(args))
    except Exception as exc:   # a broken job module or a bad port declaration: nothing ran yet
        print("python3 -m qless.worker: finding the tree classes: %s: %s" % (type(exc).__name__, exc),
              file=sys.stderr)
        return 1
    # os.fork, not fork(2): a process pool's children must get Python's
    # after-fork handling (locks, threading state), run with the GIL held.
    return int(_core.qless_swig_worker_main(["python3 -m qless.worker", *args], perform, os.fork, None,
                                            klasses or None, configs or None))


if __name__ == "__main__":
    sys.exit(main())
