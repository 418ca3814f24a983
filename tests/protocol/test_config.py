"""§5.29 and §10 configuration (CFG-*)."""
import json

import pytest

DEFAULTS = {"application": "qless", "grace-period": 10, "heartbeat": 60,
            "histogram-history": 7, "jobs-history": 604800,
            "jobs-history-count": 50000, "stats-history": 30}


def test_cfg_1_all_defaults(ql):
    """CFG-1: config.get 0 -> exactly the seven defaults."""
    assert ql.json("config.get", 0) == DEFAULTS
    raw = ql("config.get", 0)
    assert '"application":"qless"' in raw
    assert '"jobs-history":604800' in raw


@pytest.mark.parametrize("key", sorted(DEFAULTS))
def test_cfg_2_each_default(ql, key):
    """CFG-2: config.get 0 <key> returns the default (integer replies for numbers)."""
    value = ql("config.get", 0, key)
    assert value == DEFAULTS[key]
    assert type(value) is type(DEFAULTS[key])


def test_cfg_3_set_arbitrary_key(ql, r):
    """CFG-3: config.set 0 foo bar -> config.get 0 foo = bar."""
    assert ql("config.set", 0, "foo", "bar") is None
    assert ql("config.get", 0, "foo") == "bar"
    assert r.hget("ql:config", "foo") == "bar"


def test_cfg_4_override_and_unset_default(ql):
    """CFG-4: heartbeat 100 -> 100; after unset -> default 60."""
    ql.config("heartbeat", 100)
    assert ql("config.get", 0, "heartbeat") == "100"
    assert ql("config.unset", 0, "heartbeat") is None
    assert ql("config.get", 0, "heartbeat") == 60


def test_cfg_5_unknown_key_nil(ql, r):
    """CFG-5: never-set key -> nil; set 5 -> 5; unset -> nil."""
    assert ql("config.get", 0, "foo") is None
    ql.config("foo", 5)
    assert ql("config.get", 0, "foo") == "5"
    ql("config.unset", 0, "foo")
    assert ql("config.get", 0, "foo") is None
    assert not r.hexists("ql:config", "foo")


def test_cfg_6_set_event(ql, events):
    """CFG-6: config.set publishes the exact config_set message."""
    with events() as ev:
        ql("config.set", 0, "foo", "bar")
    assert ev == [("ql:log", '{"option":"foo","event":"config_set","value":"bar"}')]


def test_cfg_6_set_event_value_always_string(ql, events):
    """§9.2: config_set's value is always a JSON string."""
    with events() as ev:
        ql("config.set", 0, "heartbeat", 30)
    assert ev == [("ql:log", '{"option":"heartbeat","event":"config_set","value":"30"}')]


def test_cfg_7_unset_event(ql, events):
    """CFG-7: config.unset publishes the exact config_unset message."""
    ql.config("foo", "bar")
    with events() as ev:
        ql("config.unset", 0, "foo")
    assert ev == [("ql:log", '{"event":"config_unset","option":"foo"}')]


def test_cfg_8_stored_values_are_strings(ql):
    """CFG-8: config.get 0 after set heartbeat 30 shows "heartbeat":"30"."""
    ql.config("heartbeat", 30)
    ql.config("foo", "bar")
    expected = dict(DEFAULTS, heartbeat="30", foo="bar")
    assert ql.json("config.get", 0) == expected
    assert '"heartbeat":"30"' in ql("config.get", 0)


def test_cfg_9_malformed(ql, r):
    """CFG-9: config.set without value / config.unset without key -> err."""
    ql.err("config.set", 0, "foo")
    ql.err("config.set", 0)
    ql.err("config.unset", 0)
    assert r.dbsize() == 0


def test_cfg_get_nothing_published(ql, events):
    """§9.3: config.get publishes nothing."""
    with events() as ev:
        ql("config.get", 0)
        ql("config.get", 0, "heartbeat")
    assert ev == []
