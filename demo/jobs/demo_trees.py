"""The pipeline of jobtrees.md §11 as Python tree classes, one per role
("demo_trees.Pipeline", ".Producer", ".Consumer"); demo_trees.rb says what
each role does, and demo_trees/ holds the same roles in Lua."""


class _Role:
    """What every role does beside its work: each hook records in the job's
    state that Python ran it, which the demo and tests/cross check."""
    inports = None
    outports = None

    @classmethod
    def startup(cls, job):
        cls.start(job)
        job.store["startup"] = "python"

    @classmethod
    def process(cls, job):
        job.store["perform"] = "python"
        cls.work(job)

    @classmethod
    def shutdown(cls, job):
        job.store["shutdown"] = "python"

    @staticmethod
    def start(job):
        pass


class Pipeline(_Role):
    inports = {"result": {}}

    @staticmethod
    def work(job):
        results = job.read("result", 10)
        if not results:
            return job.suspend()
        job.store["total"] = results[-1]


class Producer(_Role):
    outports = {"out": {}}

    @staticmethod
    def start(job):
        job.ports.out["out"].connect(job.data["channel"])

    @staticmethod
    def work(job):
        job.write("out", *job.data["values"])


class Consumer(_Role):
    inports = {"in": {}}

    @staticmethod
    def start(job):
        job.ports.in_["in"].connect(job.data["channel"])

    @staticmethod
    def work(job):
        values = job.read("in", 100)
        if not values:
            return job.suspend()
        job.store["total"] = job.store.get("total", 0) + sum(values)
        job.store["received"] = job.store.get("received", 0) + len(values)
        job.parent.ports.in_["result"].write(job.store["total"])
