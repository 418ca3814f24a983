"""The worker conformance suite: the same scenarios against every language's
worker program (issue 11). A worker is run as its users run it, as a separate
process with command-line flags; the harness puts jobs and reads the outcome
with raw redis-py over the protocol script (build/lua/qless.lua by EVALSHA),
so nothing of the code under test is used to check it.

Languages: the environment variable QLESS_WORKER_LANG picks one (ctest sets
it: worker.c, worker.python, worker.ruby, worker.lua, worker.php); unset, all run.

Environment (set by tests/worker/CMakeLists.txt): QLESS_TEST_STATE, the
private redis-server (files `socket`, `port`), and what harness.py lists.
The launch of each language's worker, the process handling, the harness's
own redis-server and the protocol client are in harness.py, shared with the
fault soak (soak.py).

The job classes (Noop, Boom, Flaky) are defined per language in
tests/worker/jobs/<lang>/ and in cworker.c; see the contract there. The
classes no worker may run (the allow-list scenario) are forbidden_jobs in
each language's directory, Forbidden in cworker.c and ConformanceExit in the
Ruby and PHP jobs. Each language's worker gets the allow-list harness.ALLOW.
Every process a test starts is stopped by pid when it ends.
"""
import json
import os
import signal
import subprocess
import time

import pytest
import redis

from harness import (LANGS, POLL, SINGLE_THREADED, SRC, Missing, Ql, harness_on, launch, need, overlaps,
                     max_concurrency, popped_by, proc_stat, read_log, whats)

# Tolerance of time measurements (s): the harness samples the database every
# POLL seconds on a shared machine.
TOL = 0.3


def pytest_generate_tests(metafunc):
    if "lang" in metafunc.fixturenames:
        chosen = os.environ.get("QLESS_WORKER_LANG")
        if chosen and chosen not in LANGS:
            raise pytest.UsageError("QLESS_WORKER_LANG=%s: expected one of %s" % (chosen, LANGS))
        metafunc.parametrize("lang", [chosen] if chosen else LANGS)


def needs_of(lang):
    """Fails the test, without a traceback, when the environment lacks what
    lang's worker or the harness needs."""
    try:
        need("QLESS_LUA_SCRIPT")
        launch(lang)
    except Missing as e:
        pytest.fail(str(e), pytrace=False)


# QLESS_WORKER_CLUSTER: the state directory of tests/cluster-fixture.sh's
# cluster (ctest cluster.worker.<lang>): each scenario then runs in one of
# CLUSTER_NAMESPACES, in turn, on the primary serving it, and the workers
# get a redis+cluster:// URL.
CLUSTER = os.environ.get("QLESS_WORKER_CLUSTER") or None
CLUSTER_NAMESPACES = ["conf-%d" % i for i in range(6)]
_scenarios = iter(range(1 << 30))


@pytest.fixture(scope="session")
def fixture_socket():
    if CLUSTER:
        return None
    try:
        state = need("QLESS_TEST_STATE")
    except Missing as e:
        pytest.fail(str(e), pytrace=False)
    with open(os.path.join(state, "socket")) as f:
        return f.read().strip()


@pytest.fixture
def h(lang, fixture_socket, tmp_path):
    needs_of(lang)
    cluster = None
    if CLUSTER:
        cluster = (CLUSTER, CLUSTER_NAMESPACES[next(_scenarios) % len(CLUSTER_NAMESPACES)])
    # Each test sets what it needs more than 5 s locks.
    with harness_on(lang, fixture_socket, tmp_path, heartbeat=5, cluster=cluster) as harness:
        yield harness


# --- scenarios -----------------------------------------------------------------

def test_success(h):
    """20 Noop jobs are completed, each popped once, by this worker."""
    jids = [h.noop("success") for _ in range(20)]
    w = h.start("--queue", "success", name="conf-success")
    h.wait_for("20 Noop jobs complete", h.all_complete(jids), 30, alive=[w])
    for jid in jids:
        job = h.ql.job(jid)
        assert whats(job) == ["put", "popped", "done"], job["history"]
        assert popped_by(job) == ["conf-success"]
        assert json.loads(job["data"]) == {"log": h.log}
    log = read_log(h.log)
    assert sorted(j for what, j, _, _ in log if what == "start") == sorted(jids)
    assert sorted(j for what, j, _, _ in log if what == "end") == sorted(jids)
    assert {pid for _, _, _, pid in log} == {w.pid}
    assert w.stop() == 0


