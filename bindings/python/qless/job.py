"""Job: a snapshot of one job (the extension's Job, qless_job) plus the
operations on it.

Fields read the snapshot the core holds; operations update it. ``data`` is
parsed once and cached; whatever the program does to it (assigning
``job.data`` or mutating the dict) is sent with the next complete, fail,
retry or heartbeat through set_data."""
import json
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from . import _core
from ._util import Handle, encode, field, flag, listed, varargs
from .tree import Children, Ports, Store, Tree, tree_options

if TYPE_CHECKING:
    from .client import Client

_UNREAD = object()


class Job(Handle):
    """``client`` is the Client the job was read with; for a job given to worker code it is the engine's
    connection for that job (do not keep it). Fields not defined here (jid, klass, queue, state, worker,
    expires, retries, remaining, spawned_from_jid, json) and the operations that take no conversion (cancel,
    timeout, track, untrack) are the handle's."""
    __slots__ = ("_h", "client", "_data")
    _shown = ("klass", "jid", "state")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h, self.client, self._data = handle, client, _UNREAD

    priority = field("priority")
    lock_lost = flag("lock_lost", doc="""True once the worker engine found this job's lock lost
        (timed out, canceled, handed to another worker) while its code runs: the code may stop
        early; the engine will not settle the job. False for jobs not run by the engine.""")
    tracked = flag("tracked")

    @property
    def data(self) -> Any:
        if self._data is _UNREAD:
            self._data = json.loads(self._h.data)
        return self._data

    @data.setter
    def data(self, value: Any) -> None:
        self._h.set_data(encode(value))  # validates now
        self._data = json.loads(value) if isinstance(value, str) else value

    ttl = property(lambda self: self.expires - self.client.now, doc="Seconds left on the lock (negative once expired).")

    tags, dependencies, dependents = listed("tag"), listed("dependency"), listed("dependent")

    @property
    def failure(self) -> Optional[Dict[str, Any]]:
        h = self._h
        if h.failure_group is None:
            return None
        return {"group": h.failure_group, "message": h.failure_message,
                "when": h.failure_when, "worker": h.failure_worker}

    history = property(lambda self: [json.loads(self._h.history_json(i)) for i in range(self._h.history_count)],
                       doc="""Entries oldest first, each the protocol's object ({"what", "when", ...}).""")

    # ---- operations by the worker holding the job ----
    def _sync(self) -> None:
        # Sends local data changes (a mutated dict included) with the next op.
        if self._data is not _UNREAD:
            self._h.set_data(encode(self._data))

    def complete(self, next: Optional[str] = None, delay: float = 0, depends: Optional[Iterable[str]] = None) -> str:
        """Completes the job, or advances it to queue `next`; returns the new state."""
        self._sync()
        self._h.complete(dict(next=next, delay=delay, depends=depends))
        return self.state

    def fail(self, group: str, message: str) -> None:
        self._sync()
        self._h.fail(group, message)

    def retry(self, delay: float = 0, group: Optional[str] = None, message: Optional[str] = None) -> int:
        """Gives the job back; returns retries left (-1: exhausted, now failed)."""
        self._sync()
        return self._h.retry(delay, group, message)

    def heartbeat(self) -> float:
        """Renews the lock; returns the new expiry time."""
        self._sync()
        return self._h.heartbeat()

    # ---- operations by anyone ----
    def requeue(self, queue: str, delay: float = 0, priority: Optional[float] = None, retries: Optional[int] = None,
                tags: Optional[Iterable[str]] = None, depends: Optional[Iterable[str]] = None, **tree: Any) -> None:
        """Moves the job (in any state) into `queue`; unset options keep their values. The job-tree options
        are put's (tree=, parent=, name=, inports=, outports=, aliases=, by=): they convert or attach the job."""
        self._h.requeue(queue, dict(delay=delay, priority=priority, retries=retries, tags=tags, depends=depends,
                                    **tree_options(**tree)))

    move = requeue

    def log(self, message: str, data: Any = None) -> None:
        self._h.log(message, None if data is None else encode(data))

    tag, untag, depend = varargs("tag_add"), varargs("tag_remove"), varargs("depends_add")

    def undepend(self, *jids: str, all: bool = False) -> None:
        self._h.depends_clear() if all else self._h.depends_remove(jids)

    def refresh(self) -> "Job":
        """Re-reads the job (NotFound if it is gone); drops unsent data changes."""
        self._h.refresh()
        self._data = _UNREAD
        return self

    # ---- as a tree job (jobtrees.md §9): what perform uses ----
    ports = property(lambda self: Ports(self.client, self.jid), doc="ports.in_[name] / ports.out[name] (see Tree).")
    store = property(lambda self: Store(self.client, self.jid),
                     doc="The job's private state (a mutable mapping); `state` is its qless state.")
    tree = property(lambda self: self.client.trees[self.jid], doc="The job's tree record; None once the job is gone.")
    children = property(lambda self: Children(self.client, self.jid, self.queue),
                        doc="children[name] -> jid; children.put(name, klass, data) creates one.")

    @property
    def parent(self) -> Optional[Tree]:
        """The parent's Tree (its ports and store), or None for a root."""
        tree = self.tree
        return self.client.trees[tree.parent] if tree is not None and tree.parent else None

    def read(self, port: str, n: int = 1) -> List[Any]:
        """Takes up to n values from input port `port`, oldest first."""
        return self.ports.in_[port].read(n)

    def write(self, port: str, *values: Any) -> None:
        """Writes the values to output port `port`."""
        self.ports.out[port].write(*values)

    def suspend(self) -> Optional[bool]:
        """In a worker's perform: the job sleeps once perform returns, until input or Tree.run wakes it (at once
        if input came during the run); None. StateError at the call when the worker does not run the job as a tree
        job. Otherwise, for a job this client holds: suspends it now; True when input that came during the run
        requeued it."""
        if _core.qless_swig_worker_suspend(self._h):   # the worker's perform of this job
            return None
        if self.jid is None:   # lent by the worker for a call that is over
            raise _core.StateError("Job.suspend: the worker's run of this job is over; call suspend during perform")
        return self._h.suspend()
