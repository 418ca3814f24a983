#!/usr/bin/env python3
"""Benchmark of `qless web`: each page's cost on a large data set against a
small one, and /api/queues under concurrent clients.

  /usr/bin/python3 bench/web.py [--build build] [--jobs 1000000] [--small 1000]
                                [--queues 20] [--failed 10000] [--clients 50] [--seconds 5]

For each size it starts a private redis-server (tests/redis-fixture.sh: a
unix socket under a temporary directory), seeds it through pipelined `put`
calls of the protocol script (and pop + fail for the failed jobs, spread
over 10 groups), starts `qless web --listen 127.0.0.1:0` on it and asks each
endpoint 15 times (after 2 warm-ups). It prints, per endpoint, the median
server time (the reply's Server-Timing) and protocol calls (X-Qless-Calls)
on both sizes and their ratio (target <= 1.5x: each page's work is bounded,
whatever the data size), then requests/s of /api/queues under --clients
concurrent keep-alive connections. Never point it at a server holding data.
"""
import argparse
import http.client
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import redis

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURE = os.path.join(ROOT, "tests", "redis-fixture.sh")
GROUPS = 10
CLASSES = 50


# Bulk seeding: the protocol script itself plus one command that runs put
# in a loop inside Redis (20,000 puts per call), so 1M jobs take seconds of
# Lua rather than minutes of client round trips. Jids are sha1 hex (random
# prefixes, as real jids have); every 10th job carries one of 10 tags.
SEED_COMMAND = """
C['bench.seed'] = function(now, args)
  local first, n, queues, classes = tonumber(args[1]), tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  for i = first, first + n - 1 do
    local jid = string.sub(redis.sha1hex('bench' .. i), 1, 32)
    local a = {'', 'q' .. (i % queues), jid, 'K' .. (i % classes), '{}', 0, 'priority', tostring(i % 7)}
    if i % 10 == 0 then a[9], a[10] = 'tags', '["t' .. (math.floor(i / 10) % 10) .. '"]' end
    C.put(now, a)
  end
  return n
end
"""


def seed_script(script):
    entry = "return QlessDispatch(KEYS, ARGV)"
    assert script.count(entry) == 1, "the script's entry line changed"
    return script.replace(entry, SEED_COMMAND + entry)


def seed(r, script, jobs, queues, failed, rng):
    sha = r.script_load(script)
    bulk = r.script_load(seed_script(script))
    now = time.time()
    started = time.time()
    for first in range(0, jobs, 20000):
        r.evalsha(bulk, 0, "bench.seed", now, first, min(20000, jobs - first), queues, CLASSES)
    import hashlib
    jid_sample = [hashlib.sha1(("bench%d" % i).encode()).hexdigest()[:32] for i in range(min(20, jobs))]
    # The failed jobs: put into their own queue, popped by one worker, failed into 10 groups.
    fq = "q%d" % (queues - 1)
    fjids = ["%032x" % rng.getrandbits(128) for _ in range(failed)]
    for k in range(0, failed, 5000):
        p = r.pipeline(transaction=False)
        for jid in fjids[k:k + 5000]:
            p.evalsha(sha, 0, "put", now, "", "failq", jid, "Fails", "{}", 0)
        p.execute()
    popped = 0
    while popped < failed:
        got = r.evalsha(sha, 0, "pop", now, "failq", "bench-w", min(1000, failed - popped))
        popped += min(1000, failed - popped)
    for k in range(0, failed, 5000):
        p = r.pipeline(transaction=False)
        for i, jid in enumerate(fjids[k:k + 5000]):
            p.evalsha(sha, 0, "fail", now, jid, "bench-w", "g%d" % ((k + i) % GROUPS), "boom", "{}")
        p.execute()
    # A few running jobs for the worker pages.
    r.evalsha(sha, 0, "pop", now, fq, "bench-w", 20)
    return jid_sample, time.time() - started


class Web:
    def __init__(self, binary, sock):
        self.proc = subprocess.Popen([binary, "--url", "unix://" + sock, "web", "--listen", "127.0.0.1:0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://([\d.]+):(\d+)", line)
        if not m:
            self.proc.kill()
            raise SystemExit("qless web did not start: %r" % line)
        self.host, self.port = m.group(1), int(m.group(2))

    def get(self, conn, path):
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        t = re.search(r"dur=([\d.]+)", resp.getheader("Server-Timing") or "")
        return resp.status, float(t.group(1)) if t else 0.0, int(resp.getheader("X-Qless-Calls") or 0)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=20)


