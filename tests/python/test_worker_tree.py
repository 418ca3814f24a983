"""Tree jobs in `python3 -m qless.worker` (the conformance scenarios are in
tests/worker/test_tree_conformance.py): which classes the worker takes for
tree classes, the hooks, suspend and wake, children and parent from perform,
suspend refused for a plain job, and bad tree options refused before
anything runs."""
import json
import os
import subprocess
import sys

import pytest

import qless
from qless import _core
from qless.worker import tree_classes
from conftest import JOBS_DIR, wait_for, worker_env


@pytest.fixture(autouse=True)
def jobs_on_path(monkeypatch):
    monkeypatch.syspath_prepend(JOBS_DIR)


def test_tree_classes_from_the_allow_list():
    klasses, configs = tree_classes(["tree_jobs.*"])
    found = dict(zip(klasses, configs))
    assert sorted(found) == ["tree_jobs.Broken", "tree_jobs.Counter", "tree_jobs.Leaf"]
    assert json.loads(found["tree_jobs.Counter"]) == {"inports": {"in": {}}, "outports": {"out": {}}}
    assert json.loads(found["tree_jobs.Leaf"]) == {"inports": {}, "outports": {}}
    # Exact names: only a tree class counts; '*' and names of nothing find none.
    assert tree_classes(["tree_jobs.Counter", "tree_jobs.Plain", "tree_jobs.helper"])[0] == ["tree_jobs.Counter"]
    assert tree_classes(["*", "no_such_module.*", "no_such_module.X", "tree_jobs.Missing", "tree_jobs.Count*"]) \
        == ([], [])
    with pytest.raises(ImportError, match="outside tree_jobs"):
        tree_classes(["tree_jobs.Imported"])
    with pytest.raises(TypeError, match=r"tree class tree_bad.BadPorts: inports must be a dict or a list"):
        tree_classes(["tree_bad.*"])


def test_worker_main_refuses_bad_tree_options(url):
    perform = lambda *a: None  # noqa: E731
    argv = ["w", "--url", url, "--queue", "q", "--allow", "*", "--max-jobs", "1"]
    with pytest.raises(TypeError, match="list of strings"):
        _core.qless_py_worker_main(argv, perform, os.fork, ["A", 1], None)
    with pytest.raises(TypeError, match="list of strings"):
        _core.qless_py_worker_main(argv, perform, os.fork, ["A"], [None])
    # One config per class, or none: refused before connecting.
    assert _core.qless_py_worker_main(argv, perform, os.fork, ["A"], ["{}", "{}"]) == 2


def run(url, *args, allow="tree_jobs.*"):
    """Runs a worker on queue trees until it has done args' --max-jobs."""
    proc = subprocess.run([sys.executable, "-m", "qless.worker", "--queue", "trees", "--interval", "0.1",
                           "--allow", allow, *args], env=worker_env(url), capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stderr


def test_hooks_suspend_wake_children_and_shutdown(client, url):
    queue = client.queues["trees"]
    jid = queue.put("tree_jobs.Counter", {"child": True}, tree=True)
    code, err = run(url, "--max-jobs", "2")          # the counter (suspends), its child
    assert code == 0, err
    tree = client.trees[jid]
    assert tree.state == "suspended", err
    assert queue.klass_config("tree_jobs.Counter") == {"inports": {"in": {}}, "outports": {"out": {}}}
    kid = client.trees[tree.children["kid"]]
    assert (kid.state, kid.created_by) == ("complete", "job:" + jid)
    assert dict(kid.store) == {"parent": jid, "by": "job:" + jid}

    tree.ports.in_["in"].write(1, 2, 3)              # wakes it
    assert client.trees[jid].state == "waiting"
    code, err = run(url, "--max-jobs", "1")          # reads 1, 2, 3 and completes
    assert code == 0, err
    tree = client.trees[jid]
    assert tree.state == "complete", err
    assert tree.ports.out["out"].read(10) == [2, 4, 6]
    assert dict(tree.store) == {"startups": 1, "sum": 6}   # startup once per life

    assert tree.terminate() == 1
    code, err = run(url, "--max-jobs", "1")
    assert code == 0, err
    assert client.trees[jid].state == "terminated"
    assert tree.store["shutdown"] is True


def test_suspend_refused_for_plain_jobs_and_after_the_run(client, url):
    queue = client.queues["trees"]
    plain = queue.put("tree_jobs.Plain", {})
    first, second = queue.put("tree_jobs.Late", {}), queue.put("tree_jobs.Late", {})
    # Plain is a tree job of a class the worker does not run as a tree class.
    outside = queue.put("tree_jobs.Plain", {}, tree=True)
    code, err = run(url, "--max-jobs", "4")
    assert code == 0, err
    failed = client.jobs[plain]
    assert (failed.state, failed.failure["group"]) == ("failed", "StateError")
    assert "is not run as a tree job" in failed.failure["message"]
    assert client.jobs[outside].failure["group"] == "StateError"
    done = [client.jobs[j] for j in (first, second)]
    assert [j.state for j in done] == ["complete", "complete"]
    late = [j.data.get("late") for j in done if j.data.get("late")]
    assert len(late) == 1 and "the worker's run of this job is over" in late[0]


def test_failing_shutdown_is_kept_in_the_history(client, url):
    jid = client.queues["trees"].put("tree_jobs.Broken", {}, tree=True)
    assert run(url, "--max-jobs", "1")[0] == 0
    assert client.trees[jid].terminate() == 1
    code, err = run(url, "--max-jobs", "1")
    assert code == 0, err
    assert client.trees[jid].state == "terminated"
    entry = [h for h in client.jobs[jid].history if h.get("what") == "shutdown-error"]
    assert entry and entry[0]["error"].startswith("ValueError: "), client.jobs[jid].history
    assert "cannot shut down" in entry[0]["error"]


def test_malformed_tree_class_stops_the_worker_before_it_runs(client, url):
    jid = client.queues["trees"].put("tree_bad.BadPorts", {})
    code, err = run(url, "--max-jobs", "1", allow="tree_bad.*")
    assert code == 1
    assert "tree class tree_bad.BadPorts: inports must be a dict or a list" in err
    assert client.jobs[jid].state == "waiting"       # nothing ran


def test_job_accessors_outside_a_worker(client):
    """A job this client holds: suspend is the job's own (True when input
    that came during the run requeued it), and the tree accessors work."""
    queue = client.queues["held"]
    jid = queue.put("K", {}, tree=True, inports=["in"])
    plain = queue.put("P", {})
    job = queue.pop()
    assert job.jid == jid
    job.store["k"] = [1]
    assert dict(job.store) == {"k": [1]} and job.read("in", 5) == [] and job.parent is None
    kid = job.children.put("kid", "K2", {"n": 1})
    assert dict(job.children) == {"kid": kid} and client.jobs[kid].queue == "held"
    with pytest.raises(TypeError, match="by= are set by put"):
        job.children.put("x", "K", by="me")
    assert job.suspend() is False
    assert client.trees[jid].state == "suspended"
    other = queue.pop()
    assert other.jid in (plain, kid)
    popped = [other] + [queue.pop()]
    plain_job = [j for j in popped if j.jid == plain][0]
    with pytest.raises(qless.StateError):
        plain_job.suspend()
