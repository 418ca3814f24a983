"""Client: one connection to a qless server (the extension's Client), with
mappings for queues, jobs, config, workers, recurring jobs and job trees."""
import json
from dataclasses import asdict
from typing import (Any, Dict, Iterable, Iterator, List, MutableMapping, NamedTuple,
                    Optional, Tuple, Union)

from . import _core
from ._util import Handle, Index, Listing, joblist, strlist, strlist_numbers, varargs
from .errors import NotFound
from .events import Events
from .job import Job
from .queue import Queue, counts_of
from .recurring import RecurringJob
from .schedule import Schedule
from .tree import Channel, Tree


def _ms(seconds: Optional[float]) -> int:
    # C: 0 means the library default, < 0 wait forever.
    return 0 if seconds is None else (-1 if seconds < 0 else max(1, int(seconds * 1000)))


class Client(Handle):
    """Connects to url (None: $QLESS_URL, else the embedded server, started on demand).
    Timeouts are in seconds (None: the library's defaults, < 0: forever). namespace: work in
    that namespace (docs/cluster.md; also the URL's ?namespace=NAME)."""

    def __init__(self, url: Optional[str] = None, worker_name: Optional[str] = None,
                 connect_timeout: Optional[float] = None, command_timeout: Optional[float] = None,
                 namespace: Optional[str] = None) -> None:
        self._attach(url, _core.qless_client_new(url, dict(
            connect_timeout_ms=_ms(connect_timeout), command_timeout_ms=_ms(command_timeout),
            worker_name=worker_name, namespace=namespace)))

    @classmethod
    def _borrowed(cls, handle: Any) -> "Client":
        """A Client over a handle it does not own (the proxy frees nothing): the worker engine's connection that a
        performed job came from, valid during that perform call only. url is None: it is not known here."""
        client = cls.__new__(cls)
        client._attach(None, handle)
        return client

    def _attach(self, url: Optional[str], handle: Any) -> None:
        self.url = url
        self._h: Any = handle
        self.queues, self.jobs, self.config = Queues(self), Jobs(self), Config(self)
        self.workers, self.recurring = Workers(self), Recurring(self)
        self.schedules = Index(lambda name: Schedule(self, name))
        self.trees = Index(lambda jid: Tree(self, jid), NotFound)
        self.aliases = Index(handle.alias)
        self.channels = Index(lambda name: Channel(self, name))

    _shown = ("worker_name",)

    def cron_next(self, expr: str, n: int = 5) -> List[float]:
        """The next n (1-1000) fire times of a cron expression from now, epoch seconds."""
        return strlist(self._h.cron_next(expr, n))

    def call(self, command: str, *args: Any) -> Optional[str]:
        """Raw protocol call; the reply as text (arrays as a JSON array)."""
        return self._h.call(command, [str(a) for a in args])

    cancel, timeout = varargs("cancel"), varargs("timeout")

    def events(self, *channels: str) -> Events:
        return Events(self, *channels)

    def queue(self, name: str) -> Queue:
        return Queue(self, name)


class _Part:
    def __init__(self, client: Client) -> None:
        self.client = client


class Queues(_Part, Listing):
    """client.queues[name] -> Queue (no I/O); iterating gives the known names."""

    def __getitem__(self, name: str) -> Queue:
        return Queue(self.client, name)

    def names(self) -> List[str]:
        return strlist(self.client._h.queue_names())

    all = names

    def counts(self) -> List[Dict[str, Any]]:
        found = self.client._h.queue_counts()
        return [asdict(counts_of(found.name(i), lambda c, i=i: found.get(i, c))) for i in range(found.size())]


class FailedPage(NamedTuple):
    total: int
    jobs: List[Job]


class Jobs(Index):
    """client.jobs[jid] -> Job, or None when the job does not exist."""

    def __init__(self, client: Client) -> None:
        super().__init__(lambda jid: Job(client._h.get_job(jid), client), NotFound)
        self.client = client

    def get(self, jids: Union[str, Iterable[str]], *more: str) -> List[Job]:
        jids = [jids] if isinstance(jids, str) else list(jids)   # get("a", "b") or get(["a", "b"])
        return joblist(self.client._h.get_jobs(jids + list(more)), self.client)

    def complete(self, offset: int = 0, count: int = 25) -> List[str]:
        return strlist(self.client._h.jobs("complete", None, offset, count))

    def tagged_page(self, tag: str, offset: int = 0, count: int = 25) -> Tuple[int, List[str]]:
        """(total, jids) for one page of jobs carrying tag."""
        handle, total = self.client._h.tagged(tag, offset, count)
        return total, strlist(handle)

    def tagged(self, tag: str, page: int = 50) -> Iterator[str]:
        """Every jid carrying tag, oldest tagging first, fetched page by page."""
        offset = 0
        while True:
            _total, jids = self.tagged_page(tag, offset, page)
            yield from jids
            if len(jids) < page:
                return
            offset += len(jids)

    def top_tags(self, offset: int = 0, count: int = 25) -> Dict[str, int]:
        """Tags used by at least two jobs, most used first, with their counts."""
        return strlist_numbers(self.client._h.top_tags(offset, count))

    def tracked(self) -> Tuple[List[Job], List[str]]:
        """(tracked jobs that exist, tracked jids that no longer do)."""
        jobs, expired = self.client._h.tracked()
        return joblist(jobs, self.client), strlist(expired)

    def failed_groups(self) -> Dict[str, int]:
        return strlist_numbers(self.client._h.failed_groups())

    def failed(self, group: str, start: int = 0, limit: int = 25) -> FailedPage:
        """Jobs failed in group, newest first, and how many there are in all."""
        handle, total = self.client._h.failed(group, start, limit)
        return FailedPage(total, self.get(strlist(handle)))


def _value(text: Any) -> Any:
    # Config values travel as text; numbers come back as numbers.
    try:
        parsed = json.loads(text)
    except (TypeError, ValueError):   # not text, or not JSON
        return text
    return parsed if isinstance(parsed, (int, float)) and not isinstance(parsed, bool) else text


class Config(_Part, Listing, MutableMapping[str, Any]):
    """client.config: options with their defaults; del restores the default."""

    def __getitem__(self, key: str) -> Any:
        value = self.client._h.config_get(key)
        if value is None:
            raise KeyError(key)
        return _value(value)

    def __setitem__(self, key: str, value: Any) -> None:
        self.client._h.config_set(key, value if isinstance(value, str) else json.dumps(value))

    def __delitem__(self, key: str) -> None:
        self.client._h.config_unset(key)

    def all(self) -> Dict[str, Any]:
        return {k: _value(v) for k, v in json.loads(self.client._h.config_all()).items()}


class Workers(_Part, Listing):
    """client.workers: iterate names; workers[name] -> {"jobs": [...], "stalled": [...]}."""

    def counts(self) -> Dict[str, int]:
        """Recent workers, most recent first, with their running job counts."""
        return strlist_numbers(self.client._h.workers())

    all = counts

    def __getitem__(self, name: str) -> Dict[str, List[str]]:
        jobs, stalled = self.client._h.worker_jobs(name)
        return {"jobs": strlist(jobs), "stalled": strlist(stalled)}

    def deregister(self, *names: str) -> None:
        self.client._h.deregister_workers(names)


class Recurring(Index):
    """client.recurring[jid] -> RecurringJob, or None when there is no such template."""

    def __init__(self, client: Client) -> None:
        super().__init__(lambda jid: RecurringJob(client._h.get_recur(jid), client), NotFound)
