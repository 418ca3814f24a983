"""Generated bad arguments for every subcommand: each is a usage error.

Every subcommand has a template whose typed slots hold good values; a case
spoils one thing (one slot gets a bad value of its kind, an unknown flag is
added, an option loses its value, or --url is malformed) and asserts exit 2,
one line on stderr, no password echoed, no C names, nothing on stdout and
not a key changed. Seeded: QLESS_FUZZ_SEED=N repeats a run (the seed is
printed), QLESS_FUZZ_CASES=N adds random cases to the one-per-slot sweep.
"""
import os
import re
import random
import subprocess

import pytest

from conftest import CLI

I32 = 2**31 - 1
I64 = 2**63 - 1
SECRET = "hunter2"
JID = "fuzzjob"        # running for worker "w" (see _setup)
RJID = "fuzzrecur"     # a recurring job
TJID = "fuzztree"      # a tree job with ports in and out (see _setup)


def Int(lo, hi, good):
    return ("int", good, lo, hi)


def Text(good):
    return ("text", good)   # non-empty text for the library


NUM = ("num", "1")
DUR = ("dur", "5s")
JSON = ("json", "{}")
LIST = ("list", "a,b")     # comma list: empty items are dropped, so only bytes are bad
ANY = ("any", "m")          # text that may be empty (a failure message)
DATE = ("date", "2024-01-01")
CRON = ("cron", "0 9 * * 1-5")    # a cron expression
TIME = ("time", "1772619330")     # --from: epoch seconds or ISO 8601
AT = ("at", "7pm tomorrow")       # schedule add --at: one time as English text
IN = ("in", "5m")                 # schedule add --in: a duration or duration text
EVERY = ("every", "monday 9am")   # schedule add --every: a repeating time
CHAN = ("chan", "/a/b")           # a job-tree channel
WATCH_CH = ("wch", "ch:/a")       # watch's form of one
DIR = ("word", "in")              # a port direction
# Options without a value: never dropped as "missing" (nothing to drop).
FLAGS = {"--unique", "--no-unique", "--now", "--tree", "--recursive"}


def Word(good, *others):
    return ("word", good) + others


