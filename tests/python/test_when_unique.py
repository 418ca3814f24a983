"""qless.when, the jids of unique entries and unique puts (schedules.md §4,
§5, §6.1-6.2, §7): the shared SWIG parts (qless_when as an object, the
int * and char[N] out-parameters, the unique fields of the options tables)
seen from Python."""
import datetime as dt
import json
import random

import pytest

import qless
from qless import _core

N = 1772619330   # 2026-03-04T10:15:30Z, the spec's now

# A few rows of §5.6: text -> (kind, at, interval, cron).
ROWS = [
    ("7pm tomorrow", ("at", 1772737200, 0, "")),
    ("in 0.5 seconds", ("at", 1772619330.5, 0, "")),
    ("2026-12-01T09:00:00+02:00", ("at", 1796108400, 0, "")),
    ("every 2 days at 9am", ("interval", 1772701200, 172800, "")),
    ("every mon, wed at 7:15", ("cron", 0, 0, "15 7 * * 1,3")),
    ("every day at 9am and 5pm", ("cron", 0, 0, "0 9,17 * * *")),
]


@pytest.mark.parametrize("text,want", ROWS)
def test_when_reads_the_reference_rows(text, want):
    w = qless.when(text, now=N)
    assert (w.kind, w.at, w.interval, w.cron) == want


def test_when_takes_now_as_number_or_datetime():
    aware = dt.datetime(2026, 3, 4, 12, 15, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    naive = dt.datetime(2026, 3, 4, 10, 15, 30)   # naive = UTC
    for now in (N, float(N), aware, naive):
        w = qless.when("in 5 minutes", now=now)
        assert w.at == N + 300, now
    assert w.datetime == dt.datetime(2026, 3, 4, 10, 20, 30, tzinfo=dt.timezone.utc)


def test_when_day_first_and_warning():
    # month first unless day_first; a weekday that is not the date's reads the date and warns
    assert qless.when("3/4/2027", now=N).at == 1804118400
    assert qless.when("3/4/2027", now=N, day_first=True).at == 1806710400
    assert qless.when("3/4/2027", now=N).warning == ""
    w = qless.when("Thu Aug 10", now=N)
    assert (w.kind, w.at) == ("at", 1786320000)
    assert w.warning == "2026-08-10 is a Monday, not a Thursday (it is in 2028); the date is used"
    assert qless.when("Mon Aug 10", now=N).warning == ""
    with pytest.raises(TypeError, match="when: day_first"):
        qless.when("3/4/2027", now=N, day_first=1)


def test_when_errors_name_the_word_and_column():
    with pytest.raises(qless.InvalidArgument, match='unknown word "tomorow" at column 1'):
        qless.when("tomorow", now=N)
    with pytest.raises(TypeError, match="when: text"):
        qless.when(None, now=N)
    with pytest.raises(TypeError, match="when: now"):
        qless.when("now", now="yesterday")


def test_time_format_fills_its_buffer():
    assert _core.qless_time_format(N) == "2026-03-04T10:15:30Z"
    assert _core.qless_time_format(1796115600.25) == "2026-12-01T09:00:00.25Z"


# §4.3: the identity as given -> the unique jid.
JIDS = [
    (dict(queue="mail", klass="Mailer", data='{ "to" : "a@b" }'), "b6eb329bdfb0f1b96bc14c4570da531b100a1a75"),
    (dict(queue="reports", klass="Report", data={}, cron="0 9 * * 1-5"), "be4080f17a420f6640e30b360724ea554a5b8b43"),
    (dict(queue="ops", klass="Ping", data={}, interval=300), "becb55413111b205921465fa56cc9c2941e4d5d5"),
    (dict(queue="mail", key="invoice-42"), "a86c123b7a84cd3dffb80a222479e2d0333d7f05"),
    (dict(queue="q", klass="K", data='{"name":"Zo\\u00eb","n":1.0}'), "ea8cb8c041e2c119ab73197ab498504607231857"),
]


@pytest.mark.parametrize("entry,jid", JIDS)
def test_unique_jid_is_the_spec_jid(entry, jid):
    queue = entry.pop("queue")
    assert qless.unique_jid(queue, **entry) == jid


def _respelled(rng, value):
    """value as JSON text with random key order and spacing (same identity)."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        sep = rng.choice([",", ", ", " ,\n"])
        return "{" + sep.join("%s%s%s" % (json.dumps(k), rng.choice([":", " : "]), _respelled(rng, v))
                              for k, v in items) + "}"
    return json.dumps(value)


def test_unique_puts_of_respelled_data_share_one_job(client):
    """Seeded: random data, put unique twice in two spellings: one jid (the
    C library's qless_unique_jid), one job, inserted then not."""
    rng = random.Random(1404)
    queue = client.queues["uniq"]
    for i in range(40):
        data = {"n": rng.randint(-5, 5), "s": rng.choice(["a", "é", ""]), "x": {"y": [i, rng.random() < 0.5]}}
        want = _core.qless_unique_jid("uniq", "K", json.dumps(data), None, 0)
        jid, inserted = queue.put("K", _respelled(rng, data), report=True)
        assert (jid, inserted) == (want, True), data
        assert queue.put("K", _respelled(rng, data), unique=True) == want
        assert queue.put("K", data, report=True) == (want, False)
        job = client.jobs[want]
        assert job.data == data and len(job.history) == 1
    assert queue.length == 40


def test_unique_put_by_key_and_a_complete_job_runs_again(client):
    queue = client.queues["uniq"]
    jid = queue.put("K", {"a": 1}, key="invoice-42")
    assert jid == qless.unique_jid("uniq", key="invoice-42")
    assert queue.put("K", {"a": 2}, key="invoice-42", report=True) == (jid, False)
    assert client.jobs[jid].data == {"a": 1}
    queue.pop().complete()
    assert queue.put("K", {"a": 3}, key="invoice-42", report=True) == (jid, True)
    assert client.jobs[jid].state == "waiting"
    # Without unique, a put is plain qless: a new jid every time.
    assert queue.put("K", {"a": 1}) != queue.put("K", {"a": 1})


def test_unique_recur_keeps_the_existing_template(client):
    queue = client.queues["uniq"]
    jid = queue.recur("K", {"r": 1}, interval=300, unique=True)
    assert jid == qless.unique_jid("uniq", "K", {"r": 1}, interval=300)
    assert queue.recur("K", {"r": 1}, interval=300, unique=True, priority=7) == jid
    assert client.recurring[jid].priority == 0
    assert queue.recur("K", {"r": 1}, interval=60, key="nightly") == qless.unique_jid("uniq", key="nightly")


def test_unique_options_of_the_wrong_type_name_the_option(client):
    handle = client.queues["uniq"]._h
    with pytest.raises(TypeError, match="option 'unique' must be an integer"):
        handle.put("K", None, {"unique": "yes"})
    with pytest.raises(TypeError, match="option 'unique_key' must be a string"):
        handle.recur("K", None, 60, {"unique": 1, "unique_key": 5})
    assert client.queues["uniq"].length == 0
