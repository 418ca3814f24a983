"""Schedules (schedules.md §6.4, §7; example in docs/python.md): a named queue
seen as a schedule of one-off jobs and recurring templates, every add unique by default."""
import warnings
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _core
from ._util import Handle, encode, strlist
from .times import WhenWarning, epoch, seconds

if TYPE_CHECKING:
    from .client import Client

class Schedule(Handle):
    """Making one does no I/O. Times: epoch numbers, datetimes (naive = UTC) or English text (qless.when);
    durations: seconds, timedeltas or text. name and remove(jid) are the handle's: remove is False when jid was
    no template or scheduled job of this schedule (a job already waiting, running or done stays)."""
    __slots__ = ("_h", "client")

    def __init__(self, client: "Client", name: str) -> None:
        self.client = client
        self._h = client._h.schedule(name)

    def add(self, klass: str, data: Any = None, *, at: Any = None, in_: Any = None, cron: Optional[str] = None,
            every: Any = None, unique: bool = True, key: Optional[str] = None, jid: Optional[str] = None,
            priority: Optional[float] = None, retries: Optional[int] = None, tags: Optional[Iterable[str]] = None,
            backlog: Optional[int] = None, report: bool = False, day_first: bool = False
            ) -> Union[str, Tuple[str, bool]]:
        """Adds an entry running at (once), in_ (once, after a duration), every (a template: seconds, or text such
        as "2 days at 9am") or at the times of cron; exactly one of them (the core checks). day_first reads
        27/5/1979 in the texts as day/month/year. Returns the jid, whether or not an identical entry was pending;
        report=True gives (jid, inserted). A text read in a way it may not mean (a weekday that is not the
        date's: the date is used) is added all the same, with a qless.WhenWarning saying so."""
        if not isinstance(day_first, bool):
            raise TypeError("Schedule.add: day_first must be bool, not %s" % type(day_first).__name__)
        when: Dict[str, Any] = {"cron": cron, "day_first": int(day_first)}
        # Text goes to the core as text, which reads it as each argument means it.
        for name, value, convert in (("at", at, epoch), ("in", in_, seconds), ("every", every, seconds)):
            if value is not None:
                when[name + "_text" if isinstance(value, str) else name] = (
                    value if isinstance(value, str) else convert(value, "Schedule.add: " + name))
        found = self._h.add_entry(klass, None if data is None else encode(data),
                                  dict(_options(unique, key, jid, priority, retries, tags, backlog), **when))
        warning = _core.qless_when_warning()   # this thread's, left by the add's own parse ("" without text)
        if warning:
            warnings.warn("Schedule.add: " + warning, WhenWarning, stacklevel=2)
        return (found[0], found[1]) if report else found[0]

    def add_now(self, klass: str, data: Any = None, *, unique: bool = True, key: Optional[str] = None,
                jid: Optional[str] = None, priority: Optional[float] = None, retries: Optional[int] = None,
                tags: Optional[Iterable[str]] = None, report: bool = False) -> Union[str, Tuple[str, bool]]:
        """Adds a one-off entry that may run at once; returns as add."""
        found = self._h.add_now(klass, None if data is None else encode(data),
                                _options(unique, key, jid, priority, retries, tags, None))
        return (found[0], found[1]) if report else found[0]

    def entries(self) -> List[Dict[str, Any]]:
        """The pending entries: templates by next due time, then scheduled jobs, each {"jid", "klass", "kind":
        "cron"|"interval"|"at", "cron" or "interval", "next", "priority", "tags", "description"}."""
        e = self._h.entries()
        return [_entry(e, i) for i in range(e.size())]

    def next(self, jid: str, n: int = 5) -> List[float]:
        """The next n due times of entry jid: a template's, or a scheduled
        job's one time. NotFound when jid is no pending entry."""
        return strlist(self._h.next(jid, n))

    def listen(self, pool: int = 1, mode: str = "thread", max_jobs: Optional[int] = None, *,
               allow: Optional[Sequence[str]] = None, interval: Optional[float] = None) -> int:
        """Runs the schedule's due jobs with the Python worker (qless.worker:
        class resolution, heartbeats, SIGTERM/SIGINT finish running jobs)
        in pool threads or forked processes until stopped or max_jobs jobs
        are done; returns the worker's exit status (0 after a graceful stop).
        allow names the job classes it may import (default:
        $QLESS_WORKER_ALLOW); the worker refuses to run without one."""
        import os
        import sys
        from . import worker
        from ._util import strlist
        if mode not in ("thread", "fork"):
            raise ValueError("Schedule.listen: mode must be 'thread' or 'fork', not %r" % (mode,))
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise ValueError("Schedule.listen: pool must be a positive int, not %r" % (pool,))
        patterns = [allow] if isinstance(allow, str) else list(allow or [])
        try:   # the tree classes of the allow-list the run will use ($QLESS_WORKER_ALLOW's without one)
            klasses, configs = worker.tree_classes(patterns or strlist(_core.qless_worker_main_args([])[0]))
        except Exception as exc:   # a broken job module or a bad port declaration: nothing ran yet
            print("Schedule.listen: finding the tree classes: %s: %s" % (type(exc).__name__, exc), file=sys.stderr)
            return 1
        opts = dict(size=pool, pool=_core.QLESS_POOL_THREADS if mode == "thread" else _core.QLESS_POOL_PROCESSES,
                    max_jobs=max_jobs, interval=interval, allow=patterns or None, signals=1)
        return int(_core.qless_py_schedule_listen(self._h, worker.run, os.fork, opts, klasses or None,
                                                  configs or None))


def _entry(e: Any, i: int) -> Dict[str, Any]:
    entry = dict(jid=e.jid(i), klass=e.klass(i), kind=e.kind(i), next=e.next(i), priority=e.priority(i),
                 tags=[e.tag(i, j) for j in range(e.tag_count(i))], description=e.description(i))
    if entry["kind"] != "at":
        entry[entry["kind"]] = e.cron(i) if entry["kind"] == "cron" else e.interval(i)
    return entry


def _options(unique: bool, key: Optional[str], jid: Optional[str], priority: Optional[float],
             retries: Optional[int], tags: Optional[Iterable[str]], backlog: Optional[int]) -> Dict[str, Any]:
    return dict(unique=1 if unique else 0, key=key, jid=jid, priority=priority, retries=retries, tags=tags,
                backlog=backlog)

