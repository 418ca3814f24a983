"""Generative protocol test: random and boundary arguments to every command.

Each call is built from a small per-command schema of valid arguments and then,
half of the time, mutated (a boundary or random value in one slot, a missing or
extra argument, an odd option count, a bad `now`, a jid colliding with another
job's keys). Valid calls between them keep the database varied: jobs in every
state, recurring jobs, tags, failures, dependencies, tracked jobs, config.

For every call the reply must be a value or a clean error of the protocol's
form (`Name(): ...`, optionally behind Lua's `user_script:N:` prefix); never a
Lua runtime error or a raw Redis error. After every error the database must
be unchanged (a type-aware digest of all keys). A value an argument check must
refuse (non-finite or out-of-range number, non-UTF-8 text, a JSON list with
non-string items, a jid ending like a job key suffix...) must not be accepted.
After accepted mutated calls, and now and then, read-only health commands over
every queue, job, tag, group, template and worker must succeed and reply with
strict JSON; at the end every queue pops.

Bounded and seeded: QLESS_FUZZ_SEED (default: random, printed),
QLESS_FUZZ_CALLS (default 3000) and QLESS_FUZZ_SECONDS (default 15). The long
form, in both modes: bash tests/protocol/fuzz.sh [CALLS [SECONDS [SEED]]].
"""
import collections
import json
import os
import random
import re
import time

import redis

from helpers import digest, error_kinds, same_server

CALLS = int(os.environ.get("QLESS_FUZZ_CALLS", "3000"))
SECONDS = float(os.environ.get("QLESS_FUZZ_SECONDS", "15"))
RESET_EVERY = 400

JIDS = ["j%d" % i for i in range(8)]
RJIDS = ["r0", "r1", "r2"]
QUEUES = ["q0", "q1", "q2"]
WORKERS = ["w0", "w1"]
GROUPS = ["g0", "g1"]
TAGS = ["t0", "t1", "t2"]
ALIASES = ["al0", "al1", "al/2"]
STATES = ["running", "stalled", "scheduled", "depends", "recurring", "suspended", "terminating",
          "terminated"]
STATE_KEYS = ["s0", "s/1", "s 2"]
PORTS = ["p0", "p1"]
CHANNELS = ["/", "/c0", "/c0/c1", "/c1", "/qless/workers"]
PORT_DEFS = ['{"p0":{}}', '{"*":{"default":0}}', '{}', '{"p1":{"default":[1]},"p0":{}}']
# Valid cron expressions: sparse and dense, both forms, a macro, names, one
# that has fired its last time by the fuzzer's clock.
CRONS = ["0 * * * *", "*/5 * * * *", "* * * * * */2 30", "@hourly", "0 0 1,15 * MON", "*/2 * * * 5L",
         "2999 12 31 * 23 59 59", "1970 1 1 * 0 20 0"]
CONFIG = ["heartbeat", "grace-period", "jobs-history", "jobs-history-count", "max-job-history",
          "max-worker-age", "stats-history", "histogram-history", "application",
          "q0-heartbeat", "q1-max-concurrency"]

NONFINITE = ["nan", "NaN", "inf", "-inf", "1e999", "-1e999", "Infinity"]
NEGATIVE = ["-1", "-0.5", "-1e18"]
HUGE = ["1e18", str(2 ** 53), "9" * 400]
NOT_UTF8 = [b"\xff", b"q\xc3", b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80",
            b'["\xff"]', b'{"a":"\xfe"}']
SUFFIXED = ["j1-history", "j2-dependents", "j3-dependencies", "r0-history"]
SUFFIXED_LIST = ['["j1-history"]', '["j0", "j2-dependents"]']
BAD_LISTS = ["[null]", "[{}]", "[1]", "[[]]", '["a",null]', '{"a":"b"}', '"x"', "null", "1"]
BAD_JSON = ["[", "{}x", "nan", "[nan]", '{"a":1e999}', "[0x10]", "0x10", '["\x01"]',
            '{"a":01}', "[" * 1500 + "]" * 1500]
OTHER = ["", "0", "1", "1.5", "-0", "-0", "-0.0", "0x10", " 7 ", "x", "{}", "[]", "null", '"x"', "true",
         "[" * 40 + "]" * 40, "complete", "all", "on", "off", "j0", "q0", "w0"]
