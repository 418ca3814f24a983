#!/usr/bin/env python3
"""The cluster's moving parts while workers run, on the fixture cluster
(tests/cluster-fixture.sh; its state directory in $QLESS_CLUSTER_STATE).

  churn.py migrate            moves the namespace's slot to another primary
                              by hand (SETSLOT IMPORTING/MIGRATING, MIGRATE,
                              SETSLOT NODE) while two C workers run its jobs
  churn.py failover [--wait-replicas N]
                              kill -9 of the primary serving the namespace
                              mid-run; its replica is promoted (cluster-node-
                              timeout 1000 ms) and the workers carry on; the
                              killed node is started again once its replica
                              took over, and rejoins as the new primary's
                              replica

Every job is a Noop that logs its start and end (tests/worker/cworker.c).
Printed: jobs, kills, complete / failed / lost / run twice at once / run
again. Asserted: every job that exists ends complete or failed; with
wait_replicas (and for a migration, which loses nothing) no job is lost and
none ran twice at once. Without wait_replicas a failover can lose the
writes the primary acknowledged but had not yet sent to its replica (Redis
replicates asynchronously): a put (the job is lost), a pop (another worker
runs the job too, at the same time), a completion (the job runs again):
that is reported, not asserted.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid

import redis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from cluster_shards import primary_port  # noqa: E402
from noop_log import overlaps, read_log  # noqa: E402

STATE = os.environ.get("QLESS_CLUSTER_STATE")
FIXTURE = os.environ.get("QLESS_CLUSTER_FIXTURE")
CWORKER = os.environ.get("QLESS_CWORKER")
LOAD = os.environ.get("QLESS_CLUSTER_LOAD")


def nodes():
    with open(os.path.join(STATE, "nodes")) as f:
        return [int(line.split()[0]) for line in f if line.strip()]


def base_url():
    with open(os.path.join(STATE, "url")) as f:
        return f.read().strip()


def conn(port):
    return redis.Redis(host="127.0.0.1", port=port, decode_responses=True, socket_timeout=5)


def owner(slot):
    """Port of the primary serving slot, asked of any live node."""
    for port in nodes():
        try:
            primary = primary_port(conn(port), slot)
            if primary is not None:
                return primary
        except redis.RedisError:
            continue
    return None


def primaries():
    ports = set()
    for port in nodes():
        try:
            for shard in conn(port).execute_command("CLUSTER", "SHARDS"):
                shard = dict(zip(shard[::2], shard[1::2]))
                if not shard["slots"]:
                    continue
                for node in shard["nodes"]:
                    node = dict(zip(node[::2], node[1::2]))
                    if node["role"] == "master" and node["health"] == "online":
                        ports.add(int(node["port"]))
            return ports
        except redis.RedisError:
            continue
    return ports


def wait_cluster_ok(timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if all("cluster_state:ok" in conn(p).execute_command("CLUSTER", "INFO") for p in nodes()):
                return
        except redis.RedisError:
            pass
        time.sleep(0.2)
    raise AssertionError("the cluster did not come back to cluster_state:ok")


def wait_replicas_online(timeout=30):
    """Until every primary has a replica online (a node restarted by the
    previous test may still be taking its full copy)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            # redis-py parses "slave0:ip=...,state=online,..." into a dict.
            ok = all(isinstance(conn(p).info("replication").get("slave0"), dict) and
                     conn(p).info("replication")["slave0"].get("state") == "online" for p in primaries())
            if ok and primaries():
                return
        except redis.RedisError:
            pass
        time.sleep(0.2)
    raise AssertionError("not every primary has a replica online")


