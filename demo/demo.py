"""The libqless demo, run by README command 1 (scripts/main.sh) after the build:

    /usr/bin/python3 -P demo/demo.py BUILD_DIR [STATE_DIR]

It starts the embedded server in its own state directory (STATE_DIR, default
BUILD_DIR/demo-server, wiped first so every run starts clean), puts jobs from
the `qless` CLI and from Python, Ruby and Lua, has them processed by the Python,
Ruby and Lua workers, shows priorities, a delay, a dependency chain, a recurring
job, a failed job that is retried and a lost lock that another worker recovers,
and a schedule (demo/schedule.py) whose due entries a `qless schedule listen`
pool runs, with a live progress line, then prints a summary. Exit status 0
only if every job reached the state it should; the server and every worker it
started are stopped on any exit (also on error or Ctrl-C). Worker logs go to
STATE_DIR-logs.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JOBS = os.path.join(ROOT, "demo", "jobs")
LANGS = ("python", "ruby", "lua")
ORIGINS = ("cli",) + LANGS
KLASS = {"python": "demo_jobs.Work", "ruby": "Demo::Work", "lua": "demo_work"}
SLEEP = 1.0           # seconds a job works: enough for jobs to queue up behind it
RECUR_INSTANCES = 4   # the recurring job is stopped once this many were spawned
DEADLINE = 45         # seconds the jobs get to finish once the workers started


class DemoError(Exception):
    pass


def plan():
    """The jobs to put, in put order, grouped by who puts them. Readable jids
    (the demo's server state is fresh) so that dependencies can name them."""
    specs = []

    def job(origin, jid, queue, lang, data=None, **options):
        data = dict({"origin": origin, "sleep": SLEEP}, **(data or {}))
        specs.append(dict(jid=jid, queue=queue, klass=KLASS[lang], data=data, tags=["from-" + origin], **options))

    # Each worker queue gets one job from each origin; priorities are rotated
    # so that no queue runs them in put order (cli, python, ruby, lua).
    for k, lang in enumerate(LANGS):
        for i, origin in enumerate(ORIGINS):
            job(origin, "prio-%s-%s" % (lang, origin), "demo-" + lang, lang, priority=(10, 5, 0, 20)[(i + k) % 4])
    job("cli", "chain-a", "demo-python", "python")
    job("ruby", "chain-b", "demo-ruby", "ruby", depends=["chain-a"])
    job("lua", "chain-c", "demo-lua", "lua", depends=["chain-b"])
    job("cli", "delayed", "demo-lua", "lua", delay=3)
    job("ruby", "flaky", "demo-python", "python", data={"fail_once": True})
    job("python", "recurring", "demo-ruby", "ruby", recur=1, data={"sleep": 0.3})
    job("python", "rescue", "demo-rescue", "python", data={"stall_once": True, "sleep": 0})
    return specs


class Demo:
    def __init__(self, build, home):
        self.build = build
        self.cli = os.path.join(build, "cli", "qless")
        self.home = home
        self.logs = home + "-logs"
        # Every program, this one included, finds the server through
        # QLESS_HOME: no URL anywhere (and a user's QLESS_URL is not touched).
        os.environ.pop("QLESS_URL", None)
        os.environ["QLESS_HOME"] = self.home
        self.env = dict(os.environ)
        self.workers = {}     # name -> Popen, all stopped by pid on exit
        self.server_up = False
        self.tty = sys.stdout.isatty()
        self.line = ""        # the progress line currently on screen (TTY)
        self.started = time.monotonic()

    # ---- output ---------------------------------------------------------
    def say(self, text=""):
        if self.line:
            sys.stdout.write("\r\033[K")
        print(text)
        if self.line:
            sys.stdout.write(self.line)
        sys.stdout.flush()

    def event(self, text):
        self.say("  [%5.1fs] %s" % (time.monotonic() - self.started, text))

    def progress(self, counts):
        text = "  [%5.1fs] %s" % (time.monotonic() - self.started,
                                   "  ".join("%s %d" % kv for kv in counts.items()))
        if self.tty:
            self.line = text
            sys.stdout.write("\r\033[K" + text)
            sys.stdout.flush()
        else:
            print(text, flush=True)

    def end_progress(self):
        if self.line:
            sys.stdout.write("\r\033[K")
            self.line = ""

    # ---- processes --------------------------------------------------------
    def lang_env(self, lang):
        env = dict(self.env)
        if lang == "python":
            env["PYTHONPATH"] = os.pathsep.join([os.path.join(self.build, "bindings", "python"), JOBS])
        elif lang == "lua":
            env["LUA_CPATH"] = os.path.join(self.build, "bindings", "lua", "?.so") + ";;"
            src = os.path.join(ROOT, "bindings", "lua")
            env["LUA_PATH"] = ";".join([src + "/?.lua", src + "/?/init.lua", JOBS + "/?.lua", ";"])
        return env

    def ruby(self):
        return ["ruby", "-I", os.path.join(ROOT, "bindings", "ruby", "lib"),
                "-I", os.path.join(self.build, "bindings", "ruby", "ext")]

    def run(self, argv, lang="cli"):
        proc = subprocess.run(argv, env=self.lang_env(lang), capture_output=True, text=True, timeout=30)
        if proc.returncode != 0:
            raise DemoError("%s exited with %d:\n%s%s" % (" ".join(argv[:3]), proc.returncode,
                                                          proc.stdout, proc.stderr))
        return proc.stdout

    def start_worker(self, lang, name, queue, allow=None, jobs="demo_jobs"):
        argv = {"python": [sys.executable, "-P", "-m", "qless.worker"],
                "ruby": self.ruby() + [os.path.join(ROOT, "bindings", "ruby", "bin", "qless-worker"),
                                       "--require", os.path.join(JOBS, jobs + ".rb")],
                "lua": ["lua5.4", os.path.join(ROOT, "bindings", "lua", "qless-worker")]}[lang]
        # Each worker may run its language's demo job class (or the classes
        # given) and nothing else.
        argv += ["--queue", queue, "--name", name, "--interval", "0.2"]
        argv += [arg for klass in allow or [KLASS[lang]] for arg in ("--allow", klass)]
        with open(os.path.join(self.logs, name + ".log"), "w") as log:
            # Own session: Ctrl-C reaches only the demo, which stops them in order.
            self.workers[name] = subprocess.Popen(argv, env=self.lang_env(lang), stdout=log,
                                                  stderr=subprocess.STDOUT, start_new_session=True)

    def stop_workers(self):
        for proc in self.workers.values():
            if proc.poll() is None:
                proc.terminate()   # finish the current job, then exit
        for name, proc in self.workers.items():
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.workers = {}

    # ---- server -----------------------------------------------------------
    def start_server(self):
        if not os.access(self.cli, os.X_OK):
            raise DemoError("%s is missing: build it with scripts/build.sh" % self.cli)
        self.run([self.cli, "server", "stop"])   # a server left by an interrupted run
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.logs, ignore_errors=True)
        os.makedirs(self.logs)
        out = self.run([self.cli, "server", "start"])
        self.server_up = True
        return out.strip()

    def stop_server(self):
        if self.server_up:
            subprocess.run([self.cli, "server", "stop"], env=self.env, capture_output=True, timeout=30)
            self.server_up = False

    # ---- putting jobs -----------------------------------------------------
    def put(self, origin, specs):
        if origin == "cli":
            for s in specs:
                argv = ["put", s["queue"], s["klass"], json.dumps(s["data"]),
                        "--jid", s["jid"], "--tags", ",".join(s["tags"])]
                if "priority" in s:
                    argv += ["--priority", str(s["priority"])]
                if "delay" in s:
                    argv += ["--delay", "%ds" % s["delay"]]
                print("     $ qless " + " ".join("'%s'" % a if "{" in a else a for a in argv))
                self.run([self.cli] + argv)
        elif origin == "python":
            for s in specs:
                queue = self.client.queues[s["queue"]]
                if "recur" in s:
                    queue.recur(s["klass"], s["data"], interval=s["recur"], tags=s["tags"], jid=s["jid"])
                else:
                    queue.put(s["klass"], s["data"], priority=s.get("priority"), tags=s["tags"],
                              delay=s.get("delay", 0), depends=s.get("depends"), jid=s["jid"])
        elif origin == "ruby":
            self.run(self.ruby() + [os.path.join(ROOT, "demo", "put.rb"), json.dumps(specs)], "ruby")
        else:
            self.run(["lua5.4", os.path.join(ROOT, "demo", "put.lua"), json.dumps(specs)], "lua")

    # ---- the run ----------------------------------------------------------
    def watch(self, specs):
        """Polls the jobs until all are complete, drawing the progress line and
        playing the two interventions: SIGKILL the worker holding "rescue",
        and retry "flaky" once it failed. Stops the recurring job after
        RECUR_INSTANCES instances."""
        jids = [s["jid"] for s in specs if "recur" not in s]
        story = ("chain-a", "chain-b", "chain-c", "delayed", "flaky", "rescue")
        seen, instances, warned, recur_stopped = {}, 0, False, False
        deadline = time.monotonic() + DEADLINE
        last_plain = 0.0
        while True:
            template = self.client.recurring["recurring"]
            if template is not None:
                while instances < template.count:
                    instances += 1
                    self.event("recurring-%d  spawned from the recurring job (every 1s)" % instances)
                if instances >= RECUR_INSTANCES:
                    template.cancel()
                    recur_stopped = True
                    self.event("recurring    stopped after %d instances (unrecur)" % instances)
            self.expected = jids + ["recurring-%d" % n for n in range(1, instances + 1)]
            jobs = {j.jid: j for j in self.client.jobs.get(self.expected)}
            if len(jobs) != len(self.expected):
                raise DemoError("jobs vanished: " + ", ".join(set(self.expected) - set(jobs)))

            for jid in story:
                job = jobs[jid]
                now = (job.state, job.worker if job.state == "running" else "")
                if seen.get(jid) != now and job.state != "failed":   # failures get their own line below
                    where = " by " + now[1] if now[1] else ""
                    if job.state == "complete":
                        where = " (ran in %s, attempt %s)" % (job.data.get("ran_in"), job.data.get("attempt"))
                    self.event("%-12s %s%s" % (jid, job.state, where))
                    seen[jid] = now
            rescue, flaky = jobs["rescue"], jobs["flaky"]
            if rescue.state == "running" and rescue.worker == "demo-victim" and "demo-rescuer" not in self.workers:
                victim = self.workers["demo-victim"]
                victim.send_signal(signal.SIGKILL)
                victim.wait()
                self.event("rescue       SIGKILL to worker demo-victim (pid %d) mid-job; its lock lapses "
                           "after demo-rescue-heartbeat 2s + grace-period 1s" % victim.pid)
                self.start_worker("python", "demo-rescuer", "demo-rescue")
            if not warned and any(h["what"] == "timed-out" for h in rescue.history):
                warned = True
                self.event("rescue       lock expired: a pop by demo-rescuer gets only a timed-out notice (grace)")
            if flaky.state == "failed":
                reason = (flaky.failure or {}).get("message", "").strip().splitlines()[-1:]
                self.event("flaky        failed: %s -> retried (requeued to demo-python)" % "".join(reason))
                flaky.requeue("demo-python")

            states = [jobs[j].state for j in self.expected]
            counts = {s: states.count(s) for s in ("waiting", "scheduled", "depends", "running", "complete", "failed")}
            scheduled_done = self.schedule.done(DemoError)
            if counts["complete"] == len(states) and recur_stopped and scheduled_done:
                self.end_progress()
                if not self.tty:
                    self.progress(counts)
                return
            if time.monotonic() > deadline:
                self.end_progress()
                late = ["%s (%s)" % (j, s) for j, s in zip(self.expected, states) if s != "complete"]
                late += [] if scheduled_done else ["the schedule's due entries and its listener"]
                raise DemoError("not done after %ds: %s" % (DEADLINE, ", ".join(late)))
            if self.tty or time.monotonic() - last_plain >= 2:
                last_plain = time.monotonic()
                self.progress(counts)
            time.sleep(0.2)

    def summary(self):
        """Prints what happened and returns the list of expectations that failed."""
        problems = []

        def check(ok, what):
            if not ok:
                problems.append(what)
            return ok

        jobs = {j.jid: j for j in self.client.jobs.get(self.expected)}

        def t(job, what, worker=None):
            """Seconds since the start of the job's history entries `what` (whole seconds, as stored)."""
            return [h["when"] - int(self.t0) for h in job.history
                    if h["what"] == what and (worker is None or h.get("worker") == worker)]

        order = list(reversed(self.client.jobs.complete(0, 1000)))   # completion order, oldest first
        for jid, job in jobs.items():
            check(job.state == "complete", "%s ended %s, not complete" % (jid, job.state))

        print("\nJobs by language: put from (rows) x processed by (columns)")
        print("  %-8s" % "" + "".join("%8s" % c for c in LANGS + ("total",)))
        origin_of = {}
        for origin in ORIGINS:
            row = [0, 0, 0]
            for jid in self.client.jobs.tagged("from-" + origin):
                origin_of[jid] = origin
                ran_in = jobs[jid].data.get("ran_in") if jid in jobs else None
                if check(ran_in in LANGS, "%s has no ran_in" % jid):
                    row[LANGS.index(ran_in)] += 1
            print("  %-8s" % origin + "".join("%8d" % n for n in row + [sum(row)]))
        print("  %-8s" % "total" + "".join("%8d" % sum(1 for j in jobs.values() if j.data.get("ran_in") == lang)
                                           for lang in LANGS) + "%8d" % len(jobs))
        check(set(origin_of) == set(jobs), "jobs without exactly one origin tag")

        print("\nPriorities (put order cli, python, ruby, lua; the higher priority runs first)")
        for lang in LANGS:
            done = [jobs[j] for j in order if j.startswith("prio-%s-" % lang)]
            prios = [j.priority for j in done]
            check(prios == sorted(prios, reverse=True) and len(done) == 4, "demo-%s ran out of priority order" % lang)
            print("  demo-%-7s ran %s" % (lang, " > ".join("%d (%s)" % (j.priority, j.data["origin"]) for j in done)))

        d = jobs["delayed"]
        put, ran = t(d, "put")[0], t(d, "popped")[0]
        check(ran - put >= 3, "delayed ran %ds after its put" % (ran - put))
        print("\nDelay: 'delayed' put from the CLI with --delay 3s at +%ds, ran at +%ds in %s"
              % (put, ran, d.data.get("ran_in")))

        chain = [jobs["chain-a"], jobs["chain-b"], jobs["chain-c"]]
        check([order.index(j.jid) for j in chain] == sorted(order.index(j.jid) for j in chain),
              "the chain completed out of order")
        print("Dependencies: " + " -> ".join(
            "%s (put from %s, ran in %s, done +%ds)" % (j.jid, j.data["origin"], j.data["ran_in"], t(j, "done")[-1])
            for j in chain))

        rec = [jobs[j] for j in self.expected if j.startswith("recurring-")]
        check(len(rec) >= RECUR_INSTANCES, "only %d recurring instances" % len(rec))
        print("Recurring: %d instances, due at %s, ran in %s" % (
            len(rec), ", ".join("+%ds" % t(j, "put")[0] for j in rec),
            ", ".join(sorted({j.data["ran_in"] for j in rec}))))

        f = jobs["flaky"]
        check(f.data.get("attempt") == 2 and t(f, "failed"), "flaky did not fail once then succeed")
        print("Retry: 'flaky' (put from Ruby) failed on attempt 1 at +%ds, was retried, attempt %s done at +%ds"
              % ((t(f, "failed") or [0])[0], f.data.get("attempt"), t(f, "done")[-1]))

        r = jobs["rescue"]
        check(t(r, "timed-out") and t(r, "popped", "demo-rescuer") and r.data.get("attempt") == 2,
              "rescue was not recovered by demo-rescuer")
        print("Lost lock: 'rescue' popped by demo-victim +%ds (killed with SIGKILL), timed-out +%ds, "
              "popped by demo-rescuer +%ds, done +%ds" % ((t(r, "popped", "demo-victim") or [0])[0],
                                                         (t(r, "timed-out") or [0])[0],
                                                         (t(r, "popped", "demo-rescuer") or [0])[0], t(r, "done")[-1]))

        self.schedule.summary(check)
        self.trees.summary(check)

        print("\nPer-queue statistics (qless stats: seconds waiting before a pop, and running until complete)")
        for name in ["demo-" + lang for lang in LANGS] + ["demo-rescue"]:
            stats = self.client.queues[name].stats()
            print("  %s: retries %d, failures %d" % (name, stats["retries"], stats["failures"]))
            for kind in ("wait", "run"):
                s = stats[kind]
                print("    %-4s %d jobs, mean %.2fs, std %.2fs" % (kind, s["count"], s["mean"], s["std"]))
                hist = s["histogram"][:60]   # buckets of one second; these jobs take seconds
                last = max([i for i, n in enumerate(hist) if n] or [0])
                for sec in range(last + 1):
                    print("      %2ds %-20s %d" % (sec, "#" * (hist[sec] * 20 // max(hist)), hist[sec]))
                if s["count"] > sum(hist):   # the protocol has no bucket for values below 0s
                    print("      (%d outside 0-59s)" % (s["count"] - sum(hist)))
        return problems


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: python3 -P demo/demo.py BUILD_DIR [STATE_DIR]")
    build = os.path.abspath(argv[1])
    sys.path.insert(0, os.path.join(build, "bindings", "python"))
    sys.path.insert(0, os.path.join(ROOT, "demo"))   # -P left the script's directory out
    import qless
    import schedule
    import trees
    import dashboard
    demo = Demo(build, os.path.abspath(argv[2] if len(argv) == 3 else os.path.join(build, "demo-server")))
    # SIGTERM ends the demo like Ctrl-C does, so the cleanup below runs.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        print("libqless demo: one C core, the qless protocol, workers in Python, Ruby and Lua\n")
        print("1. Embedded server (qless server start, QLESS_HOME=%s)" % demo.home)
        print("   " + demo.start_server().replace("\n", "\n   "))
        demo.dashboard = dashboard.Dashboard(demo.cli, demo.env, demo.logs)
        demo.dashboard.start()
        demo.client = qless.Client()
        demo.t0, demo.started = demo.client.now, time.monotonic()   # "+Ns" and "[N s]" count from here
        demo.client.config["grace-period"] = 1        # seconds a stalled job waits before it is handed out
        demo.client.queues["demo-rescue"].heartbeat = 2   # a lock lapses 2s after its last heartbeat
        for lang in LANGS:
            demo.client.queues["demo-" + lang].pause()   # so priorities decide, not put order

        specs = plan()
        print("\n2. Putting %d jobs (queues paused)" % len(specs))
        for origin in ORIGINS:
            mine = [s for s in specs if s["data"]["origin"] == origin]
            print("   from %-6s %s" % (origin, ", ".join(s["jid"] for s in mine)))
            demo.put(origin, mine)

        demo.schedule = schedule.ScheduleDemo(demo)
        print("\n3. Schedule %s: entries in English and cron, from Python and the CLI" % schedule.QUEUE)
        demo.schedule.add()

        print("\n4. Workers: python -> demo-python, ruby -> demo-ruby, lua -> demo-lua, "
              "python demo-victim -> demo-rescue, %s (logs in %s)" % (trees.WORKERS, demo.logs))
        for lang in LANGS:
            demo.start_worker(lang, lang + "-worker", "demo-" + lang)
        demo.start_worker("python", "demo-victim", "demo-rescue")
        demo.trees = trees.TreeDemo(demo, DemoError)
        demo.trees.workers()
        demo.schedule.listen()
        for lang in LANGS:
            demo.client.queues["demo-" + lang].unpause()
        demo.watch(specs)
        print("\n5. " + demo.trees.title())
        demo.trees.run()
        demo.stop_workers()

        problems = demo.summary()
        took = time.monotonic() - demo.started
        if problems:
            print("\nFAILED: " + "; ".join(problems))
            return 1
        print("\nAll %d jobs reached their expected state; the workers ran for %.1fs." % (len(demo.expected), took))
        return 0
    except DemoError as exc:
        demo.end_progress()
        print("\nFAILED: %s\n(worker logs in %s)" % (exc, demo.logs))
        return 1
    except KeyboardInterrupt:
        demo.end_progress()
        print("\ninterrupted")
        return 130
    finally:
        demo.stop_workers()
        web = getattr(demo, "dashboard", None)
        if web and web.url and dashboard.keep_requested():
            print("\nThe dashboard stays at %s (qless web pid %d) with the embedded server;\n"
                  "stop both with: kill %d; QLESS_HOME=%s %s server stop"
                  % (web.url, web.proc.pid, web.proc.pid, demo.home, demo.cli))
        else:
            if web and web.url:
                print("\nDashboard %s stopped (scripts/main.sh --keep-web keeps it running)." % web.url)
            if web:
                web.stop()
            demo.stop_server()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
