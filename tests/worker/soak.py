#!/usr/bin/python3
"""The worker fault soak (issue 11), run by hand; it takes a minute or more, so
it is not a ctest entry. W worker programs of one language, each a pool, work
through J Noop jobs on a redis-server of the soak's own while pool children
are SIGKILLed every 1-2 s and redis-server is SIGKILLed twice and restarted
from its append-only file. Then it prints what became of the jobs.

    /usr/bin/python3 tests/worker/soak.py [--lang c|python|ruby|lua] [--build build]

Two series, each with a fresh server and fresh workers: the jobs of the first
have --retries (10) so that no kill can use them up (failed should be 0); the
second has the protocol's default retries (5) and counts the jobs that end
failed in qless.ChildDied (--no-default-series skips it).

The redis-server is private: a unix socket in a temporary directory,
appendonly yes with appendfsync always (--appendfsync), so that a SIGKILL
loses no acknowledged write and the soak tests the workers, not Redis's
durability window; with everysec a kill may roll back up to a second of
job state (completions undone, jobs run again, puts lost).

The seed (--seed) fixes the jobs' sleeps and the choice of victims; the
timing of a run still varies. --load-delay MICROS makes each restart load
slowly (redis-server's key-load-delay), answering -LOADING for seconds as a
server with a large dataset does. Besides the verdict the table shows what
only the workers' output tells: pool children that ended without being
killed, settles the engine dropped and recoveries of a dead child's jobs it
gave up (their jobs wait for their locks to expire, then run again).

Exit status 0 only if, in every series, no job is lost (neither complete
nor failed, or missing), none ran twice at the same time (start..end of one
jid overlapping in the jobs' log, from different pids; a killed child's run
ends at its kill), no worker program exited while running, and every worker
program exited 0 on the final SIGTERM. Every process it starts (workers,
their children, redis-server) is stopped by pid when it ends.

Shares the launch of workers, the process handling and the redis-server
management with the conformance suite (harness.py). It finds the build tree
by --build, else $QLESS_BUILD_DIR, else ./build of the repository.
"""
import argparse
import os
import pathlib
import random
import re
import shutil
import signal
import sys
import tempfile
import time

import redis

import harness
from harness import LANGS, Harness, Redis, launch, read_log

QUEUE = "soak"
INF = float("inf")


# --- the build tree ----------------------------------------------------------------

def env_from_build(build):
    """Sets the harness's environment (see harness.py) from build/CMakeCache.txt,
    leaving what is already set."""
    cache = {}
    path = os.path.join(build, "CMakeCache.txt")
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError as e:
        sys.exit("soak: %s: %s (build first: bash scripts/build.sh; or pass --build)" % (path, e.strerror))
    values = {
        "QLESS_SOURCE_DIR": harness.SRC,
        "QLESS_LUA_SCRIPT": cache.get("QLESS_LUA_SCRIPT"),
        "QLESS_CWORKER": os.path.join(build, "tests", "worker", "qless-cworker"),
        "QLESS_PYTHON": cache.get("Python3_EXECUTABLE") or "/usr/bin/python3",
        "QLESS_PYTHONPATH": cache.get("QLESS_PYTHONPATH"),
        "QLESS_RUBY": cache.get("QLESS_RUBY_EXECUTABLE"),
        "QLESS_RUBY_EXT": cache.get("QLESS_RUBY_EXT"),
        "QLESS_LUA_CPATH_DIR": cache.get("QLESS_LUA_CPATH_DIR"),
    }
    for name, value in values.items():
        if value and not os.environ.get(name):
            os.environ[name] = value


# --- reading the outcome -------------------------------------------------------------

def runs_of(entries, kills, end_of_run):
    """{jid: [(start, end, pid)]} from the jobs' log. A run without an end
    ends when its pid was killed (the first kill after its start), else (a
    process that died unbidden) at end_of_run; returns the runs and the
    number of those unexplained ones."""
    started = {}
    runs = {}
    for what, jid, when, pid in entries:
        if what == "start":
            started[(jid, pid)] = when
        else:
            runs.setdefault(jid, []).append((started.pop((jid, pid), when), when, pid))
    unexplained = 0
    for (jid, pid), start in started.items():
        end = min((t for t in kills.get(pid, ()) if t >= start), default=None)
        if end is None:
            end = end_of_run
            unexplained += 1
        runs.setdefault(jid, []).append((start, end, pid))
    return runs, unexplained


