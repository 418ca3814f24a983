"""The client surface end to end: put, pop, complete and friends."""
import os
import subprocess
import sys
import threading
import time

import pytest

import qless


def test_put_pop_complete(client):
    queue = client.queues["q"]
    jid = queue.put("app.Job", {"a": 1, "b": [1, 2]}, priority=3, tags=["x", "y"], retries=2)
    assert isinstance(jid, str) and len(jid) == 32
    job = client.jobs[jid]
    assert (job.jid, job.klass, job.queue, job.state) == (jid, "app.Job", "q", "waiting")
    assert job.data == {"a": 1, "b": [1, 2]}
    assert job.priority == 3 and job.tags == ["x", "y"]
    assert job.retries == 2 and job.remaining == 2 and isinstance(job.retries, int)
    assert job.worker == "" and job.failure is None and job.tracked is False
    assert job.dependencies == [] and job.dependents == [] and job.spawned_from_jid is None
    assert [h["what"] for h in job.history] == ["put"]
    assert len(queue) == 1 and queue.counts.waiting == 1

    popped = queue.pop()
    assert popped.jid == jid and popped.state == "running" and popped.worker == "test-worker"
    assert 0 < popped.ttl <= 60
    assert queue.pop() is None
    assert queue.counts.running == 1
    assert popped.heartbeat() >= time.time()
    assert popped.complete() == "complete"
    assert client.jobs[jid].state == "complete"
    assert [h["what"] for h in client.jobs[jid].history] == ["put", "popped", "done"]
    assert client.jobs.complete() == [jid]
    assert len(queue) == 0


def test_unknown_job_is_none(client):
    assert client.jobs["no-such-jid"] is None
    assert client.recurring["no-such-jid"] is None


def test_data_changes_are_sent(client):
    queue = client.queues["q"]
    jid = queue.put("K", '{"n": 1}')        # JSON text is taken as is
    job = queue.pop()
    job.data["n"] = 2                         # in-place mutation
    job.heartbeat()
    assert client.jobs[jid].data == {"n": 2}
    job.data = {"replaced": True}
    job.complete()
    assert client.jobs[jid].data == {"replaced": True}


def test_pop_and_peek_with_count(client):
    queue = client.queues["q"]
    jids = [queue.put("K", {"i": i}, priority=i) for i in range(5)]
    peeked = queue.peek(3)
    assert [j.jid for j in peeked] == jids[::-1][:3]
    assert [j.jid for j in queue] == jids[::-1]         # iteration peeks everything
    assert queue.peek().jid == jids[4]
    popped = queue.pop(2)
    assert [j.jid for j in popped] == [jids[4], jids[3]]
    assert queue.pop(10) and queue.pop(10) == []


def test_fail_retry_unfail(client):
    queue = client.queues["q"]
    jid = queue.put("K", {}, retries=1)
    job = queue.pop()
    assert job.retry(0, "Transient", "try again") == 0
    job = queue.pop()
    job.fail("Broken", "it broke")
    failed = client.jobs[jid]
    assert failed.state == "failed"
    assert failed.failure["group"] == "Broken" and failed.failure["message"] == "it broke"
    assert failed.failure["worker"] == "test-worker" and failed.failure["when"] > 0
    assert client.jobs.failed_groups() == {"Broken": 1}
    page = client.jobs.failed("Broken")
    assert page.total == 1 and [j.jid for j in page.jobs] == [jid]
    assert queue.unfail("Broken") == 1
    assert client.jobs[jid].state == "waiting"


def test_depends_and_requeue(client):
    queue = client.queues["q"]
    first = queue.put("K", {})
    second = queue.put("K", {}, depends=[first])
    assert client.jobs[second].state == "depends"
    assert client.jobs[second].dependencies == [first]
    assert client.jobs[first].dependents == [second]
    assert queue.depends() == [second]
    job = queue.pop()
    assert job.jid == first
    assert job.complete(next="other", delay=0) == "waiting"
    assert client.jobs[first].queue == "other"
    assert client.jobs[second].state == "depends"   # first not complete yet
    client.queues["other"].pop().complete()
    assert client.jobs[second].state == "waiting"
    client.jobs[second].requeue("third", priority=7, tags=["moved"])
    moved = client.jobs[second]
    assert (moved.queue, moved.priority, moved.tags) == ("third", 7, ["moved"])


def test_tags_tracking_priority_log(client):
    queue = client.queues["q"]
    jids = [queue.put("K", {}, tags=["common"]) for _ in range(7)]
    assert list(client.jobs.tagged("common", page=3)) == jids
    assert client.jobs.tagged_page("common", 0, 2) == (7, jids[:2])
    assert client.jobs.top_tags()["common"] == 7
    job = client.jobs[jids[0]]
    job.tag("extra", "more")
    job.untag("common")
    assert client.jobs[jids[0]].tags == ["extra", "more"]
    job.track()
    tracked, expired = client.jobs.tracked()
    assert [j.jid for j in tracked] == [jids[0]] and expired == []
    job.untrack()
    job.priority = 10
    assert client.jobs[jids[0]].priority == 10
    job.log("hello", {"k": "v"})
    entry = client.jobs[jids[0]].history[-1]
    assert entry["what"] == "hello" and entry["k"] == "v"
    assert [j.jid for j in client.jobs.get(jids[1], jids[2], "missing")] == jids[1:3]
    client.cancel(*jids[1:])
    assert client.jobs[jids[1]] is None


