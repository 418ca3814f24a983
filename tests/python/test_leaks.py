"""Handles are freed by garbage collection: the core's live handle count
returns to where it started."""
import gc

import pytest

import qless
from qless import _core


class Heartbeater:
    """The core's qless_heartbeater (no longer used by the worker, which runs
    on the engine): a C thread renewing a job's lock."""

    def __init__(self, job, interval):
        self._h = _core.qless_heartbeater_new(job._h, interval)

    lost = property(lambda self: bool(_core.qless_heartbeater_lost(self._h)))
    beats = property(lambda self: _core.qless_heartbeater_beats(self._h))

    def stop(self):
        self._h = None   # the destructor joins the thread, without the GIL


def exercise(url):
    client = qless.Client(url, worker_name="leaky")
    queue = client.queues["q"]
    jids = [queue.put("K", {"i": i}, tags=["t"]) for i in range(3)]
    queue.peek(3)
    jobs = queue.pop(2)
    beater = Heartbeater(jobs[0], 0.05)
    jobs[0].complete()
    beater.stop()
    jobs[1].fail("G", "m")
    client.jobs.get(jids)
    client.jobs.tracked()
    client.jobs.failed("G")
    list(client.jobs.tagged("t"))
    client.workers["leaky"]
    dict(client.config)
    queue.counts, queue.stats()
    rjid = queue.recur("K", {}, interval=10)
    client.recurring[rjid].tags
    with client.events("log") as events:
        events.next(0)
    tasks = client.schedules["s"]
    tjid = tasks.add("K", {}, cron="0 9 * * *", tags=["t"])
    tasks.add("K", {}, at="7pm tomorrow", report=True)
    tasks.entries(), tasks.next(tjid, 3), client.cron_next("@daily", 2)
    tasks.remove(tjid)
    for fail in (lambda: client.call("nope"), lambda: queue.put("K", "{"),
                 lambda: client.jobs["missing"], lambda: client.recurring["missing"],
                 lambda: tasks.add("K", cron="0 24 * * *"), lambda: client.cron_next("0 0 31 2 *", 1)):
        try:
            fail()
        except qless.Error:
            pass
    return jobs


def test_no_leaks(url):
    gc.collect()
    before = qless.handle_count()
    jobs = exercise(url)
    assert qless.handle_count() > before          # the count does see live handles
    del jobs
    gc.collect()
    assert qless.handle_count() == before


def test_heartbeater_beats_and_stops(client):
    queue = client.queues["q"]
    queue.put("K", {})
    job = queue.pop()
    first = job.expires
    beater = Heartbeater(job, 0.1)
    import time
    time.sleep(1.2)   # expires has whole-second resolution on the wire
    assert beater.beats >= 3 and not beater.lost
    beater.stop()
    assert client.jobs[job.jid].expires > first