TEMPLATES = {
    "put": ["put", Text("q"), Text("K"), JSON, "--priority", NUM, "--tags", LIST, "--delay", DUR,
            "--retries", Int(0, I32, "3"), "--depends", LIST, "--jid", Text("new")],
    "get": ["get", Text(JID)],
    "peek": ["peek", Text("q"), Int(1, I32, "2")],
    "pop": ["--worker", Text("w"), "pop", Text("q"), Int(1, I32, "2")],
    "complete": ["--worker", Text("w"), "complete", Text(JID), "--next", Text("q2"), "--delay", DUR,
                 "--depends", LIST, "--data", JSON],
    "fail": ["--worker", Text("w"), "fail", Text(JID), Text("g"), ANY, "--data", JSON],
    "retry": ["--worker", Text("w"), "retry", Text(JID), "--delay", DUR, "--group", Text("g"),
              "--message", ANY],
    "cancel": ["cancel", Text(JID)],
    "priority": ["priority", Text(JID), NUM],
    "tag add": ["tag", "add", Text(JID), Text("t")],
    "tag remove": ["tag", "remove", Text(JID), Text("t")],
    "tag get": ["tag", "get", Text("t"), "--offset", Int(0, I64, "0"), "--count", Int(1, I32, "5")],
    "tag top": ["tag", "top", "--count", Int(1, I32, "5")],
    "tag": ["tag", Word("top", "add", "remove", "get")],
    "track": ["track", Word("add", "remove"), Text(JID)],
    "depends": ["depends", Word("add", "remove"), Text(JID), Text("other")],
    "depends clear": ["depends", "clear", Text(JID)],
    "queues": ["queues"],
    "jobs": ["jobs", Word("running", "stalled", "scheduled", "depends", "recurring"), Text("q"),
             "--offset", Int(0, I64, "0"), "--count", Int(1, I32, "5")],
    "failed": ["failed", Text("g"), "--offset", Int(0, I64, "0"), "--count", Int(1, I32, "5")],
    "unfail": ["unfail", Text("q"), Text("g"), Int(1, I32, "5")],
    "stats": ["stats", Text("q"), "--date", DATE],
    "pause": ["pause", Text("q"), Text("q2")],
    "unpause": ["unpause", Text("q"), Text("q2")],
    "workers": ["workers", Text("w")],
    "config": ["config", Word("get", "unset"), Text("heartbeat")],
    "config set": ["config", "set", Text("heartbeat"), ANY],
    "recur add": ["recur", "add", Text("q"), Text("K"), JSON, "--interval", DUR, "--offset", DUR,
                  "--priority", NUM, "--retries", Int(0, I32, "1"), "--backlog", Int(0, I32, "1"),
                  "--tags", LIST, "--jid", Text("newrecur")],
    "recur get": ["recur", Word("get", "remove"), Text(RJID)],
    "recur update": ["recur", "update", Text(RJID), "--priority", NUM, "--retries", Int(0, I32, "1"),
                     "--interval", DUR, "--backlog", Int(0, I32, "1"), "--data", JSON,
                     "--klass", Text("K2"), "--queue", Text("q3"), "--tag-add", LIST, "--tag-remove", LIST],
    "watch": ["watch", Text("log"), "--count", Int(1, I64, "1")],
    "server": ["server", Word("status")],
    "schedule": ["schedule", Word("listen", "add", "list", "remove")],
    "cron next": ["cron", "next", CRON, Int(1, 1000, "3"), "--from", TIME],
    "recur add cron": ["recur", "add", Text("q"), Text("K"), JSON, "--cron", CRON, "--priority", NUM,
                       "--retries", Int(0, I32, "1"), "--backlog", Int(0, 1000, "1"), "--tags", LIST,
                       "--jid", Text("newcron"), "--unique"],
    "recur update cron": ["recur", "update", Text(RJID), "--cron", CRON],
    "recur next": ["recur", "next", Text(RJID), Int(1, 1000, "2")],
    "put unique": ["put", Text("q"), Text("K"), JSON, "--unique", "--key", Text("k"), "--delay", DUR],
    "schedule add at": ["schedule", "add", Text("q"), Text("K"), JSON, "--at", AT, "--priority", NUM,
                        "--retries", Int(0, I32, "1"), "--tags", LIST, "--key", Text("k"), "--jid", Text("sj")],
    "schedule add in": ["schedule", "add", Text("q"), Text("K"), "--in", IN, "--no-unique"],
    "schedule add cron": ["schedule", "add", Text("q"), Text("K"), JSON, "--cron", CRON,
                          "--backlog", Int(0, 1000, "1")],
    "schedule add every": ["schedule", "add", Text("q"), Text("K"), "--every", EVERY, "--backlog", Int(0, I32, "1")],
    "schedule add now": ["schedule", "add", Text("q"), Text("K"), JSON, "--now", "--jid", Text("sn")],
    "schedule list": ["schedule", "list", Text("q")],
    "schedule remove": ["schedule", "remove", Text("q"), Text("sjid"), Text("sjid2")],
    "schedule listen": ["schedule", "listen", Text("q"), "--exec", Text("true"), "--pool", Int(1, 128, "2"),
                        "--max-jobs", Int(0, I64, "1")],
    "put tree": ["put", Text("q"), Text("K"), JSON, "--parent", Text(TJID), "--name", Text("kid"),
                 "--inports", JSON, "--outports", JSON, "--alias", Text("al"), "--alias", Text("al2"),
                 "--by", Text("me"), "--tree"],
    "tree get": ["tree", "get", Text(TJID)],
    "tree terminate": ["tree", "terminate", Text(TJID), "--recursive"],
    "tree run": ["tree", "run", Text(TJID), "--delay", DUR],
    "job": ["--worker", Text("w"), "job", Word("suspend", "run", "terminate", "delete"), Text(TJID)],
    "port read": ["port", Word("read", "peek"), Text(TJID), DIR, Text("in"), "--count", Int(1, 1000, "2")],
    "port write": ["port", "write", Text(TJID), DIR, Text("in"), JSON, JSON],
    "port size": ["port", "size", Text(TJID), DIR, Text("in")],
    "port connect": ["port", Word("connect", "disconnect"), Text(TJID), DIR, Text("in"), CHAN, CHAN],
    "channel publish": ["channel", "publish", CHAN, JSON, "--from", Text(TJID)],
    "channel subscribers": ["channel", "subscribers", CHAN],
    "state get": ["state", "get", Text(TJID), Text("k")],
    "state set": ["state", "set", Text(TJID), Text("k"), JSON, Text("k2"), JSON],
    "state del": ["state", "del", Text(TJID), Text("k")],
    "alias set": ["alias", "set", Text(TJID), Text("al"), Text("al2")],
    "alias": ["alias", Word("get", "del"), Text("al")],
    "klass register": ["klass", "register", Text("q"), Text("K"), JSON],
    "klass": ["klass", Word("list", "unregister"), Text("q"), Text("K")],
    "watch ch": ["watch", WATCH_CH, "--count", Int(1, I64, "1")],
}