BAD_VALUES = NONFINITE + NEGATIVE + HUGE + NOT_UTF8 + SUFFIXED + SUFFIXED_LIST + BAD_LISTS + BAD_JSON + OTHER

# Error texts of a clean refusal (after Lua's position prefix and the error
# kind, one of QLESS_ERRORS' class names).
CLEAN = re.compile(r"^([A-Z][A-Za-z.]*\(\): |Arg \"now\" |Unknown command |Must provide a command)")
POSITION = re.compile(r"^(?:ERR )?(?:user_script|user_function):\d+: \[(?:%s)\] "
                      % "|".join(k for k in error_kinds() if k != "ProtocolError"))
RUNTIME = ("attempt to", "bad argument", "Cannot serialise", "WRONGTYPE", "Error running script",
           "is not an integer or out of range", "is not a valid float", "stack overflow", "Expected value")



# ---- argument schema -------------------------------------------------------
# A builder returns the valid arguments of one call as (kind, value) pairs;
# the kind says what an argument check must refuse in that slot.

def _pick(rng, pool):
    return rng.choice(pool)


def _data(rng):
    return rng.choice(['{}', '{"a":1}', '[1,"x"]', '{"k":[true,null,-2.5e3]}'])


def _list(rng, pool):
    return json.dumps(rng.sample(pool, rng.randrange(0, 3)))


def _options(rng, spec):
    out = []
    for name, kind, make in spec:
        if rng.random() < 0.3:
            out += [("word", name), (kind, make(rng))]
    return out


PUT_OPTS = [("priority", "num", lambda g: str(g.choice([0, 1, -3, 2.5]))),
            ("retries", "int", lambda g: str(g.choice([0, 1, 5]))),
            ("tags", "list", lambda g: _list(g, TAGS)),
            ("depends", "list", lambda g: _list(g, JIDS)),
            ("tree", "one", lambda g: "1"),
            ("by", "text", lambda g: _pick(g, WORKERS)),
            ("parent", "jid", lambda g: _pick(g, JIDS)),
            ("name", "text", lambda g: _pick(g, ["c0", "c1"])),
            ("aliases", "aliases", lambda g: json.dumps(g.sample(ALIASES, g.randrange(0, 3)))),
            ("inports", "ports", lambda g: _pick(g, PORT_DEFS)),
            ("outports", "ports", lambda g: _pick(g, PORT_DEFS)),
            ("unique", "unique", lambda g: g.choice(["1", "report"]))]
# requeue ignores `unique` (schedules.md §3.7): any value passes.
REQUEUE_OPTS = PUT_OPTS[:-1] + [("unique", "text", lambda g: g.choice(["1", "report"]))]
RECUR_OPTS = [("priority", "num", lambda g: str(g.choice([0, 2]))),
              ("retries", "int", lambda g: str(g.choice([0, 3]))),
              ("backlog", "int", lambda g: str(g.choice([0, 2]))),
              ("tags", "list", lambda g: _list(g, TAGS)),
              ("unique", "unique", lambda g: g.choice(["1", "report"]))]


def b_put(rng, opts=PUT_OPTS):
    return ([("worker", _pick(rng, WORKERS)), ("queue", _pick(rng, QUEUES)), ("jid", _pick(rng, JIDS)),
             ("text", "K"), ("data", _data(rng)), ("delay", rng.choice(["0", "0", "5", "50"]))]
            + _options(rng, opts))


def b_complete(rng):
    args = [("jid", _pick(rng, JIDS)), ("worker", _pick(rng, WORKERS)), ("queue", _pick(rng, QUEUES)),
            ("data", _data(rng))]
    if rng.random() < 0.4:
        args += [("word", "next"), ("queue", _pick(rng, QUEUES))]
        if rng.random() < 0.5:
            args += [("word", "delay"), ("delay", rng.choice(["0", "10"]))]
        if rng.random() < 0.5:
            args += [("word", "depends"), ("list", _list(rng, JIDS))]
    return args


def b_retry(rng):
    args = [("jid", _pick(rng, JIDS)), ("queue", _pick(rng, QUEUES)), ("worker", _pick(rng, WORKERS))]
    n = rng.randrange(4)
    if n >= 1:
        args.append(("delay", rng.choice(["0", "3"])))
    if n >= 2:
        args.append(("text", _pick(rng, GROUPS)))
    if n >= 3:
        args.append(("text", "oops"))
    return args


