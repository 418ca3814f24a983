#!/usr/bin/python3
"""The job-tree fault test (issue 15, jobtrees.md): tree jobs of class Sink
(cworker.c), subscribed by their input port "in" to channels at several
levels, some of them children of others, are worked by C worker programs
(process pools) while a publisher thread publishes numbered values to
those channels and the test SIGKILLs pool children (preferably inside a
sink's read), whole worker programs, and redis-server (restarted from its
append-only file, appendfsync always), and terminates part of the
population (one tree recursively, one child alone) mid-run. After a quiet
period (every sink suspended or terminated) it checks:

  - exactly once: for every subscribed port, the values delivered into it
    (consumed, from the sinks' log, plus still queued) are the values
    published to its channels and the channels below them, each once; for
    a terminated sink, each once up to some value (publication skips
    terminated subscribers, so it receives a prefix of its sequence);
  - states: every job's state is one of §3.1, and the jid sits in exactly
    the sets that state says (queue sets, ql:completed, failure lists,
    workers' job lists), and every sink is suspended or terminated;
  - woken: no suspended job has unread input;
  - hooks: no startup after a job's first perform (startup repeats only
    while job.started is not recorded); a started terminated job ran its
    shutdown at least once, a live one never.

How consumption is accounted exactly: a sink drains "in" by peek, log
"take <values>", read, log "took <values>" (only the job reads its port, so
the read removes exactly the peeked values, which are unique numbers). A
take without its took (the child was killed) was read iff its values are
not at the head of the port at the job's next take (or at the end). The
publisher makes each value's publication exactly once although Redis may
die during the call: a never-run witness job subscribed to /s receives
every value, and a publication whose reply was lost is made again only
if the witness lacks the value (a publish is one script call, so the
witness has it iff every subscriber has it). The witness's port is
checked like every other.

    /usr/bin/python3 tests/worker/tree_soak.py [--build build] [--seed N]

Two forms, the same code: the defaults are the long form (by hand, about a
minute); ctest's worker.tree.faults.c (tests/worker/CMakeLists.txt) runs a
shorter one. --mutate client-publish makes the publisher deliver as the
original SideJob did (client-side, one port.write per subscriber): the
test must then fail when a redis kill lands mid-delivery. The seed
(--seed, else $QLESS_SOAK_SEED, else random; always printed) fixes the
population, the channels of the values and the order of the faults.
Shares the build tree, redis-server and worker handling with soak.py and
harness.py.
"""
import argparse
import json
import os
import pathlib
import random
import shutil
import signal
import sys
import tempfile
import threading
import time

import redis

import harness
import soak
from harness import Harness, Redis

QUEUE = "trees"
IDLE = "trees-idle"          # nobody works it: the witness stays waiting
CHANNELS = ["/s", "/s/a", "/s/a/x", "/s/b", "/s/b/y"]
PUBLISH_TO = CHANNELS + ["/s/a/x/z", "/s/c"]
DOWN = soak.DOWN


def covers(subscribed, channel):
    """Whether a port subscribed to `subscribed` receives a publication to channel."""
    return channel == subscribed or channel.startswith(subscribed.rstrip("/") + "/")


def call(ql, *args, give_up):
    """ql(*args), made again while Redis is away (until give_up, a time)."""
    while True:
        try:
            return ql(*args)
        except DOWN:
            if time.time() > give_up:
                raise
            time.sleep(0.05)


# --- the population ------------------------------------------------------------------

def put_sink(ql, rng, log, parent=None, name=None):
    jid = "sink-%s-%08x" % (name or "root", rng.getrandbits(32))
    opts = ["retries", 1000, "tree", 1, "inports", '{"in": {}}']
    if parent:
        opts += ["parent", parent, "name", name]
    assert ql("put", "harness", QUEUE, jid, "Sink", json.dumps({"log": log}), 0, *opts) == jid
    channels = sorted(set(rng.sample(CHANNELS, rng.choice([1, 1, 2]))))
    ql("port.connect", jid, "in", "in", *channels)
    return jid, channels