def test_scheduled_and_delay(client):
    queue = client.queues["q"]
    jid = queue.put("K", {}, delay=60)
    assert client.jobs[jid].state == "scheduled"
    assert queue.scheduled() == [jid] and queue.pop() is None
    client.set_time_offset(61)
    assert queue.pop().jid == jid


def test_queue_admin(client):
    queue = client.queues["q"]
    queue.put("K", {})
    assert "q" in list(client.queues)
    assert client.queues.counts()[0]["name"] == "q"
    queue.pause()
    assert queue.paused and queue.pop() is None
    queue.unpause()
    queue.heartbeat = 5
    assert queue.heartbeat == 5 and client.config["q-heartbeat"] == 5
    queue.max_concurrency = 2
    assert queue.max_concurrency == 2
    job = queue.pop()
    assert 0 < job.ttl <= 5
    assert client.workers.counts() == {"test-worker": 1}
    assert client.workers["test-worker"] == {"jobs": [job.jid], "stalled": []}
    assert queue.running() == [job.jid]
    job.complete()
    stats = queue.stats()
    assert stats["run"]["count"] == 1 and stats["wait"]["count"] == 1
    assert sum(stats["run"]["histogram"]) == 1 and len(stats["run"]["histogram"]) == 148
    client.workers.deregister("test-worker")
    assert "test-worker" not in list(client.workers)


def test_config_mapping(client):
    config = client.config
    assert config["heartbeat"] == 60 and isinstance(config["heartbeat"], int)
    config["heartbeat"] = 30
    config["custom"] = "text"
    assert config["heartbeat"] == 30 and config["custom"] == "text"
    assert config.all()["custom"] == "text" and "grace-period" in config
    del config["heartbeat"]
    del config["custom"]
    assert config["heartbeat"] == 60
    with pytest.raises(KeyError):
        config["custom"]
    assert config.get("custom") is None


def test_recurring(client):
    queue = client.queues["q"]
    rjid = queue.recur("K", {"r": 1}, interval=60, tags=["cron"], retries=2)
    recur = client.recurring[rjid]
    assert (recur.klass, recur.queue, recur.interval, recur.retries) == ("K", "q", 60, 2)
    assert recur.data == {"r": 1} and recur.tags == ["cron"]
    assert queue.recurring() == [rjid]
    job = queue.pop()
    assert job.jid == rjid + "-1" and job.spawned_from_jid == rjid and job.tags == ["cron"]
    recur.priority = 4
    recur.interval = 30
    recur.data = {"r": 2}
    recur.tag("more")
    again = client.recurring[rjid]
    assert (again.priority, again.interval, again.data, again.count) == (4, 30, {"r": 2}, 1)
    assert again.tags == ["cron", "more"]
    recur.cancel()
    assert client.recurring[rjid] is None


def test_events(client, url):
    other = qless.Client(url, worker_name="other")
    with client.events("completed", "log") as events:
        assert events.next(0) is None
        queue = other.queues["q"]
        jid = queue.put("K", {})
        other.jobs[jid].track()
        queue.pop().complete()
        seen = list(events.listen(timeout=0.5))
    assert qless.Event("completed", jid) in seen
    assert seen[0].channel in ("completed", "log")


def test_events_wait_releases_the_gil(client, url):
    # If next() kept the GIL, the main thread could not complete the job
    # until the wait had timed out, and the thread would see nothing.
    got = []
    ready = threading.Event()

    def listen():
        events = client.events("completed")
        ready.set()
        got.append(events.next(3.0))

    thread = threading.Thread(target=listen)
    thread.start()
    ready.wait()
    time.sleep(0.2)
    other = qless.Client(url, worker_name="other")
    started = time.monotonic()
    jid = other.queues["q"].put("K", {})
    other.jobs[jid].track()
    other.queues["q"].pop().complete()
    thread.join()
    assert got == [("completed", jid)]
    assert time.monotonic() - started < 2.5


def test_raw_call_and_clock(client):
    client.queues["q"].put("K", {})
    assert client.call("queues") .startswith("[")
    assert abs(client.now - time.time()) < 1


def test_example_file_runs(url):
    # The README quotes bindings/python/example.py: check the quote, run that exact file.
    # -P: do not put bindings/python (the unbuilt package sources) on sys.path.
    example = os.environ["QLESS_PY_EXAMPLE"]
    with open(example) as f, open(os.path.join(os.path.dirname(example), "..", "..", "README.md")) as readme:
        assert "```python\n" + f.read() + "```" in readme.read()
    out = subprocess.run([sys.executable, "-P", example], env=dict(os.environ, QLESS_URL=url),
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "True example.Greet world\ncomplete\n"
