"""Conversions between the extension's C-shaped values and Python ones."""
import json
from typing import Any, Dict, List, Optional, Sequence

from . import _core


def encode(data: Any) -> str:
    """Job data for the wire: a str is taken as JSON text already (the core
    validates it); anything else is encoded."""
    if isinstance(data, str):
        return data
    return json.dumps(data, separators=(",", ":"))


def strlist(handle: Any) -> List[str]:
    n = _core.qless_strlist_size(handle)
    return [_core.qless_strlist_get(handle, i) for i in range(n)]


def strlist_numbers(handle: Any) -> Dict[str, int]:
    n = _core.qless_strlist_size(handle)
    return {_core.qless_strlist_get(handle, i): _core.qless_strlist_number(handle, i) for i in range(n)}


def indexed(handle: Any, count: Any, get: Any) -> List[str]:
    return [get(handle, i) for i in range(count(handle))]


def joblist(handle: Any, client: Any) -> List[Any]:
    """Takes every job out of a joblist (ownership moves to the Job objects)."""
    from .job import Job
    n = _core.qless_joblist_size(handle)
    return [Job(_core.qless_joblist_take(handle, i), client) for i in range(n)]


def seconds_to_ms(timeout: Optional[float]) -> int:
    """None waits forever (-1 in C); seconds otherwise."""
    return -1 if timeout is None else max(0, int(timeout * 1000))


def many(first: Any, rest: Sequence[str]) -> List[str]:
    """Accepts f("a", "b") as well as f(["a", "b"])."""
    if isinstance(first, str):
        return [first, *rest]
    return [*first, *rest]
