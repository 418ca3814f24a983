"""What the worker conformance suite (test_conformance.py) and the fault
soak (soak.py) share: how each language's worker program is launched, the
processes the harness starts and stops by pid, a redis-server of its own
with an append-only file, the protocol spoken by raw redis-py (Ql), the Noop
jobs' log and the Harness a scenario works with.

Environment (set by tests/worker/CMakeLists.txt for ctest, by soak.py from
the build tree):
  QLESS_LUA_SCRIPT    build/lua/qless.lua
  QLESS_SOURCE_DIR    the repository (job classes, language layers)
  QLESS_CWORKER       build/tests/worker/qless-cworker
  QLESS_PYTHON, QLESS_PYTHONPATH            python3 and the built package
  QLESS_RUBY, QLESS_RUBY_EXT                ruby and the built extension
  QLESS_LUA_CPATH_DIR                       the built qless_core.so
  QLESS_PHP, QLESS_PHP_EXT                  php and the built qless.so
"""
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import redis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from cluster_shards import primary_port  # noqa: E402
from noop_log import overlaps, read_log  # noqa: E402,F401 (the suites import them from here)

LANGS = ["c", "python", "ruby", "lua", "php"]
SRC = os.environ.get("QLESS_SOURCE_DIR") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
JOBS = os.path.join(SRC, "tests", "worker", "jobs")

KLASS = {
    "c": {"Noop": "Noop", "Boom": "Boom", "Flaky": "Flaky", "Tree": "Tree"},
    "python": {"Noop": "conformance_jobs.Noop", "Boom": "conformance_jobs.Boom",
               "Flaky": "conformance_jobs.Flaky", "Tree": "conformance_jobs.Tree"},
    "ruby": {"Noop": "ConformanceJobs::Noop", "Boom": "ConformanceJobs::Boom",
             "Flaky": "ConformanceJobs::Flaky", "Tree": "ConformanceJobs::Tree"},
    "lua": {"Noop": "conformance_jobs.noop", "Boom": "conformance_jobs.boom",
            "Flaky": "conformance_jobs.flaky", "Tree": "conformance_jobs.tree"},
    "php": {"Noop": "ConformanceJobs\\Noop", "Boom": "ConformanceJobs\\Boom",
            "Flaky": "ConformanceJobs\\Flaky", "Tree": "ConformanceJobs\\Tree"},
}
# Runtimes that must not be entered from a foreign C thread: their worker
# refuses --pool threads (usage error, exit status 2).
SINGLE_THREADED = {"ruby", "lua", "php"}

# Interval (s) at which the harness samples the database.
POLL = 0.02


class Missing(RuntimeError):
    """A variable of the environment above is not set."""


def need(name):
    value = os.environ.get(name)
    if not value:
        raise Missing("%s is not set: run the suite through ctest (ctest -R worker.<lang>), "
                      "or tests/worker/soak.py --build DIR" % name)
    return value


# The allow-list each language's worker gets: the conformance job classes.
# C's worker has a fixed table of classes and needs none.
ALLOW = {"c": [], "python": ["conformance_jobs.*"], "ruby": ["ConformanceJobs::*"],
         "lua": ["conformance_jobs.*"], "php": ["ConformanceJobs\\*"]}


