"""Conversions between the extension's values and Python ones, and the
properties that expose the generated classes' attributes (swig/objects.i)."""
import json
from typing import Any, Callable, Dict, Iterator, List, Optional


def encode(data: Any) -> str:
    """Job data for the wire: a str is taken as JSON text already (the core
    validates it); anything else is encoded."""
    if isinstance(data, str):
        return data
    return json.dumps(data, separators=(",", ":"))


def flag(name: str, doc: Optional[str] = None) -> Any:
    return property(lambda self: bool(getattr(self._h, name)), doc=doc)


def field(name: str, doc: Optional[str] = None) -> Any:
    """The handle's attribute `name`; assigning calls set_<name>, which writes it to the server at once."""
    return property(lambda self: getattr(self._h, name),
                    lambda self, value: getattr(self._h, "set_" + name)(value), doc=doc)


class Handle:
    """Attributes a layer class does not define are its handle's: the fields and the methods whose arguments and
    results need no conversion. repr shows the attributes named in _shown."""
    __slots__ = ()
    _shown = ("name",)

    def __repr__(self) -> str:
        return "<qless.%s %s>" % (type(self).__name__, " ".join(str(getattr(self, a)) for a in self._shown))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):   # _h itself, before it is set
            raise AttributeError(name)
        return getattr(self._h, name)  # type: ignore[attr-defined]


class Index:
    """index[key] -> make(key); None when make raises `missing`."""

    def __init__(self, make: Callable[[str], Any], missing: Optional[type] = None) -> None:
        self._make, self._missing = make, missing or ()

    def __getitem__(self, key: str) -> Any:
        try:
            return self._make(key)
        except self._missing:  # type: ignore[misc]
            return None


def indexed(get: Callable[[int], str], count: int) -> List[str]:
    return [get(i) for i in range(count)]


def listed(name: str) -> Any:
    """A property: the handle's `name`(i) for i below its `name`_count (tags, dependencies)."""
    return property(lambda self: indexed(getattr(self._h, name), getattr(self._h, name + "_count")))


def varargs(method: str) -> Any:
    """A method f(*names) over the handle's `method`, which takes them as one list."""
    return lambda self, *names: getattr(self._h, method)(names)


def strlist(handle: Any) -> List[Any]:
    """A StrList's strings, or a TimeList's times (epoch seconds)."""
    return indexed(handle.get, handle.size())


def strlist_numbers(handle: Any) -> Dict[str, int]:
    return {handle.get(i): handle.number(i) for i in range(handle.size())}


def joblist(handle: Any, client: Any) -> List[Any]:
    """Takes every job out of a JobList (ownership moves to the Job objects)."""
    from .job import Job
    return [Job(handle.take(i), client) for i in range(handle.size())]


class Listing:
    """__iter__ and __len__ of a mapping over what all() reads now."""

    def __iter__(self) -> Iterator[str]:
        return iter(self.all())  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.all())  # type: ignore[attr-defined]