def test_exception(h):
    """Boom fails with group ConformanceError; an unknown class fails too; the
    worker carries on."""
    boom = h.put("exception", "Boom")
    unknown = h.ql.put("exception", "NoSuchClassAnywhere", {})
    w = h.start("--queue", "exception", name="conf-exception")
    h.wait_for("Boom and the unknown class failed",
               lambda: h.states([boom, unknown]) == ["failed", "failed"], 20, alive=[w])
    job = h.ql.job(boom)
    assert job["failure"]["group"] == "ConformanceError", job["failure"]
    assert "boom " + boom in job["failure"]["message"], job["failure"]
    assert job["failure"]["worker"] == "conf-exception"
    assert whats(job) == ["put", "popped", "failed"]
    assert h.r.lrange(h.k("ql:f:ConformanceError"), 0, -1) == [boom]
    failure = h.ql.job(unknown)["failure"]
    assert failure["group"], failure
    if h.lang == "c":
        assert failure["group"] == "qless.UnknownClass", failure
    # still working
    after = h.noop("exception", log=False)
    h.wait_for("a Noop after the failures completes", h.all_complete([after]), 20, alive=[w])
    assert w.stop() == 0


def watch_retries(h, queue, jids, delay_of, timeout, alive):
    """Follows retried jobs until each has failed. Each retry is seen as the
    job turning `scheduled` with one retry less; its delay is bounded by the
    scheduled time minus the first poll that saw it (a lower bound of the
    true delay) and minus the poll before (an upper bound, up to the
    worker's own clock reading). delay_of(jid, remaining) -> (low, high)
    the delay must lie in. Returns {jid: [(remaining, low_bound, high_bound)]}."""
    seen = {jid: [] for jid in jids}
    t_prev = time.time()
    deadline = time.time() + timeout
    while True:
        pipe = h.r.pipeline(transaction=True)
        for jid in jids:
            pipe.hmget(h.k("ql:j:" + jid), "state", "remaining")
            pipe.zscore(h.k("ql:q:%s-scheduled" % queue), jid)
        replies = pipe.execute()
        t_obs = time.time()
        done = 0
        for i, jid in enumerate(jids):
            state, remaining = replies[2 * i]
            score = replies[2 * i + 1]
            remaining = int(float(remaining))
            if state == "failed":
                done += 1
            elif state == "scheduled" and all(rec[0] != remaining for rec in seen[jid]):
                low, high = delay_of(jid, remaining)
                measured = (remaining, score - t_obs, score - t_prev)
                seen[jid].append(measured)
                # the true delay lies in [score - t_obs, score - t_prev + TOL]
                assert measured[1] <= high + TOL and measured[2] >= low - TOL, \
                    "retry of %s (remaining %d): delay in [%.3f, %.3f], expected in [%.3f, %.3f]%s" % (
                        jid, remaining, measured[1], measured[2], low, high, h.diagnostics())
        if done == len(jids):
            return seen
        for w in alive:
            assert w.alive(), "%s exited while jobs were retried%s" % (w.name, h.diagnostics())
        assert time.time() < deadline, "retried jobs not failed after %ss: %s%s" % (
            timeout, seen, h.diagnostics())
        t_prev = t_obs
        time.sleep(POLL)


def check_exhausted(h, jid, runs):
    job = h.ql.job(jid)
    assert job["state"] == "failed"
    assert job["failure"]["group"] == "ConformanceRetry", job["failure"]
    assert "flaky " + jid in job["failure"]["message"], job["failure"]
    assert len(popped_by(job)) == runs, job["history"]
    assert jid in h.r.lrange(h.k("ql:f:ConformanceRetry"), 0, -1)