def b_tag(rng):
    sub = rng.choice(["add", "remove", "get", "top"])
    if sub in ("add", "remove"):
        return [("word", sub), ("jid", _pick(rng, JIDS))] + [("text", t) for t in rng.sample(TAGS, 2)]
    paging = [("count", rng.choice(["0", "1", "10"])), ("count", rng.choice(["1", "25"]))]
    head = [("word", sub)] + ([("text", _pick(rng, TAGS))] if sub == "get" else [])
    return head + paging[:rng.randrange(3)]


PAGE_STATES = ["waiting", "running", "stalled", "scheduled", "depends", "recurring", "suspended", "complete"]
SEARCH_FILTERS = {"jid": lambda g: _pick(g, JIDS), "prefix": lambda g: _pick(g, JIDS)[:2],
                  "tag": lambda g: _pick(g, TAGS), "class": lambda g: g.choice(["K", "klass", "Other"]),
                  "queue": lambda g: _pick(g, QUEUES), "worker": lambda g: _pick(g, WORKERS),
                  "state": lambda g: g.choice(["waiting", "running", "stalled", "failed", "complete"])}


def b_search(rng):
    args = [("text", rng.choice(["", "0", "5"])), ("count", rng.choice(["1", "25"])),
            ("count", rng.choice(["1", "50", "1000"]))]
    for name in rng.sample(sorted(SEARCH_FILTERS), rng.randrange(1, 4)):
        args += [("word", name), ("text", SEARCH_FILTERS[name](rng))]
    return args


def b_jobs(rng):
    paging = [("count", rng.choice(["0", "2"])), ("count", rng.choice(["1", "25"]))][:rng.randrange(3)]
    if rng.random() < 0.2:
        return [("word", "complete")] + paging
    return [("word", rng.choice(STATES)), ("queue", _pick(rng, QUEUES))] + paging


def b_depends(rng):
    jid = _pick(rng, JIDS)
    if rng.random() < 0.5:
        return [("jid", jid), ("word", "on")] + [("jid", j) for j in rng.sample(JIDS, 2)]
    if rng.random() < 0.5:
        return [("jid", jid), ("word", "off"), ("word", "all")]
    return [("jid", jid), ("word", "off"), ("jid", _pick(rng, JIDS))]


def b_recur(rng):
    head = [("queue", _pick(rng, QUEUES)), ("rjid", _pick(rng, RJIDS)), ("text", "K"), ("data", _data(rng))]
    if rng.random() < 0.4:
        return head + [("word", "cron"), ("cron", _pick(rng, CRONS))] + _options(rng, RECUR_OPTS)
    return (head + [("word", "interval"), ("pos", rng.choice(["60", "300", "90.5"])),
                    ("num", rng.choice(["0", "-5", "20"]))]
            + _options(rng, RECUR_OPTS))


def b_recur_update(rng):
    updates = [("priority", "num", "3"), ("retries", "int", "2"), ("backlog", "int", "1"),
               ("interval", "pos", "15"), ("data", "data", '{"u":1}'), ("klass", "text", "K2"),
               ("queue", "queue", _pick(rng, QUEUES)), ("cron", "cron", _pick(rng, CRONS))]
    args = [("rjid", _pick(rng, RJIDS))]
    for name, kind, value in rng.sample(updates, rng.randrange(1, 3)):
        args += [("word", name), (kind, value)]
    return args


def b_settle(rng):
    args = [("worker", _pick(rng, WORKERS)), ("list", json.dumps(rng.sample(QUEUES, rng.randrange(1, 3)))),
            ("count", rng.choice(["0", "1", "2"]))]
    how = rng.choice([None, "complete", "fail", "retry", "suspend", "terminated"])
    if how is None:
        return args
    args += [("word", how), ("jid", _pick(rng, JIDS)), ("queue", _pick(rng, QUEUES)), ("data", _data(rng))]
    if how == "fail":
        args += [("text", _pick(rng, GROUPS)), ("text", "broke")]
    elif how == "retry":
        args.append(("delay", rng.choice(["0", "4"])))
        if rng.random() < 0.5:
            args += [("text", _pick(rng, GROUPS)), ("text", "later")]
    return args


def b_config_set(rng):
    key = _pick(rng, CONFIG)
    # `application` is text; the others are read as numbers.
    return [("text", key), ("text" if key == "application" else "num", rng.choice(["1", "5", "30", "100"]))]


