"""RecurringJob: a template that puts a new job every `interval` seconds
(the extension's Recur, qless_recur). Setters write through to the server at once."""
import json
from typing import TYPE_CHECKING, Any, List

from ._util import attr, encode, field, indexed

if TYPE_CHECKING:
    from .client import Client


class RecurringJob:
    __slots__ = ("_h", "client")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h = handle
        self.client = client

    def __repr__(self) -> str:
        return "<qless.RecurringJob %s %s every %gs>" % (self.klass, self.jid, self.interval)

    jid = attr("jid")
    klass = field("klass")
    queue = field("queue")
    priority = field("priority")
    interval = field("interval")
    retries = field("retries")
    backlog = field("backlog")
    count = attr("count", doc="Instances spawned so far.")

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
