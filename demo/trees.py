"""The demo's job tree (issue 15, jobtrees.md §11): a parent "pipeline" with
two named children, a producer whose output port publishes on a channel and
a consumer whose input port subscribes to it, run by workers of three
languages (Ruby, Lua, Python). The operator's steps are `qless` commands: put the parent and
the consumer, which finds no input and suspends; put the producer, whose
values wake the consumer, whose total wakes the parent; draw the tree;
terminate it recursively (each job's shutdown hook runs in its worker) and
delete it. The job classes record in their state which language ran each
hook (demo/jobs/demo_trees.rb, demo/jobs/demo_trees/*.lua, demo/jobs/demo_trees.py).
"""
import json
import subprocess
import time

CHANNEL = "/demo/items"
VALUES = [1, 2, 3]    # what the producer publishes
ALIAS = "nightly"
HOOKS = ("startup", "perform", "shutdown")
DEADLINE = 20         # seconds each step of the story gets


class Role:
    def __init__(self, name, jid, lang, klass, data=None):
        self.name, self.jid, self.lang, self.klass = name, jid, lang, klass
        self.queue = "demo-tree-" + lang
        self.data = data or {}


# In put order; the parent first, the producer last (see the module doc).
ROLES = (
    Role("pipeline", "pipeline", "ruby", "Demo::Pipeline"),
    Role("consumer", "pipeline-consumer", "lua", "demo_trees.consumer", {"channel": CHANNEL}),
    Role("producer", "pipeline-producer", "python", "demo_trees.Producer",
         {"channel": CHANNEL, "values": VALUES}),
)
PARENT = ROLES[0]
LANGS = sorted({r.lang for r in ROLES})
WORKERS = ", ".join("tree-%s -> demo-tree-%s" % (lang, lang) for lang in LANGS)