def _port(rng):
    return [("jid", _pick(rng, JIDS)), ("dir", rng.choice(["in", "out"])), ("port", _pick(rng, PORTS))]


def _some(kind, pool, low=1):
    return lambda g: [(kind, v) for v in g.sample(pool, g.randrange(low, 3))]


SCHEMA = {
    "get": lambda g: [("jid", _pick(g, JIDS))],
    "multiget": _some("jid", JIDS),
    "put": b_put,
    "requeue": lambda g: b_put(g, REQUEUE_OPTS),
    "pop": lambda g: [("queue", _pick(g, QUEUES)), ("worker", _pick(g, WORKERS)),
                      ("count", g.choice(["1", "1", "2", "5"]))],
    "peek": lambda g: [("queue", _pick(g, QUEUES)), ("count", g.choice(["0", "1", "3"]))],
    "complete": b_complete,
    "fail": lambda g: [("jid", _pick(g, JIDS)), ("worker", _pick(g, WORKERS)), ("text", _pick(g, GROUPS)),
                       ("text", "broke")] + ([("data", _data(g))] if g.random() < 0.5 else []),
    "retry": b_retry,
    "heartbeat": lambda g: [("jid", _pick(g, JIDS)), ("worker", _pick(g, WORKERS))]
    + ([("data", _data(g))] if g.random() < 0.5 else []),
    "timeout": _some("jid", JIDS),
    "cancel": _some("jid", JIDS),
    "depends": b_depends,
    "priority": lambda g: [("jid", _pick(g, JIDS)), ("num", g.choice(["0", "7", "-2", "1.5"]))],
    "log": lambda g: [("jid", _pick(g, JIDS)), ("text", "note")]
    + ([("data", g.choice(['{"x":1}', '{}']))] if g.random() < 0.5 else []),
    "tag": b_tag,
    "track": lambda g: g.choice([[], [("word", g.choice(["track", "untrack"])), ("jid", _pick(g, JIDS))]]),
    "jobs": b_jobs,
    "queues": lambda g: g.choice([[], [("queue", _pick(g, QUEUES))]]),
    "length": lambda g: [("queue", _pick(g, QUEUES))],
    "failed": lambda g: [[], [("text", _pick(g, GROUPS))],
                         [("text", _pick(g, GROUPS)), ("count", "0"), ("count", "5")]][g.randrange(3)],
    "unfail": lambda g: [("queue", _pick(g, QUEUES)), ("text", _pick(g, GROUPS))]
    + ([("count", g.choice(["1", "5"]))] if g.random() < 0.5 else []),
    "pause": _some("queue", QUEUES),
    "unpause": _some("queue", QUEUES),
    "queue.forget": _some("queue", QUEUES),
    "workers": lambda g: g.choice([[], [("worker", _pick(g, WORKERS))]]),
    "worker.deregister": _some("worker", WORKERS),
    "stats": lambda g: [("queue", _pick(g, QUEUES)), ("num", g.choice(["0", "100", "86400"]))],
    "config.get": lambda g: g.choice([[], [("text", _pick(g, CONFIG))]]),
    "config.set": b_config_set,
    "config.unset": lambda g: [("text", _pick(g, CONFIG))],
    "recur": b_recur,
    "recur.get": lambda g: [("rjid", _pick(g, RJIDS))],
    "recur.update": b_recur_update,
    "recur.tag": lambda g: [("rjid", _pick(g, RJIDS))] + [("text", t) for t in g.sample(TAGS, 2)],
    "recur.untag": lambda g: [("rjid", _pick(g, RJIDS))] + [("text", t) for t in g.sample(TAGS, 1)],
    "unrecur": lambda g: [("rjid", _pick(g, RJIDS))],
    "recur.next": lambda g: [("rjid", _pick(g, RJIDS))] + ([("count", g.choice(["1", "3", "1000"]))]
                                                           if g.random() < 0.7 else []),
    "cron.next": lambda g: [("cron", _pick(g, CRONS))] + ([("count", g.choice(["1", "5", "1000"]))]
                                                         if g.random() < 0.7 else []),
    "settle": b_settle,
    "schedule.list": lambda g: [("queue", _pick(g, QUEUES))]
    + [("count", g.choice(["0", "1", "5"])), ("count", g.choice(["1", "3", "1000"]))][:g.randrange(3)],
    "schedule.remove": lambda g: [("queue", _pick(g, QUEUES)), ("jid", _pick(g, JIDS + RJIDS))],
    "tree.get": lambda g: [("jid", _pick(g, JIDS))],
    "alias.set": lambda g: [("jid", _pick(g, JIDS))] + [("alias", a) for a in g.sample(ALIASES, g.randrange(1, 3))],
    "alias.get": lambda g: [("text", _pick(g, ALIASES))],
    "job.adopt": lambda g: [("jid", _pick(g, JIDS)), ("text", _pick(g, ["c0", "c1"])), ("jid", _pick(g, JIDS))],
    "job.disown": lambda g: [("jid", _pick(g, JIDS)), ("text", _pick(g, ["c0", "c1"]))],
    "alias.del": _some("text", ALIASES),
    "job.started": lambda g: [("jid", _pick(g, JIDS)), ("worker", _pick(g, WORKERS))],
    "job.suspend": lambda g: [("jid", _pick(g, JIDS)), ("worker", _pick(g, WORKERS))],
    "job.run": lambda g: [("jid", _pick(g, JIDS))] + ([("delay", g.choice(["0", "5"]))]
                                                      if g.random() < 0.5 else []),
    "job.terminate": lambda g: [("jid", _pick(g, JIDS))] + ([("word", "recursive")]
                                                            if g.random() < 0.5 else []),
    "job.terminated": lambda g: [("jid", _pick(g, JIDS)), ("worker", _pick(g, WORKERS))],
    "state.get": lambda g: [("jid", _pick(g, JIDS))] + g.choice([[], [("text", _pick(g, STATE_KEYS))]]),
    "state.set": lambda g: [("jid", _pick(g, JIDS))]
    + [p for k in g.sample(STATE_KEYS, g.randrange(1, 3)) for p in (("text", k), ("data", _data(g)))],
    "state.del": lambda g: [("jid", _pick(g, JIDS))] + _some("text", STATE_KEYS)(g),
    "job.delete": lambda g: [("jid", _pick(g, JIDS))],
    "port.define": lambda g: _port(g)[:2] + [("ports", _pick(g, PORT_DEFS))],
    "port.remove": lambda g: _port(g)[:2] + [("text", p) for p in g.sample(PORTS + ["*"], g.randrange(1, 3))],
    "port.write": lambda g: _port(g) + [("data", _data(g)) for _ in range(g.randrange(1, 3))],
    "port.read": lambda g: _port(g) + ([("count", g.choice(["1", "5", "1000"]))] if g.random() < 0.5 else []),
    "port.peek": lambda g: _port(g) + ([("count", g.choice(["1", "5"]))] if g.random() < 0.5 else []),
    "port.size": _port,
    "port.connect": lambda g: _port(g) + [("text", c) for c in g.sample(CHANNELS, g.randrange(1, 3))],
    "port.disconnect": lambda g: _port(g) + [("channel", c) for c in g.sample(CHANNELS, g.randrange(1, 3))],
    "channel.publish": lambda g: [("text", _pick(g, CHANNELS)), ("data", _data(g))]
    + ([("text", _pick(g, JIDS))] if g.random() < 0.3 else []),
    "channel.subscribers": lambda g: [("channel", _pick(g, CHANNELS))],
    "worker.register": lambda g: [("queue", _pick(g, QUEUES)), ("text", "K"),
                                  ("config", '{"inports":%s,"outports":%s}' % (_pick(g, PORT_DEFS), _pick(g, PORT_DEFS)))],
    "worker.config": lambda g: [("queue", _pick(g, QUEUES))] + ([("text", "K")] if g.random() < 0.5 else []),
    "worker.unregister": lambda g: [("queue", _pick(g, QUEUES)), ("text", "K")],
    # pages.lua, failed_bulk.lua, page_trees.lua, dash_metrics.lua, search.lua: the dashboard
    "jobs.page": lambda g: [("word", g.choice(PAGE_STATES)), ("queue", _pick(g, QUEUES))]
    + [("count", g.choice(["0", "2"])), ("count", g.choice(["1", "25", "500"]))][:g.randrange(3)],
    "jobs.summaries": _some("jid", JIDS),
    "tagged.page": lambda g: [("text", _pick(g, TAGS))]
    + [("count", g.choice(["0", "1"])), ("count", g.choice(["1", "25"]))][:g.randrange(3)],
    "tracked.page": lambda g: [("count", g.choice(["0", "1"])), ("count", g.choice(["1", "25"]))][:g.randrange(3)],
    "failed.page": lambda g: [("text", _pick(g, GROUPS))]
    + [("count", g.choice(["0", "1"])), ("count", g.choice(["1", "25"]))][:g.randrange(3)],
    "failed.retry": lambda g: [("text", _pick(g, GROUPS))] + ([("count", g.choice(["0", "1", "5"]))]
                                                              if g.random() < 0.7 else []),
    "failed.cancel": lambda g: [("text", _pick(g, GROUPS))] + ([("count", g.choice(["0", "1", "5"]))]
                                                               if g.random() < 0.7 else []),
    "worker.page": lambda g: [("worker", _pick(g, WORKERS))] + ([("count", g.choice(["1", "100"]))]
                                                                if g.random() < 0.5 else []),
    "metrics.extra": lambda g: [],
    "schedules.list": lambda g: [],
    "tree.walk": lambda g: [("jid", _pick(g, JIDS))] + ([("count", g.choice(["1", "200"]))] if g.random() < 0.5 else []),
    "search": b_search,
    "search.reindex": lambda g: [("text", g.choice(["", '{"p":1,"n":"q0","k":2,"o":0}', '{"p":3,"n":"","k":1,"o":1}']))]
    + ([("count", g.choice(["1", "3", "1000"]))] if g.random() < 0.7 else []),
}