def test_retry_fixed_backoff(h):
    """Flaky with 2 retries under --backoff fixed:2: each retry is scheduled
    2 s later; the third run exhausts the retries and fails the job."""
    jid = h.put("retry", "Flaky", retries=2)
    w = h.start("--queue", "retry", "--backoff", "fixed:2", name="conf-retry")
    seen = watch_retries(h, "retry", [jid], lambda jid, remaining: (2.0, 2.0), 30, [w])
    assert [rec[0] for rec in seen[jid]] == [1, 0], \
        "expected two scheduled retries (1, then 0 retries left); seen: %s" % seen
    check_exhausted(h, jid, 3)
    assert w.stop() == 0


def test_retry_exponential_jitter(h):
    """--backoff-class for Flaky (exponential, base 1 s, jitter 0.5) wins
    over --backoff: retry k waits within [2^k * 0.5, 2^k] seconds, and the
    jitter really varies the delays."""
    jids = [h.put("retry", "Flaky", retries=2) for _ in range(3)]
    w = h.start("--queue", "retry", "--backoff", "fixed:30",
                "--backoff-class", h.klass("Flaky") + "=exponential:1:0:0.5", name="conf-retry-exp")

    def delay_of(jid, remaining):
        d = 1.0 * 2 ** (2 - 1 - remaining)   # remaining 1 after retry 0, 0 after retry 1
        return d * 0.5, d

    seen = watch_retries(h, "retry", jids, delay_of, 30, [w])
    for jid in jids:
        assert [rec[0] for rec in seen[jid]] == [1, 0], \
            "expected two scheduled retries (1, then 0 retries left); seen: %s" % seen
        check_exhausted(h, jid, 3)
    # Without jitter every delay would be d (its upper bound at most a poll
    # below d); with U uniform, six draws all that close to d are ~1e-5 likely.
    assert any(high < delay_of(None, rem)[1] - 0.1 for recs in seen.values() for rem, _, high in recs), seen
    assert w.stop() == 0


def test_lock_lost(h):
    """A job whose lock goes away while it runs (timed out and handed to
    another worker; canceled) is not settled by this worker, which carries on."""
    stolen = h.noop("lost", sleep=3)
    w = h.start("--queue", "lost", name="conf-lost")
    h.wait_for("the 3 s Noop started", h.started(stolen), 20, alive=[w])
    # Time it out and hand it to "thief" in one transaction, so that no
    # worker can pop it in between.
    pipe = h.r.pipeline(transaction=True)
    pipe.evalsha(h.ql.sha, *h.ql.keys, "timeout", repr(time.time()), stolen)
    pipe.evalsha(h.ql.sha, *h.ql.keys, "pop", repr(time.time()), "lost", "thief", 1)
    popped = json.loads(pipe.execute()[1])
    assert [job["jid"] for job in popped] == [stolen]

    h.wait_for("the stolen job's code ended",
               lambda: any(e[0] == "end" and e[1] == stolen for e in read_log(h.log)), 20, alive=[w])
    # A serial worker settles a job before it reserves the next one: once
    # this one completes, whatever it did about the stolen job is done.
    nxt = h.noop("lost", log=False)
    h.wait_for("the next job completes", h.all_complete([nxt]), 20, alive=[w])
    job = h.ql.job(stolen)
    assert job["state"] == "running" and job["worker"] == "thief", job
    assert "done" not in whats(job) and "failed" not in whats(job), job["history"]
    assert whats(job) == ["put", "popped", "timed-out", "popped"], job["history"]
    assert popped_by(job) == ["conf-lost", "thief"]
    assert job["failure"] == {}, job["failure"]
    # the lock is still the thief's: it can complete the job
    assert h.ql("complete", stolen, "thief", "lost", job["data"]) == "complete"

    canceled = h.noop("lost", sleep=1.5)
    h.wait_for("the 1.5 s Noop started", h.started(canceled), 20, alive=[w])
    h.ql("cancel", canceled)
    h.wait_for("the canceled job's code ended",
               lambda: any(e[0] == "end" and e[1] == canceled for e in read_log(h.log)), 20, alive=[w])
    nxt = h.noop("lost", log=False)
    h.wait_for("the next job completes", h.all_complete([nxt]), 20, alive=[w])
    assert h.ql.job(canceled) is None
    assert w.stop() == 0


