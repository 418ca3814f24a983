"""Queue: a named queue of a client (the extension's Queue); making one does no I/O."""
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Union, overload

from . import _core
from ._util import Handle, encode, joblist, strlist
from .tree import _ports_json, tree_options

if TYPE_CHECKING:
    from .client import Client
    from .job import Job


@dataclass(frozen=True)
class QueueCounts:
    name: str
    waiting: int
    running: int
    stalled: int
    scheduled: int
    depends: int
    recurring: int
    paused: bool


def counts_of(name: str, fill: Callable[[Any], None]) -> QueueCounts:
    c = _core.qless_queue_counts()
    fill(c)
    return QueueCounts(name, c.waiting, c.running, c.stalled, c.scheduled, c.depends, c.recurring, bool(c.paused))


def unique_jid(queue: str, klass: Optional[str] = None, data: Any = None, *, key: Optional[str] = None,
               cron: Optional[str] = None, interval: float = 0) -> str:
    """The jid a unique put (or recur: with cron or interval) of this entry gets: the SHA-1 of its identity
    (queue with key, or queue, klass, data and the schedule), computed by libqless without a server."""
    if key is not None:
        return _core.qless_unique_jid_for_key(queue, key)
    return _core.qless_unique_jid(queue, klass, None if data is None else encode(data), cron, interval)


def _timing(t: Any) -> Dict[str, Any]:
    return {"count": t.count, "mean": t.mean, "std": t.std,
            "histogram": [t.bucket(i) for i in range(_core.QLESS_STATS_BUCKETS)]}


class Queue(Handle):
    """name, pause, unpause, forget and unregister_klass are the handle's."""
    __slots__ = ("_h", "client")

    def __init__(self, client: "Client", name: str) -> None:
        self.client = client
        self._h = client._h.queue(name)

    def put(self, klass: str, data: Any = None, priority: Optional[float] = None, tags: Optional[Iterable[str]] = None,
            delay: float = 0, retries: Optional[int] = None, depends: Optional[Iterable[str]] = None,
            jid: Optional[str] = None, unique: bool = False, key: Optional[str] = None, report: bool = False,
            tree: bool = False, parent: Optional[str] = None, name: Optional[str] = None, inports: Any = None,
            outports: Any = None, aliases: Optional[Iterable[str]] = None, by: Optional[str] = None) -> Any:
        """Puts a job; data is a JSON-able value or a str of JSON text. Options left None keep an existing job's
        values (new job: defaults).

        unique=True (implied by key): nothing happens while a job with the jid is waiting, scheduled, running or
        failed; without jid the jid is derived from queue, klass and data (or from key). report=True returns (jid,
        inserted) instead of the jid."""
        unique = unique or key is not None or report
        opts = dict(jid=jid, delay=delay, priority=priority, retries=retries, tags=tags, depends=depends,
                    unique=1 if unique else None, unique_key=key,
                    **tree_options(tree, parent, name, inports, outports, aliases, by))
        encoded = None if data is None else encode(data)
        return tuple(self._h.put_unique(klass, encoded, opts)) if report else self._h.put(klass, encoded, opts)

    @overload
    def pop(self) -> Optional["Job"]: ...
    @overload
    def pop(self, count: int) -> List["Job"]: ...

    def pop(self, count: Optional[int] = None) -> Union[None, "Job", List["Job"]]:
        """One job (or None) without count; a list of up to count jobs with it (so does peek)."""
        return self._jobs_from(self._h.pop, count)

    @overload
    def peek(self) -> Optional["Job"]: ...
    @overload
    def peek(self, count: int) -> List["Job"]: ...

    def peek(self, count: Optional[int] = None) -> Union[None, "Job", List["Job"]]:
        return self._jobs_from(self._h.peek, count)

    def _jobs_from(self, fetch: Callable[[int], Any], count: Optional[int]) -> Union[None, "Job", List["Job"]]:
        jobs = joblist(fetch(1 if count is None else count), self.client)
        return jobs if count is not None else (jobs[0] if jobs else None)

    def __iter__(self) -> Iterator["Job"]:
        """The jobs that would pop next (waiting, then scheduled when due), without locking."""
        return iter(self.peek(max(self.length, 1)))

    length = property(lambda self: self._h.length(), doc="Jobs running, waiting or scheduled.")
    counts = property(lambda self: counts_of(self.name, self._h.counts_get))
    paused = property(lambda self: self.counts.paused)

    def __len__(self) -> int:
        return self.length

    def unfail(self, group: str, count: int = 25) -> int:
        """Moves up to count jobs failed in group back here; returns how many moved."""
        return self._h.unfail(group, count)

    heartbeat = property(lambda self: int(self.client.config.get(self.name + "-heartbeat")
                                          or self.client.config.get("heartbeat") or 60),
                         lambda self, seconds: self._h.set_heartbeat(seconds),
                         doc="Lock duration in seconds (`<queue>-heartbeat`, else `heartbeat`).")

    max_concurrency = property(lambda self: int(self.client.config.get(self.name + "-max-concurrency") or 0),
                               lambda self, value: self._h.set_max_concurrency(value))

    def stats(self, date: Optional[float] = None) -> Dict[str, Any]:
        """Stats of the UTC day containing date (default: today)."""
        s = _core.qless_stats()
        self._h.stats(time.time() if date is None else date, s)
        return {"retries": s.retries, "failed": s.failed, "failures": s.failures,
                "wait": _timing(s.wait), "run": _timing(s.run)}

    def recur(self, klass: str, data: Any = None, interval: float = 60, offset: float = 0, priority: float = 0,
              retries: int = 0, backlog: int = 0, tags: Optional[Iterable[str]] = None, jid: Optional[str] = None,
              unique: bool = False, key: Optional[str] = None, cron: Optional[str] = None) -> str:
        """Puts a job of klass every interval seconds, or at the fire times of the cron expression cron (then
        interval and offset are not used); returns the template's jid. unique=True (implied by key) keeps a
        template that exists with that jid."""
        encoded = None if data is None else encode(data)
        opts = dict(jid=jid, offset=offset, priority=priority, retries=retries, backlog=backlog, tags=tags,
                    unique=1 if unique or key is not None else None, unique_key=key)
        if cron is not None:
            return self._h.recur_cron(klass, encoded, cron, opts)
        return self._h.recur(klass, encoded, interval, opts)

    # ---- jids by state: queue.running(offset=0, count=25) and so on ----
    def _jobs(state: str) -> Callable[..., List[str]]:  # type: ignore[misc]
        def jids(self: "Queue", offset: int = 0, count: int = 25) -> List[str]:
            return strlist(self.client._h.jobs(state, self.name, offset, count))
        jids.__name__ = state
        return jids

    running, stalled, scheduled, depends, recurring = map(_jobs, ("running", "stalled", "scheduled", "depends",
                                                                  "recurring"))
    del _jobs

    # ---- the worker registry of job trees: ports a class's new tree jobs get ----
    def register_klass(self, klass: str, inports: Any = None, outports: Any = None) -> bool:
        """Returns True when klass was not registered on this queue yet."""
        return self._h.register_klass(klass, encode({k: json.loads(v) for k, v in (
            ("inports", _ports_json(inports)), ("outports", _ports_json(outports))) if v is not None}))

    def klass_config(self, klass: Optional[str] = None) -> Any:
        """klass's configuration (None when unregistered); without klass, all of them."""
        text = self._h.klass_config(klass)
        return None if text is None else json.loads(text)
