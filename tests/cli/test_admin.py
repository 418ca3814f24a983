"""workers, config, recur, watch."""
import json
import subprocess
import time

import pytest

from conftest import CLI


def put(qless, *args):
    return qless("put", *args)[0].strip()


def test_workers(qless, r):
    assert qless("workers")[0].split() == ["WORKER", "JOBS", "STALLED"]
    a = put(qless, "q", "K")
    b = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q", "2")
    rows = [line.split() for line in qless("workers")[0].splitlines()]
    assert rows == [["WORKER", "JOBS", "STALLED"], ["w1", "2", "0"]]
    assert json.loads(qless("--json", "workers")[0]) == [{"name": "w1", "jobs": 2, "stalled": 0}]
    rows = sorted(line.split() for line in qless("workers", "w1")[0].splitlines()[1:])
    assert rows == sorted([[a, "held"], [b, "held"]])
    # expire one lock: it is listed as stalled
    r.zadd("ql:w:w1:jobs", {a: 1})
    w = json.loads(qless("--json", "workers", "w1")[0])
    assert w == {"name": "w1", "jobs": [b], "stalled": [a]}


def test_config(qless, r):
    rows = dict(line.split() for line in qless("config")[0].splitlines()[1:])
    assert rows["heartbeat"] == "60" and rows["application"] == "qless"
    assert qless("config", "set", "heartbeat", "30")[0] == ""
    assert r.hget("ql:config", "heartbeat") == "30"
    assert qless("config", "get", "heartbeat")[0] == "30\n"
    assert json.loads(qless("--json", "config")[0])["heartbeat"] == "30"
    assert json.loads(qless("--json", "config", "get", "heartbeat")[0]) == {"heartbeat": "30"}
    qless("config", "unset", "heartbeat")
    assert qless("config", "get", "heartbeat")[0] == "60\n"
    assert "nothing is not set" in qless("config", "get", "nothing", code=1)[1]


def test_config_bad_input(qless, snapshot):
    before = snapshot()
    qless("config", "set", "heartbeat", code=2)
    qless("config", "get", code=2)
    qless("config", "delete", "x", code=2)
    assert snapshot() == before


def test_recur_add_get_update_remove(qless, r):
    jid = qless("recur", "add", "q", "Tick", '{"n": 1}', "--interval", "1h", "--offset", "30s",
              "--priority", "4", "--tags", "a,b", "--retries", "2", "--backlog", "3")[0].strip()
    t = r.hgetall("ql:r:" + jid)
    assert t["klass"] == "Tick" and t["queue"] == "q" and float(t["interval"]) == 3600
    assert float(t["priority"]) == 4 and int(t["retries"]) == 2 and int(t["backlog"]) == 3
    assert r.zscore("ql:q:q-recur", jid) > time.time() + 25
    view = dict(line.split(None, 1) for line in qless("recur", "get", jid)[0].splitlines())
    assert view["interval"] == "every 1h" and view["tags"] == "a, b" and view["data"] == '{"n": 1}'
    got = json.loads(qless("--json", "recur", "get", jid)[0])
    assert got["interval"] == 3600 and got["tags"] == ["a", "b"] and got["count"] == 0
    out, _ = qless("--json", "recur", "update", jid, "--priority", "9", "--interval", "2h15m",
                   "--queue", "q2", "--tag-add", "c", "--tag-remove", "a", "--data", "[1]")
    got = json.loads(out)
    assert got["priority"] == 9 and got["interval"] == 8100 and got["queue"] == "q2"
    assert got["tags"] == ["b", "c"] and got["data"] == "[1]"
    assert qless("recur", "remove", jid)[0] == "removed %s\n" % jid
    assert not r.exists("ql:r:" + jid)
    assert "no recurring job" in qless("recur", "get", jid, code=1)[1]


def test_recur_bad_input(qless, snapshot):
    jid = qless("recur", "add", "q", "Tick", "--interval", "60")[0].strip()
    before = snapshot()
    assert "needs --interval" in qless("recur", "add", "q", "K", code=2)[1]
    assert "bad duration" in qless("recur", "add", "q", "K", "--interval", "often", code=2)[1]
    assert "must be positive" in qless("recur", "add", "q", "K", "--interval", "0", code=2)[1]
    assert "not valid JSON" in qless("recur", "add", "q", "K", "{", "--interval", "1m", code=2)[1]
    assert "bad duration" in qless("recur", "update", jid, "--interval", "5 min", code=2)[1]
    assert "no recurring job nope" in qless("recur", "update", "nope", "--priority", "1", code=1)[1]
    assert "no recurring job nope" in qless("recur", "remove", "nope", code=1)[1]
    qless("recur", "stop", jid, code=2)
    assert snapshot() == before


def test_watch_prints_events(url, r, base_env):
    p = subprocess.Popen([CLI, "--url", url, "watch", "--count", "2"], env=base_env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 5
        while r.pubsub_numsub("ql:log")[0][1] < 1:
            assert time.time() < deadline, "watch never subscribed"
            time.sleep(0.02)
        r.publish("ql:log", '{"event":"hello"}')
        r.publish("ql:put", "ignored: not watched")
        r.publish("ql:log", "second")
        out, err = p.communicate(timeout=5)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2
    assert time.strptime(lines[0].split()[0], "%H:%M:%S")
    assert lines[0].split(None, 2)[1:] == ["log", '{"event":"hello"}']
    assert lines[1].split(None, 2)[1:] == ["log", "second"]


def test_watch_channels_json_and_real_events(qless, url, r, base_env):
    p = subprocess.Popen([CLI, "--url", url, "--json", "watch", "log", "put", "--count", "3"],
                         env=base_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 5
        while r.pubsub_numsub("ql:put")[0][1] < 1:
            assert time.time() < deadline, "watch never subscribed"
            time.sleep(0.02)
        jid = put(qless, "q", "K")
        qless("track", "add", jid)
        put(qless, "q", "K", "--jid", jid)
        out, _ = p.communicate(timeout=5)
    finally:
        if p.poll() is None:
            p.kill()
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["channel"] for e in events] == ["log", "log", "put"]
    assert events[0]["message"] == {"jid": jid, "event": "put", "queue": "q"}
    assert events[2]["message"] == jid
    assert abs(events[0]["time"] - time.time()) < 10


def test_watch_stops_on_interrupt(url, r, base_env):
    p = subprocess.Popen([CLI, "--url", url, "watch"], env=base_env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 5
        while r.pubsub_numsub("ql:log")[0][1] < 1:
            assert time.time() < deadline, "watch never subscribed"
            time.sleep(0.02)
        p.send_signal(2)
        out, err = p.communicate(timeout=5)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0 and out == "" and err == ""


def test_watch_bad_count(qless):
    qless("watch", "--count", "0", code=2)
    qless("watch", "--count", "x", code=2)
