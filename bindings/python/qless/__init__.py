"""qless: the qless Redis job queue, over the libqless C core.

    import qless
    client = qless.Client()            # $QLESS_URL or the embedded server
    jid = client.queues["jobs"].put("app.jobs.Resize", {"size": 64})
    job = client.queues["jobs"].pop()
    job.complete()

A Client and everything made from it must be used by one thread at a time.
"""
from . import _core
from .client import Client, Config, FailedPage, Jobs, Queues, Recurring, Workers
from . import errors
from .errors import *  # noqa: F401,F403 - Error, its subclasses and RetryableError
from .events import Event, Events
from .job import Job
from .queue import Queue, QueueCounts, unique_jid
from .recurring import RecurringJob
from .schedule import Schedule
from .times import When, WhenWarning, when

__version__: str = _core.qless_version()
handle_count = _core.qless_handle_count   # live libqless handles in this process (for leak checks)

__all__ = ["Client", "Queue", "Job", "RecurringJob", "Events", "Event", "QueueCounts",
           "Config", "Jobs", "Queues", "Recurring", "Workers", "FailedPage",
           "Schedule", "When", "WhenWarning", "when", "unique_jid", "handle_count"] + errors.__all__
