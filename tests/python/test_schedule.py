"""client.schedules (schedules.md §6.4, §7; checklist BND-1, BND-2 and the
Python half of UNQ-10), checked against what lands in Redis."""
import datetime as dt
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

import qless
from conftest import wait_for, worker_env

N = 1772619330   # 2026-03-04T10:15:30Z, a Wednesday
UTC = dt.timezone.utc


@pytest.fixture
def sched(client):
    client.set_time_offset(N - time.time())
    return client.schedules["tasks"]


def scheduled_at(r, jid):
    return r.zscore("ql:q:tasks-scheduled", jid)


def test_at_takes_text_numbers_and_datetimes(sched, r):
    cases = [("7pm tomorrow", 1772737200),                                   # FAC-2
             (1772737260, 1772737260),
             (dt.datetime(2026, 3, 5, 21, 2, tzinfo=dt.timezone(dt.timedelta(hours=2))), 1772737320),
             (dt.datetime(2026, 3, 5, 19, 3), 1772737380)]                   # naive = UTC
    for i, (at, want) in enumerate(cases):
        jid = sched.add("K", {"i": i}, at=at)
        assert r.hget("ql:j:" + jid, "state") == "scheduled", at
        assert scheduled_at(r, jid) == pytest.approx(want, abs=0.5), at
    # more than a minute in the past is refused, naming the time; "now" runs at once
    with pytest.raises(qless.InvalidArgument, match="at_text 2026-03-04T09:00:00Z is in the past"):
        sched.add("K", {"past": 1}, at="today at 9am")
    with pytest.raises(qless.InvalidArgument, match="is in the past"):
        sched.add("K", {"past": 2}, at=N - 3600)
    assert r.hget("ql:j:" + sched.add("K", {"now": 1}, at="now"), "state") == "waiting"


def test_in_takes_seconds_timedeltas_and_text(sched, r):
    for i, delay in enumerate([300, dt.timedelta(minutes=5), "5 minutes", "in 5 minutes"]):
        jid = sched.add("K", {"i": i}, in_=delay)
        assert scheduled_at(r, jid) == pytest.approx(N + 300, abs=5), delay


def test_every_and_cron_make_templates(sched, r):
    every = sched.add("K", {"e": 1}, every=300)
    assert r.hmget("ql:r:" + every, "type", "interval") == ["interval", "300"]
    later = sched.add("K", {"e": 2}, every="2 days at 9am")                 # FAC-4
    assert r.zscore("ql:q:tasks-recur", later) == pytest.approx(1772701200, abs=0.5)
    assert r.hget("ql:r:" + later, "interval") == "172800"
    weekly = sched.add("K", {"e": 3}, every="monday 9am")
    assert r.hmget("ql:r:" + weekly, "type", "cron") == ["cron", "0 9 * * 1"]
    cron = sched.add("K", {"c": 1}, cron="0 9 * * mon-fri")
    assert r.hmget("ql:r:" + cron, "type", "cron") == ["cron", "0 9 * * MON-FRI"]
    assert r.zscore("ql:q:tasks-cron", cron) == 1772701200
    assert sched.next(cron, 3) == [1772701200, 1772787600, 1773046800]
    kinds = {e["jid"]: e["kind"] for e in sched.entries()}
    assert kinds == {every: "interval", later: "interval", weekly: "cron", cron: "cron"}


def test_exactly_one_time_is_an_argument_error_and_writes_nothing(sched, r):
    for given in ({}, {"at": N + 60, "in_": 60}, {"cron": "* * * * *", "every": 60},
                  {"at": N, "in_": 1, "cron": "* * * * *", "every": 1}):
        # The core makes the choice (and refuses it) for every binding.
        with pytest.raises(qless.InvalidArgument, match="exactly one of at, in, every and cron"):
            sched.add("K", {}, **given)
    with pytest.raises(qless.InvalidArgument, match="not a one-off time"):
        sched.add("K", at="every monday")
    with pytest.raises(qless.InvalidArgument, match="hour field"):
        sched.add("K", cron="0 24 * * *")
    with pytest.raises(qless.InvalidArgument, match='unknown word "fortnightly"'):
        sched.add("K", every="fortnightly")
    # Columns count in the text as given, whether or not the layer put
    # "in "/"every " before it.
    for given, column in ((dict(in_="5 blorps"), 3), (dict(in_="in 5 blorps"), 6),
                          (dict(every="monday blorp"), 8), (dict(every="every monday blorp"), 14)):
        with pytest.raises(qless.InvalidArgument, match="at column %d$" % column):
            sched.add("K", **given)
    with pytest.raises(TypeError, match="at"):
        sched.add("K", at=[1])
    with pytest.raises(TypeError, match="option 'retries' must be an integer"):
        sched.add("K", in_=5, retries="many")
    assert r.keys("ql:*") == []


