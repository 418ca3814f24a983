"""Shared fixtures for the qless protocol conformance suite (spec §13).

Environment (set by ctest, see tests/CMakeLists.txt):
  QLESS_TEST_STATE     directory with files `socket` (unix socket path) and `port`
  QLESS_LUA_SCRIPT     build/lua/qless.lua      (plain script, EVALSHA)
  QLESS_LUA_LIBRARY    build/lua/qless-lib.lua  (Redis Functions library, FCALL)
  QLESS_PROTOCOL_MODE  `script` (default) or `function`: which artefact every
                       test drives. ctest runs the suite once per mode.
  QLESS_PROTOCOL_CLUSTER  the state directory of tests/cluster-fixture.sh: the
                       suite runs on the cluster's primary serving the namespace
  QLESS_PROTOCOL_NAMESPACE  a namespace NAME: every call names the key
                       `{NAME}:ql:` (keys and channels `{NAME}:ql:...`); `r`
                       and `events` then show them without `{NAME}:`, so the
                       tests read the same in both forms.

Fixtures:
  r       raw redis connection (decoded strings) to inspect keys
  ql      a Qless driver: ql(command, now, *args) -> raw reply; see helpers.Qless
  events  events() -> context manager capturing the ql:* messages published
          while its block runs, as an ordered list of (channel, payload)
"""
import os
import sys
import uuid

import pytest
import redis

from helpers import Qless

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from cluster_shards import primary_port  # noqa: E402

MODE = os.environ.get("QLESS_PROTOCOL_MODE", "script")
NAMESPACE = os.environ.get("QLESS_PROTOCOL_NAMESPACE") or None
# The state directory of tests/cluster-fixture.sh's cluster: the suite then
# runs on the primary serving NAMESPACE (tests that call namespaces of their
# own, marked any_namespace, need one server and are deselected there).
CLUSTER = os.environ.get("QLESS_PROTOCOL_CLUSTER") or None
# What the script puts in front of `ql:` (and the proxy takes away).
NS = "" if NAMESPACE is None else "{%s}:" % NAMESPACE


def _require_env(name):
    value = os.environ.get(name)
    if not value:
        pytest.exit("%s is not set: run through ctest, or start tests/redis-fixture.sh "
                    "and export QLESS_TEST_STATE, QLESS_LUA_SCRIPT, QLESS_LUA_LIBRARY" % name,
                    returncode=2)
    return value


def pytest_configure(config):
    config.addinivalue_line("markers", "any_namespace: the test calls namespaces of its own")


def pytest_report_header(config):
    return "qless protocol mode: %s, namespace: %s" % (MODE, NAMESPACE)


class _NamespacedRedis(redis.Redis):
    """The raw connection as the tests see it under a namespace: a key or
    channel argument `ql:...` means `{NAME}:ql:...`, KEYS and SCAN answer
    without `{NAME}:`, and `'ql:` in the source of an EVAL names the
    namespace's keys. Calls of the artefact itself go through unchanged."""

    PASS = {"EVALSHA", "FCALL", "SCRIPT", "FUNCTION", "ACL"}

    def execute_command(self, *args, **options):
        name = str(args[0]).upper()
        if name in self.PASS:
            return super().execute_command(*args, **options)
        if name == "EVAL":
            args = (args[0], args[1].replace("'ql:", "'" + NS + "ql:")) + args[2:]
        else:
            args = tuple(_ns_arg(a) for a in args)
        reply = super().execute_command(*args, **options)
        if name == "KEYS":
            return [_strip_ns(k) for k in reply]
        if name == "SCAN":
            return reply[0], [_strip_ns(k) for k in reply[1]]
        return reply


# Text or bytes alike (a connection without decode_responses answers bytes).
def _ns_arg(a):
    if isinstance(a, str) and a.startswith("ql:"):
        return NS + a
    if isinstance(a, bytes) and a.startswith(b"ql:"):
        return NS.encode() + a
    return a


def _strip_ns(k):
    ns = NS.encode() if isinstance(k, bytes) else NS
    return k[len(ns):] if k.startswith(ns) else k