def run_twice(runs):
    """Jids two of whose runs, by different pids, overlap in time."""
    bad = []
    for jid, rs in runs.items():
        rs = sorted(rs)
        if any(b[0] < a[1] and a[2] != b[2] for i, a in enumerate(rs) for b in rs[i + 1:]):
            bad.append(jid)
    return bad


CHILD_ENDED = re.compile(r"child (\d+) ended \((signal|status) (\d+)\)")
DROPPED = re.compile(r" dropped: ")
GAVE_UP = re.compile(r"cannot list the jobs of ")


def count_lines(worker, pattern):
    """Lines of the worker program's output (its children's too) that match."""
    try:
        with open(worker.out_path, errors="replace") as f:
            return sum(1 for line in f if pattern.search(line))
    except OSError:
        return 0


def children_ended(worker):
    """[(pid, how, number)] of the pool children its parent saw end."""
    try:
        with open(worker.out_path, errors="replace") as f:
            return [(int(m.group(1)), m.group(2), int(m.group(3))) for m in CHILD_ENDED.finditer(f.read())]
    except OSError:
        return []


# --- one series ------------------------------------------------------------------------

DOWN = (redis.ConnectionError, redis.TimeoutError)   # BusyLoadingError is a ConnectionError


def restart(server, args):
    """Starts the killed redis-server again from its append-only file; with
    --load-delay it loads slowly (answering -LOADING meanwhile), as a server
    with a large dataset does. Returns once it has loaded."""
    extra = ["--key-load-delay", str(args.load_delay)] if args.load_delay else []
    server.start(*extra, timeout=120)


