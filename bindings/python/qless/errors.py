"""The qless exceptions: one class per libqless status code, all subclasses
of :class:`Error`. The extension creates them (so C failures raise them
directly) with the class attribute ``code`` (``NotFound.code == -2``) and
args ``(message, code)``; this module only makes the message readable.

:class:`RetryableError` is not the library's: job code raises it (or a
subclass) to have the worker retry the job instead of failing it."""
from typing import List

from . import _core
from ._core import Error

# The classes are exported under their own names as the extension made
# them from the core's error table (base Error first), not listed again.
globals().update((cls.__name__, cls) for cls in _core.ERROR_CLASSES)
__all__: List[str] = [cls.__name__ for cls in _core.ERROR_CLASSES] + ["RetryableError"]


class RetryableError(Exception):
    """Raised by job code: the worker retries the job after the backoff delay of its class or queue (group = the
    exception's class name), and fails it only once its retries are used up."""


def _message(self: BaseException) -> str:
    return str(self.args[0]) if self.args else ""


# str(e) is the library's message rather than the args tuple.
Error.message = property(_message, doc="the library's message")  # type: ignore[assignment]
Error.__str__ = _message  # type: ignore[assignment]
