"""The QLESS_OPTIONS typemap (swig/qless.i + swig/python.i) called directly:
a dict of option name -> value becomes qless_put_options, field by field."""
import random

import pytest

import qless
from qless import _core

# One wrong-typed value per field of qless_put_options.
WRONG = {"jid": 5, "delay": "soon", "priority": "high", "retries": 1.5,
         "tags": [1], "depends": 7}


def test_random_option_dicts_reach_the_job(client):
    """Seeded: each put gets a random subset of the options, some given as
    None ("not given"); the job must show exactly what was given."""
    rng = random.Random(13)
    queue = client.queues["opts"]
    earlier = []
    for i in range(60):
        opts, want = {}, {"priority": 0, "retries": 5, "tags": [], "deps": [], "state": "waiting"}
        for name in rng.sample(sorted(WRONG), rng.randint(0, len(WRONG))):
            if rng.random() < 0.2:
                opts[name] = None
            elif name == "jid":
                opts["jid"] = "opt-%d" % i
            elif name == "delay":
                opts["delay"] = rng.choice([0, 30, 45.5])
                want["state"] = "scheduled" if opts["delay"] else want["state"]
            elif name == "priority":
                opts["priority"] = want["priority"] = rng.choice([rng.randint(-9, 9), rng.uniform(-9, 9)])
            elif name == "retries":
                opts["retries"] = want["retries"] = rng.randint(0, 9)
            elif name == "tags":
                opts["tags"] = rng.sample(["a", "b", "c", "d"], rng.randint(0, 3))
                want["tags"] = sorted(opts["tags"])
            elif name == "depends" and earlier:
                opts["depends"] = want["deps"] = [rng.choice(earlier)]
        if want["deps"] and want["state"] == "waiting":
            want["state"] = "depends"
        jid = _core.qless_queue_put(queue._h, "K", None, opts)
        earlier.append(jid)
        if opts.get("jid"):
            assert jid == opts["jid"]
        job = client.jobs[jid]
        assert job.priority == pytest.approx(want["priority"]), opts
        assert job.retries == want["retries"], opts
        assert sorted(job.tags) == want["tags"], opts
        assert job.dependencies == want["deps"], opts
        if not want["deps"]:   # a dependency may have completed meanwhile: no
            assert job.state == want["state"], opts


def test_unknown_names_and_wrong_types_name_the_option(client):
    queue = client.queues["opts"]
    with pytest.raises(qless.InvalidArgument) as e:
        _core.qless_queue_put(queue._h, "K", None, {"priorty": 1})
    assert "'priorty'" in str(e.value) and "priority" in str(e.value)
    for name, value in WRONG.items():
        with pytest.raises(TypeError, match="'%s'" % name):
            _core.qless_queue_put(queue._h, "K", None, {name: value})
    with pytest.raises(qless.InvalidArgument, match="'retries' is out of range"):
        _core.qless_queue_put(queue._h, "K", None, {"retries": 2 ** 40})
    with pytest.raises(TypeError):
        _core.qless_queue_put(queue._h, "K", None, [("priority", 1)])
    assert len(queue) == 0


def test_none_and_lone_strings(client):
    queue = client.queues["opts"]
    jid = _core.qless_queue_put(queue._h, "K", None, None)
    assert client.jobs[jid].priority == 0
    jid = _core.qless_queue_put(queue._h, "K", None, {"tags": "solo", "depends": iter([])})
    assert client.jobs[jid].tags == ["solo"]


def test_recur_options_share_the_mechanism(client):
    queue = client.queues["opts"]
    jid = _core.qless_queue_recur(queue._h, "K", None, 60, {
        "jid": "rec", "priority": 3, "retries": 2, "backlog": 1, "tags": ["r"], "offset": None})
    rec = client.recurring[jid]
    assert (jid, rec.priority, rec.retries, rec.backlog, rec.tags) == ("rec", 3, 2, 1, ["r"])
    with pytest.raises(qless.InvalidArgument, match="recur options: unknown option 'delay'"):
        _core.qless_queue_recur(queue._h, "K", None, 60, {"delay": 1})


def test_complete_options_share_the_mechanism(client):
    queue = client.queues["opts"]
    queue.put("K")
    job = queue.pop()
    with pytest.raises(qless.InvalidArgument, match="complete options: unknown option 'nxt'"):
        _core.qless_job_complete(job._h, {"nxt": "other"})
    _core.qless_job_complete(job._h, {"next": "other", "delay": 30, "depends": []})
    assert client.queues["other"].scheduled() == [job.jid]   # its state reads waiting (protocol)


def test_namespace_option_and_url_parameter(url, r):
    """A client in namespace `py` keeps its jobs under {py}:ql:, apart from
    the default database (docs/cluster.md)."""
    ns = qless.Client(url, namespace="py")
    assert ns.namespace == "py"
    assert qless.Client(url).namespace is None
    jid = ns.queue("q").put("K", "{}")
    assert r.exists("{py}:ql:j:" + jid) == 1 and r.exists("ql:j:" + jid) == 0
    assert qless.Client(url + "?namespace=py").get_job(jid).jid == jid
    with pytest.raises(qless.InvalidArgument, match="namespace"):
        qless.Client(url, namespace="a/b")