def series(args, rng, retries, label):
    """Runs one series; returns its row of figures (a dict)."""
    tmp = tempfile.mkdtemp(prefix="qless-soak-", dir="/tmp")
    server = Redis(args.appendfsync)
    h = None
    kills = {}        # pid -> [kill times]
    fig = {"series": label, "jobs": args.jobs, "child kills": 0, "redis restarts": 0}
    try:
        server.start()
        conn = redis.Redis(unix_socket_path=server.socket, decode_responses=True, socket_timeout=10)
        h = Harness(args.lang, conn, "unix://" + server.socket, pathlib.Path(tmp))
        h.servers.append(server)
        # The lock time: a job whose child died and whose parent could not
        # retry it (Redis away too long) is handed out again after this.
        h.ql.config("heartbeat", args.lock)
        h.ql.config("grace-period", 0)
        jids = [h.put(QUEUE, "Noop", {"log": h.log, "sleep": round(rng.uniform(0, args.sleep_max), 4)},
                      retries=retries) for _ in range(args.jobs)]
        workers = [h.start("--queue", QUEUE, "--pool", args.pool, "--size", str(args.size),
                           "--reconnect-max", str(args.reconnect_max), name="soak-%s-%d" % (args.lang, i))
                   for i in range(args.workers)]
        t0 = time.time()
        deadline = t0 + args.timeout
        marks = [args.jobs * (k + 1) / (args.redis_kills + 1) for k in range(args.redis_kills)]
        next_kill = t0 + rng.uniform(*args.kill_every)
        down_since = None
        settled = 0
        exited = {}
        timed_out = False
        while True:
            now = time.time()
            for w in workers:
                if w.name not in exited and not w.alive():
                    exited[w.name] = w.proc.returncode
                    print("soak: %s exited (%s) while running:\n%s" % (w.name, w.proc.returncode, w.output(2000)),
                          file=sys.stderr)
            if down_since is not None:
                if now - down_since >= args.redis_down:
                    restart(server, args)
                    fig["redis restarts"] += 1
                    down_since = None
            else:
                try:
                    states = h.states(jids)
                    settled = sum(1 for s in states if s in ("complete", "failed"))
                except DOWN:
                    pass
                if settled == len(jids):
                    break
                if fig["redis restarts"] < len(marks) and settled >= marks[fig["redis restarts"]]:
                    server.kill()
                    down_since = time.time()
            if now >= deadline:
                timed_out = True
                break
            if args.pool == "processes" and now >= next_kill:
                live = [w for w in workers if w.alive()]
                kids = sorted(live and rng.choice(live).children() or ())
                if kids:
                    victim = rng.choice(kids)
                    try:
                        os.kill(victim, signal.SIGKILL)
                        kills.setdefault(victim, []).append(time.time())
                        fig["child kills"] += 1
                    except ProcessLookupError:
                        pass
                next_kill = now + rng.uniform(*args.kill_every)
            time.sleep(0.1)
        wall = time.time() - t0
        if down_since is not None:   # timed out while it was down
            restart(server, args)
            fig["redis restarts"] += 1

        stops = []
        for w in workers:
            if w.alive():
                os.kill(w.pid, signal.SIGTERM)
        for w in workers:
            if w.name in exited:
                continue
            stops.append(w.wait(30))
        states = h.states(jids)
        failed = [jid for jid, s in zip(jids, states) if s == "failed"]
        groups = {}
        for jid in failed:
            group = h.ql.job(jid)["failure"].get("group", "?")
            groups[group] = groups.get(group, 0) + 1
        log = read_log(h.log)
        runs, unexplained = runs_of(log, kills, time.time())
        twice = run_twice(runs)
        killed_mid_job = sum(1 for rs in runs.values() for s, e, p in rs if p in kills and e in kills[p])
        unbidden = [(w.name, pid, how, n) for w in workers for pid, how, n in children_ended(w)
                    if pid not in kills]
        fig.update({
            "complete": sum(1 for s in states if s == "complete"),
            "failed": len(failed),
            "failed groups": groups,
            "lost": sum(1 for s in states if s not in ("complete", "failed")),
            "run twice at once": len(twice),
            "kills during job code": killed_mid_job,
            "runs repeated": sum(len(rs) for rs in runs.values()) - len(runs),
            "runs never ended, unexplained": unexplained,
            "children ended unbidden": len(unbidden),
            "settles dropped (logged)": sum(count_lines(w, DROPPED) for w in workers),
            "recoveries given up (logged)": sum(count_lines(w, GAVE_UP) for w in workers),
            "worker programs exited": len(exited),
            "exit status on SIGTERM": " ".join(str(rc) for rc in stops),
            "timed out": timed_out,
            "wall time (s)": "%.1f" % wall,
        })
        if twice:
            print("soak: %s: run twice at once: %s" % (label, {j: sorted(runs[j]) for j in twice[:5]}),
                  file=sys.stderr)
        if unbidden:
            print("soak: %s: pool children that ended without being killed: %s" % (label, unbidden[:10]),
                  file=sys.stderr)
        fig["ok"] = (fig["lost"] == 0 and not twice and not exited and not timed_out
                     and all(rc == 0 for rc in stops))
        if args.keep or not fig["ok"] or unbidden:
            fig["kept"] = tmp
        return fig
    finally:
        for w in h.workers if h else ():
            w.teardown()
        server.teardown()
        if "kept" not in fig:
            shutil.rmtree(tmp, ignore_errors=True)


# --- the table ---------------------------------------------------------------------------

ROWS = ["jobs", "child kills", "kills during job code", "redis restarts", "complete", "failed", "failed groups",
        "lost", "run twice at once", "runs repeated", "runs never ended, unexplained",
        "children ended unbidden", "settles dropped (logged)", "recoveries given up (logged)",
        "worker programs exited", "exit status on SIGTERM", "timed out",
        "wall time (s)"]


