"""Job classes of test_worker_tree.py, run by `python3 -m qless.worker
--allow 'tree_jobs.*'`: which of them are tree classes is part of the test."""
import qless

_kept = []


class Counter:
    """A tree class: ports, both hooks. Sums its input, writes it doubled."""
    inports = {"in": {}}
    outports = ["out"]

    @staticmethod
    def startup(job):
        job.store["startups"] = job.store.get("startups", 0) + 1

    @staticmethod
    def process(job):
        if job.data.get("child") and "kid" not in job.children:
            job.children.put("kid", "tree_jobs.Leaf", {"n": 1})
        values = job.read("in", 10)
        if not values:
            job.suspend()
            return
        job.write("out", *[v * 2 for v in values])
        job.store["sum"] = job.store.get("sum", 0) + sum(values)

    @staticmethod
    def shutdown(job):
        job.store["shutdown"] = True


class Leaf:
    """A tree class by its hook alone; notes its parent, then completes."""

    @staticmethod
    def startup(job):
        pass

    @staticmethod
    def process(job):
        parent = job.parent
        job.store["parent"] = parent.jid if parent else None
        job.store["by"] = job.tree.created_by


class Plain:
    """Not a tree class: suspend is refused at the call."""

    @staticmethod
    def process(job):
        job.suspend()


class Late:
    """Keeps its job; the next one asks the kept job to suspend after its run."""

    @staticmethod
    def process(job):
        if _kept:
            try:
                _kept[0].suspend()
            except qless.StateError as exc:
                job.data = {"late": str(exc)}
        _kept.append(job)


class Broken:
    """Its shutdown fails: the job is terminated all the same."""
    inports = ["in"]

    @staticmethod
    def process(job):
        job.suspend()

    @staticmethod
    def shutdown(job):
        raise ValueError("cannot shut down")


def helper(job):
    """A function: never a tree class."""


Imported = qless.Client   # defined elsewhere: not this module's class
