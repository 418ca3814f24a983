"""queues, jobs, failed, unfail, stats, pause, unpause."""
import json
import re
import time

import pytest


def put(qless, *args):
    return qless("put", *args)[0].strip()


def test_queues_table(qless):
    assert qless("queues")[0].split() == ["QUEUE", "WAITING", "RUNNING", "STALLED", "SCHEDULED",
                                          "DEPENDS", "RECURRING", "PAUSED"]
    put(qless, "alpha", "K")
    put(qless, "alpha", "K")
    put(qless, "beta", "K", "--delay", "1h")
    qless("--worker", "w", "pop", "alpha")
    qless("pause", "beta")
    rows = [line.split() for line in qless("queues")[0].splitlines()]
    assert rows[1:] == [["alpha", "1", "1", "0", "0", "0", "0", "no"],
                        ["beta", "0", "0", "0", "1", "0", "0", "yes"]]


def test_queues_json(qless):
    assert json.loads(qless("--json", "queues")[0]) == []
    put(qless, "alpha", "K")
    (q,) = json.loads(qless("queues", "--json")[0])
    assert q["name"] == "alpha" and q["waiting"] == 1 and q["paused"] is False


def test_jobs_by_state(qless):
    a = put(qless, "q", "K")
    s = put(qless, "q", "K", "--delay", "1h")
    d = put(qless, "q", "K", "--depends", a)
    qless("--worker", "w", "pop", "q")
    assert qless("jobs", "running", "q")[0] == a + "\n"
    assert qless("jobs", "scheduled", "q")[0] == s + "\n"
    assert json.loads(qless("jobs", "depends", "q", "--json")[0]) == [d]
    assert qless("jobs", "stalled", "q")[0] == ""
    qless("--worker", "w", "complete", a)
    assert qless("jobs", "complete")[0] == a + "\n"


def test_jobs_bad_input(qless):
    assert "unknown state 'lost'" in qless("jobs", "lost", "q", code=2)[1]
    assert "needs a QUEUE" in qless("jobs", "running", code=2)[1]
    assert "takes no QUEUE" in qless("jobs", "complete", "q", code=2)[1]
    assert "--count must be an integer" in qless("jobs", "complete", "--count", "x", code=2)[1]


def fail_one(qless, group, message="oops"):
    jid = put(qless, "q", "K")
    qless("--worker", "w", "pop", "q")
    qless("--worker", "w", "fail", jid, group, message)
    return jid


def test_failed_groups_and_jobs(qless):
    assert qless("failed")[0].split() == ["GROUP", "JOBS"]
    a = fail_one(qless, "net", "timeout talking to x")
    b = fail_one(qless, "net")
    fail_one(qless, "disk")
    rows = sorted(line.split() for line in qless("failed")[0].splitlines()[1:])
    assert rows == [["disk", "1"], ["net", "2"]]
    assert json.loads(qless("--json", "failed")[0]) == {"net": 2, "disk": 1}
    out, _ = qless("failed", "net")
    lines = out.splitlines()
    assert lines[0].split() == ["JID", "CLASS", "WORKER", "FAILED", "MESSAGE"]
    # failure times are whole seconds: "now", or "1s ago" across a second boundary
    assert re.fullmatch(r"%s  K +w +(now|1s ago) +oops" % b, lines[1]), lines
    assert re.fullmatch(r"%s  K +w +(now|1s ago) +timeout talking to x" % a, lines[2]), lines
    assert lines[3] == "2 job(s) failed in net"
    assert json.loads(qless("--json", "failed", "net", "--count", "1")[0]) == {"total": 2, "jobs": [b]}


def test_unfail(qless, r):
    a = fail_one(qless, "g")
    b = fail_one(qless, "g")
    assert qless("unfail", "q2", "g", "1")[0] == "1\n"
    assert r.hget("ql:j:" + a, "state") == "waiting" and r.hget("ql:j:" + a, "queue") == "q2"
    assert r.hget("ql:j:" + b, "state") == "failed"
    assert json.loads(qless("--json", "unfail", "q2", "g")[0]) == {"moved": 1}
    assert "COUNT must be an integer" in qless("unfail", "q", "g", "all", code=2)[1]
    assert "needs QUEUE and GROUP" in qless("unfail", "q", code=2)[1]


def test_stats(qless, r):
    jid = put(qless, "q", "K")
    qless("--worker", "w", "pop", "q")
    qless("--worker", "w", "complete", jid)
    out, _ = qless("stats", "q")
    lines = out.splitlines()
    assert lines[0] == "queue q"
    assert lines[1] == "retries 0, failed 0, failures 0"
    assert lines[2].startswith("wait: 1 job(s), mean ")
    assert lines[3].split() == ["0s", "1", "#" * 40]
    assert lines[4].startswith("run: 1 job(s), mean ")
    assert lines[5].split() == ["0s", "1", "#" * 40]
    stats = json.loads(qless("--json", "stats", "q")[0])
    assert stats["wait"]["count"] == 1 and len(stats["run"]["histogram"]) == 148
    old = json.loads(qless("--json", "stats", "q", "--date", "2020-01-01")[0])
    assert old["wait"]["count"] == 0 and old["run"]["count"] == 0


def test_stats_histogram_buckets(qless, r):
    now = time.time()
    day = int(now // 86400 * 86400)
    # a recorded day: 3 jobs waited 2s, 1 job waited 5m
    r.hset("ql:s:wait:%d:q" % day, mapping={"total": 4, "mean": 76.5, "vk": 0, "s2": 3, "m5": 1})
    lines = qless("stats", "q")[0].splitlines()
    assert lines[2].startswith("wait: 4 job(s), mean 1m17s")
    assert lines[3].split() == ["2s", "3", "#" * 40]
    assert lines[4].split() == ["5m", "1", "#" * 14]


def test_stats_bad_date(qless):
    assert "bad --date 'yesterday'" in qless("stats", "q", "--date", "yesterday", code=2)[1]
    assert "needs a QUEUE" in qless("stats", code=2)[1]


def test_pause_unpause(qless, r):
    assert qless("pause", "a", "b")[0] == "paused a\npaused b\n"
    assert r.smembers("ql:paused_queues") == {"a", "b"}
    assert json.loads(qless("--json", "unpause", "a")[0]) == {"unpaused": ["a"]}
    assert r.smembers("ql:paused_queues") == {"b"}
    qless("pause", code=2)
    qless("unpause", code=2)