def test_adds_are_unique_unless_told_otherwise(sched, r):
    first = sched.add("K", {"a": 1}, in_=60, report=True)
    assert first[1] is True
    assert sched.add("K", {"a": 1}, at="7pm tomorrow", report=True) == (first[0], False)
    assert sched.add_now("K", {"a": 1}, report=True) == (first[0], False)
    assert scheduled_at(r, first[0]) == pytest.approx(N + 60, abs=5)    # the first time stands
    other = sched.add("K", {"a": 1}, in_=60, unique=False)
    assert other != first[0] and sched.add("K", {"a": 1}, in_=60, unique=False) != other
    keyed = sched.add("K", {"a": 2}, cron="@daily", key="nightly", priority=5, tags=["x"], backlog=2)
    assert keyed == qless.unique_jid("tasks", key="nightly")
    assert r.hmget("ql:r:" + keyed, "priority", "backlog", "tags") == ["5", "2", '["x"]']
    assert sched.add("K", {"a": 2}, jid="mine", in_=1) == "mine"


def test_remove_entries_and_next(sched, r):
    one = sched.add("K", {"o": 1}, at="7pm tomorrow")
    tpl = sched.add("K", {"t": 1}, cron="0 * * * *")
    now = sched.add_now("K", {"n": 1})
    assert sched.next(one, 3) == pytest.approx([1772737200], abs=0.5)
    assert {e["jid"] for e in sched.entries()} == {one, tpl}              # waiting jobs are no entries
    with pytest.raises(qless.NotFound):
        sched.next(now)
    assert sched.remove(one) and sched.remove(tpl)
    assert not sched.remove(one) and not sched.remove(now) and not sched.remove("nope")
    assert sched.entries() == [] and r.hget("ql:j:" + now, "state") == "waiting"


def test_entry_jids_are_the_c_unique_jids(sched, r):
    """UNQ-10, Python half, seeded: whatever the kind and spelling of an
    entry, its jid is what the C library's qless_unique_jid gives for its
    identity, and adding it again inserts nothing."""
    rng = random.Random(1410)
    crons = [("@daily", "0 0 * * *"), ("0 9 * * mon-fri", "0 9 * * 1-5"), ("0 0 * * 7", "0 0 * * 0")]
    for i in range(30):
        data = {"i": i, "v": rng.choice([1, 1.5, "x", None, [1, 2]])}
        kind = rng.choice(["now", "at", "in", "every", "cron"])
        if kind in ("now", "at", "in"):
            want = qless.unique_jid("tasks", "K", data)
            if kind == "now":
                add = lambda: sched.add_now("K", data, report=True)   # noqa: E731
            else:
                when = {"at": N + rng.randint(60, 9999)} if kind == "at" else {"in_": rng.randint(1, 999)}
                add = lambda: sched.add("K", data, report=True, **when)   # noqa: E731
        elif kind == "every":
            seconds = rng.randint(1, 9999)
            want = qless.unique_jid("tasks", "K", data, interval=seconds)
            add = lambda: sched.add("K", data, every=seconds, report=True)   # noqa: E731
        else:
            written, identity = rng.choice(crons)
            want = qless.unique_jid("tasks", "K", data, cron=identity)
            add = lambda: sched.add("K", data, cron=written, report=True)   # noqa: E731
        assert add() == (want, True), (kind, data)
        assert add() == (want, False), (kind, data)
        assert r.exists("ql:j:" + want) or r.exists("ql:r:" + want)