@pytest.mark.parametrize("pool", ["serial", "processes"])
def test_sigterm(h, pool):
    """SIGTERM while a 2 s job runs: the job finishes and is completed, no
    new job is reserved, the worker (and a pool's children) exit 0."""
    # (a pool of one: an idle second child would rightly take the job put below)
    flags = ["--pool", "processes", "--size", "1"] if pool == "processes" else []
    running = h.noop("term", sleep=2)
    w = h.start("--queue", "term", *flags, name="conf-term")
    pid = h.wait_for("the 2 s Noop started", h.started(running), 20, alive=[w])
    children = w.children()
    if pool == "processes":
        assert pid in children and pid != w.pid, (pid, children)
    waiting = h.noop("term")   # put after the start: only a new reservation could take it
    w.signal(signal.SIGTERM)
    rc = w.wait(20)
    t_exit = time.time()
    assert rc == 0, "exit status %s after SIGTERM%s" % (rc, h.diagnostics())
    job = h.ql.job(running)
    assert job["state"] == "complete", job
    log = read_log(h.log)
    start = [e for e in log if e[0] == "start" and e[1] == running]
    ends = [e for e in log if e[0] == "end" and e[1] == running]
    assert len(start) == 1 and len(ends) == 1 and ends[0][2] <= t_exit, log
    assert ends[0][2] - start[0][2] >= 2 - 0.05, "the job was cut short: %s" % log
    job = h.ql.job(waiting)
    assert job["state"] == "waiting" and whats(job) == ["put"], job
    for child in children:
        assert proc_stat(child) is None, "pool child %d still alive after the parent exited" % child


def test_immediate_stop(h):
    """SIGQUIT while a job sleeps: the worker exits at once with status 1,
    the job stays with it until its lock expires, then another worker run
    recovers and completes it."""
    h.ql.config("quit-heartbeat", 1)   # this queue's lock time: 1 s
    jid = h.noop("quit", sleep=2)
    w1 = h.start("--queue", "quit", name="conf-quit-1")
    h.wait_for("the 2 s Noop started", h.started(jid), 20, alive=[w1])
    t0 = time.time()
    w1.signal(signal.SIGQUIT)
    rc = w1.wait(5)
    elapsed = time.time() - t0
    assert rc == 1, "exit status %s after SIGQUIT%s" % (rc, h.diagnostics())
    assert elapsed < 1.0, "SIGQUIT took %.2f s to end the worker" % elapsed
    assert not [e for e in read_log(h.log) if e[0] == "end"], "the job ran to its end"
    job = h.ql.job(jid)
    assert job["state"] in ("running", "stalled") and job["worker"] == "conf-quit-1", job

    w2 = h.start("--queue", "quit", name="conf-quit-2")
    h.wait_for("the job recovered and completed", h.all_complete([jid]), 20, alive=[w2])
    job = h.ql.job(jid)
    assert popped_by(job) == ["conf-quit-1", "conf-quit-2"], job["history"]
    assert whats(job) == ["put", "popped", "timed-out", "popped", "done"], job["history"]
    ends = [e for e in read_log(h.log) if e[0] == "end"]
    assert [(e[1], e[3]) for e in ends] == [(jid, w2.pid)]
    assert w2.stop() == 0


