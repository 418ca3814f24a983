#!/usr/bin/python3
"""The worker fault test (issues 11, 12): worker programs of one language,
each a process pool, work through Noop jobs on a redis-server of the test's
own while the test SIGKILLs pool children, whole worker programs (the pool
parent and its children), pool parents alone (their children orphaned) and
redis-server (restarted from its append-only file); the test starts a
killed program again. Then it checks what became of every job and every
process.

    /usr/bin/python3 tests/worker/soak.py [--lang c|python|ruby|lua|php] [--build build]

Two forms, the same code:
  long form (by hand, about a minute per language; the defaults): 4
    programs x 2 children, 3,000 jobs, 20 child kills, 2 program kills,
    1 parent kill, 2 redis kills, then a second series whose jobs all have
    the protocol's default retries (--no-default-series skips it);
  ctest form (worker.faults.<lang>, tests/worker/CMakeLists.txt): fewer
    jobs and faults, a short lock time, one series.

The faults happen at evenly spaced points of progress (jobs settled), in an
order drawn from the seed; a child victim is preferably one inside job code
(from the jobs' log), so that kills hit running jobs. Each job gets a retry
count drawn from --retries (default 0,1,10: jobs with 0 retries fail at the
first kill that hits them, jobs with 10 should all complete).

The redis-server is private: a unix socket in a temporary directory,
appendonly yes with appendfsync always (--appendfsync), so that a SIGKILL
loses no acknowledged write and the test tests the workers, not Redis's
durability window. --load-delay MICROS makes each restart load slowly
(-LOADING for seconds, as a server with a large dataset does).

The seed (--seed, else $QLESS_SOAK_SEED, else random; always printed) fixes
the jobs' sleeps and retries, the order of the faults and the victims; the
timing of a run still varies.

Verdict: exit status 0 only if, in every series,
  - none lost: every job put is complete or failed, and the queue's work,
    lock and scheduled sets are empty;
  - retries honoured: each pop that does not complete a job costs it one
    retry (a child's death: qless.ChildDied; an expired lock), so a failed
    job was popped exactly retries + 1 times, failed in qless.ChildDied or
    failed-retries-<queue> and has none left (remaining -1); a complete
    job was popped at most retries + 1 times and its code ran to its end
    (complete resets remaining, so that is all it shows);
  - none run twice at once (two runs of a jid from different pids
    overlapping in the jobs' log; a killed child's run ends at its kill),
    and none run twice without a fault near it: every run of a job but its
    last must be near a fault, i.e. overlap the fault's window widened by
    --near seconds (default 1: the time between a job's end and its settle
    reaching Redis), where a child or program kill's window is its instant
    and counts only for the killed pids, and a redis kill's is from the kill
    until the restarted server has loaded;
  - no process exited on its own: no worker program, no pool child the test
    did not kill, no run left without an end by a pid nobody killed; and
    none stayed: no pool child still running 30 s after its program ended
    (an orphan must finish its job and exit);
  - every fault planned happened, the series did not time out, and every
    worker program exited 0 on the final SIGTERM.
Every process it starts (workers, their children, redis-server) is stopped
by pid when it ends.

Shares the launch of workers, the process handling and the redis-server
management with the conformance suite (harness.py). It finds the build tree
by --build, else $QLESS_BUILD_DIR, else ./build of the repository.
"""
import argparse
import json
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
        "QLESS_PHP": cache.get("QLESS_PHP_BIN"),
        "QLESS_PHP_EXT": cache.get("QLESS_PHP_EXT"),
    }
    for name, value in values.items():
        if value and not os.environ.get(name):
            os.environ[name] = value


# --- the faults ----------------------------------------------------------------------

class Fault:
    """One fault as it happened: kind ("child", "program", "redis"), its
    window [start, end] and the pids it killed (None: every process)."""

    def __init__(self, kind, start, pids=None):
        self.kind, self.start, self.end, self.pids = kind, start, start, pids

    def near(self, run, slack):
        start, end, pid = run
        if self.pids is not None and pid not in self.pids:
            return False
        return start <= self.end + slack and end >= self.start - slack


def open_runs(path):
    """Pids inside job code now, from the jobs' log."""
    running = set()
    for what, jid, _, pid in read_log(path):
        (running.add if what == "start" else running.discard)((jid, pid))
    return {pid for _, pid in running}