@pytest.fixture
def listener(url):
    """listener(mode, pool, max_jobs=None) -> a subprocess running
    schedules["tasks"].listen; killed at teardown if still running."""
    procs = []

    def start(mode, pool, max_jobs=None):
        script = ("import sys, qless\n"
                  "c = qless.Client(%r, worker_name='lsn')\n"
                  "sys.exit(c.schedules['tasks'].listen(pool=%d, mode=%r, max_jobs=%r, allow=['sample.*'],"
                  " interval=0.05))\n" % (url, pool, mode, max_jobs))
        env = worker_env(url)
        env.pop("QLESS_WORKER_ALLOW")   # the allow-list comes from listen(allow=)
        procs.append(subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
        return procs[-1]

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


@pytest.mark.parametrize("mode", ["thread", "fork"])
def test_listen_pool_completes_jobs_and_stops_gracefully(client, listener, r, mode):
    """BND-2: listen(pool=3) completes 50 jobs (popped by the listener's
    workers); SIGTERM lets the running job finish (complete) and the
    listener exit 0."""
    s = client.schedules["tasks"]
    jids = [s.add_now("sample.Succeed", {"n": i}) for i in range(50)]
    proc = listener(mode, 3)
    wait_for(lambda: all(r.hget("ql:j:" + j, "state") == "complete" for j in jids), timeout=20)
    poppers = {h["worker"] for j in jids for h in client.jobs[j].history if h["what"] == "popped"}
    assert poppers and all(w.startswith("lsn") for w in poppers), poppers
    slow = s.add_now("sample.Succeed", {"sleep": 1.0})
    wait_for(lambda: r.hget("ql:j:" + slow, "state") == "running", timeout=10)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert r.hget("ql:j:" + slow, "state") == "complete"
    assert json.loads(r.hget("ql:j:" + slow, "data"))["seen"] is True


def test_listen_stops_after_max_jobs(client, listener, r):
    s = client.schedules["tasks"]
    jids = [s.add_now("sample.Succeed", {"n": i}) for i in range(5)]
    proc = listener("thread", 1, max_jobs=3)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert sorted(r.hget("ql:j:" + j, "state") for j in jids) == ["complete"] * 3 + ["waiting"] * 2


def test_listen_arguments_are_checked(client):
    s = client.schedules["tasks"]
    with pytest.raises(ValueError, match="mode"):
        s.listen(mode="green")
    with pytest.raises(ValueError, match="pool"):
        s.listen(pool=0)


def test_listen_needs_an_allow_list(url):
    env = worker_env(url)
    env.pop("QLESS_WORKER_ALLOW")
    proc = subprocess.run([sys.executable, "-c", "import sys, qless\n"
                           "sys.exit(qless.Client(%r).schedules['tasks'].listen(max_jobs=1))" % url],
                          env=env, capture_output=True, text=True, timeout=20)
    assert proc.returncode == 2 and "allow" in proc.stderr


def test_listen_hands_the_core_typed_options_not_a_command_line(client, url, r):
    """listen runs qless_schedule_listen_run with typed options, not the
    worker command: it works with the command's entry (qless_py_worker_main,
    whose argv qless_worker_main parses) gone, and its pool threads reserve
    as "<worker name>-<i>", which only the typed listen names them."""
    s = client.schedules["tasks"]
    jids = [s.add_now("sample.Succeed", {"n": i}) for i in range(4)]
    script = ("import sys, qless, qless._core\n"
              "del qless._core.qless_py_worker_main\n"
              "c = qless.Client(%r, worker_name='lsn')\n"
              "sys.exit(c.schedules['tasks'].listen(pool=2, max_jobs=4, allow='sample.*', interval=0.05))\n" % url)
    env = worker_env(url)
    env.pop("QLESS_WORKER_ALLOW")
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert [r.hget("ql:j:" + j, "state") for j in jids] == ["complete"] * 4
    poppers = {h["worker"] for j in jids for h in client.jobs[j].history if h["what"] == "popped"}
    assert poppers and poppers <= {"lsn-1", "lsn-2"}, poppers


def test_listen_options_are_typed_and_checked(client, capfd):
    """The listen entry's options dict (qless.i): an unknown name or a wrong
    type raises before anything runs; values reach qless_listen_options
    whole (max_jobs is 64-bit), and the core's refusal is exit status 2."""
    from qless import _core, worker
    h = client.schedules["tasks"]._h

    def listen(opts):
        return _core.qless_py_schedule_listen(h, worker.run, os.fork, opts, None, None)
    with pytest.raises(qless.InvalidArgument, match="unknown option 'threads'"):
        listen({"threads": 2})
    with pytest.raises(TypeError, match="max_jobs"):
        listen({"max_jobs": "3"})
    assert listen({"max_jobs": -2 ** 40, "allow": "x"}) == 2
    assert "max_jobs must be >= 0, not -1099511627776" in capfd.readouterr().err
    assert listen({"size": 2, "pool": _core.QLESS_POOL_SERIAL + 7, "allow": "x"}) == 2
    assert "pool must be" in capfd.readouterr().err


def test_schedule_example_runs_and_is_the_one_in_the_docs(url):
    example = os.path.join(os.path.dirname(os.environ["QLESS_PY_EXAMPLE"]), "schedule_example.py")
    with open(example) as f, open(os.path.join(os.path.dirname(example), "..", "..", "docs", "python.md")) as page:
        assert "```python\n" + f.read() + "```" in page.read()
    out = subprocess.run([sys.executable, "-P", example], env=dict(os.environ, QLESS_URL=url),
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "True\ninterval example.Ping\ncron example.Report\nat example.Mail\n0 9 * * 1\n"


def test_add_day_first_and_the_weekday_warning(sched, r):
    # day_first reads a/b/c as day/month/year in every time text; month first without it
    assert scheduled_at(r, sched.add("M", at="4/5/2026 9am")) == 1775379600       # 2026-04-05T09:00Z
    assert scheduled_at(r, sched.add("D", at="4/5/2026 9am", day_first=True)) == 1777885200   # 05-04
    with pytest.raises(TypeError, match="day_first must be bool"):
        sched.add("D", at="4/5/2026 9am", day_first=1)
    # a weekday that is not the date's: added at the date, with a qless.WhenWarning
    with pytest.warns(qless.WhenWarning, match=r"^Schedule.add: 2026-08-10 is a Monday, not a Thursday; "
                      r"the date is used$"):
        jid = sched.add("W", at="Thu Aug 10 2026 9am")
    assert scheduled_at(r, jid) == 1786352400
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        qless.when("Thu Aug 10 2026", N)          # leaves a warning on the thread ...
        sched.add("N", in_=60)                    # ... that an add without text does not repeat
        sched.add("A", at="Mon Aug 10 2026 10am")  # a weekday that agrees: none
