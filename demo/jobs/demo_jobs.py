"""The demo's Python job class (klass "demo_jobs.Work", run by `python3 -m qless.worker`).

What a job does is driven by its data: it records which language ran it and
which attempt this was (popped entries in its history), sleeps data["sleep"]
seconds, raises on its first attempt when data["fail_once"], and on its first
attempt hangs when data["stall_once"] (the demo kills that worker with SIGKILL).
"""
import time


class Work:
    @staticmethod
    def process(job):
        attempt = sum(1 for h in job.history if h.get("what") == "popped")
        data = job.data
        data["ran_in"] = "python"
        data["attempt"] = attempt
        if data.get("stall_once") and attempt == 1:
            time.sleep(60)  # never finishes: the demo kills this worker meanwhile
        if data.get("fail_once") and attempt == 1:
            raise RuntimeError("simulated failure on attempt 1")
        time.sleep(data.get("sleep", 0))