def launch(lang):
    """argv prefix and extra environment of lang's worker program."""
    allow = [arg for pattern in ALLOW[lang] for arg in ("--allow", pattern)]
    if lang == "c":
        return [need("QLESS_CWORKER")], {}
    if lang == "python":
        path = os.pathsep.join([need("QLESS_PYTHONPATH"), os.path.join(JOBS, "python")])
        return [need("QLESS_PYTHON"), "-m", "qless.worker", *allow], {"PYTHONPATH": path}
    if lang == "ruby":
        return [need("QLESS_RUBY"), "-I", need("QLESS_RUBY_EXT"), "-I", os.path.join(SRC, "bindings/ruby/lib"),
                os.path.join(SRC, "bindings/ruby/bin/qless-worker"),
                "--require", os.path.join(JOBS, "ruby/conformance_jobs.rb"), *allow], {}
    if lang == "php":
        # -n: no php.ini, so the run does not depend on the machine's settings.
        return [need("QLESS_PHP"), "-n", "-d", "extension=" + need("QLESS_PHP_EXT"),
                os.path.join(SRC, "bindings/php/qless-worker"),
                "--require", os.path.join(JOBS, "php/conformance_jobs.php"), *allow], {}
    lua_src = os.path.join(SRC, "bindings/lua")
    lua_jobs = os.path.join(JOBS, "lua")
    return ["lua5.4", os.path.join(lua_src, "qless-worker"), *allow], {
        "LUA_CPATH": need("QLESS_LUA_CPATH_DIR") + "/?.so;;",
        "LUA_PATH": ";".join([lua_src + "/?.lua", lua_src + "/?/init.lua",
                              lua_jobs + "/?.lua", lua_jobs + "/?/init.lua", ""]) + ";"}


# --- processes ----------------------------------------------------------------

def proc_stat(pid):
    """(ppid, start time in clock ticks) of a live process, else None."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()   # after "pid (comm)", which may hold spaces
    if fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[19])


class Worker:
    """One worker program started by the harness; its output goes to a file."""

    def __init__(self, argv, env, name, out_path):
        self.name = name
        self.argv = argv
        self.out_path = out_path
        self._seen = {}   # child pid -> start time: what teardown may kill
        with open(out_path, "wb") as out:
            self.proc = subprocess.Popen(argv, env=env, cwd=SRC, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def children(self):
        """Pids of the live children (a process pool's workers)."""
        kids = set()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                st = proc_stat(int(entry))
                if st and st[0] == self.pid:
                    kids.add(int(entry))
                    self._seen[int(entry)] = st[1]
        return kids

    def pool(self, size, besides=()):
        """A predicate for wait_for: the set of children once there are
        `size` of them and at least one is not in `besides`."""
        def check():
            kids = self.children()
            return kids if len(kids) == size and (not besides or kids - set(besides)) else None
        return check

    def signal(self, sig):
        assert self.alive(), "%s exited already:\n%s" % (self.name, self.output())
        os.kill(self.pid, sig)

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout=15):
        """Graceful stop (SIGTERM); returns the exit status."""
        self.signal(signal.SIGTERM)
        rc = self.wait(timeout)
        assert rc is not None, "%s did not exit within %ss of SIGTERM:\n%s" % (self.name, timeout, self.output())
        return rc

    def output(self, tail=4000):
        try:
            with open(self.out_path, errors="replace") as f:
                return f.read()[-tail:]
        except OSError:
            return ""

    def teardown(self):
        """Ends this process and its children, by pid, whatever state they are in."""
        if self.alive():
            self.children()
            os.kill(self.pid, signal.SIGTERM)
            if self.wait(5) is None:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait()
        for pid, started in self._seen.items():
            st = proc_stat(pid)
            if st and st[1] == started:   # the same process, not a reused pid
                os.kill(pid, signal.SIGKILL)