# Valid traffic leans on the commands that change state.
BUSY = ["put"] * 6 + ["pop"] * 5 + ["complete"] * 3 + ["fail", "retry", "heartbeat", "settle", "recur",
                                                        "cancel", "depends", "tag", "timeout"]


# ---- oracle: what an argument check must refuse -----------------------------

def _utf8(value):
    if isinstance(value, bytes):
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True


def _number(value):
    """The value as Lua 5.1's tonumber reads it (decimal, or 0x hex), or None."""
    try:
        text = (value.decode() if isinstance(value, bytes) else value).strip()
        if re.match(r"^-?0[xX][0-9a-fA-F]+$", text):
            return float(int(text, 16))
        return float(text)
    except (ValueError, UnicodeDecodeError):
        return None


def must_refuse(kind, value):
    """True when `value` in a slot of `kind` is wrong whatever the state."""
    if not _utf8(value):
        return True
    if kind in ("num", "count", "delay", "int", "pos", "now"):
        n = _number(value)
        if n is not None and (n != n or n in (float("inf"), float("-inf"))):
            return True
        if kind in ("count", "delay", "int") and n is not None and n < 0:
            return True
        if kind in ("count", "int") and n is not None and n >= 2 ** 53:
            return True
        return kind == "pos" and n is not None and n <= 0
    if kind == "jid":
        return value in SUFFIXED
    if kind == "cron":
        return True   # no bad value is a 5- or 7-field expression or a macro
    if kind == "list":
        # Numbers stand for their decimal text in tags and depends (as
        # upstream qless); settle's queue list refuses them (settle_refuses).
        return (value in BAD_LISTS and value != "[1]") or value in BAD_JSON
    if kind == "data":
        return value in BAD_JSON or value in ("nan", "0x10")
    if kind == "unique":
        return value not in ("1", "report")
    if kind == "one":
        return value != "1"
    if kind == "aliases":
        return value in BAD_JSON or not (value.lstrip()[:1] == "[" if isinstance(value, str) else False)
    if kind == "dir":
        return value not in ("in", "out")
    if kind == "port":
        return not (isinstance(value, str) and re.match(r"^[A-Za-z0-9_]+\Z", value))
    if kind == "channel":
        return not (isinstance(value, str) and (value == "/" or re.match(r"^(/[^/\x00-\x20\x7f]+)+\Z", value))
                    and len(value) <= 500)
    if kind in ("ports", "config"):
        return value in BAD_JSON or not (isinstance(value, str) and value.lstrip()[:1] == "{")
    if kind == "alias":
        return isinstance(value, str) and (value == "" or any(c.isspace() or ord(c) < 32 for c in value))
    return False