def kill_child(workers, rng, log):
    """SIGKILLs a pool child, one running a job if there is one; returns its
    Fault, or None when no worker has a child now."""
    return kill_preferred(workers, rng, [open_runs(log)], lambda pid: "child")


def kill_preferred(workers, rng, prefer, kind):
    """SIGKILLs a pool child of the live workers, drawn from the first of
    the pid sets `prefer` that holds one, else from all; returns its Fault
    (of kind(pid)), or None when no worker has a child now."""
    kids = set()
    for w in workers:
        if w.alive():
            kids |= w.children()
    pool = next((sorted(kids & pids) for pids in prefer if kids & pids), sorted(kids))
    if not pool:
        return None
    victim = rng.choice(pool)
    try:
        os.kill(victim, signal.SIGKILL)
    except ProcessLookupError:
        return None
    return Fault(kind(victim), time.time(), {victim})


def kill_program(workers, rng, whole):
    """SIGKILLs a worker program's pool parent, with its children if whole
    (else they are orphaned: they must finish their jobs and exit); the
    parent is stopped meanwhile, so that it neither forks nor recovers.
    Returns the Fault and the index of the program in workers."""
    live = [i for i, w in enumerate(workers) if w.alive()]
    if not live:
        return None, None
    i = rng.choice(live)
    w = workers[i]
    os.kill(w.pid, signal.SIGSTOP)
    kids = w.children() if whole else set()
    w.children()   # remembered by the Worker: lingering() finds orphans that stay
    for pid in kids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os.kill(w.pid, signal.SIGKILL)
    w.proc.wait()
    return Fault("program" if whole else "parent", time.time(), kids | {w.pid}), i


def lingering(workers, wait):
    """Pool children still alive after their programs were stopped or killed
    (orphans nobody stops), waiting up to `wait` seconds for them to go."""
    deadline = time.time() + wait
    while True:
        # Worker._seen: every child the harness saw, with its start time.
        left = [pid for w in workers for pid, started in w._seen.items()
                if (harness.proc_stat(pid) or (0, None))[1] == started]
        if not left or time.time() >= deadline:
            return left
        time.sleep(0.1)


def plan_faults(args, rng):
    """[(progress mark in jobs settled, kind)]: the faults spread over 10-85 %
    of the jobs, in an order drawn from rng."""
    kinds = ["child"] * args.child_kills + ["program"] * args.program_kills + ["parent"] * args.parent_kills + \
        ["redis"] * args.redis_kills
    rng.shuffle(kinds)
    return [(args.jobs * (0.1 + 0.75 * (k + 1) / (len(kinds) + 1)), kind) for k, kind in enumerate(kinds)]


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


def repeats(runs, faults, slack):
    """Each run of a job but its last, by the kind of the fault near it:
    ({kind: count}, [(jid, run)] with no fault near)."""
    kinds, bare = {}, []
    for jid, rs in runs.items():
        for run in sorted(rs)[:-1]:
            # A kill of the run's own pid explains it better than a redis kill.
            near = [f for f in faults if f.pids is not None and f.near(run, slack)] or \
                   [f for f in faults if f.near(run, slack)]
            if near:
                kinds[near[0].kind] = kinds.get(near[0].kind, 0) + 1
            else:
                bare.append((jid, run))
    return kinds, bare


def records(r, jids):
    """{jid: (state, retries, remaining, failure group, pops)} read raw."""
    pipe = r.pipeline(transaction=False)
    for jid in jids:
        pipe.hmget("ql:j:" + jid, "state", "retries", "remaining", "failure")
        pipe.lrange("ql:j:%s-history" % jid, 0, -1)
    replies = pipe.execute()
    out = {}
    for jid, (state, retries, remaining, failure), history in zip(jids, replies[0::2], replies[1::2]):
        group = json.loads(failure).get("group") if failure and state == "failed" else None
        pops = sum(1 for e in history if json.loads(e)[1] == "popped")
        out[jid] = (state, int(retries or 0), int(remaining or 0), group, pops)
    return out


def dishonoured(recs, finished):
    """Jobs whose retries were not honoured (see the docstring): [(jid, why)];
    finished: the jids whose code ran to its end at least once."""
    bad = []
    allowed = ("qless.ChildDied", "failed-retries-" + QUEUE)
    for jid, (state, retries, remaining, group, pops) in recs.items():
        if state == "failed" and (remaining != -1 or pops != retries + 1 or group not in allowed):
            bad.append((jid, "failed in %s after %d pops with %d retries, remaining %d" % (group, pops, retries,
                                                                                          remaining)))
        elif state == "complete" and not 1 <= pops <= retries + 1:
            bad.append((jid, "complete after %d pops with %d retries" % (pops, retries)))
        elif state == "complete" and jid not in finished:
            bad.append((jid, "complete without a run to the end"))
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


