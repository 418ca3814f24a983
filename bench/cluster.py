#!/usr/bin/env python3
"""Redis CPU per job on a Redis Cluster of 1, 2 and 3 primaries against one
server, in one run (bench/README.md, "Cluster").

Each level runs job life cycles (put, pop, complete: one call a round
trip, tests/cluster/cluster_load.c) in one namespace per primary (names
chosen so that each falls on a different primary), one client process per
namespace, one after the other (--parallel: all at once); and the same
clients in the same namespaces on one server, the level's baseline.
Printed per level: jobs, Redis CPU per job summed over every node (INFO cpu,
delta around the rounds), the cluster's ratio to its baseline (target
<= 1.10), and the spread of the calls over the primaries (FCALLs per
primary, INFO commandstats, largest deviation from an even share; target
<= 10 %).

Levels run in rounds, alternating their order, so that the drift of a
shared machine's speed hits every level alike (as bench/run.sh does).

  bench/cluster.py [--build DIR] [--jobs N] [--rounds R] [--parallel]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import redis

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(SRC, "tests", "cluster-fixture.sh")
SINGLE = os.path.join(SRC, "tests", "redis-fixture.sh")


def conn(port):
    return redis.Redis(host="127.0.0.1", port=port, decode_responses=True)


def cpu(ports):
    total = 0.0
    for p in ports:
        info = conn(p).info("cpu")
        total += info["used_cpu_sys"] + info["used_cpu_user"]
    return total


def fcalls(port):
    stats = conn(port).info("commandstats")
    return stats.get("cmdstat_fcall", {}).get("calls", 0)


class Level:
    def __init__(self, name, ports, url, namespaces):
        self.name, self.ports, self.url, self.namespaces = name, ports, url, namespaces
        self.jobs, self.cpu = 0, 0.0
        self.calls = {p: 0 for p in ports}


def one_per_primary(ports):
    """A namespace name for each primary (by its slot's owner)."""
    c = conn(ports[0])
    owners = {}
    for shard in c.execute_command("CLUSTER", "SHARDS"):
        shard = dict(zip(shard[::2], shard[1::2]))
        node = dict(zip(shard["nodes"][0][::2], shard["nodes"][0][1::2]))
        for a, b in zip(shard["slots"][::2], shard["slots"][1::2]):
            owners[(int(a), int(b))] = int(node["port"])
    names, i = {}, 0
    while len(names) < len(ports):
        name = "bench%d" % i
        slot = c.execute_command("CLUSTER", "KEYSLOT", "{%s}" % name)
        port = next(p for (a, b), p in owners.items() if a <= slot <= b)
        names.setdefault(port, name)
        i += 1
    return [names[p] for p in ports]


def run_round(level, load, jobs, parallel):
    per = jobs // len(level.namespaces)
    before = cpu(level.ports)
    calls = {p: fcalls(p) for p in level.ports}
    procs = []
    for ns in level.namespaces:
        procs.append(subprocess.Popen([load, "cycle", "%s%snamespace=%s" % (
            level.url, "&" if "?" in level.url else "/?", ns), "q", str(per)]))
        if not parallel and procs[-1].wait() != 0:
            sys.exit("bench/cluster.py: a client failed (level %s)" % level.name)
    for p in procs:
        if p.wait() != 0:
            sys.exit("bench/cluster.py: a client failed (level %s)" % level.name)
    level.cpu += cpu(level.ports) - before
    level.jobs += per * len(level.namespaces)
    for p in level.ports:
        level.calls[p] += fcalls(p) - calls[p]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--jobs", type=int, default=6000, help="jobs per level (split over the rounds)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--parallel", action="store_true",
                    help="the clients of a level at once (default: one after the other)")
    args = ap.parse_args()
    load = os.path.join(args.build, "tests", "cluster", "qless-cluster-load")
    if not os.access(load, os.X_OK):
        sys.exit("bench/cluster.py: %s is missing: build first (bash scripts/build.sh)" % load)
    tmp = tempfile.mkdtemp(prefix="qless-bench-cluster-")
    started = []
    try:
        single_dir = os.path.join(tmp, "single")
        subprocess.run(["bash", SINGLE, "start", single_dir], check=True, stdout=subprocess.DEVNULL)
        started.append((SINGLE, single_dir))
        with open(os.path.join(single_dir, "port")) as f:
            sport = int(f.read())
        levels = []
        for k in (1, 2, 3):
            d = os.path.join(tmp, "c%d" % k)
            # Redis' default node timeout: the tests' 1 s makes the nodes
            # ping each other more often than a production cluster does.
            subprocess.run(["bash", FIXTURE, "start", d, str(k), "0"], check=True, stdout=subprocess.DEVNULL,
                           env=dict(os.environ, QLESS_CLUSTER_NODE_TIMEOUT="15000"))
            started.append((FIXTURE, d))
            with open(os.path.join(d, "nodes")) as f:
                ports = [int(line.split()[0]) for line in f if line.strip()]
            with open(os.path.join(d, "url")) as f:
                url = f.read().strip()
            names = one_per_primary(ports)
            # The same clients and namespaces on one server: the baseline of this level.
            levels.append(Level("one server, %d namespace%s" % (k, "" if k == 1 else "s"), [sport],
                                "redis://127.0.0.1:%d" % sport, names))
            levels.append(Level("%d primar%s" % (k, "y" if k == 1 else "ies"), ports, url, names))
        per_round = max(args.jobs // args.rounds, 60)
        for r in range(args.rounds):
            order = levels if r % 2 == 0 else list(reversed(levels))
            for level in order:
                run_round(level, load, per_round - per_round % len(level.namespaces), args.parallel)
            print("round %d/%d done" % (r + 1, args.rounds), file=sys.stderr)
        print("| level | namespaces | jobs | Redis us/job (all nodes) | x one server | FCALLs per primary | spread |")
        print("|---|---|---|---|---|---|---|")
        worst_ratio = worst_spread = 0.0
        for i, level in enumerate(levels):
            per_job = level.cpu / level.jobs
            if i % 2 == 0:
                base = per_job
            ratio = per_job / base
            total = sum(level.calls.values())
            shares = [level.calls[p] / total if total else 0 for p in level.ports]
            even = 1.0 / len(level.ports)
            spread = max(abs(s - even) / even for s in shares)
            if i % 2 == 1:
                worst_ratio = max(worst_ratio, ratio)
                worst_spread = max(worst_spread, spread)
            print("| %s | %s | %d | %.1f | %.3f | %s | %.1f %% |" % (
                level.name, " ".join(level.namespaces), level.jobs, per_job * 1e6, ratio,
                " / ".join(str(level.calls[p]) for p in level.ports), spread * 100))
        print()
        print("target: Redis CPU per job on the cluster within 10 %% of one server's: worst %.3f x -> %s" % (
            worst_ratio, "met" if worst_ratio <= 1.10 else "NOT met"))
        print("target: calls spread within 10 %% of even over the primaries: worst %.1f %% -> %s" % (
            worst_spread * 100, "met" if worst_spread <= 0.10 else "NOT met"))
    finally:
        for script, d in reversed(started):
            subprocess.run(["bash", script, "stop", d], stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
