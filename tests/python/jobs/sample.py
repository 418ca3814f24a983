"""Job classes the worker tests put into queues (klass "sample.<Name>")."""
import time


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
    """No process(): the worker calls an instance."""

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
    job.data["function"] = True


def crash(job):
    import os
    os._exit(3)
