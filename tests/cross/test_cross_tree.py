"""The job-tree pipeline of jobtrees.md §11 across languages (TBN-1): a
parent, a producer that publishes on a channel and a consumer subscribed
to it, run by the worker programs of the languages of KLASS (one each, on
its own queue, allowed its language's classes only). Every way of giving
the three roles to three different languages (assignments: 24 with
Python, Ruby, Lua and PHP, each language in each role six times) runs side by
side, each pipeline on its own channel. The classes are the demo's
(demo/jobs: demo_trees.py, .rb, .php, demo_trees/*.lua); each hook records in its
job's state the language that ran it. The operator's steps are `qless`
commands.

Seeded (QLESS_CROSS_SEED, else random, printed): the values each producer
publishes, and how far below its consumer's channel it publishes
(delivery goes up the channel hierarchy).
"""
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time

import qless

from test_cross import fixture_url, lua_env, run

ENV = os.environ
DEMO_JOBS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "demo", "jobs")
ROLES = ("pipeline", "producer", "consumer")
# The languages whose bindings have tree workers, with their classes.
KLASS = {
    "python": {"pipeline": "demo_trees.Pipeline", "producer": "demo_trees.Producer", "consumer": "demo_trees.Consumer"},
    "ruby": {"pipeline": "Demo::Pipeline", "producer": "Demo::Producer", "consumer": "Demo::Consumer"},
    "lua": {"pipeline": "demo_trees.pipeline", "producer": "demo_trees.producer", "consumer": "demo_trees.consumer"},
    "php": {"pipeline": "DemoTrees\\Pipeline", "producer": "DemoTrees\\Producer", "consumer": "DemoTrees\\Consumer"},
}
HOOKS = ("startup", "perform", "shutdown")
DEADLINE = 30


def start_worker(lang, env):
    """lang's worker program on queue cross-tree-<lang>, allowed the
    classes of KLASS[lang]; stopped by the test."""
    argv = ["--queue", "cross-tree-" + lang, "--name", "cross-tree-" + lang, "--interval", "0.1"]
    argv += [arg for klass in KLASS[lang].values() for arg in ("--allow", klass)]
    if lang == "python":
        env = dict(env, PYTHONPATH=os.pathsep.join([DEMO_JOBS, ENV["PYTHONPATH"]]))
        argv = [sys.executable, "-m", "qless.worker"] + argv
    elif lang == "ruby":
        argv = [ENV["QLESS_RUBY"], "-I", ENV["QLESS_RUBY_LIB"], "-I", ENV["QLESS_RUBY_EXT"],
                os.path.join(ENV["QLESS_RUBY_BIN"], "qless-worker"),
                "--require", os.path.join(DEMO_JOBS, "demo_trees.rb")] + argv
    elif lang == "php":
        argv = [ENV["QLESS_PHP"], "-n", "-d", "extension=" + ENV["QLESS_PHP_EXT"], ENV["QLESS_PHP_WORKER"],
                "--require", os.path.join(DEMO_JOBS, "demo_trees.php")] + argv
    else:
        env = lua_env(env)
        env["LUA_PATH"] = DEMO_JOBS + "/?.lua;" + env["LUA_PATH"]
        argv = ["lua5.4", ENV["QLESS_LUA_WORKER"]] + argv
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def assignments(langs):
    """Role -> language tuples: with at least as many languages as roles,
    every way of giving each role a different language (each language takes
    each role, and every job of a pipeline is in another language: TBN-1);
    with fewer, every way that uses each language."""
    if len(langs) >= len(ROLES):
        return list(itertools.permutations(langs, len(ROLES)))
    return [p for p in itertools.product(langs, repeat=len(ROLES)) if set(p) == set(langs)]