def table(figs):
    def cell(value):
        if isinstance(value, dict):
            return ", ".join("%s %d" % kv for kv in sorted(value.items())) or "-"
        return str(value)
    width = max(len(r) for r in ROWS) + 2
    cols = [max(len(f["series"]), *(len(cell(f.get(r, ""))) for r in ROWS)) + 2 for f in figs]
    lines = ["".ljust(width) + "".join(f["series"].ljust(c) for f, c in zip(figs, cols))]
    for r in ROWS:
        lines.append(r.ljust(width) + "".join(cell(f.get(r, "")).ljust(c) for f, c in zip(figs, cols)))
    return "\n".join(line.rstrip() for line in lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lang", choices=LANGS, default="python")
    p.add_argument("--workers", type=int, default=4, help="worker programs (default 4)")
    p.add_argument("--pool", choices=["serial", "threads", "processes"], default="processes",
                   help="child kills need processes (the default)")
    p.add_argument("--size", type=int, default=2, help="pool size of each worker program (default 2)")
    p.add_argument("--jobs", type=int, default=3000, help="jobs per series (default 3000)")
    p.add_argument("--sleep-max", type=float, default=0.05, help="a job sleeps uniform 0..this (s)")
    p.add_argument("--kill-every", type=float, nargs=2, default=[1.0, 2.0], metavar=("MIN", "MAX"),
                   help="seconds between pool child kills, uniform (default 1 2)")
    p.add_argument("--redis-kills", type=int, default=2, help="redis-server kills per series (default 2)")
    p.add_argument("--redis-down", type=float, default=1.0, help="seconds redis-server stays down (default 1)")
    p.add_argument("--retries", type=int, default=10, help="retries of the first series' jobs (default 10)")
    p.add_argument("--no-default-series", action="store_true",
                   help="skip the second series (the protocol's default retries)")
    p.add_argument("--load-delay", type=int, default=0, metavar="MICROS",
                   help="redis-server's key-load-delay on restarts: a longer LOADING window (default 0)")
    p.add_argument("--appendfsync", choices=["always", "everysec"], default="always")
    p.add_argument("--lock", type=int, default=10, help="the jobs' lock time, config heartbeat (s, default 10)")
    p.add_argument("--reconnect-max", type=float, default=0.5, help="the workers' --reconnect-max (default 0.5)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--timeout", type=float, default=300, help="per series, seconds (default 300)")
    p.add_argument("--build", default=os.environ.get("QLESS_BUILD_DIR") or os.path.join(harness.SRC, "build"))
    p.add_argument("--keep", action="store_true", help="keep the jobs' log and worker output")
    args = p.parse_args()
    if args.workers < 1 or args.size < 1 or args.jobs < 1 or args.redis_kills < 0 or args.timeout <= 0:
        p.error("--workers, --size, --jobs must be >= 1, --redis-kills >= 0, --timeout > 0")
    if not 0 < args.kill_every[0] <= args.kill_every[1] or args.sleep_max < 0 or args.load_delay < 0:
        p.error("--kill-every needs 0 < MIN <= MAX; --sleep-max and --load-delay >= 0")
    env_from_build(os.path.abspath(args.build))
    try:
        launch(args.lang)
        harness.need("QLESS_LUA_SCRIPT")
    except harness.Missing as e:
        sys.exit("soak: %s" % e)

    # A SIGTERM or SIGHUP to the soak ends it through the finally clauses.
    def stop(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)

    rng = random.Random(args.seed)
    plan = [(args.retries, "retries=%d" % args.retries)]
    if not args.no_default_series:
        plan.append((None, "retries=default"))
    print("soak: %s, %d worker programs x --pool %s --size %d, %d Noop jobs per series (sleep 0..%g s), "
          "child kill every %g-%g s, %d redis kills (down %g s, load delay %d us), appendfsync %s, seed %d"
          % (args.lang, args.workers, args.pool, args.size, args.jobs, args.sleep_max, args.kill_every[0],
             args.kill_every[1], args.redis_kills, args.redis_down, args.load_delay, args.appendfsync, args.seed),
          flush=True)
    figs = []
    for retries, label in plan:
        figs.append(series(args, rng, retries, label))
        print("soak: series %s done in %s s" % (label, figs[-1]["wall time (s)"]), flush=True)
    print(table(figs))
    for f in figs:
        if "kept" in f:
            print("soak: %s: jobs' log and worker output kept in %s" % (f["series"], f["kept"]))
    ok = all(f["ok"] for f in figs)
    print("soak: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
