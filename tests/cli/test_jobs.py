"""put, get, peek, pop, complete, fail, retry, cancel, priority."""
import json
import re
import socket
import time

import pytest


def put(qless, *args):
    out, _ = qless("put", *args)
    jid = out.strip()
    assert len(jid) == 32 or "--jid" in args, out
    return jid


def test_put_prints_jid_and_stores_the_job(qless, r):
    jid = put(qless, "q", "My.Klass", '{"a": 1}', "--priority", "7", "--tags", "x,y", "--retries", "2")
    job = r.hgetall("ql:j:" + jid)
    assert job["klass"] == "My.Klass" and job["queue"] == "q" and job["state"] == "waiting"
    assert json.loads(job["data"]) == {"a": 1}
    assert float(job["priority"]) == 7 and int(job["retries"]) == 2
    assert json.loads(job["tags"]) == ["x", "y"]


def test_put_with_jid_and_depends(qless, r):
    put(qless, "q", "K", "--jid", "first")
    assert put(qless, "q", "K", "--jid", "second", "--depends", "first") == "second"
    assert r.hget("ql:j:second", "state") == "depends"
    assert r.smembers("ql:j:second-dependencies") == {"first"}


def test_put_json_output(qless):
    out, _ = qless("--json", "put", "q", "K", "--jid", "j1")
    assert json.loads(out) == {"jid": "j1"}


@pytest.mark.parametrize("text,seconds", [
    ("30s", 30), ("5m", 300), ("2h", 7200), ("1d", 86400), ("1h30m", 5400), ("45", 45), ("1.5m", 90)])
def test_put_delay_durations(qless, r, text, seconds):
    before = time.time()
    jid = put(qless, "q", "K", "--delay", text)
    assert r.hget("ql:j:" + jid, "state") == "scheduled"
    due = r.zscore("ql:q:q-scheduled", jid)
    assert before + seconds - 1 <= due <= time.time() + seconds + 1


@pytest.mark.parametrize("bad", ["5x", "-5s", "", "m", "1h30", "s30", "1 h"])
def test_bad_duration_is_a_usage_error_and_changes_nothing(qless, snapshot, bad):
    put(qless, "q", "K", "--jid", "existing")
    before = snapshot()
    _, err = qless("put", "q", "K", "--delay", bad, code=2)
    assert "bad duration" in err and "--delay" in err
    assert snapshot() == before


@pytest.mark.parametrize("data", ['{"a":', "not json", "{'a': 1}"])
def test_bad_json_is_a_usage_error_and_changes_nothing(qless, snapshot, data):
    put(qless, "q", "K", "--jid", "existing")
    before = snapshot()
    _, err = qless("put", "q", "K", data, code=2)
    assert "not valid JSON" in err
    assert snapshot() == before


@pytest.mark.parametrize("args,reason", [
    (["--priority", "high"], "--priority must be a number"),
    (["--retries", "2.5"], "--retries must be an integer"),
    (["--retries", "-1"], "--retries must be an integer from 0 to 2147483647"),
    (["--bogus", "1"], "unknown option --bogus"),
    (["--delay"], "--delay needs a value"),
])
def test_bad_put_options(qless, snapshot, args, reason):
    before = snapshot()
    _, err = qless("put", "q", "K", *args, code=2)
    assert reason in err
    assert snapshot() == before


# Integers out of their range are usage errors before anything is sent,
# never numbers cut to fit (issue 12: --retries 4294967296 was stored as 0,
# 2147483648 as 5; tag get --count -1 ran).
@pytest.mark.parametrize("args", [
    ["put", "q", "K", "--retries", "4294967296"], ["put", "q", "K", "--retries", "2147483648"],
    ["put", "q", "K", "--retries", "99999999999999999999"], ["pop", "q", "0"], ["pop", "q", "-3"],
    ["pop", "q", "2147483648"], ["tag", "get", "t", "--count", "-1"], ["tag", "get", "t", "--count", "0"],
    ["tag", "get", "t", "--offset", "-1"], ["jobs", "complete", "--count", "-5"], ["unfail", "q", "g", "0"],
    ["recur", "add", "q", "K", "--interval", "1m", "--backlog", "-1"],
    ["recur", "add", "q", "K", "--interval", "1m", "--retries", "4294967296"],
])
def test_out_of_range_integers(qless, snapshot, args):
    before = snapshot()
    _, err = qless(*args, code=2)
    assert "must be an integer from" in err
    assert snapshot() == before


def test_put_needs_queue_and_class(qless):
    _, err = qless("put", "q", code=2)
    assert "needs QUEUE and KLASS" in err


