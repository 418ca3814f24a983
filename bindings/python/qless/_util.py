"""Conversions between the extension's values and Python ones, and the
properties that expose the generated classes' attributes (swig/objects.i)."""
import json
from typing import Any, Callable, Dict, List, Optional, Sequence


def encode(data: Any) -> str:
    """Job data for the wire: a str is taken as JSON text already (the core
    validates it); anything else is encoded."""
    if isinstance(data, str):
        return data
    return json.dumps(data, separators=(",", ":"))


def attr(name: str, convert: Optional[Callable[[Any], Any]] = None, doc: Optional[str] = None) -> Any:
    """A read-only property over attribute `name` of the object's handle."""
    if convert is None:
        return property(lambda self: getattr(self._h, name), doc=doc)
    return property(lambda self: convert(getattr(self._h, name)), doc=doc)


def field(name: str, doc: Optional[str] = None) -> Any:
    """Like attr, and assignable: the handle's set_<name> writes it to the server at once."""
    return property(lambda self: getattr(self._h, name),
                    lambda self, value: getattr(self._h, "set_" + name)(value), doc=doc)


def indexed(get: Callable[[int], str], count: int) -> List[str]:
    return [get(i) for i in range(count)]


def strlist(handle: Any) -> List[str]:
    return indexed(handle.get, handle.size())


def times(handle: Any) -> List[float]:
    """The due times of a TimeList (cron.next, recur.next), epoch seconds."""
    return [handle.get(i) for i in range(handle.size())]


def strlist_numbers(handle: Any) -> Dict[str, int]:
    return {handle.get(i): handle.number(i) for i in range(handle.size())}


def joblist(handle: Any, client: Any) -> List[Any]:
    """Takes every job out of a JobList (ownership moves to the Job objects)."""
    from .job import Job
    return [Job(handle.take(i), client) for i in range(handle.size())]


def seconds_to_ms(timeout: Optional[float]) -> int:
    """None waits forever (-1 in C); seconds otherwise."""
    return -1 if timeout is None else max(0, int(timeout * 1000))


def many(first: Any, rest: Sequence[str]) -> List[str]:
    """Accepts f("a", "b") as well as f(["a", "b"])."""
    if isinstance(first, str):
        return [first, *rest]
    return [*first, *rest]
