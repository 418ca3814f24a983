"""Queue: a named queue of a client (qless_queue). Making one does no I/O."""
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Union, overload

from . import _core
from ._util import encode, joblist, strlist

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


def _timing(t: Any) -> Dict[str, Any]:
    return {"count": t.count, "mean": t.mean, "std": t.std,
            "histogram": [t.bucket(i) for i in range(_core.QLESS_STATS_BUCKETS)]}


class Queue:
    __slots__ = ("_h", "client")

    def __init__(self, client: "Client", name: str) -> None:
        self.client = client
        self._h = _core.qless_queue_new(client._h, name)

    def __repr__(self) -> str:
        return "<qless.Queue %s>" % self.name

    @property
    def name(self) -> str:
        return _core.qless_queue_name(self._h)

    def put(self, klass: str, data: Any = None, priority: Optional[float] = None,
            tags: Optional[Iterable[str]] = None, delay: float = 0,
            retries: Optional[int] = None, depends: Optional[Iterable[str]] = None,
            jid: Optional[str] = None) -> str:
        """Puts a job; data is a JSON-able value or a str of JSON text.
        Options left None keep an existing job's values (new job: defaults)."""
        return _core.qless_queue_put(self._h, klass, None if data is None else encode(data), dict(
            jid=jid, delay=delay, priority=priority, retries=retries, tags=tags, depends=depends))

    @overload
    def pop(self) -> Optional["Job"]: ...
    @overload
    def pop(self, count: int) -> List["Job"]: ...

    def pop(self, count: Optional[int] = None) -> Union[None, "Job", List["Job"]]:
        """One job (or None) without count; a list of up to count jobs with it."""
        jobs = joblist(_core.qless_queue_pop(self._h, 1 if count is None else count), self.client)
        if count is None:
            return jobs[0] if jobs else None
        return jobs

    @overload
    def peek(self) -> Optional["Job"]: ...
    @overload
    def peek(self, count: int) -> List["Job"]: ...

    def peek(self, count: Optional[int] = None) -> Union[None, "Job", List["Job"]]:
        jobs = joblist(_core.qless_queue_peek(self._h, 1 if count is None else count), self.client)
        if count is None:
            return jobs[0] if jobs else None
        return jobs

    def __iter__(self) -> Iterator["Job"]:
        """The jobs that would pop next (waiting, then scheduled when due), without locking."""
        return iter(self.peek(max(self.length, 1)))

    @property
    def length(self) -> int:
        """Jobs running, waiting or scheduled."""
        return _core.qless_queue_length(self._h)

    def __len__(self) -> int:
        return self.length

    @property
    def counts(self) -> QueueCounts:
        c = _core.qless_queue_counts()
        _core.qless_queue_counts_get(self._h, c)
        return QueueCounts(self.name, c.waiting, c.running, c.stalled, c.scheduled,
                           c.depends, c.recurring, bool(c.paused))

    @property
    def paused(self) -> bool:
        return self.counts.paused

    def pause(self) -> None:
        _core.qless_queue_pause(self._h)

    def unpause(self) -> None:
        _core.qless_queue_unpause(self._h)

    def forget(self) -> None:
        _core.qless_queue_forget(self._h)

    def unfail(self, group: str, count: int = 25) -> int:
        """Moves up to count jobs failed in group back here; returns how many moved."""
        return _core.qless_queue_unfail(self._h, group, count)

    @property
    def heartbeat(self) -> int:
        """Lock duration in seconds (`<queue>-heartbeat`, else `heartbeat`)."""
        config = self.client.config
        value = config.get(self.name + "-heartbeat") or config.get("heartbeat") or 60
        return int(value)

    @heartbeat.setter
    def heartbeat(self, seconds: int) -> None:
        _core.qless_queue_set_heartbeat(self._h, seconds)

    @property
    def max_concurrency(self) -> int:
        return int(self.client.config.get(self.name + "-max-concurrency") or 0)

    @max_concurrency.setter
    def max_concurrency(self, value: int) -> None:
        _core.qless_queue_set_max_concurrency(self._h, value)

    def stats(self, date: Optional[float] = None) -> Dict[str, Any]:
        """Stats of the UTC day containing date (default: today)."""
        s = _core.qless_stats()
        _core.qless_queue_stats(self._h, time.time() if date is None else date, s)
        return {"retries": s.retries, "failed": s.failed, "failures": s.failures,
                "wait": _timing(s.wait), "run": _timing(s.run)}

    def recur(self, klass: str, data: Any = None, interval: float = 60, offset: float = 0,
              priority: float = 0, retries: int = 0, backlog: int = 0,
              tags: Optional[Iterable[str]] = None, jid: Optional[str] = None) -> str:
        """Puts a job of klass every interval seconds; returns the template's jid."""
        return _core.qless_queue_recur(self._h, klass, None if data is None else encode(data), interval, dict(
            jid=jid, offset=offset, priority=priority, retries=retries, backlog=backlog, tags=tags))

    # ---- jids by state ----
    def _jobs(self, state: str, offset: int, count: int) -> List[str]:
        return strlist(_core.qless_client_jobs(self.client._h, state, self.name, offset, count))

    def running(self, offset: int = 0, count: int = 25) -> List[str]:
        return self._jobs("running", offset, count)

    def stalled(self, offset: int = 0, count: int = 25) -> List[str]:
        return self._jobs("stalled", offset, count)

    def scheduled(self, offset: int = 0, count: int = 25) -> List[str]:
        return self._jobs("scheduled", offset, count)

    def depends(self, offset: int = 0, count: int = 25) -> List[str]:
        return self._jobs("depends", offset, count)

    def recurring(self, offset: int = 0, count: int = 25) -> List[str]:
        return self._jobs("recurring", offset, count)