def test_pool_child_killed(h):
    """SIGKILL of a pool child running a long job: the job is retried (group
    qless.ChildDied), not failed; a new child replaces the dead one; every
    job completes."""
    longs = [h.noop("pool", sleep=2) for _ in range(2)]
    w = h.start("--queue", "pool", "--pool", "processes", "--size", "2", name="conf-pool")
    first = h.wait_for("two pool children", w.pool(2), 20, alive=[w])
    victim_jid, victim = h.wait_for(
        "a child started a long job",
        lambda: next(((j, p) for what, j, _, p in read_log(h.log) if what == "start" and p in first), None),
        20, alive=[w])
    os.kill(victim, signal.SIGKILL)

    def retried():
        job = h.ql.job(victim_jid)
        return job if job["failure"].get("group") == "qless.ChildDied" else None
    job = h.wait_for("the dead child's job retried with group qless.ChildDied", retried, 15, alive=[w])
    assert job["state"] != "failed" and job["remaining"] == 4, job   # 5 retries, one used
    assert not h.r.lrange(h.k("ql:f:qless.ChildDied"), 0, -1)
    replaced = h.wait_for("a replacement child", w.pool(2, besides=first), 15, alive=[w])
    assert victim not in replaced

    shorts = [h.noop("pool", sleep=0.1) for _ in range(4)]
    h.wait_for("every job complete", h.all_complete(longs + shorts), 30, alive=[w])
    job = h.ql.job(victim_jid)
    assert popped_by(job)[0] == "conf-pool-%d" % victim, job["history"]
    assert len(popped_by(job)) == 2 and popped_by(job)[1] != popped_by(job)[0], job["history"]
    log = read_log(h.log)
    # the victim never ended its run; the other runs ended, by pool children
    # named <name>-<pid>
    assert ("end", victim) not in {(e[0], e[3]) for e in log}
    for jid in longs + shorts:
        ends = [e for e in log if e[0] == "end" and e[1] == jid]
        assert len(ends) == 1, (jid, ends)
        assert popped_by(h.ql.job(jid))[-1] == "conf-pool-%d" % ends[0][3]
        assert ends[0][3] != w.pid
    assert w.stop() == 0


def test_redis_restart(h):
    """redis-server killed (SIGKILL) while workers run 100 jobs and restarted
    from its append-only file a second later: no worker exits, every job
    completes."""
    own_redis = h.own_redis()
    own_redis.start()
    conn = redis.Redis(unix_socket_path=own_redis.socket, decode_responses=True)
    ql = Ql(conn)
    ql.config("heartbeat", 3)
    ql.config("grace-period", 0)
    jids = [ql.put("restart", h.klass("Noop"), {"log": h.log, "sleep": 0.05}) for _ in range(100)]
    url = "unix://" + own_redis.socket
    serial = h.start("--queue", "restart", "--reconnect-max", "0.5", name="conf-restart", url=url)
    pool = h.start("--queue", "restart", "--reconnect-max", "0.5", "--pool", "processes", "--size", "2",
                   name="conf-restart-pool", url=url)
    workers = [serial, pool]
    children = h.wait_for("two pool children", pool.pool(2), 20, alive=workers)

    def completed():
        try:
            return conn.zcard("ql:completed")
        except redis.ConnectionError:
            return 0
    h.wait_for("20 jobs complete", lambda: completed() >= 20, 30, alive=workers)
    own_redis.kill()
    at_kill = sum(1 for e in read_log(h.log) if e[0] == "end")
    time.sleep(1.0)
    for w in workers:
        assert w.alive(), "%s exited while redis-server was down%s" % (w.name, h.diagnostics())
    own_redis.start()

    def all_complete():
        try:
            return h.all_complete(jids, conn)()
        except redis.ConnectionError:
            return False
    h.wait_for("all 100 jobs complete after the restart", all_complete, 60, alive=workers)
    assert at_kill < 100, "the jobs were all done before the kill: the scenario proved nothing"
    assert pool.children() == children, "a pool child exited across the restart%s" % h.diagnostics()
    log = read_log(h.log)
    assert {e[1] for e in log if e[0] == "end"} == set(jids)
    reruns = sum(1 for e in log if e[0] == "start") - len(jids)
    print("redis restart: %d of 100 jobs ended before the kill, %d runs repeated after it"
          % (at_kill, reruns))
    for w in workers:
        assert w.stop() == 0


