"""Every libqless status code surfaces as its exception class."""
import socket

import pytest

import qless


def test_hierarchy_and_codes():
    expected = {"InvalidArgument": -1, "NotFound": -2, "LockLost": -3, "StateError": -4,
                "ProtocolError": -5, "ConnectionError": -6, "OutOfMemory": -7}
    for name, code in expected.items():
        cls = getattr(qless, name)
        assert issubclass(cls, qless.Error) and cls is not qless.Error
        assert cls.code == code
        assert cls.__module__ == "qless._core"
    assert qless.Error.code is None
    assert not issubclass(qless.ConnectionError, ConnectionError)  # ours, not the builtin


def test_invalid_argument(client):
    with pytest.raises(qless.InvalidArgument) as err:
        client.queues["q"].put("K", "{not json")
    assert err.value.code == -1 and "JSON" in err.value.message and str(err.value) == err.value.message
    assert err.value.args[1] == -1
    with pytest.raises(qless.InvalidArgument):
        client.queues[""]
    job = client.jobs[client.queues["q"].put("K", {})]
    with pytest.raises(qless.InvalidArgument):
        job.data = "[unclosed"


def test_not_found(client):
    jid = client.queues["q"].put("K", {})
    job = client.jobs[jid]
    client.cancel(jid)
    with pytest.raises(qless.NotFound) as err:
        job.refresh()
    assert err.value.code == -2
    with pytest.raises(qless.NotFound):
        job.requeue("other")


def test_lock_lost_other_worker(client, url):
    queue = client.queues["q"]
    jid = queue.put("K", {})
    queue.pop()
    thief = qless.Client(url, worker_name="thief")
    with pytest.raises(qless.LockLost) as err:
        thief.jobs[jid].complete()
    assert err.value.code == -3


def test_lock_lost_after_timeout(client):
    queue = client.queues["q"]
    queue.put("K", {})
    job = queue.pop()
    job.timeout()
    with pytest.raises(qless.LockLost):
        job.complete()
    with pytest.raises(qless.LockLost):
        job.heartbeat()


def test_state_error(client):
    queue = client.queues["q"]
    first = queue.put("K", {})
    second = queue.put("K", {}, depends=[first])
    with pytest.raises(qless.StateError) as err:
        client.jobs[first].depend(second)        # first is waiting, not "depends"
    assert err.value.code == -4
    with pytest.raises(qless.StateError):
        client.cancel(first)                      # second depends on it
    client.cancel(first, second)                  # together is fine
    assert client.jobs[first] is None


def test_protocol_error(client, r):
    # A script failure the core has no better code for: the queue index
    # clobbered with a key of the wrong type.
    r.set("ql:queues", "not a sorted set")
    with pytest.raises(qless.ProtocolError) as err:
        client.queues.names()
    assert err.value.code == -5 and "WRONGTYPE" in err.value.message


def test_unknown_command_is_invalid(client):
    with pytest.raises(qless.InvalidArgument):
        client.call("no-such-command")


def test_connection_error():
    with socket.socket() as s:                    # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(qless.ConnectionError) as err:
        client = qless.Client("redis://127.0.0.1:%d/0" % port, connect_timeout=1)
        client.queues["q"].length
    assert err.value.code == -6