def test_tree_pipelines_across_languages():
    seed = int(ENV.get("QLESS_CROSS_SEED") or random.randrange(1 << 30))
    print("QLESS_CROSS_SEED=%d" % seed)
    rng = random.Random(seed)
    env = dict(ENV, QLESS_URL=fixture_url())
    subprocess.run(["redis-cli", "-p", env["QLESS_URL"].rsplit(":", 1)[1].split("/")[0], "FLUSHALL"],
                   check=True, capture_output=True)
    client = qless.Client(env["QLESS_URL"])

    # Pipeline k: role -> language, its values, its channels, role -> jid.
    pipelines = []
    every = assignments(list(KLASS))
    for k, langs in enumerate(every):
        channel = "/cross/p%d" % k
        pipelines.append({
            "lang": dict(zip(ROLES, langs)),
            "values": [rng.randint(-1000, 1000) for _ in range(rng.randint(1, 12))],
            "channel": channel,
            "published": channel + "".join("/s%d" % rng.randrange(10) for _ in range(rng.randint(0, 3))),
            "jid": {role: "%s-%d-%d" % (role, k, seed) for role in ROLES},
        })
    everyone = [p["jid"][role] for p in pipelines for role in ROLES]

    def cli(*argv):
        return run([ENV["QLESS_CLI"], "--url", env["QLESS_URL"], *argv], env)

    def states(role=None):
        jids = [p["jid"][role] for p in pipelines] if role else everyone
        return [j.state for j in client.jobs.get(jids)]

    def wait(what, done):
        deadline = time.monotonic() + DEADLINE
        while not done():
            for lang, proc in workers.items():
                assert proc.poll() is None, "%s's worker exited:\n%s" % (lang, proc.stdout.read())
            assert time.monotonic() < deadline, "%s: not after %ds (%s)" % (what, DEADLINE, states())
            time.sleep(0.05)

    def put(p, role, data, *options):
        lang = p["lang"][role]
        return cli("put", "cross-tree-" + lang, KLASS[lang][role], json.dumps(data), "--jid", p["jid"][role], *options)

    def total(jid):
        return json.loads(cli("--json", "state", "get", jid)).get("total")

    workers = {}
    try:
        for lang in KLASS:
            workers[lang] = start_worker(lang, env)
        for lang in KLASS:
            wait("%s's classes registered" % lang,
                 lambda: len(json.loads(cli("--json", "klass", "list", "cross-tree-" + lang))) == len(ROLES))

        for p in pipelines:
            put(p, "pipeline", {}, "--tree")
            put(p, "consumer", {"channel": p["channel"]}, "--parent", p["jid"]["pipeline"], "--name", "consumer")
        wait("every parent and consumer suspended for want of input",
             lambda: set(states("pipeline") + states("consumer")) == {"suspended"})
        for p in pipelines:
            put(p, "producer", {"channel": p["published"], "values": p["values"]},
                "--parent", p["jid"]["pipeline"], "--name", "producer")
        wait("the values reached every parent",
             lambda: set(states()) == {"complete"}
             and [total(p["jid"]["pipeline"]) for p in pipelines] == [sum(p["values"]) for p in pipelines])

        for p in pipelines:
            assert cli("tree", "terminate", p["jid"]["pipeline"], "--recursive") == "3"
        wait("every tree terminated", lambda: set(states()) == {"terminated"})

        jobs = {j.jid: j for j in client.jobs.get(everyone)}
        for p in pipelines:
            for role, lang in p["lang"].items():
                jid = p["jid"][role]
                state = json.loads(cli("--json", "state", "get", jid))
                assert {h: state.get(h) for h in HOOKS} == {h: lang for h in HOOKS}, (jid, state)
                runs = [h["worker"] for h in jobs[jid].history if h["what"] == "popped"]
                # Parent and consumer: a suspended run, a woken run, the shutdown run.
                assert runs == ["cross-tree-" + lang] * (2 if role == "producer" else 3), (jid, jobs[jid].history)
            consumer = json.loads(cli("--json", "state", "get", p["jid"]["consumer"]))
            assert (consumer["received"], consumer["total"]) == (len(p["values"]), sum(p["values"])), p

        for p in pipelines:
            assert cli("tree", "delete", p["jid"]["pipeline"]) == "3"
        assert client.jobs.get(everyone) == []
    finally:
        for proc in workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        codes = {lang: proc.wait(timeout=15) for lang, proc in workers.items()}
    assert codes == {lang: 0 for lang in KLASS}, codes
