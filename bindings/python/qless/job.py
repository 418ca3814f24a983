"""Job: a snapshot of one job (qless_job) plus the operations on it.

Fields read the snapshot the core holds; operations update it. ``data`` is
parsed once and cached; whatever the program does to it (assigning
``job.data`` or mutating the dict) is sent with the next complete, fail,
retry or heartbeat through qless_job_set_data."""
import json
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from . import _core
from ._util import encode, indexed

if TYPE_CHECKING:
    from .client import Client

_UNREAD = object()


class Job:
    """``client`` is the Client the job was read with; for a job given to
    worker code it is the engine's connection for that job (do not keep it)."""
    __slots__ = ("_h", "client", "_data")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h = handle
        self.client = client
        self._data: Any = _UNREAD

    def __repr__(self) -> str:
        return "<qless.Job %s %s %s>" % (self.klass, self.jid, self.state)

    # ---- fields ----
    @property
    def jid(self) -> str:
        return _core.qless_job_jid(self._h)

    @property
    def klass(self) -> str:
        return _core.qless_job_klass(self._h)

    @property
    def queue(self) -> str:
        """Name of the job's queue ("" once complete)."""
        return _core.qless_job_queue(self._h)

    @property
    def state(self) -> str:
        return _core.qless_job_state(self._h)

    @property
    def worker(self) -> str:
        """The worker holding the job ("" when none)."""
        return _core.qless_job_worker(self._h)

    @property
    def data(self) -> Any:
        if self._data is _UNREAD:
            self._data = json.loads(_core.qless_job_data(self._h))
        return self._data

    @data.setter
    def data(self, value: Any) -> None:
        _core.qless_job_set_data(self._h, encode(value))  # validates now
        self._data = json.loads(value) if isinstance(value, str) else value

    @property
    def priority(self) -> float:
        return _core.qless_job_priority(self._h)

    @priority.setter
    def priority(self, value: float) -> None:
        _core.qless_job_set_priority(self._h, value)

    @property
    def expires(self) -> float:
        """When the lock expires (epoch seconds; 0 when not running)."""
        return _core.qless_job_expires(self._h)

    @property
    def ttl(self) -> float:
        """Seconds left on the lock (negative once expired)."""
        return self.expires - self.client.now

    @property
    def lock_lost(self) -> bool:
        """True once the worker engine found this job's lock lost (timed out,
        canceled, handed to another worker) while its code runs: the code may
        stop early; the engine will not settle the job. False for jobs not
        run by the engine."""
        return bool(_core.qless_job_lock_lost(self._h))

    @property
    def retries(self) -> int:
        return _core.qless_job_retries(self._h)

    @property
    def remaining(self) -> int:
        return _core.qless_job_remaining(self._h)

    @property
    def tracked(self) -> bool:
        return bool(_core.qless_job_tracked(self._h))

    @property
    def spawned_from_jid(self) -> Optional[str]:
        return _core.qless_job_spawned_from_jid(self._h)

    @property
    def tags(self) -> List[str]:
        return indexed(self._h, _core.qless_job_tag_count, _core.qless_job_tag)

    @property
    def dependencies(self) -> List[str]:
        return indexed(self._h, _core.qless_job_dependency_count, _core.qless_job_dependency)

    @property
    def dependents(self) -> List[str]:
        return indexed(self._h, _core.qless_job_dependent_count, _core.qless_job_dependent)

    @property
    def failure(self) -> Optional[Dict[str, Any]]:
        group = _core.qless_job_failure_group(self._h)
        if group is None:
            return None
        return {"group": group,
                "message": _core.qless_job_failure_message(self._h),
                "when": _core.qless_job_failure_when(self._h),
                "worker": _core.qless_job_failure_worker(self._h)}

    @property
    def history(self) -> List[Dict[str, Any]]:
        """Entries oldest first, each the protocol's object ({"what", "when", ...})."""
        n = _core.qless_job_history_count(self._h)
        return [json.loads(_core.qless_job_history_json(self._h, i)) for i in range(n)]

    @property
    def json(self) -> str:
        """The whole job as JSON text."""
        return _core.qless_job_json(self._h)

    # ---- operations by the worker holding the job ----
    def _sync(self) -> None:
        # Sends local data changes (a mutated dict included) with the next op.
        if self._data is not _UNREAD:
            _core.qless_job_set_data(self._h, encode(self._data))

    def complete(self, next: Optional[str] = None, delay: float = 0,
                 depends: Optional[Iterable[str]] = None) -> str:
        """Completes the job, or advances it to queue `next`; returns the new state."""
        self._sync()
        _core.qless_job_complete(self._h, dict(next=next, delay=delay, depends=depends))
        return self.state

    def fail(self, group: str, message: str) -> None:
        self._sync()
        _core.qless_job_fail(self._h, group, message)

    def retry(self, delay: float = 0, group: Optional[str] = None,
              message: Optional[str] = None) -> int:
        """Gives the job back; returns retries left (-1: exhausted, now failed)."""
        self._sync()
        return _core.qless_job_retry(self._h, delay, group, message)

    def heartbeat(self) -> float:
        """Renews the lock; returns the new expiry time."""
        self._sync()
        return _core.qless_job_heartbeat(self._h)

    # ---- operations by anyone ----
    def cancel(self) -> None:
        _core.qless_job_cancel(self._h)

    def requeue(self, queue: str, delay: float = 0, priority: Optional[float] = None,
                retries: Optional[int] = None, tags: Optional[Iterable[str]] = None,
                depends: Optional[Iterable[str]] = None) -> None:
        """Moves the job (in any state) into `queue`; unset options keep their values."""
        _core.qless_job_requeue(self._h, queue, dict(
            delay=delay, priority=priority, retries=retries, tags=tags, depends=depends))

    move = requeue

    def timeout(self) -> None:
        _core.qless_job_timeout(self._h)

    def log(self, message: str, data: Any = None) -> None:
        _core.qless_job_log(self._h, message, None if data is None else encode(data))

    def tag(self, *tags: str) -> None:
        _core.qless_job_tag_add(self._h, list(tags))

    def untag(self, *tags: str) -> None:
        _core.qless_job_tag_remove(self._h, list(tags))

    def track(self) -> None:
        _core.qless_job_track(self._h)

    def untrack(self) -> None:
        _core.qless_job_untrack(self._h)

    def depend(self, *jids: str) -> None:
        _core.qless_job_depends_add(self._h, list(jids))

    def undepend(self, *jids: str, all: bool = False) -> None:
        if all:
            _core.qless_job_depends_clear(self._h)
        else:
            _core.qless_job_depends_remove(self._h, list(jids))

    def refresh(self) -> "Job":
        """Re-reads the job (NotFound if it is gone); drops unsent data changes."""
        _core.qless_job_refresh(self._h)
        self._data = _UNREAD
        return self
