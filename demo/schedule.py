"""The demo's schedule (issue 14, schedules.md §7-§8): entries added in English
time text and as cron expressions from Python (client.schedules[...]) and from
the `qless schedule add` command line, one duplicate add that the unique rule
turns away, and `qless schedule listen` with a pool of two threads running the
entries that fall due while the rest of the demo runs. The other entries lie
days ahead and are only listed.
"""
import json
import os
import subprocess
import time

QUEUE = "demo-schedule"
LISTEN_POOL = 2
# Whatever the job, the listener's command reads the job's JSON and holds its
# thread briefly, so that the pool is seen running two at a time.
LISTEN_EXEC = "cat >/dev/null && sleep 0.5"


class ScheduleDemo:
    def __init__(self, demo):
        self.demo = demo
        self.due = {}          # jid -> what the demo says about it; these must run
        self.later = {}        # jid -> what; these must still be pending at the end
        self.duplicate = None  # (jid, inserted) of the add that repeats an entry
        self.listing = ""      # `qless schedule list` right after the adds
        self.next = {}         # jid -> next run, as listed right after the adds
        self.listener = None
        self.seen = {}

    def cli(self, *argv):
        shown = " ".join("'%s'" % a if (" " in a or "{" in a) else a for a in argv)
        print("     $ qless " + shown)
        return self.demo.run([self.demo.cli] + list(argv))

    def add(self):
        """Adds the entries; returns nothing, raises DemoError via demo.run."""
        tasks = self.demo.client.schedules[QUEUE]
        print("   from python  client.schedules[%r]" % QUEUE)
        adds = (("demo.Remind", {"note": "from python"}, dict(at="in 2 seconds"), self.due),
                ("demo.Report", {"to": "ops"}, dict(cron="0 9 * * mon-fri"), self.later),
                ("demo.Invoice", {"month": "next"}, dict(at="7pm tomorrow"), self.later))
        for klass, data, when, into in adds:
            (key, text), = when.items()
            jid = tasks.add(klass, data, **when)
            print("     .add(%r, %s, %s=%r) -> %s" % (klass, json.dumps(data), key, text, jid))
            into[jid] = klass

        print("   from the CLI")
        for klass, data, flag, text, into in (("demo.Backup", '{"what": "logs"}', "--in", "3 seconds", self.due),
                                             ("demo.Digest", "{}", "--every", "monday 9am", self.later)):
            jid = self.cli("schedule", "add", QUEUE, klass, data, flag, text).strip()
            print("       -> " + jid)
            into[jid] = klass
        # The Python add of demo.Report again, spelt differently: the same
        # entry (day names and case do not change its identity), so nothing new.
        out = json.loads(self.cli("schedule", "add", QUEUE, "demo.Report", '{"to": "ops"}',
                                  "--cron", "0 9 * * MON-FRI", "--json"))
        self.duplicate = (out["jid"], out["inserted"])
        print("       -> %s inserted %s: %s" % (out["jid"], json.dumps(out["inserted"]),
                                                "the same jid as the Python add, nothing new"
                                                if self.duplicate == (self.report_jid(), False) else "A NEW ENTRY"))
        self.listing = self.cli("schedule", "list", QUEUE)
        self.next = {e["jid"]: e["next"] for e in tasks.entries()}
        print("       " + self.listing.rstrip("\n").replace("\n", "\n       "))

    def report_jid(self):
        return next(jid for jid, klass in self.later.items() if klass == "demo.Report")

    def listen(self):
        """Starts the listener pool; it stops by itself after the due entries."""
        argv = [self.demo.cli, "schedule", "listen", QUEUE, "--exec", LISTEN_EXEC,
                "--pool", str(LISTEN_POOL), "--max-jobs", str(len(self.due))]
        print("   $ qless schedule listen %s --exec '%s' --pool %d --max-jobs %d"
              % (QUEUE, LISTEN_EXEC, LISTEN_POOL, len(self.due)))
        print("     (each thread of an idle pool looks for due jobs every 5s, the facade's default)")
        with open(os.path.join(self.demo.logs, "schedule-listen.log"), "w") as log:
            self.listener = subprocess.Popen(argv, env=self.demo.env, stdout=log, stderr=subprocess.STDOUT,
                                             start_new_session=True)
        self.demo.workers["schedule-listen"] = self.listener

    def done(self, error):
        """True once every due entry is complete and the listener has exited;
        raises error(text) on a failed entry or a listener that gave up."""
        jobs = {j.jid: j for j in self.demo.client.jobs.get(list(self.due))}
        for jid, klass in self.due.items():
            job = jobs.get(jid)
            state = job.state if job else "missing"
            if self.seen.get(jid) != state:
                self.seen[jid] = state
                by = " by " + job.worker if state == "running" else ""
                self.demo.event("%-12s %s %s%s" % ("schedule", klass, state, by))
            if state in ("failed", "missing"):
                raise error("schedule entry %s (%s) %s" % (jid, klass, state))
        code = self.listener.poll()
        if code not in (None, 0):
            raise error("qless schedule listen exited with %d (log: schedule-listen.log)" % code)
        return code == 0 and all(s == "complete" for s in self.seen.values())

    def summary(self, check):
        """Prints the entries as added, which ran and which are pending."""
        entries = {e["jid"]: e for e in self.demo.client.schedules[QUEUE].entries()}
        jobs = {j.jid: j for j in self.demo.client.jobs.get(list(self.due))}
        t0 = int(self.demo.t0)
        print("\nSchedule %s: %d entries added from Python and the CLI (qless schedule list, as added):"
              % (QUEUE, len(self.due) + len(self.later)))
        print("  " + self.listing.rstrip("\n").replace("\n", "\n  "))
        jid, inserted = self.duplicate
        check(jid == self.report_jid() and inserted is False, "the duplicate add inserted an entry")
        print("  duplicate: demo.Report added again from the CLI as '0 9 * * MON-FRI': inserted %s, jid %s"
              % (json.dumps(inserted), "the same" if jid == self.report_jid() else "NEW " + jid))
        for jid, klass in self.due.items():
            job = jobs.get(jid)
            ran = [h for h in (job.history if job else []) if h["what"] == "popped"]
            if check(job is not None and job.state == "complete" and ran, "%s (%s) did not run" % (klass, jid)):
                print("  ran:       %-12s %s  due +%ds, popped +%ds by %s, %s"
                      % (klass, jid, self.next[jid] - t0, ran[-1]["when"] - t0, ran[-1]["worker"], job.state))
            check(jid not in entries, "%s is still listed after it ran" % klass)
        for jid, klass in self.later.items():
            if check(jid in entries, "%s (%s) is not pending" % (klass, jid)):
                next_run = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(entries[jid]["next"]))
                print("  pending:   %-12s %s  %s, next run %s" % (klass, jid, entries[jid]["kind"], next_run))
        check(len(entries) == len(self.later), "the schedule lists %d entries, not %d" % (len(entries), len(self.later)))
        check(self.listener.returncode == 0, "qless schedule listen exited with %s" % self.listener.returncode)
        print("  listener:  qless schedule listen, pool %d, stopped by itself after --max-jobs %d (exit %s)"
              % (LISTEN_POOL, len(self.due), self.listener.returncode))