# Search pages ask for 10 jobs: as many as the small set's narrowest search
# (tag t1, class K3 in q3) has, so both sizes fill the page they measure.
def endpoints(jid):
    return [
        ("session", "/api/session"), ("overview", "/api/overview"), ("queues", "/api/queues"),
        ("queue q0 + stats", "/api/queues/q0"), ("q0 waiting page 1", "/api/queues/q0/jobs?state=waiting"),
        ("q0 waiting page 2", "/api/queues/q0/jobs?state=waiting&offset=25"),
        ("q0 running", "/api/queues/q0/jobs?state=running"), ("job", "/api/jobs/" + jid),
        ("failed groups", "/api/failed"), ("failed g0 page", "/api/failed/g0?limit=50"),
        ("workers", "/api/workers"), ("worker", "/api/workers/bench-w"), ("tracked", "/api/tracked"),
        ("recurring", "/api/recurring"), ("schedules", "/api/schedules"), ("config", "/api/config"),
        ("search class", "/api/search?class=K3&limit=10"), ("search prefix", "/api/search?prefix=" + jid[:1] + "&limit=10"),
        ("search tag", "/api/search?tag=t1&limit=10"), ("search queue+state", "/api/search?queue=q1&state=waiting&limit=10"),
        ("search class+queue", "/api/search?class=K3&queue=q3&limit=10"), ("search jid", "/api/search?jid=" + jid),
        ("metrics", "/metrics"),
    ]


def measure(web, jid, rounds=15):
    conn = http.client.HTTPConnection(web.host, web.port, timeout=60)
    out = {}
    for name, path in endpoints(jid):
        times, calls = [], 0
        for k in range(rounds + 2):
            status, ms, calls = web.get(conn, path)
            if status != 200:
                raise SystemExit("%s -> %d" % (path, status))
            if k >= 2:
                times.append(ms)
        out[name] = (statistics.median(times), calls)
    conn.close()
    return out


def throughput(web, clients, seconds):
    counts = [0] * clients
    stop = time.time() + seconds

    def run(i):
        conn = http.client.HTTPConnection(web.host, web.port, timeout=60)
        while time.time() < stop:
            conn.request("GET", "/api/queues")
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                counts[i] += 1
        conn.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / seconds


def run_size(args, script, jobs, failed, rng):
    state = tempfile.mkdtemp(prefix="qlwebbench-")
    subprocess.run(["bash", FIXTURE, "start", state], check=True, stdout=subprocess.DEVNULL)
    try:
        sock = open(os.path.join(state, "socket")).read().strip()
        r = redis.Redis(unix_socket_path=sock)
        sample, secs = seed(r, script, jobs, args.queues, failed, rng)
        print("seeded %d jobs (%d failed) in %.1f s" % (jobs + failed, failed, secs), file=sys.stderr)
        web = Web(os.path.join(args.build, "cli", "qless"), sock)
        try:
            figures = measure(web, sample[0])
            rps = throughput(web, args.clients, args.seconds) if jobs >= args.jobs else None
        finally:
            web.stop()
        return figures, rps
    finally:
        subprocess.run(["bash", FIXTURE, "stop", state], stdout=subprocess.DEVNULL)
        shutil.rmtree(state, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=1000000)
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--queues", type=int, default=20)
    ap.add_argument("--failed", type=int, default=10000)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=5)
    args = ap.parse_args()
    script = open(os.path.join(args.build, "lua", "qless.lua")).read()
    rng = random.Random(1)
    # The small set still fills every page (50 failed jobs per group), so both sides do the same page's work.
    small, _ = run_size(args, script, args.small, GROUPS * 50, rng)
    large, rps = run_size(args, script, args.jobs, args.failed, rng)
    print("| endpoint | ms (%d jobs) | calls | ms (%d jobs) | calls | time ratio |" % (args.small, args.jobs))
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for name, _ in endpoints("x" * 32):
        (ms_s, c_s), (ms_l, c_l) = small[name], large[name]
        ratio = ms_l / ms_s if ms_s > 0 else float("inf")
        worst = max(worst, ratio)
        print("| %s | %.3f | %d | %.3f | %d | %.2fx |" % (name, ms_s, c_s, ms_l, c_l, ratio))
    print("\nworst ratio %.2fx (target <= 1.5x)" % worst)
    print("/api/queues with %d concurrent clients: %.0f requests/s" % (args.clients, rps))


if __name__ == "__main__":
    main()
