"""RecurringJob: a template that puts a new job every `interval` seconds
(qless_recur). Setters write through to the server at once."""
import json
from typing import TYPE_CHECKING, Any, List

from . import _core
from ._util import encode, indexed

if TYPE_CHECKING:
    from .client import Client


class RecurringJob:
    __slots__ = ("_h", "client")

    def __init__(self, handle: Any, client: "Client") -> None:
        self._h = handle
        self.client = client

    def __repr__(self) -> str:
        return "<qless.RecurringJob %s %s every %gs>" % (self.klass, self.jid, self.interval)

    @property
    def jid(self) -> str:
        return _core.qless_recur_jid(self._h)

    @property
    def klass(self) -> str:
        return _core.qless_recur_klass(self._h)

    @klass.setter
    def klass(self, value: str) -> None:
        _core.qless_recur_set_klass(self._h, value)

    @property
    def queue(self) -> str:
        return _core.qless_recur_queue(self._h)

    @queue.setter
    def queue(self, value: str) -> None:
        _core.qless_recur_set_queue(self._h, value)

    def requeue(self, queue: str) -> None:
        self.queue = queue

    @property
    def data(self) -> Any:
        return json.loads(_core.qless_recur_data(self._h))

    @data.setter
    def data(self, value: Any) -> None:
        _core.qless_recur_set_data(self._h, encode(value))

    @property
    def priority(self) -> float:
        return _core.qless_recur_priority(self._h)

    @priority.setter
    def priority(self, value: float) -> None:
        _core.qless_recur_set_priority(self._h, value)

    @property
    def interval(self) -> float:
        return _core.qless_recur_interval(self._h)

    @interval.setter
    def interval(self, value: float) -> None:
        _core.qless_recur_set_interval(self._h, value)

    @property
    def retries(self) -> int:
        return _core.qless_recur_retries(self._h)

    @retries.setter
    def retries(self, value: int) -> None:
        _core.qless_recur_set_retries(self._h, value)

    @property
    def backlog(self) -> int:
        return _core.qless_recur_backlog(self._h)

    @backlog.setter
    def backlog(self, value: int) -> None:
        _core.qless_recur_set_backlog(self._h, value)

    @property
    def count(self) -> int:
        """Instances spawned so far."""
        return _core.qless_recur_count(self._h)

    @property
    def tags(self) -> List[str]:
        return indexed(self._h, _core.qless_recur_tag_count, _core.qless_recur_tag)

    def tag(self, *tags: str) -> None:
        _core.qless_recur_tag_add(self._h, list(tags))

    def untag(self, *tags: str) -> None:
        _core.qless_recur_tag_remove(self._h, list(tags))

    def cancel(self) -> None:
        _core.qless_recur_cancel(self._h)