def settle_refuses(args):
    """Whether settle's arguments break its documented rules, whatever the
    state (the rules of the sweep this fuzzer replaced)."""
    try:
        args = [a.decode() if isinstance(a, bytes) else a for a in args]
        if len(args) < 3 or args[0] == "":
            return True
        queues = json.loads(args[1])
        if queues == {}:
            queues = []   # cjson's empty list
        if not isinstance(queues, list) or any(not isinstance(q, str) or q == "" for q in queues):
            return True
        count = _number(args[2])
        if count is None or count != count or not 0 <= count <= 1000 or count != int(count) or (count > 0 and not queues):
            return True
        if len(args) == 3:
            return False
        how, rest = args[3], args[4:]
        if len(rest) < 3 or rest[0] == "" or not isinstance(json.loads(rest[2]), (dict, list)):
            return True
        if how == "complete":
            return False
        if how == "fail":
            return len(rest) != 5 or rest[3] == ""
        if how == "retry":
            if len(rest) not in (4, 6) or (len(rest) == 6 and rest[4] == ""):
                return True
            delay = _number(rest[3])
            return delay is None or not 0 <= delay < float("inf")
        if how in ("suspend", "terminated"):
            return len(rest) != 3
        return True
    except (ValueError, UnicodeDecodeError, RecursionError):
        return True


