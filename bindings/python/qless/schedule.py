"""Schedules (schedules.md §6.4, §7): a named queue seen as a schedule of
one-off jobs and recurring templates, every add unique by default.

    s = client.schedules["app-tasks"]
    s.add("app.jobs.Report", {"to": "ops"}, cron="0 9 * * mon-fri")
    s.add("app.jobs.Mail", at="7pm tomorrow")
    s.listen(pool=4, allow=["app.jobs.*"])
"""
import json
import re
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _core
from ._util import attr, encode
from .errors import InvalidArgument, NotFound
from .times import epoch, seconds, when

if TYPE_CHECKING:
    from .client import Client

_WHENS = ("at", "in_", "cron", "every")


def _read(word: str, text: str, now: float) -> Any:
    """when(text) with `word` ("in", "every") put before it unless it starts
    with it; an error's column counts in the text as given."""
    if re.match(r"\s*%s\s" % word, text, re.I):
        return when(text, now=now)
    shift = len(word) + 1
    try:
        return when(word + " " + text, now=now)
    except InvalidArgument as e:
        message = re.sub(r"at column (\d+)", lambda m: "at column %d" % max(1, int(m.group(1)) - shift), str(e))
        raise InvalidArgument(message, *e.args[1:]) from None


class Schedule:
    """Making one does no I/O. Times: epoch numbers, datetimes (naive = UTC)
    or English text (qless.when); durations: seconds, timedeltas or text."""
    __slots__ = ("_h", "client")

    def __init__(self, client: "Client", name: str) -> None:
        self.client = client
        self._h = client._h.schedule(name)

    def __repr__(self) -> str:
        return "<qless.Schedule %s>" % self.name

    name = attr("name")

    def add(self, klass: str, data: Any = None, *, at: Any = None, in_: Any = None, cron: Optional[str] = None,
            every: Any = None, unique: bool = True, key: Optional[str] = None, jid: Optional[str] = None,
            priority: Optional[float] = None, retries: Optional[int] = None,
            tags: Optional[Iterable[str]] = None, backlog: Optional[int] = None,
            report: bool = False) -> Union[str, Tuple[str, bool]]:
        """Adds an entry running at (once), in_ (once, after a duration),
        every (a template: seconds, or text such as "2 days at 9am") or at
        the times of cron; exactly one of them. Returns the jid, whether or
        not an identical entry was pending; report=True gives (jid, inserted)."""
        given = [name for name, value in zip(_WHENS, (at, in_, cron, every)) if value is not None]
        if len(given) != 1:
            raise TypeError("Schedule.add: give exactly one of at=, in_=, cron=, every= (got %s); "
                            "add_now runs at once" % (", ".join(given) or "none"))
        args = (klass, None if data is None else encode(data),
                _options(unique, key, jid, priority, retries, tags, backlog))
        if at is not None:
            found = self._h.add_at(self._at(at), *args)
        elif in_ is not None:
            found = self._h.add_in(self._in(in_), *args)
        elif every is not None:
            found = self._every(every, args)
        else:
            if not isinstance(cron, str):
                raise TypeError("Schedule.add: cron must be str, not %s" % type(cron).__name__)
            found = self._h.add_cron(cron, *args)
        return (found[0], found[1]) if report else found[0]

    def add_now(self, klass: str, data: Any = None, *, unique: bool = True, key: Optional[str] = None,
                jid: Optional[str] = None, priority: Optional[float] = None, retries: Optional[int] = None,
                tags: Optional[Iterable[str]] = None, report: bool = False) -> Union[str, Tuple[str, bool]]:
        """Adds a one-off entry that may run at once; returns as add."""
        found = self._h.add_now(klass, None if data is None else encode(data),
                                _options(unique, key, jid, priority, retries, tags, None))
        return (found[0], found[1]) if report else found[0]

    # Text is read here rather than by qless_schedule_add, so that each
    # argument keeps its meaning: at= never makes a template, every= never
    # a one-off.
    def _at(self, at: Any) -> float:
        if not isinstance(at, str):
            return epoch(at, "Schedule.add: at")
        found = when(at, now=self.client.now)
        if found.kind != "at":
            raise InvalidArgument("Schedule.add: at: %r is not a one-off time (it is %s); use every= or cron="
                                  % (at, found.kind), _core.QLESS_EINVAL)
        return found.at

    def _in(self, in_: Any) -> float:
        if not isinstance(in_, str):
            return seconds(in_, "Schedule.add: in_")
        now = self.client.now
        return _read("in", in_, now).at - now

    def _every(self, every: Any, args: Tuple[Any, ...]) -> List[Any]:
        if not isinstance(every, str):
            return self._h.add_every(seconds(every, "Schedule.add: every"), 0, *args)
        found = _read("every", every, self.client.now)
        if found.kind == "cron":
            return self._h.add_cron(found.cron, *args)
        return self._h.add_every(found.interval, found.at, *args)

    def remove(self, jid: str) -> bool:
        """Removes a template or a scheduled job of this schedule; False when
        there was none (a job already waiting, running or done stays)."""
        return bool(self._h.remove(jid))

    def entries(self) -> List[Dict[str, Any]]:
        """The pending entries: templates by next due time, then scheduled
        jobs, each {"jid", "klass", "kind": "cron"|"interval"|"at", "cron"
        or "interval", "next", "priority", "tags"}."""
        return json.loads(self._h.list())

    def next(self, jid: str, n: int = 5) -> List[float]:
        """The next n due times of entry jid: a template's from the server, a
        scheduled job's one time. NotFound when jid is no pending entry."""
        recur = self.client.recurring[jid]
        if recur is not None and recur.queue == self.name:
            return recur.next(n)
        for entry in self.entries():
            if entry["jid"] == jid:
                return [entry["next"]]
        raise NotFound("Schedule.next: %s is no pending entry of %s" % (jid, self.name), _core.QLESS_ENOTFOUND)

    def listen(self, pool: int = 1, mode: str = "thread", max_jobs: Optional[int] = None, *,
               allow: Optional[Sequence[str]] = None, interval: Optional[float] = None) -> int:
        """Runs the schedule's due jobs with the Python worker (qless.worker:
        class resolution, heartbeats, SIGTERM/SIGINT finish running jobs)
        in pool threads or forked processes until stopped or max_jobs jobs
        are done; returns the worker's exit status (0 after a graceful stop).
        allow names the job classes it may import (default:
        $QLESS_WORKER_ALLOW); the worker refuses to run without one."""
        from . import worker
        if mode not in ("thread", "fork"):
            raise ValueError("Schedule.listen: mode must be 'thread' or 'fork', not %r" % (mode,))
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise ValueError("Schedule.listen: pool must be a positive int, not %r" % (pool,))
        argv = ["--queue", self.name, "--pool", "threads" if mode == "thread" else "processes",
                "--size", str(pool), "--name", self.client.worker_name]
        if self.client.url is not None:
            argv += ["--url", self.client.url]
        if max_jobs is not None:
            argv += ["--max-jobs", str(max_jobs)]
        if interval is not None:
            argv += ["--interval", str(interval)]
        for pattern in ([allow] if isinstance(allow, str) else allow or []):
            argv += ["--allow", pattern]
        return worker.main(argv)


def _options(unique: bool, key: Optional[str], jid: Optional[str], priority: Optional[float],
             retries: Optional[int], tags: Optional[Iterable[str]], backlog: Optional[int]) -> Dict[str, Any]:
    return dict(unique=1 if unique else 0, key=key, jid=jid, priority=priority, retries=retries,
                tags=None if tags is None else list(tags), backlog=backlog)


class Schedules:
    """client.schedules[name] -> Schedule (no I/O)."""

    def __init__(self, client: "Client") -> None:
        self.client = client

    def __getitem__(self, name: str) -> Schedule:
        return Schedule(self.client, name)