def populate(ql, rng, args, log):
    """{jid: channels} of the sinks (trees of a root and --children children),
    {root: [its children]} and the witness's jid."""
    subs, roots = {}, {}
    for t in range(args.trees):
        root, channels = put_sink(ql, rng, log)
        subs[root] = channels
        roots[root] = []
        for c in range(args.children):
            jid, channels = put_sink(ql, rng, log, parent=root, name="c%d" % c)
            subs[jid] = channels
            roots[root].append(jid)
    witness = "witness"
    assert ql("put", "harness", IDLE, witness, "Witness", "{}", 0, "tree", 1, "inports", '{"in": {}}') == witness
    ql("port.connect", witness, "in", "in", "/s")
    return subs, roots, witness


# --- the publisher ---------------------------------------------------------------------

class Publisher(threading.Thread):
    """Publishes values 1..n, each to a channel drawn from the seed, spread
    over `seconds`; a publication whose reply was lost is made again only
    if the witness lacks the value. mode "client-publish" (a mutation):
    delivers client-side, one port.write per subscriber."""

    def __init__(self, url_socket, n, seconds, rng, witness, mode):
        super().__init__(daemon=True)
        self.r = redis.Redis(unix_socket_path=url_socket, decode_responses=True, socket_timeout=10)
        self.ql = harness.Ql(self.r)
        self.plan = [(v, rng.choice(PUBLISH_TO)) for v in range(1, n + 1)]
        self.seconds, self.witness, self.mode = seconds, witness, mode
        self.done = 0          # values published
        self.uncertain = 0     # replies lost
        self.republished = 0   # of those, published again
        self.error = None
        self.stop = False

    def deliver(self, channel, value):
        if self.mode != "client-publish":
            return self.ql("channel.publish", channel, value)
        members = set()
        level = channel
        while True:
            members |= set(self.r.smembers("ql:subs:" + level))
            if level == "/":
                break
            level = level.rsplit("/", 1)[0] or "/"
        for member in sorted(members):
            port, jid = member.split(":", 1)
            if self.r.hget("ql:j:" + jid, "state") != "terminated":   # as the script skips them
                self.ql("port.write", jid, "in", port, value)
        return len(members)

    def applied(self, value):
        while True:
            try:
                return self.r.lpos("ql:in:in:" + self.witness, value) is not None
            except DOWN:
                if self.stop:
                    raise
                time.sleep(0.05)

    def run(self):
        try:
            t0 = time.time()
            for i, (value, channel) in enumerate(self.plan):
                lag = t0 + self.seconds * i / len(self.plan) - time.time()
                if lag > 0:
                    time.sleep(lag)
                while True:
                    try:
                        self.deliver(channel, str(value))
                        break
                    except DOWN:
                        self.uncertain += 1
                        if self.applied(str(value)):
                            break
                        self.republished += 1
                self.done += 1
                if self.stop:
                    return
        except Exception as e:   # reported by the main thread
            self.error = repr(e)


# --- reading the outcome ------------------------------------------------------------------

def read_sink_log(path):
    """[(what, jid, pid, values or None)] in file order."""
    entries = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            values = json.loads(parts[4]) if len(parts) > 4 else None
            entries.append((parts[0], parts[1], int(parts[3]), values))
    return entries


def consumed_by(entries, queued):
    """{jid: [values consumed]}, from takes and tooks (see the docstring);
    and the problems found (a took unlike its take)."""
    consumed, problems = {}, []
    takes = [(i, jid, pid, vals) for i, (what, jid, pid, vals) in enumerate(entries) if what == "take"]
    open_take = {}
    for i, (what, jid, pid, vals) in enumerate(entries):
        if what == "take":
            open_take[(jid, pid)] = (i, vals)
        elif what == "took":
            taken = open_take.pop((jid, pid), None)
            if taken is None or [int(v) for v in vals] != [int(v) for v in taken[1]]:
                problems.append("%s: took %s after take %s" % (jid, vals, taken and taken[1]))
            consumed.setdefault(jid, []).extend(int(v) for v in vals)
    for (jid, pid), (i, vals) in open_take.items():
        later = [t for t in takes if t[1] == jid and t[0] > i]
        head = later[0][3] if later else queued.get(jid, [])
        if [int(v) for v in head[:len(vals)]] != [int(v) for v in vals]:
            consumed.setdefault(jid, []).extend(int(v) for v in vals)
    return consumed, problems