def load(*args, stdin=None):
    out = subprocess.run([LOAD, *args], input=stdin, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, "cluster-load %s failed:\n%s" % (args[0], out.stderr)
    return out.stdout


def census(url, jids):
    states = {}
    for line in load("states", url, stdin="\n".join(jids) + "\n").splitlines():
        jid, state = line.split()
        states[jid] = state
    return states


def migrate_slot(slot, src, dst):
    """Moves slot from primary src to dst as docs/cluster.md says: on the
    source, in one MULTI/EXEC, the slot turns MIGRATING, every key moves in
    one MIGRATE and the slot is given to dst; then dst and the other
    primaries learn it. No call runs while part of the namespace is on
    each node (a call reaching a node that lacks some of its keys could
    fail half-way): until dst has the slot, calls bounce between MOVED
    redirects, which the client follows. Keys written between the listing
    and the EXEC (the give fails then: the source still holds keys) follow
    in a second round (returned: how many)."""
    s, d = conn(src), conn(dst)
    src_id, dst_id = s.execute_command("CLUSTER", "MYID"), d.execute_command("CLUSTER", "MYID")
    d.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", src_id)
    keys = s.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 1000000)
    pipe = s.pipeline(transaction=True)
    pipe.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", dst_id)
    if keys:
        pipe.execute_command("MIGRATE", "127.0.0.1", dst, "", 0, 5000, "KEYS", *keys)
    pipe.execute_command("CLUSTER", "SETSLOT", slot, "NODE", dst_id)
    given = not isinstance(pipe.execute(raise_on_error=False)[-1], Exception)
    moved, late = len(keys), 0
    while not given:
        keys = s.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 1000000)
        if not keys:
            break
        s.execute_command("MIGRATE", "127.0.0.1", dst, "", 0, 5000, "KEYS", *keys)
        late += len(keys)
    for port in [dst] + ([] if given else [src]) + [p for p in primaries() if p not in (src, dst)]:
        conn(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", dst_id)
    return moved, late


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["migrate", "failover"])
    ap.add_argument("--wait-replicas", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=400)
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    for name, value in (("QLESS_CLUSTER_STATE", STATE), ("QLESS_CLUSTER_FIXTURE", FIXTURE),
                        ("QLESS_CWORKER", CWORKER), ("QLESS_CLUSTER_LOAD", LOAD)):
        assert value, "%s is not set: run through ctest (ctest -R cluster.)" % name

    wait_cluster_ok()
    if args.mode == "failover":
        wait_replicas_online()
    ns = "churn-%s-%s" % (args.mode, uuid.uuid4().hex[:8])
    url = "%s/?namespace=%s" % (base_url(), ns)
    if args.wait_replicas:
        url += "&wait_replicas=%d&wait_timeout_ms=2000" % args.wait_replicas
    slot = conn(nodes()[0]).execute_command("CLUSTER", "KEYSLOT", "{%s}" % ns)
    tmp = tempfile.mkdtemp(prefix="qless-churn-")
    log = os.path.join(tmp, "jobs.log")
    # A job whose worker vanished is handed out again within seconds.
    load("config", url, "heartbeat", "3")
    load("config", url, "grace-period", "0")
    jids = load("put", url, "q", str(args.jobs), '{"log": "%s", "sleep": 0.02}' % log).split()
    assert len(jids) == args.jobs

    workers = []
    for i in range(2):
        out = open(os.path.join(tmp, "w%d.out" % i), "wb")
        workers.append(subprocess.Popen(
            [CWORKER, "--url", url, "--name", "%s-w%d" % (ns, i), "--queue", "q", "--interval", "0.05",
             "--reconnect-max", "0.5"], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT))
    kills = 0
    killed = None
    try:
        deadline = time.time() + args.timeout
        while sum(1 for e in read_log(log) if e[0] == "end") < args.jobs // 3:
            assert time.time() < deadline, "the workers did not start running jobs"
            assert all(w.poll() is None for w in workers), "a worker exited early"
            time.sleep(0.05)
        src = owner(slot)
        if args.mode == "migrate":
            dst = next(p for p in sorted(primaries()) if p != src)
            moved, late = migrate_slot(slot, src, dst)
            print("migrated slot %d (%d keys, %d in a second round) from :%d to :%d mid-run" % (
                slot, moved, late, src, dst))
        else:
            subprocess.run(["bash", FIXTURE, "kill9", STATE, str(src)], check=True)
            killed, kills = src, 1
            t0 = time.time()
            while owner(slot) in (None, src):
                assert time.time() - t0 < 30, "no replica was promoted"
                time.sleep(0.1)
            print("killed primary :%d mid-run; :%d serves slot %d after %.1fs" % (
                src, owner(slot), slot, time.time() - t0))
            # As an operator would: the node comes back, as the new
            # primary's replica (until then wait_replicas=1 cannot be met).
            subprocess.run(["bash", FIXTURE, "restart", STATE, str(killed)], check=True)
            killed = None
        while True:
            states = census(url, jids)
            if all(s in ("complete", "failed", "missing") for s in states.values()):
                break
            if time.time() > deadline:
                break
            time.sleep(0.5)
    finally:
        for w in workers:
            if w.poll() is None:
                w.terminate()
        for w in workers:
            try:
                w.wait(15)
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait()
        if killed is not None:
            subprocess.run(["bash", FIXTURE, "restart", STATE, str(killed)], check=True)
            wait_cluster_ok()

    entries = read_log(log)
    starts = {}
    for what, jid, _, _ in entries:
        if what == "start":
            starts[jid] = starts.get(jid, 0) + 1
    twice = overlaps(entries)
    count = {k: sum(1 for s in states.values() if s == k) for k in ("complete", "failed", "missing")}
    stuck = {j: s for j, s in states.items() if s not in ("complete", "failed", "missing")}
    again = sum(1 for j in jids if starts.get(j, 0) > 1)
    print("%s (wait_replicas=%d): jobs %d, kills %d: complete %d, failed %d, lost %d, "
          "run twice at once %d, run again %d, unfinished %d" % (
              args.mode, args.wait_replicas, len(jids), kills, count["complete"], count["failed"],
              count["missing"], len(twice), again, len(stuck)))
    problems = []
    if stuck:
        problems.append("jobs never finished: %s" % sorted(stuck.items())[:5])
    if twice and (args.mode == "migrate" or args.wait_replicas):
        problems.append("jobs ran twice at once: %s" % sorted(twice)[:5])
    if (args.mode == "migrate" or args.wait_replicas) and count["missing"]:
        problems.append("%d jobs lost" % count["missing"])
    if args.mode == "migrate" and again:
        problems.append("%d jobs ran again (a call failed during the migration)" % again)
    if args.mode == "migrate" and count["complete"] != len(jids):
        problems.append("only %d of %d jobs complete" % (count["complete"], len(jids)))
    if problems:
        for i in range(len(workers)):
            with open(os.path.join(tmp, "w%d.out" % i), errors="replace") as f:
                print("--- worker %d:\n%s" % (i, f.read()[-3000:]))
        print("FAIL: " + "; ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
