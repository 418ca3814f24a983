"""Times for schedules: qless.when (English time text read by libqless, no
server) and the conversions of Python's time values to epoch seconds."""
import datetime as _dt
import time
from dataclasses import dataclass
from typing import Any, Optional, Union

from . import _core

TimeValue = Union[str, int, float, _dt.datetime]

_KINDS = {_core.QLESS_WHEN_AT: "at", _core.QLESS_WHEN_INTERVAL: "interval", _core.QLESS_WHEN_CRON: "cron"}


class WhenWarning(UserWarning):
    """A time text was read in a way it may not mean (Schedule.add): a weekday that is not the date's (the date
    is used). The entry is added all the same."""


@dataclass(frozen=True)
class When:
    """What a text means: kind "at" (once, at `at`), "interval" (every `interval` seconds, first at `at`) or
    "cron" (at the fire times of `cron`, a normalised expression; `at` is 0). `warning`: "" or what the text was
    read as that it may not mean (a weekday that is not the date's: the date is used)."""
    kind: str
    at: float
    interval: float
    cron: str
    warning: str = ""

    datetime = property(lambda self: _dt.datetime.fromtimestamp(self.at, _dt.timezone.utc),
                        doc="`at` as an aware UTC datetime.")


def epoch(value: Any, what: str) -> float:
    """A number or a datetime (aware; naive is taken as UTC) as epoch seconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, _dt.datetime):
        return (value if value.tzinfo is not None else value.replace(tzinfo=_dt.timezone.utc)).timestamp()
    raise TypeError("%s: a time must be a number, a datetime or text, not %s" % (what, type(value).__name__))


def seconds(value: Any, what: str) -> float:
    """A duration given as a number of seconds or a timedelta."""
    if isinstance(value, _dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise TypeError("%s: a duration must be a number of seconds, a timedelta or text, not %s"
                    % (what, type(value).__name__))


def when(text: str, now: Optional[Union[int, float, _dt.datetime]] = None, day_first: bool = False) -> When:
    """Reads English time text ("7pm tomorrow", "in 5 minutes", "every monday 9am", ISO 8601, epoch seconds)
    relative to now (default: the clock); day_first reads 27/5/1979 as day/month/year. qless.InvalidArgument names
    the word and column a text went wrong at."""
    if not isinstance(text, str):
        raise TypeError("when: text must be str, not %s" % type(text).__name__)
    if not isinstance(day_first, bool):
        raise TypeError("when: day_first must be bool, not %s" % type(day_first).__name__)
    result = _core.qless_when()
    result.flags = _core.QLESS_WHEN_DAY_FIRST if day_first else 0
    _core.qless_when_parse(text, time.time() if now is None else epoch(now, "when: now"), result)
    return When(_KINDS[result.kind], result.at, result.interval, result.cron, _core.qless_when_warning())