def put_jobs(h, args, rng, retries):
    jids = []
    for _ in range(args.jobs):
        data = {"log": h.log, "sleep": round(rng.uniform(0, args.sleep_max), 4)}
        jids.append(h.put(QUEUE, "Noop", data, retries=rng.choice(retries)))
    return jids


def series(args, rng, retries, label):
    """Runs one series; returns its row of figures (a dict) and its problems."""
    tmp = tempfile.mkdtemp(prefix="qless-soak-", dir="/tmp")
    server = Redis(args.appendfsync)
    h = None
    faults = []
    fig = {"series": label, "jobs": args.jobs}
    problems = []
    try:
        server.start()
        conn = redis.Redis(unix_socket_path=server.socket, decode_responses=True, socket_timeout=10)
        h = Harness(args.lang, conn, "unix://" + server.socket, pathlib.Path(tmp))
        h.servers.append(server)
        # The lock time: the jobs of a killed program, or of a dead child
        # whose parent could not retry them, are handed out again after it.
        h.ql.config("heartbeat", args.lock)
        h.ql.config("grace-period", 0)
        jids = put_jobs(h, args, rng, retries)
        flags = ("--queue", QUEUE, "--pool", "processes", "--size", str(args.size),
                 "--reconnect-max", str(args.reconnect_max))
        workers = [h.start(*flags, name="soak-%s-%d" % (args.lang, i)) for i in range(args.workers)]
        plan = plan_faults(args, rng)
        t0 = time.time()
        deadline = t0 + args.timeout
        down = None       # the redis Fault while the server is down
        settled = 0
        exited = {}
        timed_out = False
        while True:
            now = time.time()
            for w in workers:
                if w.pid not in exited and not w.alive():
                    exited[w.pid] = w.proc.returncode
                    problems.append("%s exited (%s) while running:\n%s" % (w.name, w.proc.returncode,
                                                                           w.output(2000)))
            if down is not None and now - down.start >= args.redis_down:
                restart(server, args)
                down.end, down = time.time(), None
            if down is None:
                try:
                    settled = sum(1 for s in h.states(jids) if s in ("complete", "failed"))
                except DOWN:
                    pass
                if settled == len(jids):
                    break
            if plan and settled >= plan[0][0] and not (plan[0][1] == "redis" and down):
                kind = plan[0][1]
                if kind == "redis":
                    server.kill()
                    fault = down = Fault("redis", time.time())
                elif kind in ("program", "parent"):
                    fault, i = kill_program(workers, rng, kind == "program")
                    if fault:   # a name of its own: the output file is named after it
                        workers[i] = h.start(*flags, name=workers[i].name + "r")
                else:
                    fault = kill_child(workers, rng, h.log)
                if fault:
                    faults.append(fault)
                    plan.pop(0)
            if now >= deadline:
                timed_out = True
                break
            time.sleep(0.1)
        wall = time.time() - t0
        if down is not None:   # timed out while it was down
            restart(server, args)
            down.end = time.time()

        for w in workers:
            if w.alive():
                os.kill(w.pid, signal.SIGTERM)
        stops = [w.wait(30) for w in workers if w.pid not in exited]
        left_behind = lingering(h.workers, 30)
        recs = records(h.r, jids)
        left = {}
        for state, *_ in recs.values():
            left[str(state)] = left.get(str(state), 0) + 1
        left.pop("complete", None)
        left.pop("failed", None)
        in_sets = sum(h.r.zcard("ql:q:%s-%s" % (QUEUE, kind)) for kind in ("work", "locks", "scheduled"))
        kills = {}
        for f in faults:
            for pid in f.pids or ():
                kills.setdefault(pid, []).append(f.start)
        log = read_log(h.log)
        runs, unexplained = runs_of(log, kills, time.time())
        twice = run_twice(runs)
        repeated, bare = repeats(runs, faults, args.near)
        bad_retries = dishonoured(recs, {jid for what, jid, _, _ in log if what == "end"})
        programs = h.workers
        unbidden = [(w.name, pid, how, n) for w in programs for pid, how, n in children_ended(w)
                    if pid not in kills]
        groups = {}
        for state, _, _, group, _ in recs.values():
            if state == "failed":
                groups[group] = groups.get(group, 0) + 1
        count = {k: sum(1 for f in faults if f.kind == k) for k in ("child", "program", "parent", "redis")}
        fig.update({
            "child kills": count["child"],
            "program kills": count["program"],
            "parent kills": count["parent"],
            "redis restarts": count["redis"],
            "kills during job code": sum(1 for rs in runs.values() for s, e, p in rs if e in kills.get(p, ())),
            "complete": sum(1 for r in recs.values() if r[0] == "complete"),
            "failed": sum(groups.values()),
            "failed groups": groups,
            "lost (by state)": left,
            "left in queue sets": in_sets,
            "retries not honoured": len(bad_retries),
            "run twice at once": len(twice),
            "runs repeated (near)": repeated,
            "runs repeated, no fault near": len(bare),
            "runs never ended, unexplained": unexplained,
            "children ended unbidden": len(unbidden),
            "settles dropped (logged)": sum(count_lines(w, DROPPED) for w in programs),
            "recoveries given up (logged)": sum(count_lines(w, GAVE_UP) for w in programs),
            "programs exited unbidden": len(exited),
            "children left behind": len(left_behind),
            "exit status on SIGTERM": " ".join(str(rc) for rc in stops),
            "faults not done": len(plan),
            "timed out": timed_out,
            "wall time (s)": "%.1f" % wall,
        })
        if left or in_sets:
            problems.append("lost: %s, %d jids still in the queue's sets" % (left, in_sets))
        if bad_retries:
            problems.append("retries not honoured: %s" % bad_retries[:5])
        if twice:
            problems.append("run twice at once: %s" % {j: sorted(runs[j]) for j in twice[:5]})
        if bare:
            problems.append("runs repeated with no fault near (faults %s): %s"
                            % ([(f.kind, f.start, f.end) for f in faults], bare[:5]))
        if unexplained:
            problems.append("%d runs never ended, by pids nobody killed" % unexplained)
        if unbidden:
            problems.append("pool children that ended without being killed: %s" % unbidden[:10])
        if left_behind:
            problems.append("pool children still running 30 s after their program ended: %s" % left_behind)
        if plan or timed_out:
            problems.append("faults not done: %s; timed out: %s" % (plan, timed_out))
        if any(rc != 0 for rc in stops):
            problems.append("exit status on SIGTERM: %s" % stops)
        if args.keep or problems:
            fig["kept"] = tmp
        return fig, problems
    finally:
        for w in h.workers if h else ():
            w.teardown()
        server.teardown()
        if "kept" not in fig:
            shutil.rmtree(tmp, ignore_errors=True)