def test_pooled_worker_killed_mid_batch(h):
    """SIGKILL of a whole pooled worker program while its pool runs and
    settles jobs in batches (a thread pool; a process pool, parent and
    children, where the language runs on one thread): jobs it held are
    neither lost nor left held. Each one ends complete: the jobs it had
    settled stay as they were, those it was running or had finished but not
    yet settled time out (their lock expires) and are run again by the next
    worker. Nothing fails, nothing stays running."""
    h.ql.config("heartbeat", 2)    # the lock time: how soon a stalled job is handed out again
    jids = [h.noop("pk", sleep=0.05) for _ in range(60)]
    pool = "processes" if h.lang in SINGLE_THREADED else "threads"
    w = h.start("--queue", "pk", "--pool", pool, "--size", "4", name="conf-pk")
    h.wait_for("some jobs done", lambda: sum(1 for e in read_log(h.log) if e[0] == "end") >= 12, 30, alive=[w])
    kids = w.children()
    os.kill(w.pid, signal.SIGKILL)
    for pid in kids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert w.wait(10) is not None
    held = [jid for jid, state in zip(jids, h.states(jids)) if state == "running"]
    done_before = [jid for jid, state in zip(jids, h.states(jids)) if state == "complete"]
    assert held, "the kill left no job held: the scenario proved nothing"
    assert done_before, "no job was settled before the kill: the scenario proved nothing"
    w2 = h.start("--queue", "pk", name="conf-pk2")
    h.wait_for("every job complete", h.all_complete(jids), 60, alive=[w2])
    assert w2.stop() == 0
    assert not h.r.keys("ql:f:*"), "a job failed"
    for jid in held:
        job = h.ql.job(jid)
        assert popped_by(job)[-1] == "conf-pk2", job["history"]
        assert "timed-out" in whats(job), job["history"]
    for jid in done_before:
        assert whats(h.ql.job(jid)).count("popped") == 1
    log = read_log(h.log)
    ended = {e[1] for e in log if e[0] == "end"}
    assert ended == set(jids), set(jids) - ended


@pytest.mark.parametrize("pool", ["processes", "threads"])
def test_pool_of_four(h, pool):
    """A pool of 4 over 200 jobs: all complete, no job ever runs twice at the
    same time, and the pool really runs jobs side by side."""
    if pool == "threads" and h.lang in SINGLE_THREADED:
        jid = h.noop("four")
        w = h.start("--queue", "four", "--pool", "threads", "--size", "4", name="conf-four")
        rc = w.wait(15)
        assert rc == 2, "--pool threads: exit status %s, expected 2 (usage error)%s" % (rc, h.diagnostics())
        assert "thread" in w.output().lower(), w.output()
        assert whats(h.ql.job(jid)) == ["put"]
        return
    jids = [h.noop("four", sleep=0.02) for _ in range(200)]
    w = h.start("--queue", "four", "--pool", pool, "--size", "4", name="conf-four")
    h.wait_for("200 jobs complete", h.all_complete(jids), 60, alive=[w])
    log = read_log(h.log)
    starts = [e for e in log if e[0] == "start"]
    assert sorted(e[1] for e in log if e[0] == "end") == sorted(jids)
    assert not overlaps(log), "jobs run twice at the same time: %s" % overlaps(log)
    assert max_concurrency(log) >= 2, "the pool of 4 never ran two jobs at once"
    per_pid = {}
    for e in starts:
        per_pid[e[3]] = per_pid.get(e[3], 0) + 1
    per_worker = {}
    for jid in jids:
        for name in popped_by(h.ql.job(jid)):
            per_worker[name] = per_worker.get(name, 0) + 1
    if pool == "processes":
        assert w.pid not in per_pid, "the pool's parent ran jobs itself"
        assert len(per_pid) >= 2, per_pid
        ran_by = {e[1]: e[3] for e in log if e[0] == "end"}
        for jid in jids:
            assert popped_by(h.ql.job(jid)) == ["conf-four-%d" % ran_by[jid]]
    else:
        assert set(per_pid) == {w.pid}, per_pid
    print("pool of 4 %s (%s): runs per pid %s; pops per worker name %s; most at once %d; repeated runs %d"
          % (pool, h.lang, dict(sorted(per_pid.items())), dict(sorted(per_worker.items())),
             max_concurrency(log), len(starts) - len(jids)))
    assert w.stop() == 0