# ---- the run -----------------------------------------------------------------

class Fuzzer:
    def __init__(self, ql, rng):
        self.ql = ql
        self.raw = same_server(ql.r)
        self.rng = rng
        self.now = 1000
        self.digest = lambda: digest(self.raw)
        self.calls = self.errors = self.mutated = 0
        self.failures = []

    def send(self, command, args, now=None):
        now = self.now if now is None else now
        if self.ql.mode == "script":
            return self.raw.execute_command("EVALSHA", self.ql.handle, *self.ql.keyargs, command, now, *args)
        return self.raw.execute_command("FCALL", self.ql.handle, *self.ql.keyargs, command, now, *args)

    def fail(self, what, command, args, detail, now=None):
        now = self.now if now is None else now
        self.failures.append("%s: %s %r %r -> %.300s" % (what, command, now, args, detail))

    def seed(self):
        self.raw.flushall()
        for i, jid in enumerate(JIDS):
            self.send("put", ["w0", QUEUES[i % 3], jid, "K", "{}", "0", "tags", '["t0"]'])
        self.send("put", ["w0", "q0", "j7", "K", "{}", "0", "depends", '["j6"]'])
        self.send("put", ["w0", "q1", "j5", "K", "{}", "100"])
        self.send("recur", ["q0", "r0", "K", "{}", "interval", "100", "0", "tags", '["t1"]'])
        self.send("recur", ["q2", "r1", "K", "{}", "interval", "60", "30"])
        self.send("recur", ["q1", "r2", "K", "{}", "cron", "* * * * *", "backlog", "2", "tags", '["t2"]'])
        self.send("pop", ["q0", "w0", "2"])
        self.send("pop", ["q1", "w1", "1"])
        self.send("pop", ["q2", "w1", "1"])
        self.send("track", ["track", "j0"])
        self.send("config.set", ["grace-period", "0"])

    def one(self):
        rng = self.rng
        command = rng.choice(BUSY) if rng.random() < 0.3 else rng.choice(sorted(SCHEMA))
        pairs = SCHEMA[command](rng)
        args = [v for _, v in pairs]
        now, refuse, mutated = self.now, False, rng.random() < 0.5
        if mutated:
            k = rng.random()
            if k < 0.6 and pairs:
                i = rng.randrange(len(pairs))
                args[i] = rng.choice(BAD_VALUES)
                refuse = must_refuse(pairs[i][0], args[i])
            elif k < 0.7:
                del args[rng.randrange(len(args) + 1):]
            elif k < 0.8:
                args.append(rng.choice(["tags", "priority", "depends", "next", "delay", "x"]))
            elif k < 0.9:
                args += [rng.choice(["priority", "retries", "backlog", "x"]), rng.choice(BAD_VALUES)]
            else:
                now = rng.choice(BAD_VALUES)
                refuse = must_refuse("now", now)
        if mutated and command == "settle":
            refuse = refuse or settle_refuses(args)
        before = self.digest() if mutated or rng.random() < 0.2 else None
        self.calls += 1
        self.mutated += mutated
        try:
            self.send(command, args, now)
        except redis.ResponseError as e:
            self.errors += 1
            text = str(e)
            body = POSITION.sub("", text)
            if not CLEAN.match(body) or any(m in text for m in RUNTIME):
                self.fail("runtime error", command, args, text, now)
            if before is not None and self.digest() != before:
                self.fail("changed the database", command, args, text, now)
            return
        if refuse:
            self.fail("accepted", command, args, "a bad value", now)
        if mutated or self.calls % 50 == 0:
            problem = self.health()
            if problem:
                self.fail("poisoned", command, args, problem, now)
                self.seed()
        self.now += rng.choice([0, 1, 1, 7, 40])

    def health(self):
        """Read-only views over everything stored; returns the first problem."""
        checks = [("queues", []), ("tag", ["top"]), ("failed", []), ("workers", []), ("track", []),
                  ("config.get", []), ("jobs", ["complete"])]
        for q in self.raw.zrange("ql:queues", 0, -1):
            checks += [("queues", [q]), ("length", [q]), ("stats", [q, self.now]), ("schedule.list", [q, 0, 1000])]
            checks += [("jobs", [s, q]) for s in STATES]
        for key in self.raw.keys("ql:r:*"):
            checks += [("recur.get", [key[5:]]), ("recur.next", [key[5:], 3])]
        for key in self.raw.keys("ql:t:*"):
            checks.append(("tag", ["get", key[5:]]))
        for g in self.raw.smembers("ql:failures"):
            checks.append(("failed", [g]))
        for w in self.raw.zrange("ql:workers", 0, -1):
            checks.append(("workers", [w]))
        jobs = [k[5:] for k in self.raw.keys("ql:j:*") if self.raw.type(k) == b"hash"]
        if jobs:
            checks.append(("multiget", jobs))
        checks += [("state.get", [j]) for j in jobs if self.raw.hexists(b"ql:j:" + j, "tree")]
        checks += [("tree.get", [j]) for j in jobs if self.raw.hexists(b"ql:j:" + j, "tree")]
        checks += [("worker.config", [q]) for q in QUEUES]
        for q in self.raw.zrange("ql:queues", 0, -1):
            checks.append(("peek", [q, 100]))
        for command, args in checks:
            try:
                reply = self.send(command, args)
            except redis.RedisError as e:
                return "%s %r failed: %s" % (command, args, e)
            if isinstance(reply, bytes) and reply[:1] in (b"{", b"["):
                try:
                    json.loads(reply.decode("utf-8"), parse_constant=_no_constant)
                except ValueError as e:
                    return "%s %r replied bad JSON: %s" % (command, args, e)
        return None

    def pop_all(self):
        for q in self.raw.zrange("ql:queues", 0, -1):
            try:
                self.send("pop", [q, "closer", 1000])
            except redis.RedisError as e:
                self.fail("final pop", "pop", [q], e)