def test_get_human_view(qless, r):
    jid = put(qless, "q", "Klass", '{"n": 2}', "--tags", "t1,t2", "--priority", "3")
    out, _ = qless("get", jid)
    lines = dict(line.split(None, 1) for line in out.splitlines() if len(line.split(None, 1)) == 2
                 and not line.startswith(" "))
    assert lines["jid"] == jid and lines["class"] == "Klass" and lines["queue"] == "q"
    assert lines["state"] == "waiting" and lines["priority"] == "3" and lines["worker"] == "-"
    assert lines["tags"] == "t1, t2" and lines["data"] == '{"n": 2}'
    assert lines["retries"] == "5 of 5 left"
    history = out.split("history\n", 1)[1].splitlines()
    # history times are whole seconds: "now", or "1s ago" across a second boundary
    assert len(history) == 1 and re.search(r"  (now|1s ago) +put +q=q$", history[0]), history


def test_get_shows_relative_and_absolute_times(qless, r):
    jid = put(qless, "q", "K")
    when = int(time.time()) - 200
    entry = json.dumps([when, "put", {"q": "q"}])
    # A new job keeps its put entry in the hash until a second entry comes.
    if r.exists("ql:j:%s-history" % jid):
        r.lset("ql:j:%s-history" % jid, 0, entry)
    else:
        assert r.hset("ql:j:%s" % jid, "history", entry) == 0
    qless("config", "set", "heartbeat", "20")
    qless("--worker", "w", "pop", "q")
    out, _ = qless("get", jid)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(when))   # TZ=UTC
    assert re.search(r"%s  3m2[01]s ago +put +q=q" % stamp, out), out
    assert re.search(r"\(in (19|20)s\)", out.split("expires", 1)[1].splitlines()[0]), out


def test_get_json_is_the_job_object(qless):
    jid = put(qless, "q", "K", '{"x": [1]}')
    out, _ = qless("get", jid, "--json")
    job = json.loads(out)
    assert job["jid"] == jid and job["klass"] == "K" and job["data"] == '{"x": [1]}'
    assert {"state", "queue", "worker", "priority", "tags", "history", "failure",
            "dependents", "dependencies", "tracked", "retries", "remaining"} <= set(job)


def test_get_unknown_job(qless, snapshot):
    put(qless, "q", "K")
    before = snapshot()
    _, err = qless("get", "nosuchjob", code=1)
    assert err == "qless: get: no job nosuchjob\n"
    assert snapshot() == before


def test_peek_table_in_priority_order(qless, r):
    low = put(qless, "q", "Low", "--priority", "1")
    high = put(qless, "q", "High", "--priority", "10", "--tags", "a,b")
    out, _ = qless("peek", "q", "5")
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["JID", "CLASS", "QUEUE", "STATE", "PRIORITY", "WORKER", "TAGS"]
    assert rows[1] == [high, "High", "q", "waiting", "10", "-", "a,b"]
    assert rows[2] == [low, "Low", "q", "waiting", "1", "-", "-"]
    # aligned: every column starts at the same offset on every line
    lines = out.splitlines()
    assert lines[0].index("CLASS") == lines[1].index("High") == lines[2].index("Low")
    # numbers are right-aligned under their header, text left-aligned
    end = lines[0].index("PRIORITY") + len("PRIORITY")
    assert lines[1][end - 2:end] == "10" and lines[2][end - 2:end] == " 1"
    assert lines[0].index("WORKER") == lines[1].index("-") == lines[2].index("-")
    assert r.hget("ql:j:" + high, "state") == "waiting"   # peek does not pop


def test_peek_default_count_and_json(qless):
    put(qless, "q", "A", "--priority", "2")
    put(qless, "q", "B")
    out, _ = qless("peek", "q")
    assert len(out.splitlines()) == 2
    jobs = json.loads(qless("--json", "peek", "q", "2")[0])
    assert [j["klass"] for j in jobs] == ["A", "B"]
    assert json.loads(qless("--json", "peek", "empty")[0]) == []


def test_peek_bad_count(qless):
    _, err = qless("peek", "q", "many", code=2)
    assert "COUNT must be an integer" in err
    qless("peek", "q", "0", code=2)


def test_pop_as_named_worker(qless, r):
    jid = put(qless, "q", "K")
    out, _ = qless("--worker", "w1", "pop", "q")
    assert out.splitlines()[1].split()[:6] == [jid, "K", "q", "running", "0", "w1"]
    assert r.hget("ql:j:" + jid, "worker") == "w1"
    empty = qless("pop", "q")[0].splitlines()   # nothing left: header only
    assert len(empty) == 1 and empty[0].split() == out.splitlines()[0].split()


def test_pop_default_worker_and_json(qless, r):
    put(qless, "q", "K")
    put(qless, "q", "K")
    jobs = json.loads(qless("pop", "q", "2", "--json")[0])
    assert len(jobs) == 2 and all(j["state"] == "running" for j in jobs)
    assert jobs[0]["worker"].startswith(socket.gethostname() + "-")


def test_pop_from_paused_queue_gives_nothing(qless, r):
    jid = put(qless, "q", "K")
    qless("pause", "q")
    assert json.loads(qless("--json", "pop", "q")[0]) == []
    assert r.hget("ql:j:" + jid, "state") == "waiting"


