"""The qless exceptions: one class per libqless status code, all subclasses
of :class:`Error`. The extension creates them (so C failures raise them
directly) with the class attribute ``code`` (``NotFound.code == -2``) and
args ``(message, code)``; this module only makes the message readable."""
from ._core import (ConnectionError, Error, InvalidArgument, LockLost, NotFound,
                    OutOfMemory, ProtocolError, StateError)

__all__ = ["Error", "InvalidArgument", "NotFound", "LockLost", "StateError",
           "ProtocolError", "ConnectionError", "OutOfMemory"]


def _message(self: BaseException) -> str:
    return str(self.args[0]) if self.args else ""


# str(e) is the library's message rather than the args tuple.
Error.message = property(_message, doc="the library's message")  # type: ignore[assignment]
Error.__str__ = _message  # type: ignore[assignment]