def _cluster_primary(state):
    """host, port of the primary serving NAMESPACE's slot on the cluster of
    tests/cluster-fixture.sh whose state directory is `state`."""
    with open(os.path.join(state, "nodes")) as f:
        port = int(f.readline().split()[0])
    c = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)
    slot = c.execute_command("CLUSTER", "KEYSLOT", "{%s}" % NAMESPACE)
    primary = primary_port(c, slot)
    if primary is not None:
        return "127.0.0.1", primary
    pytest.fail("no primary serves namespace %s on the cluster" % NAMESPACE, pytrace=False)


@pytest.fixture(scope="session")
def r():
    cls = redis.Redis if NAMESPACE is None else _NamespacedRedis
    if CLUSTER:
        # The suite on a Redis Cluster: every call in the namespace, on
        # the primary serving it (tests/cluster, ctest cluster.protocol).
        assert NAMESPACE, "QLESS_PROTOCOL_CLUSTER needs QLESS_PROTOCOL_NAMESPACE"
        host, port = _cluster_primary(CLUSTER)
        conn = cls(host=host, port=port, decode_responses=True)
    else:
        state = _require_env("QLESS_TEST_STATE")
        with open(os.path.join(state, "socket")) as f:
            sock = f.read().strip()
        conn = cls(unix_socket_path=sock, decode_responses=True)
    conn.ping()
    yield conn
    conn.close()


@pytest.fixture(scope="session")
def artefact_paths():
    return {"script": _require_env("QLESS_LUA_SCRIPT"),
            "function": _require_env("QLESS_LUA_LIBRARY")}


@pytest.fixture(scope="session")
def _loaded(r, artefact_paths):
    """Loads the artefact under test once per session; returns (mode, handle)."""
    if MODE not in ("script", "function"):
        pytest.exit("QLESS_PROTOCOL_MODE must be script or function, not %r" % MODE, returncode=2)
    with open(artefact_paths[MODE]) as f:
        source = f.read()
    if MODE == "script":
        return MODE, r.execute_command("SCRIPT", "LOAD", source)
    name = r.execute_command("FUNCTION", "LOAD", "REPLACE", source)
    assert name == "qless"
    return MODE, name


@pytest.fixture(autouse=True)
def _fresh_db(r, request):
    """Every test starts from an empty database (scripts/functions stay loaded).
    Under a namespace, every key a test leaves behind must be the namespace's
    (unless the test is marked `any_namespace`: it names its own)."""
    r.flushall()
    yield
    if NAMESPACE is not None and not request.node.get_closest_marker("any_namespace"):
        stray = [k for k in redis.Redis.execute_command(r, "KEYS", "*") if not k.startswith(NS + "ql:")]
        assert not stray, "keys outside namespace %s: %r" % (NAMESPACE, stray[:10])


@pytest.fixture
def ql(r, _loaded):
    mode, handle = _loaded
    return Qless(r, mode, handle, NAMESPACE)


class _Capture(list):
    """Context manager: collects (channel, payload) of every ql:* message
    published between __enter__ and __exit__, in delivery order.

    Reliability: the subscriptions are confirmed before the block runs; after
    it, a sentinel is published on a private channel (outside the ql: prefix)
    and messages are read until that sentinel arrives. Redis delivers messages
    to one subscriber in publish order, so everything the block published has
    arrived by then."""

    TIMEOUT = 5.0

    def __init__(self, conn):
        super().__init__()
        self._conn = conn
        self._sentinel = "qless-test-sentinel:" + uuid.uuid4().hex
        self._ps = None

    def __enter__(self):
        self._ps = self._conn.pubsub()
        self._ps.psubscribe(NS + "ql:*")
        self._ps.subscribe(self._sentinel)
        confirmed = 0
        while confirmed < 2:
            msg = self._ps.get_message(timeout=self.TIMEOUT)
            assert msg is not None, "pub/sub subscription not confirmed"
            if msg["type"] in ("psubscribe", "subscribe"):
                confirmed += 1
        return self

    def __exit__(self, *exc):
        try:
            self._conn.publish(self._sentinel, "end")
            while True:
                msg = self._ps.get_message(timeout=self.TIMEOUT)
                assert msg is not None, "pub/sub sentinel never arrived"
                if msg["type"] == "message" and msg["channel"] == self._sentinel:
                    break
                if msg["type"] == "pmessage":
                    self.append((msg["channel"][len(NS):], msg["data"]))
        finally:
            self._ps.close()
        return False


@pytest.fixture
def events(r):
    return lambda: _Capture(r)
