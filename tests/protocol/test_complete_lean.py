"""complete's and settle's hot path takes shortcuts (checks without a call
each, fields settle knows without reading them back): what they give must
be what the long way gives, the refusals included."""
import json

import pytest

from helpers import digest, jids

SETTLE_FIELDS = ("state", "queue", "worker", "expires", "remaining", "failure")


def hold(ql, *extra):
    """j0 popped by `worker` from `queue`, j1 waiting."""
    ql.put("j0", queue="queue")
    ql.put("j1", now=1, queue="queue")
    for jid in extra:
        ql.put(jid, now=1, queue="other", depends='["j0"]')
    assert jids(ql.pop(now=2, queue="queue")) == ["j0"]


def refused(ql, r, says, command, *args):
    before = digest(r)
    msg = ql.err(command, 10, *args)
    assert says in msg, msg
    assert digest(r) == before
    return msg


@pytest.mark.parametrize("suffix", ["-history", "-dependents", "-dependencies"])
def test_jid_with_key_suffix_refused(ql, r, suffix):
    hold(ql)
    jid = "j0" + suffix
    refused(ql, r, 'Complete(): Arg "jid" must not end in "%s"' % suffix,
            "complete", jid, "worker", "queue", "{}")
    refused(ql, r, 'Arg "jid" must not end in "%s"' % suffix,
            "settle", "worker", '["queue"]', 1, "complete", jid, "queue", "{}")


def test_missing_arguments_named_in_order(ql, r):
    hold(ql)
    refused(ql, r, 'Complete(): Arg "jid" missing', "complete")
    refused(ql, r, 'Complete(): Arg "worker" missing', "complete", "j0")
    refused(ql, r, 'Complete(): Arg "queue" missing', "complete", "j0", "worker")
    refused(ql, r, 'Complete(): Arg "data" missing', "complete", "j0", "worker", "queue")


def test_data_checked_after_a_valid_one(ql, r):
    """The data last found valid passes without a parse: other data is
    still checked."""
    hold(ql)
    ql("complete", 3, "j0", "worker", "queue", '{"a": 1}')
    assert jids(ql.pop(now=4, queue="queue")) == ["j1"]
    refused(ql, r, 'Complete(): Arg "data" not JSON', "complete", "j1", "worker", "queue", '{"a": 01}')
    assert ql("complete", 5, "j1", "worker", "queue", '{"a": 1}') == "complete"


def test_settle_fields_when_dependents_released(ql, r):
    """A release writes other jobs: the settled job's fields still read as
    stored."""
    hold(ql, "j9")
    result, fields, jobs = ql("settle", 3, "worker", '["queue"]', 0, "complete", "j0", "queue", "{}")
    assert result == "complete"
    assert fields == r.hmget("ql:j:j0", *SETTLE_FIELDS)
    assert fields == ["complete", "", "", "0", "5", "{}"]
    assert ql.state("j9") == "waiting"


@pytest.mark.parametrize("retries", ["0", "7", "10000000"])
def test_settle_fields_as_stored(ql, r, retries):
    ql.put("j0", queue="queue", retries=retries)
    assert jids(ql.pop(now=2, queue="queue")) == ["j0"]
    _, fields, _ = ql("settle", 3, "worker", '["queue"]', 0, "complete", "j0", "queue", "{}")
    assert fields == r.hmget("ql:j:j0", *SETTLE_FIELDS)
    assert fields[4] == retries


def test_settle_checks_after_valid_calls(ql, r):
    """settle keeps the last queues, count and data it checked: other text
    is still checked, in the order the checks run."""
    ql.put("j0", queue="queue")
    ql.put("j1", now=1, queue="queue")
    ql.put("j2", now=2, queue="queue")
    assert jids(ql.pop(now=3, queue="queue")) == ["j0"]
    _, _, jobs = ql("settle", 4, "worker", '["queue"]', 1, "complete", "j0", "queue", '{"a": 1}')
    assert jids(json.loads(jobs)) == ["j1"]
    refused(ql, r, 'Settle(): Arg "count" must be a whole number', "settle", "worker", '["queue"]', "1.5",
            "complete", "j1", "queue", '{"a": 1}')
    refused(ql, r, 'Settle(): Arg "queues" must hold non-empty strings', "settle", "worker", '["queue", ""]', 1,
            "complete", "j1", "queue", '{"a": 1}')
    refused(ql, r, 'Settle(): Arg "data" not a JSON object: 5', "settle", "worker", '["queue"]', 1,
            "complete", "j1", "queue", "5")
    refused(ql, r, 'Settle(): Arg "data" not a JSON object: 5', "settle", "worker", '["queue"]', 1,
            "complete", "j1", "queue", "5")
    refused(ql, r, 'Settle(): Arg "queue" missing', "settle", "worker", '["queue"]', 1, "complete", "j1")
    _, _, jobs = ql("settle", 5, "worker", '["queue"]', 2, "complete", "j1", "queue", '{"a": 1}')
    assert jids(json.loads(jobs)) == ["j2"]