# Job classes outside the allow-list of the scenario below (harness.ALLOW plus
# the Noop class): loading one leaves a mark in $QLESS_CONF_MARKER, running
# one ends the worker (Forbidden, ConformanceExit, sys.exit) or would need
# code outside the list (os, Kernel).
OUTSIDE = {
    "c": ["Forbidden", "Boom"],
    "python": ["forbidden_jobs.Forbidden", "sys.exit", "os._exit"],
    "ruby": ["ForbiddenJobs::Forbidden", "ConformanceExit", "Kernel"],
    "lua": ["forbidden_jobs", "os"],
    "php": ["ForbiddenJobs\\Forbidden", "ConformanceExit", "SplFileObject"],
}
# A name inside the list that the language layer must still refuse to
# resolve, and the group it fails with.
INSIDE = {"python": ("conformance_jobs.sleep", "ImportError"),
          "php": ("ConformanceJobs\\Recorder", "Qless\\JobClassError")}


def test_class_not_allowed(h):
    """Jobs of classes outside the allow-list fail in group
    qless.ClassNotAllowed without their code being loaded or run; the worker
    carries on and completes an allowed job put after them."""
    marker = str(h.tmp / "marker")
    refused = {h.ql.put("allow", klass, {}): klass for klass in OUTSIDE[h.lang]}
    inside = {h.ql.put("allow", INSIDE[h.lang][0], {}): INSIDE[h.lang][1]} if h.lang in INSIDE else {}
    after = h.noop("allow", log=False)
    # C has no list of its own (harness.ALLOW): this one makes Boom, which it can run, unallowed.
    w = h.start("--queue", "allow", "--allow", h.klass("Noop"), name="conf-allow",
                env={"QLESS_CONF_MARKER": marker})
    jids = list(refused) + list(inside)
    h.wait_for("the unallowed jobs failed and the allowed one completed",
               lambda: h.states(jids + [after]) == ["failed"] * len(jids) + ["complete"], 20, alive=[w])
    for jid, klass in refused.items():
        job = h.ql.job(jid)
        assert job["failure"]["group"] == "qless.ClassNotAllowed", job["failure"]
        assert "'%s'" % klass in job["failure"]["message"] and "--allow" in job["failure"]["message"], \
            job["failure"]
        assert whats(job) == ["put", "popped", "failed"], job["history"]
    for jid, group in inside.items():
        assert h.ql.job(jid)["failure"]["group"] == group, h.ql.job(jid)["failure"]
    assert sorted(h.r.lrange(h.k("ql:f:qless.ClassNotAllowed"), 0, -1)) == sorted(refused)
    assert not os.path.exists(marker), "unallowed job code was loaded or run: %s" % open(marker).read()
    assert w.stop() == 0


def without_allow(argv):
    """argv without its --allow flags."""
    out, skip = [], False
    for arg in argv:
        if skip or arg == "--allow":
            skip = not skip
            continue
        out.append(arg)
    return out


