"""Tree jobs in the worker conformance suite (jobtrees.md §9, TBN-1): the
same scenarios against each language's worker program, as a user runs it.
The harness speaks the protocol itself (harness.Ql), so nothing of the code
under test checks it.

ctest runs this file once per language that has the Tree class, as
worker.tree.<lang> (tests/worker/CMakeLists.txt); QLESS_WORKER_LANG picks
the language as in test_conformance.py.

The job class "Tree" (harness.KLASS), defined in each language's
conformance jobs, declares input port "in" and output port "out" the way
its language declares ports (so the worker registers them), and:
  startup   appends "startup <jid> <time> <pid>" to data.log; then, if
            data.crash names a file that does not exist yet, creates it and
            ends its process at once without settling anything (os._exit(3)
            or the language's equivalent), as a crash would;
  perform   appends "perform <jid> <time> <pid>", then reads up to 10
            values from "in"; none read: suspends the job; else writes each
            value * 2 to "out" and adds the count to state key "seen" (0 when
            unset);
  shutdown  appends "shutdown <jid> <time> <pid>".
"""
import json
import os

import pytest

from harness import KLASS, Missing, harness_on, launch, need, read_log

TREE = "tree"


def pytest_generate_tests(metafunc):
    if "lang" in metafunc.fixturenames:
        lang = os.environ.get("QLESS_WORKER_LANG")
        if lang not in KLASS or "Tree" not in KLASS[lang]:
            raise pytest.UsageError("QLESS_WORKER_LANG=%s: expected a language with a Tree class" % lang)
        metafunc.parametrize("lang", [lang])


@pytest.fixture
def h(lang, tmp_path):
    try:
        need("QLESS_LUA_SCRIPT")
        launch(lang)
        with open(os.path.join(need("QLESS_TEST_STATE"), "socket")) as f:
            socket = f.read().strip()
    except Missing as e:
        pytest.fail(str(e), pytrace=False)
    # A crashed worker's job is handed out again within seconds.
    with harness_on(lang, socket, tmp_path, heartbeat=2) as harness:
        yield harness


def put_tree(h, data):
    jid = "tree-" + os.urandom(6).hex()
    assert h.ql("put", "harness", TREE, jid, h.klass("Tree"), json.dumps(data), 0, "tree", "1") == jid
    return jid


def lines(h, what, jid):
    return [entry for entry in read_log(h.log) if entry[0] == what and entry[1] == jid]


def registered(h):
    """The configuration the worker registered for Tree, once it has."""
    text = h.ql("worker.config", TREE, h.klass("Tree"))
    return json.loads(text) if text else None


def test_tree_job_life(h):
    """Registration of the class's ports; startup once; perform suspends
    without input and is woken by input, twice; state kept across runs;
    shutdown once on termination."""
    w = h.start("--queue", TREE, name="conf-tree")
    config = h.wait_for("the worker registered Tree's ports", lambda: registered(h), 20, alive=[w])
    assert config["inports"] == {"in": {}}, config
    assert config["outports"] == {"out": {}}, config

    jid = put_tree(h, {"log": h.log})
    tree = json.loads(h.ql("tree.get", jid))
    assert tree["inports"] == {"in": {}} and tree["outports"] == {"out": {}}, tree
    h.wait_for("the job suspended for want of input", lambda: h.states([jid]) == ["suspended"], 20, alive=[w])
    assert len(lines(h, "startup", jid)) == 1
    assert len(lines(h, "perform", jid)) == 1
    assert json.loads(h.ql("tree.get", jid))["started"] is not False

    assert h.ql("port.write", jid, "in", "in", "1", "2") == 2
    h.wait_for("the woken job completed", lambda: h.states([jid]) == ["complete"], 20, alive=[w])
    assert json.loads(h.ql("port.read", jid, "out", "out", 10)) == [2, 4]
    assert h.ql("state.get", jid, "seen") == "2"

    assert h.ql("port.write", jid, "in", "in", "3") == 1
    h.wait_for("the job woken again completed", lambda: len(lines(h, "perform", jid)) == 3
               and h.states([jid]) == ["complete"], 20, alive=[w])
    assert json.loads(h.ql("port.read", jid, "out", "out", 10)) == [6]
    assert h.ql("state.get", jid, "seen") == "3"   # 2, then one more value (the docstring: the count)
    assert len(lines(h, "startup", jid)) == 1, "startup ran again after job.started"
    assert lines(h, "shutdown", jid) == []

    assert h.ql("job.terminate", jid) == 1
    h.wait_for("the job terminated", lambda: h.states([jid]) == ["terminated"], 20, alive=[w])
    assert len(lines(h, "shutdown", jid)) == 1
    history = [e["what"] for e in h.ql.job(jid)["history"]]
    assert history[-3:] == ["terminating", "popped", "terminated"], history
    assert w.stop() == 0


def test_startup_crash_repeats_startup(h):
    """A worker that dies during startup (before job.started) leaves the job
    to another worker, which runs startup again and then the job."""
    marker = str(h.tmp / "crashed")
    jid = put_tree(h, {"log": h.log, "crash": marker})
    first = h.start("--queue", TREE, name="conf-tree-crash")
    h.wait_for("the first worker died in startup", lambda: not first.alive(), 30)
    assert first.proc.returncode != 0
    assert os.path.exists(marker)
    assert json.loads(h.ql("tree.get", jid))["started"] is False
    second = h.start("--queue", TREE, name="conf-tree-after")
    h.wait_for("the job ran on the second worker and suspended",
               lambda: h.states([jid]) == ["suspended"], 40, alive=[second])
    startups = lines(h, "startup", jid)
    assert len(startups) == 2, startups
    assert startups[0][3] == first.pid and startups[1][3] == second.pid, startups
    assert len(lines(h, "perform", jid)) == 1
    assert json.loads(h.ql("tree.get", jid))["started"] is not False
    assert second.stop() == 0