BAD_INT = ["", " ", "abc", "1.5", "1e3", "0x10", "nan", "inf", "-inf", "1 2", "+-1",
           "99999999999999999999", "-99999999999999999999", "4294967296", "-4294967296"]
BAD_NUM = ["", "abc", "nan", "-nan", "inf", "-inf", "Infinity", "1e999", "-1e999", "0x", "1,5", "1 "]
BAD_DUR = ["", "abc", "-5s", "5x", "nan", "inf", "1e999", "s", "1h30", "5 s"]
BAD_JSON = ["", "{", "[1,]", "{'a': 1}", "nul", "[" * 1500 + "]" * 1500,
            "{\"a\":" * 1001 + "1" + "}" * 1001, b'"\xff"', b'{"a": "\xc3("}', "[1]]"]
BAD_TEXT = ["", b"\xff", b"q\xc3(", b"\xed\xa0\x80", b"\xc0\xaf"]
BAD_BYTES = [b"\xff", b"a,\xfe", b"\xf8\x88\x80\x80\x80"]
BAD_DATE = ["", "yesterday", "2024-13-01", "2024-02-30x", "nan", "inf", "1e999", "-"]
BAD_WORD = ["", "frobnicate", b"\xff", "ADD"]
BAD_CRON = ["", " ", "0 24 * * *", "* * * *", "@reboot", "1,,2 * * * *", "*/0 * * * *", b"\xff",
            "0 0 * * FRI-MON", "0 0 31 2 *"]
BAD_TIME = ["", "yesterday", "2024-13-01", "2024-02-30", "nan", "inf", "1e999", "-", "abc"]
BAD_AT = ["", "tomorow", "every day", "every", b"\xff", "3pm on febtember 3"]
BAD_IN = ["", "abc", "-5s", "5x", "soon", "nan", "1h30", "in in 5m", "every 2 days", b"\xff"]
BAD_EVERY = ["", "tomorrow", "7pm", "tomorow", "2 parsecs", b"\xff"]
BAD_CHAN = ["", "a", "/a/", "//", "/a//b", "/a b", "/a\tb", "/" + "x" * 500, b"/\xff"]
BAD_WATCH_CH = ["ch:", "ch:a", "ch:/a/", "ch://", "ch:/a b", b"ch:/\xff"]
BAD_URLS = ["redis://:%s@localhost:notaport" % SECRET, "redis://user:%s@localhost:99999" % SECRET,
            "redis://:%s@[::1" % SECRET, "http://:%s@localhost" % SECRET, "redis://:%s@localhost/abc" % SECRET,
            "redis://:%s@localhost/-1" % SECRET, "unix://", "redis://", "", "bogus",
            "unix:///tmp/x.sock?db=abc&password=%s" % SECRET, "unix:///tmp/x.sock?password=%s&frob=1" % SECRET,
            "redis://%s@:1" % SECRET]


def _within(text, lo, hi):
    try:
        return lo <= int(text) <= hi and text.strip() == text
    except ValueError:
        return False


def bad_values(slot):
    kind = slot[0]
    if kind == "int":
        lo, hi = slot[2], slot[3]
        return [v for v in BAD_INT + [str(lo - 1), str(hi + 1)] if not _within(v, lo, hi)]
    return {"num": BAD_NUM, "dur": BAD_DUR, "json": BAD_JSON, "text": BAD_TEXT, "list": BAD_BYTES,
            "any": BAD_BYTES, "date": BAD_DATE, "word": BAD_WORD, "cron": BAD_CRON, "time": BAD_TIME,
            "at": BAD_AT, "in": BAD_IN, "every": BAD_EVERY, "chan": BAD_CHAN, "wch": BAD_WATCH_CH}[kind]