class TreeDemo:
    def __init__(self, demo, error):
        self.demo = demo
        self.error = error     # the demo's exception class
        self.seen = {}         # jid -> (state, worker) last reported
        self.drawn = {}        # "before"/"after" -> `qless tree` output
        self.counts = {}       # "terminate"/"delete" -> the count the CLI printed
        self.after = {}        # jid -> (state, state keys) once terminated
        self.history = {}      # jid -> history entries once terminated
        self.gone = None       # (jobs left, alias left) after the delete

    def cli(self, *argv, show=True):
        if show:
            print("     $ qless " + " ".join("'%s'" % a if "{" in a else a for a in argv))
        return self.demo.run([self.demo.cli] + list(argv))

    def title(self):
        return "Job tree: %s; the operator's steps are qless commands" % ", ".join(
            "%s (%s) in %s" % (r.name, r.klass, r.lang) for r in ROLES)

    def workers(self):
        """One worker per language, on its own queue, allowed its classes only."""
        for lang in LANGS:
            mine = [r for r in ROLES if r.lang == lang]
            self.demo.start_worker(lang, "tree-" + lang, mine[0].queue, allow=[r.klass for r in mine],
                                   jobs="demo_trees")

    def states(self):
        jobs = {j.jid: j for j in self.demo.client.jobs.get([r.jid for r in ROLES])}
        for role in ROLES:
            job = jobs.get(role.jid)
            if job is None:
                continue
            now = (job.state, job.worker)
            if self.seen.get(role.jid) != now:
                self.seen[role.jid] = now
                self.demo.event("%-12s %s%s" % (role.name, job.state, " by " + job.worker if job.worker else ""))
        return {jid: job.state for jid, job in jobs.items()}

    def wait(self, what, done):
        deadline = time.monotonic() + DEADLINE
        while not done(self.states()):
            if time.monotonic() > deadline:
                raise self.error("job tree: %s not reached after %ds (states %s)" % (what, DEADLINE, self.seen))
            time.sleep(0.1)

    def state_of(self, jid):
        return json.loads(self.cli("--json", "state", "get", jid, show=False))

    def put(self, role):
        argv = ["put", role.queue, role.klass, json.dumps(role.data), "--jid", role.jid]
        argv += ["--parent", PARENT.jid, "--name", role.name] if role is not PARENT else ["--alias", ALIAS]
        self.cli(*argv)

    def run(self):
        """The story, from the first put to the delete."""
        for lang in LANGS:
            queue = "demo-tree-" + lang
            self.wait("registration of the %s classes" % lang,
                      lambda _: all(r.klass in json.loads(self.cli("--json", "klass", "list", queue, show=False))
                                    for r in ROLES if r.lang == lang))
        print("   the workers registered their classes, so new jobs get the classes' ports:")
        for lang in LANGS:
            print("       " + self.cli("klass", "list", "demo-tree-" + lang).rstrip("\n").replace("\n", "\n       "))
        parent, consumer, producer = ROLES
        self.put(parent)
        self.put(consumer)
        self.wait("the parent and the consumer suspended (no input yet)",
                  lambda s: s.get(parent.jid) == "suspended" and s.get(consumer.jid) == "suspended")
        self.put(producer)
        self.wait("the values flowed to the parent",
                  lambda s: all(s.get(r.jid) == "complete" for r in ROLES)
                  and self.state_of(parent.jid).get("total") == sum(VALUES))
        self.drawn["before"] = self.cli("tree", parent.jid, show=False)
        self.counts["terminate"] = self.cli("tree", "terminate", parent.jid, "--recursive").strip()
        self.wait("termination", lambda s: all(s.get(r.jid) == "terminated" for r in ROLES))
        self.drawn["after"] = self.cli("tree", parent.jid, show=False)
        jobs = {j.jid: j for j in self.demo.client.jobs.get([r.jid for r in ROLES])}
        for role in ROLES:
            self.after[role.jid] = self.state_of(role.jid)
            self.history[role.jid] = jobs[role.jid].history
        self.counts["delete"] = self.cli("tree", "delete", parent.jid).strip()
        alias = subprocess.run([self.demo.cli, "alias", "get", ALIAS], env=self.demo.env,
                               capture_output=True, text=True, timeout=30)
        left = self.demo.client.jobs.get([r.jid for r in ROLES])
        self.gone = ([j.jid for j in left], alias.stdout.strip() if alias.returncode == 0 else None)

    def summary(self, check):
        parent, consumer, producer = ROLES
        total = sum(VALUES)
        print("\nJob tree %s [%s]: children %s and %s joined by channel %s (jobtrees.md §11)"
              % (parent.jid, ALIAS, producer.name, consumer.name, CHANNEL))
        print("  before termination (qless tree %s):" % parent.jid)
        print("    " + self.drawn["before"].rstrip("\n").replace("\n", "\n    "))
        for role in ROLES:
            history = self.history[role.jid]
            whats = [h["what"] for h in history]
            workers = sorted({h.get("worker") for h in history if h["what"] == "popped"})
            hooks = self.after[role.jid]
            check(workers == ["tree-" + role.lang], "%s was run by %s, not tree-%s" % (role.jid, workers, role.lang))
            check(all(hooks.get(h) == role.lang for h in HOOKS), "%s's hooks ran in %s" % (role.jid, hooks))
            print("  %-9s %-6s %s; history: %s" % (role.name, role.lang, ", ".join(
                "%s in %s" % (h, hooks.get(h)) for h in HOOKS), " ".join(whats)))
        woke = self.whats(consumer)
        check("suspended put popped" in woke, "the consumer was not suspended and woken by input")
        check("suspended put popped" in self.whats(parent), "the parent was not suspended and woken by input")
        got = self.after[consumer.jid]
        check((got.get("received"), got.get("total")) == (len(VALUES), total),
              "the consumer got %s values totalling %s" % (got.get("received"), got.get("total")))
        check(self.after[parent.jid].get("total") == total, "the parent's total is %s" % self.after[parent.jid])
        print("  values: %s wrote %s on %s; %s received %s, total %s, woke %s with it; %s stored total %s"
              % (producer.name, json.dumps(VALUES), CHANNEL, consumer.name, got.get("received"), got.get("total"),
                 parent.jid, parent.jid, self.after[parent.jid].get("total")))
        check(self.counts["terminate"] == str(len(ROLES)), "terminate changed %s jobs" % self.counts["terminate"])
        print("  qless tree terminate %s --recursive: %s jobs; after their shutdown runs (qless tree %s):"
              % (parent.jid, self.counts["terminate"], parent.jid))
        print("    " + self.drawn["after"].rstrip("\n").replace("\n", "\n    "))
        left, alias = self.gone
        check(self.counts["delete"] == str(len(ROLES)) and not left and alias is None,
              "the delete left jobs %s, alias %s" % (left, alias))
        print("  qless tree delete %s: %s jobs deleted; jobs left %d, alias %s %s"
              % (parent.jid, self.counts["delete"], len(left), ALIAS, "gone" if alias is None else "-> " + alias))

    def whats(self, role):
        return " ".join(h["what"] for h in self.history[role.jid])
