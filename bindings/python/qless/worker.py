"""python3 -m qless.worker --queue Q --allow 'myapp.jobs.*' [engine flags: see --help]

The engine (libqless) does flags, pools, heartbeats, signals and settling;
swig/worker.i maps what job code did to the outcome. This module finds the
code (docs/workers.md): klass "pkg.module.Name" is a class whose static
method named like the job's queue, else ``process`` (qless-py), gets the
job. Tree classes are found in the allow-list at start: "pkg.mod.Name"
names one, "pkg.mod.*" those of pkg.mod, "*" none."""
import importlib.util
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _core
from ._util import strlist
from .client import Client
from .job import Job
from .tree import _ports_json


def target(klass: str) -> Any:
    """The class "pkg.module.Name" names: a public Name defined in pkg.module or below."""
    module_name, _, attr = klass.rpartition(".")
    if not module_name or not all(part.isidentifier() for part in klass.split(".")):
        raise ImportError("job class %r is not of the form module.Name" % klass)
    if attr.startswith("_"):
        raise ImportError("job class %r: %s is private, not a job class" % (klass, attr))
    found = getattr(importlib.import_module(module_name), attr)
    if not _home(found, module_name):
        raise ImportError("job class %r is defined in module %r, outside %s"
                          % (klass, getattr(found, "__module__", None), module_name))
    return found


def _home(found: Any, module_name: str) -> bool:
    home = getattr(found, "__module__", None)
    return isinstance(home, str) and (home + ".").startswith(module_name + ".")


def job_code(klass: str, queue: str, phase: str) -> Optional[Callable[[Job], Any]]:
    """The code of klass for phase; None for a tree hook the class lacks."""
    found = target(klass)
    if not isinstance(found, type):
        raise TypeError("job class %s is not a class (with a static process(job) method)" % klass)
    if phase != "perform":
        return getattr(found, phase, None)
    method = getattr(found, queue, None) if queue else None
    method = method if callable(method) else getattr(found, "process", None)
    if not callable(method):
        raise TypeError("job class %s has no process(job) method (nor one named for queue %r)" % (klass, queue))
    return method


def tree_config(klass: str, found: Any) -> Optional[str]:
    """The worker.register config (JSON) of a tree class (ports or hooks), else None."""
    if not isinstance(found, type) or all(
            getattr(found, name, None) is None for name in ("inports", "outports", "startup", "shutdown")):
        return None
    sides = [getattr(found, side, None) or {} for side in ("inports", "outports")]
    for side, ports in zip(("inports", "outports"), sides):
        if not isinstance(ports, (dict, list, tuple)) or not all(isinstance(p, str) for p in ports):
            raise TypeError("tree class %s: %s must be a dict or a list of port names, not %r" % (klass, side, ports))
    return '{"inports":%s,"outports":%s}' % tuple(_ports_json(ports) for ports in sides)


def _module(name: str) -> Any:   # imported, or None when there is none
    try:
        found = all(p.isidentifier() for p in name.split(".")) and importlib.util.find_spec(name)
    except (ImportError, ValueError):   # a parent package that is missing or not a package
        found = False
    return importlib.import_module(name) if found else None


def tree_classes(patterns: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The tree classes the allow-list names and their configs (module doc)."""
    found: Dict[str, str] = {}
    for pattern in patterns:
        module_name, _, attr = pattern.rpartition(".")
        module = _module(module_name) if "*" not in module_name and (attr == "*" or attr.isidentifier()) else None
        for name in (sorted(vars(module)) if attr == "*" else [attr]) if module else []:
            obj, klass = getattr(module, name, None), module_name + "." + name
            if name.startswith("_") or obj is None or (attr == "*" and not _home(obj, module_name)):
                continue
            config = tree_config(klass, obj if attr == "*" else target(klass))   # target: checks its home
            if config is not None:
                found.setdefault(klass, config)
    return list(found), list(found.values())


def run(handle: Any, client_handle: Any, phase: str) -> None:
    """The trampoline's dispatcher (handles lent for this call); what it raises is the outcome."""
    job = Job(handle, Client._borrowed(client_handle))
    try:
        code = job_code(job.klass, job.queue, phase)
        if callable(code):
            code(job)
    finally:
        job._sync()   # the engine settles with the data the code left


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    bad = [a for a in args if any("\ud800" <= c <= "\udfff" for c in a)]
    if bad:   # bytes that are not UTF-8 reach Python as surrogates, which the core's argv cannot carry
        shown = os.fsencode(bad[0]).decode("ascii", "backslashreplace")
        print("python3 -m qless.worker: argument '%s' is not valid UTF-8 text (see --help)" % shown, file=sys.stderr)
        return 2
    try:
        klasses, configs = tree_classes(strlist(_core.qless_worker_main_args(args)[0]))
    except Exception as exc:   # a broken job module or a bad port declaration: nothing ran yet
        print("python3 -m qless.worker: finding the tree classes: %s: %s" % (type(exc).__name__, exc), file=sys.stderr)
        return 1
    return int(_core.qless_py_worker_main(["python3 -m qless.worker", *args], run, os.fork,
                                          klasses or None, configs or None))


if __name__ == "__main__":
    sys.exit(main())