def placement(r, jid, queue):
    """Where the jid sits: {"work", "locks", …, "completed", "failed", "worker:<w>"}."""
    pipe = r.pipeline(transaction=False)
    kinds = ["work", "scheduled", "depends", "locks", "suspended", "terminating", "terminated"]
    for kind in kinds:
        pipe.zscore("ql:q:%s-%s" % (queue, kind), jid)
    pipe.zscore("ql:completed", jid)
    found = {k for k, s in zip(kinds + ["completed"], pipe.execute()) if s is not None}
    for group in r.smembers("ql:failures"):
        if r.lpos("ql:f:" + group, jid) is not None:
            found.add("failed")
    for key in r.scan_iter("ql:w:*:jobs"):
        if r.zscore(key, jid) is not None:
            found.add("worker:" + key[len("ql:w:"):-len(":jobs")])
    return found


def expected_placement(state, worker):
    held = {"locks", "worker:" + worker}
    return {
        "waiting": {"work"}, "scheduled": {"scheduled"}, "depends": {"depends"},
        "running": held, "stalled": held, "suspended": {"suspended"}, "complete": {"completed"},
        "failed": {"failed"}, "terminated": {"terminated"},
        "terminating": ({"terminating"} | held) if worker else {"terminating", "work"},
    }.get(state)


def check(r, subs, witness, witness_sent, sent, log_path):
    """The verdict's checks; returns (figures, problems)."""
    problems = []
    jobs = dict(subs, **{witness: ["/s"]})
    queued = {jid: [int(v) for v in r.lrange("ql:in:in:" + jid, 0, -1)] for jid in jobs}
    entries = read_sink_log(log_path)
    consumed, bad = consumed_by(entries, queued)
    problems += bad
    deliveries = 0
    states = {}
    for jid, channels in sorted(jobs.items()):
        state, worker, queue, started = r.hmget("ql:j:" + jid, "state", "worker", "queue", "started")
        states[state] = states.get(state, 0) + 1
        got = sorted(consumed.get(jid, []) + queued[jid])
        deliveries += len(got)
        want = [v for v, ch in sent if any(covers(c, ch) for c in channels)]
        if len(set(got)) != len(got):
            problems.append("%s (%s): delivered twice: %s" % (jid, state, sorted({v for v in got if got.count(v) > 1})))
        if state == "terminated":
            cut = max(got, default=0)
            want = [v for v in want if v <= cut]
        if sorted(set(got)) != want:
            lost = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            problems.append("%s (%s, %s): lost %s, not published to it %s" % (jid, state, channels, lost[:10], extra[:10]))
        where = placement(r, jid, queue)
        if where != expected_placement(state, worker or ""):
            problems.append("%s: state %s (worker %r) but in %s" % (jid, state, worker, sorted(where)))
        if jid != witness and state not in ("suspended", "terminated"):
            problems.append("%s: %s after the quiet period" % (jid, state))
        if state == "suspended" and queued[jid]:
            problems.append("%s: suspended with %d unread values" % (jid, len(queued[jid])))
        startups = [i for i, e in enumerate(entries) if e[0] == "startup" and e[1] == jid]
        performs = [i for i, e in enumerate(entries) if e[0] == "perform" and e[1] == jid]
        shutdowns = sum(1 for e in entries if e[0] == "shutdown" and e[1] == jid)
        if performs and (not startups or startups[-1] > performs[0]):
            problems.append("%s: startups at log lines %s, first perform at %d" % (jid, startups, performs[0]))
        if state == "terminated" and started and not shutdowns:
            problems.append("%s: terminated after its start, but no shutdown ran" % jid)
        if state != "terminated" and shutdowns:
            problems.append("%s: %s, but its shutdown ran %d times" % (jid, state, shutdowns))
    if witness_sent != len(sent):
        problems.append("publisher: %d of %d values published" % (witness_sent, len(sent)))
    fig = {"consumed": sum(len(v) for v in consumed.values()), "still queued": sum(len(v) for v in queued.values()),
           "deliveries": deliveries, "states": states,
           "startups": sum(1 for e in entries if e[0] == "startup"),
           "shutdowns": sum(1 for e in entries if e[0] == "shutdown"),
           "orphan takes (kills mid-read)": sum(1 for e in entries if e[0] == "take") -
           sum(1 for e in entries if e[0] == "took")}
    return fig, problems


# --- the run -------------------------------------------------------------------------------

