"""Events: a subscription to qless pub/sub channels on a connection of its own (the extension's Events).
Channels are named without the "ql:" prefix: "log", "w:<worker>", "put", "popped", "completed", "failed",
"stalled", "canceled", "track", "untrack". Waiting releases the GIL."""
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Optional

if TYPE_CHECKING:
    from .client import Client


class Event(NamedTuple):
    channel: str
    message: str   # a jid for job events; JSON text on "log"


class Events:
    def __init__(self, client: "Client", *channels: str) -> None:
        self.client = client
        self._h: Any = client._h.events(channels)

    def next(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next message, or None when timeout (seconds; None: forever) passes."""
        # Two NULL out-strings collapse to a single None in SWIG's output list.
        reply = self._h.next(-1 if timeout is None else max(0, int(timeout * 1000)))   # -1: forever
        return None if reply is None else Event(reply[0], reply[1])

    def listen(self, timeout: Optional[float] = None) -> Iterator[Event]:
        """Yields messages until none arrives for timeout seconds (None: forever)."""
        return iter(lambda: self.next(timeout), None)

    def __iter__(self) -> Iterator[Event]:
        return self.listen(None)

    def close(self) -> None:
        self._h = None   # the handle's destructor unsubscribes and disconnects

    def __enter__(self) -> "Events":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