def fill(template, spoil=None, bad=None):
    """argv of the template with good values, slot index `spoil` set to `bad`."""
    return [bad if i == spoil else (item[1] if isinstance(item, tuple) else item)
            for i, item in enumerate(template)]


def slots(template):
    return [i for i, item in enumerate(template) if isinstance(item, tuple)]


def options(template):
    return [i for i, item in enumerate(template)
            if isinstance(item, str) and item.startswith("--") and item not in FLAGS]


def spoil_slot(rng, template, i):
    return fill(template, i, rng.choice(bad_values(template[i])))


def make_case(rng, name):
    """(argv after any --url, url or None for the good one) of one bad call."""
    template = TEMPLATES[name]
    how = rng.choice(["slot", "slot", "slot", "flag", "missing", "url"])
    if how == "slot" and slots(template):
        return spoil_slot(rng, template, rng.choice(slots(template))), None
    if how == "missing" and options(template):
        # an option without its value, last so nothing follows to take
        i = rng.choice(options(template))
        argv = fill(template)
        return argv[:i] + argv[i + 2:] + [template[i]], None
    if how == "url" and name != "server":
        return fill(template), rng.choice(BAD_URLS)
    argv = fill(template)
    flag = rng.choice(["--bogus", "--frobnicate=1", "--colour", "--jsonx", "--url-x", "--=", "--help=1"])
    return argv[:1] + [flag] + argv[1:] if argv[0] == "--worker" else argv + [flag], None


@pytest.fixture(scope="module")
def seed():
    s = int(os.environ.get("QLESS_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
    print("test_bad_args seed: QLESS_FUZZ_SEED=%d" % s)
    return s


def _setup(qless):
    qless("put", "q", "K", "--jid", JID)
    qless("--worker", "w", "pop", "q")
    qless("put", "q", "K", "--jid", "other")
    qless("recur", "add", "q", "K", "--interval", "1h", "--jid", RJID)
    qless("put", "q", "K", "--jid", TJID, "--tree")


def _run(base_env, url, argv, bad_url):
    args = [CLI] + ([] if argv[0] == "server" else ["--url", bad_url if bad_url is not None else url])
    args += [a if isinstance(a, bytes) else a.encode() for a in argv]
    try:
        return subprocess.run(args, env=base_env, capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("hung: %r" % (args[1:],))


def _short(argv):
    text = repr(argv)
    return text if len(text) < 300 else text[:300] + "..."


def _check(p, argv, bad_url):
    err = p.stderr.decode("utf-8", "replace")
    what = "%s --url %r: exit %d, stderr %r" % (_short(argv), bad_url, p.returncode, err[:300])
    assert p.returncode == 2, what
    assert err.startswith("qless: ") and err.count("\n") == 1 and err.endswith("\n"), what
    assert SECRET not in err and "->" not in err, what
    assert not re.search(r"[a-z_]\[\d+\]", err), what  # a C array element (jids[0]), not the CLI's words
    assert len(err) < 400, what
    assert p.stdout == b"", what


def test_bad_arguments_are_usage_errors_and_change_nothing(qless, snapshot, base_env, url, seed):
    _setup(qless)
    before = snapshot()
    rng = random.Random(seed)
    cases = []
    # every slot of every template with one of its bad values, every bad
    # value of each kind in some slot of that kind, every bad URL, then
    # random cases
    by_kind = {}
    for name, template in TEMPLATES.items():
        for i in slots(template):
            cases.append((spoil_slot(rng, template, i), None))
            by_kind.setdefault(template[i][0], []).append((template, i))
        for _ in range(2):
            cases.append(make_case(rng, name))
    for kind in sorted(by_kind):
        first = by_kind[kind][0]
        for bad in bad_values(first[0][first[1]]):
            template, i = rng.choice(by_kind[kind])
            if bad not in bad_values(template[i]):  # integer ranges differ
                template, i = first
            cases.append((fill(template, i, bad), None))
    for bad_url in BAD_URLS:
        cases.append((fill(TEMPLATES[rng.choice(sorted(set(TEMPLATES) - {"server"}))]), bad_url))
    for _ in range(int(os.environ.get("QLESS_FUZZ_CASES", "60"))):
        cases.append(make_case(rng, rng.choice(sorted(TEMPLATES))))
    for argv, bad_url in cases:
        p = _run(base_env, url, argv, bad_url)
        _check(p, argv, bad_url)
        assert snapshot() == before, "changed by " + _short(argv)
