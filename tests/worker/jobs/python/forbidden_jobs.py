"""Not a conformance job class: the allow-list scenario (test_class_not_allowed)
puts jobs of it that no worker may run. Importing the module appends a line to
$QLESS_CONF_MARKER, and running its job ends the worker process, so that a
worker that imported or ran it cannot pass the scenario."""
import os

_MARKER = os.environ.get("QLESS_CONF_MARKER")
if _MARKER:
    with open(_MARKER, "a") as _f:
        _f.write("imported forbidden_jobs in %d\n" % os.getpid())


class Forbidden:
    @staticmethod
    def process(job):
        os._exit(3)