class Redis:
    """A redis-server of the harness's own (append-only, unix socket in a
    temporary directory), restartable from its append-only file on the same
    socket. appendfsync: "always" (every acknowledged write is on disk, so a
    SIGKILL loses nothing) or "everysec" (up to about a second of writes may
    be lost)."""

    def __init__(self, appendfsync="always"):
        self.dir = tempfile.mkdtemp(prefix="qless-conf-", dir="/tmp")   # short: socket paths <= 107 bytes
        self.socket = os.path.join(self.dir, "redis.sock")
        self.appendfsync = appendfsync
        self.proc = None

    def start(self, *extra, timeout=10):
        """Starts it (loading the append-only file, if any) and waits up to
        timeout seconds until it answers. extra: more redis-server flags."""
        self.proc = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", self.socket, "--unixsocketperm", "700",
             "--dir", self.dir, "--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "",
             "--logfile", os.path.join(self.dir, "redis.log"), *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        conn = redis.Redis(unix_socket_path=self.socket, decode_responses=True)
        deadline = time.time() + timeout
        try:
            while True:
                try:
                    if conn.ping():
                        return
                except (redis.ConnectionError, redis.BusyLoadingError):
                    pass
                assert self.proc.poll() is None and time.time() < deadline, \
                    "own redis-server did not start:\n" + self.log()
                time.sleep(0.02)
        finally:
            conn.close()

    def kill(self):
        self.proc.kill()   # SIGKILL: no shutdown, no final write
        self.proc.wait()

    def log(self):
        try:
            with open(os.path.join(self.dir, "redis.log")) as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def teardown(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


# --- the protocol, spoken by the harness -----------------------------------------

class Ql:
    """The protocol script by EVALSHA, with `now` = the wall clock; in
    `namespace` (keys {NAME}:ql:...) when given."""

    def __init__(self, conn, namespace=None):
        with open(need("QLESS_LUA_SCRIPT")) as f:
            self.source = f.read()
        self.r = conn
        self.keys = [0] if namespace is None else [1, "{%s}:ql:" % namespace]
        self.sha = conn.script_load(self.source)

    def __call__(self, command, *args):
        try:
            return self.r.evalsha(self.sha, *self.keys, command, repr(time.time()), *args)
        except redis.exceptions.NoScriptError:   # a restarted server has no script cache
            self.sha = self.r.script_load(self.source)
            return self.r.evalsha(self.sha, *self.keys, command, repr(time.time()), *args)

    def put(self, queue, klass, data=None, retries=None):
        jid = uuid.uuid4().hex
        extra = ["retries", retries] if retries is not None else []
        assert self("put", "harness", queue, jid, klass, json.dumps(data or {}), 0, *extra) == jid
        return jid

    def job(self, jid):
        reply = self("get", jid)
        return None if reply is None else json.loads(reply)

    def config(self, key, value):
        self("config.set", key, value)


def whats(job):
    return [h["what"] for h in job["history"]]


def popped_by(job):
    return [h["worker"] for h in job["history"] if h["what"] == "popped"]


def max_concurrency(entries):
    """Most jobs running at one moment, from the Noop log."""
    running = top = 0
    for _, kind in sorted((when, 0 if what == "end" else 1) for what, _, when, _ in entries):
        running += 1 if kind else -1
        top = max(top, running)
    return top


def cluster_target(state, ns):
    """(connection to the primary serving namespace ns, the worker's URL) on
    the cluster of tests/cluster-fixture.sh whose state directory is state."""
    with open(os.path.join(state, "url")) as f:
        url = f.read().strip()
    with open(os.path.join(state, "nodes")) as f:
        ports = [int(line.split()[0]) for line in f if line.strip()]
    for port in ports:
        try:
            c = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)
            primary = primary_port(c, c.execute_command("CLUSTER", "KEYSLOT", "{%s}" % ns))
            if primary is not None:
                return (redis.Redis(host="127.0.0.1", port=primary, decode_responses=True),
                        "%s/?namespace=%s" % (url, ns))
        except redis.RedisError:
            continue
    raise AssertionError("no primary of the cluster at %s serves namespace %s" % (url, ns))


@contextlib.contextmanager
def harness_on(lang, socket, tmp, heartbeat, cluster=None):
    """A Harness on the private redis-server at unix socket `socket`, flushed,
    with `heartbeat` seconds of lock and no grace period, so a job whose
    worker vanished is handed out again within seconds; its workers and
    servers are stopped by pid afterwards. cluster: (state directory,
    namespace): instead, that namespace on the fixture cluster (its
    primary flushed), the workers given a redis+cluster:// URL."""
    if cluster is None:
        conn, url, ns = redis.Redis(unix_socket_path=socket, decode_responses=True), "unix://" + socket, None
    else:
        (conn, url), ns = cluster_target(*cluster), cluster[1]
    conn.flushall()
    harness = Harness(lang, conn, url, tmp, ns)
    harness.cluster = cluster and cluster[0]
    if cluster:
        harness.base_url = url.split("/?namespace=")[0]
    harness.ql.config("heartbeat", heartbeat)
    harness.ql.config("grace-period", 0)
    try:
        yield harness
    finally:
        for worker in harness.workers:
            worker.teardown()
        for server in harness.servers:
            server.teardown()
        conn.close()


