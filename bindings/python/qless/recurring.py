"""RecurringJob: a template that puts a new job every `interval` seconds or
at the times of a cron expression (the extension's Recur)."""
import json
from typing import TYPE_CHECKING, Any, List

from ._util import Handle, encode, field, listed, strlist, varargs

if TYPE_CHECKING:
    from .client import Client


class RecurringJob(Handle):
    """jid, count (instances spawned so far) and cancel are the handle's. Assigning a field writes it to the
    server at once. interval is 0 for a cron template; cron (normalised) is None for an interval template."""
    __slots__ = ("_h", "client")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h, self.client = handle, client

    def __repr__(self) -> str:
        when = "cron %s" % self.cron if self.cron else "every %gs" % self.interval
        return "<qless.RecurringJob %s %s %s>" % (self.klass, self.jid, when)

    klass, queue, priority, interval, cron, retries, backlog = map(
        field, ("klass", "queue", "priority", "interval", "cron", "retries", "backlog"))

    def next(self, n: int = 5) -> List[float]:
        """The next n (1-1000) due times, epoch seconds; [] once it fires no more."""
        return strlist(self._h.next(n))

    def requeue(self, queue: str) -> None:
        self.queue = queue

    data = property(lambda self: json.loads(self._h.data), lambda self, value: self._h.set_data(encode(value)))

    tags, tag, untag = listed("tag"), varargs("tag_add"), varargs("tag_remove")
