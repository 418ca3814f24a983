"""Job classes the worker tests put into queues (klass "sample.<Name>")."""
import os
import sys
import threading
import time

import qless


class Succeed:
    @staticmethod
    def process(job):
        data = job.data
        data["seen"] = True          # sent back with the completion
        if data.get("sleep"):
            time.sleep(data["sleep"])


class Boom(Exception):
    pass


class Explode:
    @staticmethod
    def process(job):
        raise Boom("kaboom %s" % job.data.get("n"))


class Callable:
    """No process(): not a job class (the one call shape is process(job))."""

    def __call__(self, job):
        job.data["called"] = True


class ByQueue:
    """A method named like the queue wins over process."""

    @classmethod
    def special(cls, job):
        job.data["via"] = "special"

    @staticmethod
    def process(job):
        job.data["via"] = "process"


class SelfRetry:
    @staticmethod
    def process(job):
        job.retry(0, "Retried", "asked for a retry")


def function_job(job):
    """A function: not a job class."""
    job.data["function"] = True


class TryAgain(qless.RetryableError):
    pass


class Retryable:
    @staticmethod
    def process(job):
        raise TryAgain("again %s" % job.jid)


class Record:
    """Records where and when it ran (thread, process, start/end) in its data."""

    @staticmethod
    def process(job):
        data = job.data
        data["start"] = time.time()
        data["pid"] = os.getpid()
        data["thread"] = threading.get_ident()
        time.sleep(data.get("sleep", 0))
        data["end"] = time.time()


class UsesClient:
    """job.client is the connection the job came from: it can put a job."""

    @staticmethod
    def process(job):
        job.data["worker"] = job.client.worker_name
        job.data["next"] = job.client.queues["next"].put("sample.Succeed", {"from": job.jid})


class UntilLockLost:
    """Waits (up to 10 s) for job.lock_lost, then writes what it saw to data["out"]."""

    @staticmethod
    def process(job):
        deadline = time.monotonic() + 10
        while not job.lock_lost and time.monotonic() < deadline:
            time.sleep(0.05)
        with open(job.data["out"], "w") as f:
            f.write("lost" if job.lock_lost else "held")


class Exits:
    @staticmethod
    def process(job):
        sys.exit(7)


class Prints:
    @staticmethod
    def process(job):
        print("printed %s" % job.jid)   # block-buffered: stdout is a pipe
