"""RecurringJob: a template that puts a new job every `interval` seconds or
at the times of a cron expression (the extension's Recur, qless_recur).
Setters write through to the server at once."""
import json
from typing import TYPE_CHECKING, Any, List

from ._util import attr, encode, field, indexed, times

if TYPE_CHECKING:
    from .client import Client


class RecurringJob:
    __slots__ = ("_h", "client")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h = handle
        self.client = client

    def __repr__(self) -> str:
        when = "cron %s" % self.cron if self.cron else "every %gs" % self.interval
        return "<qless.RecurringJob %s %s %s>" % (self.klass, self.jid, when)

    jid = attr("jid")
    klass = field("klass")
    queue = field("queue")
    priority = field("priority")
    interval = field("interval", doc="Seconds between instances; 0 for a cron template.")
    cron = field("cron", doc="The normalised cron expression; None for an interval template.")
    retries = field("retries")
    backlog = field("backlog")
    count = attr("count", doc="Instances spawned so far.")

    def next(self, n: int = 5) -> List[float]:
        """The next n (1-1000) due times, epoch seconds; [] once it fires no more."""
        return times(self._h.next(n))

    def requeue(self, queue: str) -> None:
        self.queue = queue

    @property
    def data(self) -> Any:
        return json.loads(self._h.data)

    @data.setter
    def data(self, value: Any) -> None:
        self._h.set_data(encode(value))

    @property
    def tags(self) -> List[str]:
        return indexed(self._h.tag, self._h.tag_count)

    def tag(self, *tags: str) -> None:
        self._h.tag_add(list(tags))

    def untag(self, *tags: str) -> None:
        self._h.tag_remove(list(tags))

    def cancel(self) -> None:
        self._h.cancel()