def test_complete_by_the_holding_worker(qless, r):
    jid = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q")
    out, _ = qless("--worker", "w1", "complete", jid, "--data", '{"done": true}')
    assert out == "complete\n"
    assert r.hget("ql:j:" + jid, "state") == "complete"
    assert json.loads(r.hget("ql:j:" + jid, "data")) == {"done": True}


def test_complete_next_queue(qless, r):
    jid = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q")
    out, _ = qless("--worker", "w1", "--json", "complete", jid, "--next", "q2")
    assert json.loads(out) == {"jid": jid, "state": "waiting"}
    assert r.hget("ql:j:" + jid, "queue") == "q2"
    assert r.zscore("ql:q:q2-work", jid) is not None


def test_complete_next_with_delay(qless, r):
    jid = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q")
    qless("--worker", "w1", "complete", jid, "--next", "q2", "--delay", "10m")
    assert r.zscore("ql:q:q2-scheduled", jid) > time.time() + 590


def test_complete_by_another_worker_is_refused(qless, r, snapshot):
    jid = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q")
    before = snapshot()
    _, err = qless("--worker", "w2", "complete", jid, code=1)
    assert "another worker" in err and err.startswith("qless: complete: ")
    assert snapshot() == before


def test_complete_usage_errors(qless, snapshot):
    jid = put(qless, "q", "K")
    before = snapshot()
    assert "need --next" in qless("complete", jid, "--delay", "5s", code=2)[1]
    assert "bad duration" in qless("complete", jid, "--next", "q2", "--delay", "soon", code=2)[1]
    assert "not valid JSON" in qless("complete", jid, "--data", "{", code=2)[1]
    assert "no job nope" in qless("complete", "nope", code=1)[1]
    assert snapshot() == before


def test_fail(qless, r):
    jid = put(qless, "q", "K")
    qless("--worker", "w1", "pop", "q")
    assert qless("--worker", "w1", "fail", jid, "boom", "it broke")[0] == "failed\n"
    assert r.hget("ql:j:" + jid, "state") == "failed"
    failure = json.loads(r.hget("ql:j:" + jid, "failure"))
    assert failure["group"] == "boom" and failure["message"] == "it broke" and failure["worker"] == "w1"


def test_fail_needs_the_lock_and_arguments(qless, snapshot):
    jid = put(qless, "q", "K")
    before = snapshot()
    assert "needs JID GROUP MESSAGE" in qless("fail", jid, "grp", code=2)[1]
    qless("--worker", "w1", "fail", jid, "grp", "msg", code=1)   # not running
    assert snapshot() == before


def test_retry(qless, r):
    jid = put(qless, "q", "K", "--retries", "3")
    qless("--worker", "w1", "pop", "q")
    assert qless("--worker", "w1", "retry", jid, "--delay", "1m")[0] == "2\n"
    assert r.hget("ql:j:" + jid, "state") == "scheduled"
    assert r.zscore("ql:q:q-scheduled", jid) > time.time() + 50
    qless("retry", jid, "--group", "g", code=2)
    qless("retry", jid, "--delay", "1y", code=2)


def test_retry_json_and_exhaustion(qless, r):
    jid = put(qless, "q", "K", "--retries", "0")
    qless("--worker", "w1", "pop", "q")
    out, _ = qless("--worker", "w1", "--json", "retry", jid, "--group", "g", "--message", "m")
    assert json.loads(out) == {"jid": jid, "remaining": -1}
    assert r.hget("ql:j:" + jid, "state") == "failed"


def test_cancel(qless, r):
    a, b = put(qless, "q", "K"), put(qless, "q", "K")
    out, _ = qless("cancel", a, b)
    assert out == "canceled %s\ncanceled %s\n" % (a, b)
    assert not r.exists("ql:j:" + a) and not r.exists("ql:j:" + b)


def test_cancel_with_an_unknown_jid_cancels_nothing(qless, r, snapshot):
    a = put(qless, "q", "K")
    before = snapshot()
    _, err = qless("cancel", a, "nosuch", code=1)
    assert err == "qless: cancel: no job nosuch\n"
    assert snapshot() == before
    qless("cancel", code=2)


def test_cancel_json(qless):
    a = put(qless, "q", "K")
    assert json.loads(qless("--json", "cancel", a)[0]) == {"canceled": [a]}


def test_priority(qless, r):
    jid = put(qless, "q", "K")
    assert qless("priority", jid, "-4")[0] == "-4\n"
    assert float(r.hget("ql:j:" + jid, "priority")) == -4
    assert json.loads(qless("priority", jid, "2.5", "--json")[0]) == {"jid": jid, "priority": 2.5}


def test_priority_bad_input(qless, snapshot):
    jid = put(qless, "q", "K")
    before = snapshot()
    assert "N must be a number" in qless("priority", jid, "high", code=2)[1]
    assert "no job nope" in qless("priority", "nope", "3", code=1)[1]
    assert snapshot() == before
