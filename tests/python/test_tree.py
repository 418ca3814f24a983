"""Job trees through the Python layer: each API once, values round-tripped
as native data, errors mapped to the binding's classes."""
import os
import random
import subprocess
import sys

import pytest

import qless
from qless.errors import InvalidArgument, NotFound, StateError


def put_tree(client, **kw):
    return client.queues["q"].put("K", {}, tree=True, **kw)


def test_tree_record_and_unknown(client):
    jid = put_tree(client, inports={"in": {}}, outports=["out"], aliases=["a1"], by="tester")
    tree = client.trees[jid]
    assert (tree.jid, tree.klass, tree.queue, tree.state) == (jid, "K", "q", "waiting")
    assert tree.aliases == ["a1"] and tree.created_by == "tester"
    assert sorted(tree.inports) == ["in"] and sorted(tree.outports) == ["out"]
    assert client.trees["nope"] is None
    root = client.trees[put_tree(client)]   # absent values are None and [], not the protocol JSON's false and {}
    assert (root.parent, root.name, root.aliases, root.children, root.rerun) == (None, None, [], {}, False)
    assert client.aliases["a1"] == jid and client.aliases["none"] is None
    plain = client.queues["q"].put("K", {})
    with pytest.raises(StateError):
        client.trees[plain]


def test_ports_round_trip_generated(client):
    rng = random.Random(15)
    jid = put_tree(client, inports=["in"])
    port = client.trees[jid].ports.in_["in"]
    values = [rng.choice([rng.randint(-9, 9), "s%d" % rng.randint(0, 9), [1, {"k": "v"}], None, True, "[1]"])
              for _ in range(rng.randint(5, 20))]
    port.write(*values)
    assert port.size == len(values)
    assert port.peek(3) == values[:3]
    assert port.read(len(values)) == values
    assert port.read(1) == [] and port.size == 0
    assert getattr(client.trees[jid].ports, "in") is not None


def test_port_errors(client):
    jid = put_tree(client, inports=["in"])
    ports = client.trees[jid].ports
    with pytest.raises(NotFound):
        ports.in_["missing"].read(1)
    with pytest.raises(InvalidArgument):
        ports.in_["in"].read(0)
    ports.in_.define({"d": {"default": 7}})
    assert ports.in_["d"].read(1) == [7]
    assert ports.in_.remove("d", "zz") == 1


def test_channels(client):
    a = put_tree(client, inports=["in"])
    b = put_tree(client, outports=["out"])
    assert client.trees[a].ports.in_["in"].connect("/x/y") == 1
    assert client.channels["/x/y"].subscribers == [[a, "in"]]
    assert client.channels["/x/y/z"].publish({"n": 1}, **{"from": b}) == 1
    assert client.trees[a].ports.in_["in"].read(5) == [{"n": 1}]
    assert client.trees[a].ports.in_["in"].disconnect("/x/y") == 1
    assert client.channels["/x/y"].subscribers == []
    with pytest.raises(TypeError):
        client.channels["/x"].publish(1, sender=b)


def test_store(client):
    jid = put_tree(client)
    state = client.trees[jid].store
    state["k"] = {"deep": [1, 2]}
    state["s"] = "text"
    assert state["k"] == {"deep": [1, 2]} and state["s"] == "text"
    assert dict(state) == {"k": {"deep": [1, 2]}, "s": "text"}
    del state["s"]
    with pytest.raises(KeyError):
        state["s"]
    with pytest.raises(KeyError):
        del state["s"]


def test_links_lifecycle(client):
    parent = put_tree(client)
    child = client.queues["q"].put("K", {}, parent=parent, name="c1")
    tree = client.trees[parent]
    assert tree.children == {"c1": child}
    assert tree.disown("c1") == child
    tree.adopt("c2", child)
    assert client.trees[parent].children == {"c2": child}
    with pytest.raises(StateError):
        tree.delete()
    assert tree.terminate(recursive=True) >= 1
    assert tree.add_aliases("p1", "p2") == 2 and tree.remove_aliases("p2") == 1


def test_registry(client):
    queue = client.queues["q"]
    assert queue.register_klass("T", inports=["in"], outports={"out": {}}) is True
    assert queue.klass_config("T") == {"inports": {"in": {}}, "outports": {"out": {}}}
    assert queue.klass_config("U") is None and "T" in queue.klass_config()
    assert queue.unregister_klass("T") is True and queue.unregister_klass("T") is False


def test_tree_example_file_runs(url, r):
    # docs/python.md quotes bindings/python/tree_example.py: check the quote, run that exact file.
    example = os.path.join(os.path.dirname(os.environ["QLESS_PY_EXAMPLE"]), "tree_example.py")
    with open(example) as f, open(os.path.join(os.path.dirname(example), "..", "..", "docs", "python.md")) as page:
        assert "```python\n" + f.read() + "```" in page.read()
    out = subprocess.run([sys.executable, "-P", example], env=dict(os.environ, QLESS_URL=url),
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "1\n['sink', 'source'] [{'n': 1}]\n"


def test_requeue_takes_the_tree_options(client):
    root = client.queues["q"].put("Root", tree=True)
    jid = client.queues["q"].put("Plain", {})
    client.jobs[jid].requeue("q2", priority=3, parent=root, name="moved", inports=["in"], by="ops")
    tree = client.trees[jid]
    assert (tree.queue, tree.parent, tree.name, tree.inports) == ("q2", root, "moved", {"in": {}})
    assert client.trees[root].children == {"moved": jid}
    with pytest.raises(TypeError):
        client.jobs[jid].requeue("q", colour="red")