# --- the table ---------------------------------------------------------------------------

ROWS = ["jobs", "child kills", "program kills", "parent kills", "redis restarts", "kills during job code", "complete",
        "failed", "failed groups", "lost (by state)", "left in queue sets", "retries not honoured",
        "run twice at once", "runs repeated (near)", "runs repeated, no fault near",
        "runs never ended, unexplained", "children ended unbidden", "settles dropped (logged)",
        "recoveries given up (logged)", "programs exited unbidden", "children left behind",
        "exit status on SIGTERM",
        "faults not done", "timed out", "wall time (s)"]


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


def retry_list(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError("expected counts >= 0 separated by commas, got %r" % text)
    return values


def default_seed():
    env = os.environ.get("QLESS_SOAK_SEED")
    if env:
        try:
            return int(env)
        except ValueError:
            sys.exit("soak: QLESS_SOAK_SEED=%r is not an integer" % env)
    return random.SystemRandom().randrange(1 << 31)


def prepare(args, prog):
    """What a fault test does before it starts: the seed (args.seed, else
    default_seed()), the environment from the build tree, args.lang's worker
    program and the script checked, and SIGTERM/SIGHUP ending the test
    through its finally clauses (which stop what it started)."""
    if args.seed is None:
        args.seed = default_seed()
    env_from_build(os.path.abspath(args.build))
    try:
        launch(args.lang)
        harness.need("QLESS_LUA_SCRIPT")
    except harness.Missing as e:
        sys.exit("%s: %s" % (prog, e))

    def stop(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lang", choices=LANGS, default="python")
    p.add_argument("--workers", type=int, default=4, help="worker programs (default 4)")
    p.add_argument("--size", type=int, default=2, help="pool size (processes) of each program (default 2)")
    p.add_argument("--jobs", type=int, default=3000, help="jobs per series (default 3000)")
    p.add_argument("--sleep-max", type=float, default=0.05, help="a job sleeps uniform 0..this (s)")
    p.add_argument("--child-kills", type=int, default=20, help="pool children SIGKILLed per series (default 20)")
    p.add_argument("--program-kills", type=int, default=2,
                   help="whole worker programs SIGKILLed and started again per series (default 2)")
    p.add_argument("--parent-kills", type=int, default=1,
                   help="pool parents alone SIGKILLed (orphaning their children) and their programs started "
                        "again per series (default 1)")
    p.add_argument("--redis-kills", type=int, default=2, help="redis-server kills per series (default 2)")
    p.add_argument("--redis-down", type=float, default=1.0, help="seconds redis-server stays down (default 1)")
    p.add_argument("--retries", type=retry_list, default=[0, 1, 10], metavar="N[,N...]",
                   help="each job of the first series gets one of these retry counts (default 0,1,10)")
    p.add_argument("--no-default-series", action="store_true",
                   help="skip the second series (the protocol's default retries)")
    p.add_argument("--near", type=float, default=1.0,
                   help="a run repeated within this many seconds of a fault is explained by it (default 1)")
    p.add_argument("--load-delay", type=int, default=0, metavar="MICROS",
                   help="redis-server's key-load-delay on restarts: a longer LOADING window (default 0)")
    p.add_argument("--appendfsync", choices=["always", "everysec"], default="always")
    p.add_argument("--lock", type=int, default=10, help="the jobs' lock time, config heartbeat (s, default 10)")
    p.add_argument("--reconnect-max", type=float, default=0.5, help="the workers' --reconnect-max (default 0.5)")
    p.add_argument("--seed", type=int, default=None, help="default $QLESS_SOAK_SEED, else random")
    p.add_argument("--timeout", type=float, default=300, help="per series, seconds (default 300)")
    p.add_argument("--build", default=os.environ.get("QLESS_BUILD_DIR") or os.path.join(harness.SRC, "build"))
    p.add_argument("--keep", action="store_true", help="keep the jobs' log and worker output")
    args = p.parse_args()
    if args.workers < 1 or args.size < 1 or args.jobs < 1 or args.timeout <= 0 or args.lock < 1:
        p.error("--workers, --size, --jobs, --lock must be >= 1, --timeout > 0")
    if min(args.child_kills, args.program_kills, args.parent_kills, args.redis_kills) < 0:
        p.error("--child-kills, --program-kills, --parent-kills, --redis-kills must be >= 0")
    if args.sleep_max < 0 or args.load_delay < 0 or args.near < 0:
        p.error("--sleep-max, --load-delay and --near must be >= 0")
    prepare(args, "soak")

    rng = random.Random(args.seed)
    plan = [(args.retries, "retries=%s" % ",".join(map(str, args.retries)))]
    if not args.no_default_series:
        plan.append(([None], "retries=default"))
    print("soak: %s, %d worker programs x --pool processes --size %d, %d Noop jobs per series (sleep 0..%g s), "
          "%d child kills, %d program kills, %d parent kills, %d redis kills (down %g s, load delay %d us), appendfsync %s, "
          "lock %d s, seed %d (QLESS_SOAK_SEED=%d to repeat)"
          % (args.lang, args.workers, args.size, args.jobs, args.sleep_max, args.child_kills, args.program_kills,
             args.parent_kills, args.redis_kills, args.redis_down, args.load_delay, args.appendfsync, args.lock, args.seed,
             args.seed), flush=True)
    figs, ok = [], True
    for retries, label in plan:
        fig, problems = series(args, rng, retries, label)
        figs.append(fig)
        for problem in problems:
            print("soak: %s: %s" % (label, problem), file=sys.stderr)
        ok = ok and not problems
        print("soak: series %s done in %s s" % (label, fig["wall time (s)"]), flush=True)
    print(table(figs))
    for f in figs:
        if "kept" in f:
            print("soak: %s: jobs' log and worker output kept in %s" % (f["series"], f["kept"]))
    print("soak: %s (seed %d)" % ("PASS" if ok else "FAIL", args.seed))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