def test_allow_list_required(h):
    """A worker that finds job code by class name (every language but C)
    refuses to start without an allow-list (exit 2, saying how to give one),
    starts with one from QLESS_WORKER_ALLOW, and every worker refuses an
    invalid pattern (exit 2, naming it)."""
    argv, extra = launch(h.lang)
    argv = without_allow(argv) + ["--url", h.url, "--queue", "required", "--interval", "0.1"]
    env = {k: v for k, v in os.environ.items() if k not in ("QLESS_URL", "QLESS_WORKER_ALLOW")}
    env.update(extra)
    jid = h.noop("required", log=False)

    def run(*flags, allow_env=None):
        e = dict(env, QLESS_WORKER_ALLOW=allow_env) if allow_env is not None else env
        p = subprocess.run(argv + list(flags), env=e, cwd=SRC, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout + p.stderr

    if h.lang != "c":
        rc, out = run()
        assert rc == 2, (rc, out)
        assert "--allow" in out and "QLESS_WORKER_ALLOW" in out and "e.g." in out, out
    for bad in ["conformance*jobs", ""]:
        rc, out = run("--allow", bad)
        assert rc == 2 and "'%s'" % bad in out, (bad, rc, out)
        rc, out = run(allow_env="x," + bad + ",y" if bad else "x,,y")
        assert rc == 2 and "QLESS_WORKER_ALLOW" in out and "'%s'" % bad in out, (bad, rc, out)
    rc, out = run("--allow", "a\udcffb")
    assert rc == 2 and "'a\\xffb'" in out, (rc, out)
    assert whats(h.ql.job(jid)) == ["put"]
    rc, out = run("--max-jobs", "1", allow_env=" %s , other.*" % h.klass("Noop"))
    assert rc == 0, (rc, out)
    assert h.states([jid]) == ["complete"]


def test_worker_name_not_utf8(h):
    """A --name that is not UTF-8 is refused before anything is popped
    (exit 2, naming the worker name); it used to be taken, and then every
    reservation under it was refused by the protocol."""
    argv, extra = launch(h.lang)
    jid = h.noop("badname", log=False)
    env = {k: v for k, v in os.environ.items() if k not in ("QLESS_URL", "QLESS_WORKER_ALLOW")}
    env.update(extra)
    try:
        p = subprocess.run(argv + ["--url", h.url, "--queue", "badname", "--interval", "0.1",
                                   "--max-jobs", "1", "--name", "w\udcff"],
                           env=env, cwd=SRC, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="backslashreplace", timeout=15)
    except subprocess.TimeoutExpired as e:
        pytest.fail("the worker took the name and kept running: %s" % (e.stderr,))
    out = p.stdout + p.stderr
    assert p.returncode == 2, (p.returncode, out)
    # The core names the worker name; Python's layer refuses the argument
    # before the core sees it, showing it.
    assert "not valid UTF-8" in out and ("worker name" in out or "'w\\xff'" in out), out
    assert whats(h.ql.job(jid)) == ["put"]


def test_namespaces(h):
    """--queue a/q1 --queue b/q2: one worker program serves queues of two
    namespaces (a connection and a worker each); each job completes in its
    own namespace, and the same queue name elsewhere is left alone. A
    worker whose language runs jobs on one thread serves one namespace: two
    are a usage error."""
    if h.lang in SINGLE_THREADED:
        w = h.start("--queue", "a/q1", "--queue", "b/q2", name="conf-ns", url=h.base_url)
        assert w.wait(15) == 2 and "one namespace" in w.output()
        w = h.start("--queue", "a/q1", name="conf-ns1", url=h.base_url)   # one namespace: served
        jid = h.ql_in("a").put("q1", h.klass("Noop"), {"log": h.log})
        h.wait_for("the job of a/q1 completes", lambda: h.ql_in("a").job(jid)["state"] == "complete", 30,
                   alive=[w])
        assert w.stop() == 0
        return
    qa, qb = h.ql_in("a"), h.ql_in("b")
    noop = h.klass("Noop")
    ja = [qa.put("q1", noop, {"log": h.log}) for _ in range(4)]
    jb = [qb.put("q2", noop, {"log": h.log}) for _ in range(4)]
    other = [h.noop("q1"), h.ql_in("b").put("q1", noop, {"log": h.log})]
    w = h.start("--queue", "a/q1", "--queue", "b/q2", name="conf-ns", url=h.base_url)
    done = lambda ql, jids: lambda: all(ql.job(j)["state"] == "complete" for j in jids)  # noqa: E731
    h.wait_for("the jobs of a/q1 complete", done(qa, ja), 30, alive=[w])
    h.wait_for("the jobs of b/q2 complete", done(qb, jb), 30, alive=[w])
    assert h.ql.job(other[0])["state"] == "waiting" and qb.job(other[1])["state"] == "waiting"
    assert all(popped_by(ql.job(j)) == ["conf-ns"] for ql, js in ((qa, ja), (qb, jb)) for j in js)
    assert w.stop() == 0
    bad = h.start("--queue", "a{/q", name="conf-ns-bad", url=h.base_url)
    assert bad.wait(15) == 2 and "namespace" in bad.output()