def in_job_code(log_path):
    """Pids whose last line in the log is inside a sink's perform."""
    last = {}
    try:
        for what, _, pid, _ in read_sink_log(log_path):
            last[pid] = what
    except OSError:
        pass
    return {pid for pid, what in last.items() if what in ("take", "perform", "took")}, \
        {pid for pid, what in last.items() if what == "take"}


def kill_child(workers, rng, log_path):
    """A pool child SIGKILLed: preferably one between a take and its took."""
    busy, reading = in_job_code(log_path)
    return soak.kill_preferred(workers, rng, [reading, busy], lambda pid: "child" if pid in busy else "idle child")


def run(args, rng):
    tmp = tempfile.mkdtemp(prefix="qless-tsoak-", dir="/tmp")
    server = Redis("always")
    h, publisher = None, None
    fig, problems = {}, []
    try:
        server.start()
        conn = redis.Redis(unix_socket_path=server.socket, decode_responses=True, socket_timeout=10)
        h = Harness("c", conn, "unix://" + server.socket, pathlib.Path(tmp))
        h.servers.append(server)
        for key, value in (("heartbeat", args.lock), ("grace-period", 0), ("max-runs-per-minute", 0)):
            h.ql.config(key, value)
        subs, roots, witness = populate(h.ql, rng, args, h.log)
        flags = ("--queue", QUEUE, "--pool", "processes", "--size", str(args.size), "--reconnect-max", "0.5")
        workers = [h.start(*flags, name="tsoak-%d" % i) for i in range(args.workers)]
        kinds = ["child"] * args.child_kills + ["program"] * args.program_kills + ["redis"] * args.redis_kills
        rng.shuffle(kinds)
        plan = [(args.values * (0.1 + 0.8 * (k + 1) / (len(kinds) + 1)), kind) for k, kind in enumerate(kinds)]
        # Terminated mid-run: the first tree as a whole, and one child of another.
        trees = list(roots.values())
        victims = [(list(roots)[0], "recursive")] + ([(trees[1][-1], None)] if len(trees) > 1 and trees[1] else [])
        terminate_at = args.values // 2
        publisher = Publisher(server.socket, args.values, args.publish_seconds, rng, witness, args.mutate)
        t0 = time.time()
        publisher.start()
        faults, down, terminated = [], None, False
        deadline = t0 + args.timeout
        while time.time() < deadline:
            now = time.time()
            for w in workers:
                if not w.alive() and not getattr(w, "reported", False):
                    w.reported = True
                    problems.append("%s exited (%s) on its own:\n%s" % (w.name, w.proc.returncode, w.output(2000)))
            if down is not None and now - down.start >= args.redis_down:
                soak.restart(server, args)
                down.end, down = time.time(), None
            progress = publisher.done
            if not terminated and progress >= terminate_at and down is None:
                for jid, mode in victims:
                    call(h.ql, "job.terminate", jid, *([mode] if mode else []), give_up=deadline)
                terminated = True
            if plan and progress >= plan[0][0] and down is None:
                kind = plan.pop(0)[1]
                if kind == "redis":
                    server.kill()
                    fault = down = soak.Fault("redis", time.time())
                elif kind == "program":
                    fault, i = soak.kill_program(workers, rng, True)
                    if fault:
                        workers[i] = h.start(*flags, name=workers[i].name + "r")
                else:
                    fault = kill_child(workers, rng, h.log)
                if fault:
                    faults.append(fault)
            if not publisher.is_alive() and (publisher.error or not plan and down is None and terminated):
                break
            time.sleep(0.05)
        publish_wall = time.time() - t0
        if down is not None:
            soak.restart(server, args)
        publisher.stop = True
        publisher.join(30)
        if publisher.error:
            problems.append("publisher: " + publisher.error)
        if plan or not terminated or publisher.is_alive():
            problems.append("timed out: faults left %s, terminated %s, publisher done %d of %d"
                            % (plan, terminated, publisher.done, args.values))
        # The quiet period: every sink suspended or terminated, with nothing to read.
        quiet_deadline = time.time() + args.quiet
        while time.time() < quiet_deadline:
            states = h.states(list(subs))
            if all(s in ("suspended", "terminated") for s in states):
                break
            time.sleep(0.1)
        for w in workers:
            if w.alive():
                os.kill(w.pid, signal.SIGTERM)
        stops = [w.wait(30) for w in workers if not getattr(w, "reported", False)]
        sent = [(v, ch) for v, ch in publisher.plan[:publisher.done]]
        fig, found = check(h.r, subs, witness, publisher.done, sent, h.log)
        problems += found
        if any(rc != 0 for rc in stops):
            problems.append("worker exit status on SIGTERM: %s" % stops)
        count = {}
        for f in faults:
            count[f.kind] = count.get(f.kind, 0) + 1
        fig = dict({"seed": args.seed, "jobs": len(subs) + 1, "trees": args.trees,
                    "values published": publisher.done,
                    "publish replies lost": publisher.uncertain, "republished": publisher.republished,
                    "child kills in job code": count.get("child", 0),
                    "child kills (idle)": count.get("idle child", 0),
                    "program kills": count.get("program", 0), "redis restarts": count.get("redis", 0),
                    "terminated by the test": ", ".join("%s%s" % (j, " recursive" if m else "") for j, m in victims),
                    "publishing (s)": "%.1f" % publish_wall, "wall time (s)": "%.1f" % (time.time() - t0)},
                   **fig)
        if args.keep or problems:
            fig["kept"] = tmp
        return fig, problems
    finally:
        if publisher is not None:
            publisher.stop = True
        for w in h.workers if h else ():
            w.teardown()
        server.teardown()
        if "kept" not in fig:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", type=int, default=3, help="C worker programs (default 3)")
    p.add_argument("--size", type=int, default=2, help="pool processes per program (default 2)")
    p.add_argument("--trees", type=int, default=6, help="trees of sinks (default 6)")
    p.add_argument("--children", type=int, default=3, help="children per tree (default 3)")
    p.add_argument("--values", type=int, default=3000, help="values published (default 3000)")
    p.add_argument("--publish-seconds", type=float, default=40, help="spread over this long (default 40)")
    p.add_argument("--child-kills", type=int, default=20, help="pool children SIGKILLed (default 20)")
    p.add_argument("--program-kills", type=int, default=2, help="whole programs SIGKILLed and restarted (default 2)")
    p.add_argument("--redis-kills", type=int, default=4, help="redis-server kills (default 4)")
    p.add_argument("--redis-down", type=float, default=0.5, help="seconds redis-server stays down (default 0.5)")
    p.add_argument("--lock", type=int, default=3, help="config heartbeat: a killed run's lock (s, default 3)")
    p.add_argument("--quiet", type=float, default=60, help="longest wait for the quiet period (s, default 60)")
    p.add_argument("--timeout", type=float, default=300, help="publishing and faults, at most (s, default 300)")
    p.add_argument("--mutate", choices=["none", "client-publish"], default="none",
                   help="client-publish: deliver client-side (the test must fail)")
    p.add_argument("--seed", type=int, default=None, help="default $QLESS_SOAK_SEED, else random")
    p.add_argument("--build", default=os.environ.get("QLESS_BUILD_DIR") or os.path.join(harness.SRC, "build"))
    p.add_argument("--keep", action="store_true", help="keep the sinks' log and worker output")
    args = p.parse_args()
    if min(args.workers, args.size, args.trees, args.values, args.lock) < 1 or args.children < 0:
        p.error("--workers, --size, --trees, --values, --lock must be >= 1, --children >= 0")
    args.load_delay = 0   # soak.restart's option
    args.lang = "c"       # other languages' workers would need the Sink class
    soak.prepare(args, "tree_soak")
    print("tree_soak: %d programs x %d processes, %d trees x (1 + %d) sinks + 1 witness, %d values over %g s, "
          "%d child kills, %d program kills, %d redis kills, lock %d s, seed %d (QLESS_SOAK_SEED=%d to repeat)%s"
          % (args.workers, args.size, args.trees, args.children, args.values, args.publish_seconds,
             args.child_kills, args.program_kills, args.redis_kills, args.lock, args.seed, args.seed,
             "; MUTATION " + args.mutate if args.mutate != "none" else ""), flush=True)
    fig, problems = run(args, random.Random(args.seed))
    width = max(len(k) for k in fig) + 2
    for key, value in fig.items():
        if isinstance(value, dict):
            value = ", ".join("%s %s" % kv for kv in sorted(value.items()))
        print("%s%s" % (key.ljust(width), value))
    for problem in problems:
        print("tree_soak: " + problem, file=sys.stderr)
    print("tree_soak: %s (seed %d)" % ("FAIL" if problems else "PASS", args.seed))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