def _no_constant(name):
    raise ValueError("non-finite number " + name)


def test_fuzz_schema_has_every_command(artefact_paths):
    """A command the script gains is fuzzed too: the schema names every
    handler the artefact defines."""
    with open(artefact_paths["script"]) as f:
        source = f.read()
    commands = set(re.findall(r"^C\.([\w]+) = function", source, re.M))
    commands |= set(re.findall(r"^C\['([\w.]+)'\] = function", source, re.M))
    assert "cron.next" in commands and "put" in commands
    assert commands - set(SCHEMA) == set()


def test_fuzz_every_command(ql, capsys):
    seed = int(os.environ.get("QLESS_FUZZ_SEED") or random.randrange(2 ** 32))
    fz = Fuzzer(ql, random.Random(seed))
    fz.seed()
    deadline = time.monotonic() + SECONDS
    while fz.calls < CALLS and time.monotonic() < deadline:
        if fz.calls % RESET_EVERY == RESET_EVERY - 1:
            fz.seed()
        fz.one()
    problem = fz.health()
    if problem:
        fz.fail("poisoned", "(end)", [], problem)
    fz.pop_all()
    kinds = collections.Counter(f.split(":")[0] for f in fz.failures)
    summary = ("fuzz %s: seed %d (QLESS_FUZZ_SEED), %d calls, %d mutated, %d errors, %d failures %s"
               % (ql.mode, seed, fz.calls, fz.mutated, fz.errors, len(fz.failures), dict(kinds)))
    with capsys.disabled():
        print("\n" + summary)
    assert not fz.failures, summary + "\n" + "\n".join(fz.failures[:40])