class Harness:
    """What one test works with: the protocol (ql), raw redis (r), the job
    classes of the language under test and the workers it starts."""

    def __init__(self, lang, conn, url, tmp, ns=None):
        self.lang = lang
        self.r = conn
        self.prefix = "ql:" if ns is None else "{%s}:ql:" % ns
        self.ql = Ql(conn, ns)
        self.cluster = None   # the cluster's state directory, on a cluster
        self.base_url = url   # url without a namespace (set on a cluster)
        self.url = url
        self.tmp = tmp
        self.workers = []
        self.log = str(tmp / "jobs.log")
        self.servers = []

    def own_redis(self):
        """A redis-server of this test's own, stopped after its workers."""
        server = Redis()
        self.servers.append(server)
        return server

    def ql_in(self, namespace):
        """The protocol in another namespace: on this server, or on a
        cluster on the primary serving it."""
        conn = self.r if self.cluster is None else cluster_target(self.cluster, namespace)[0]
        return Ql(conn, namespace)

    def k(self, key):
        """The key `ql:<rest>` as stored: `{NAME}:ql:<rest>` in a namespace."""
        assert key.startswith("ql:")
        return self.prefix + key[3:]

    def klass(self, name):
        return KLASS[self.lang][name]

    def put(self, queue, name, data=None, retries=None):
        return self.ql.put(queue, self.klass(name), data, retries)

    def noop(self, queue, sleep=None, log=True, **kw):
        data = {}
        if log:
            data["log"] = self.log
        if sleep is not None:
            data["sleep"] = sleep
        return self.put(queue, "Noop", data, **kw)

    def states(self, jids, r=None):
        """The jobs' states, on this harness's server, or on r (a server of
        a scenario's own, without a namespace)."""
        pipe = (r or self.r).pipeline(transaction=False)
        for jid in jids:
            pipe.hget(("ql:j:" + jid) if r is not None else self.k("ql:j:" + jid), "state")
        return pipe.execute()

    def start(self, *flags, name, url=None, env=None):
        """Starts lang's worker with flags; env: more environment variables."""
        argv, extra = launch(self.lang)
        argv = argv + ["--url", url or self.url, "--name", name, "--interval", "0.1", *flags]
        given = env or {}
        env = {k: v for k, v in os.environ.items() if k not in ("QLESS_URL", "QLESS_WORKER_ALLOW")}
        env.update(extra, **given)
        worker = Worker(argv, env, name, str(self.tmp / (name + ".out")))
        self.workers.append(worker)
        return worker

    def diagnostics(self):
        return "".join("\n--- %s (pid %d, %s): %s\n%s" % (
            w.name, w.pid, "running" if w.alive() else "exit %s" % w.proc.returncode,
            " ".join(w.argv), w.output()) for w in self.workers)

    def wait_for(self, what, predicate, timeout, alive=()):
        """Polls predicate() until it returns a true value (returned); fails
        after timeout seconds, or at once when a worker in `alive` exits."""
        deadline = time.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            for w in alive:
                assert w.alive(), "%s exited (%s) while waiting for: %s%s" % (
                    w.name, w.proc.returncode, what, self.diagnostics())
            assert time.time() < deadline, "timed out after %ss waiting for: %s%s" % (
                timeout, what, self.diagnostics())
            time.sleep(POLL)

    def all_complete(self, jids, r=None):
        return lambda: all(s == "complete" for s in self.states(jids, r))

    def started(self, jid):
        """The pid that logged the start of jid, once it has."""
        def check():
            for what, j, _, pid in read_log(self.log):
                if what == "start" and j == jid:
                    return pid
            return None
        return check
