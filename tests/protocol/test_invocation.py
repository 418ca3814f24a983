"""§0 runtime requirements and §1 invocation convention (INV-*)."""
import os
import re
import shutil
import subprocess

import pytest

from helpers import ResponseError, fresh_job

# Globals a Redis 7 / Valkey script may read (the sandbox's environment).
REDIS_GLOBALS = {
    "redis", "cjson", "cmsgpack", "bit", "struct", "table", "string", "math", "os",
    "tonumber", "tostring", "type", "pairs", "ipairs", "next", "select", "unpack",
    "error", "pcall", "xpcall", "assert", "setmetatable", "getmetatable", "rawget",
    "rawset", "rawequal", "KEYS", "ARGV", "_G", "loadstring", "coroutine", "print",
}
STDLIB_TABLES = "table|string|math|cjson|redis|bit|struct|cmsgpack|os|coroutine"


def test_inv_1_keys_rejected(ql):
    """INV-1: numkeys >= 1 -> err."""
    with pytest.raises(ResponseError) as info:
        ql.raw(1, "ql:somekey", "get", 0, "jid")
    assert "Unknown command" not in str(info.value)
    with pytest.raises(ResponseError):
        ql.raw(2, "a", "b", "config.get", 0)


def test_inv_2_unknown_command(ql):
    """INV-2: unknown command name -> err containing `Unknown command`."""
    assert "Unknown command" in ql.err("foo", 0)
    # checked before `now`
    with pytest.raises(ResponseError) as info:
        ql.raw(0, "foo")
    assert "Unknown command" in str(info.value)
    # names are case-sensitive
    assert "Unknown command" in ql.err("PUT", 0, "w", "q", "j", "k", "{}", 0)


def test_inv_3_missing_now(ql, r):
    """INV-3: known command without `now` -> err."""
    for command in ("put", "get", "config.get", "queues"):
        with pytest.raises(ResponseError):
            ql.raw(0, command)
    assert r.dbsize() == 0


def test_inv_4_non_numeric_now(ql, r):
    """INV-4: non-numeric `now` -> err."""
    ql.err("put", "foo")
    ql.err("put", "foo", "worker", "queue", "jid", "klass", "{}", 0)
    ql.err("config.get", "12abc")
    assert r.dbsize() == 0


def test_inv_5_no_argv(ql):
    """INV-5: no ARGV at all -> err."""
    with pytest.raises(ResponseError):
        ql.raw(0)


def test_inv_6_fractional_now(ql):
    """INV-6: pop at 1.5 -> expires 61.5 in the job JSON."""
    ql.put()
    job = ql.pop(now=1.5)[0]
    assert job["expires"] == 61.5
    assert ql.get()["expires"] == 61.5


@pytest.mark.parametrize("now,when", [("1e1", 10), (" 0x10 ", 16), ("-5", -5), ("2.7", 2)])
def test_inv_now_parsed_like_tonumber(ql, now, when):
    """§1: `now` is parsed like Lua tonumber (exponent, hex, whitespace,
    negative); history `when` is floor(now)."""
    assert ql("put", now, "worker", "queue", "jid", "klass", "{}", 0) == "jid"
    assert ql.get()["history"] == [{"q": "queue", "what": "put", "when": when}]


def test_inv_extra_arguments_ignored(ql):
    """§1: arguments beyond those a command uses are ignored."""
    ql.put()
    assert ql.get() == fresh_job()
    assert ql.json("get", 0, "jid", "extra", "args") == fresh_job()


def test_r6_integer_reply_truncates(ql):
    """R6: a Lua number becomes an integer reply, fraction truncated."""
    ql.put()
    assert ql("priority", 0, "jid", 2.9) == 2
    assert ql.get()["priority"] == 2.9


def test_error_names_command_and_argument(ql):
    """§5.1 error wording: a bad delay names the command and the argument."""
    msg = ql.err("put", 0, "worker", "queue", "jid", "klass", "{}", "number")
    assert "put" in msg.lower()
    assert "delay" in msg


def test_runs_on_redis_7(ql, r):
    """R1: the artefact loads and runs on Redis >= 7."""
    major = int(r.info("server")["redis_version"].split(".")[0])
    assert major >= 7
    assert ql.put() == "jid"
    assert ql.get()["state"] == "waiting"


def _artefacts():
    return [os.environ.get("QLESS_LUA_SCRIPT"), os.environ.get("QLESS_LUA_LIBRARY")]


def test_r4_plain_script_has_no_shebang():
    """R4: qless.lua is a plain script; the library starts with `#!lua name=qless`."""
    script, library = _artefacts()
    with open(script) as f:
        assert not f.readline().startswith("#!")
    with open(library) as f:
        assert f.readline().strip() == "#!lua name=qless"


@pytest.mark.parametrize("which", [0, 1], ids=["script", "library"])
def test_r2_no_globals_defined(which):
    """R2/R3: the generated artefact assigns no global, reads only the
    sandbox's globals (so no implicit `arg`), and never adds to a standard
    library table. Checked on luac's listing of the whole chunk."""
    luac = shutil.which("luac5.4") or shutil.which("luac")
    assert luac, "luac5.4 is needed (Debian package lua5.4, see scripts/deps.sh)"
    path = _artefacts()[which]
    listing = subprocess.run([luac, "-p", "-l", "-l", path], check=True,
                             capture_output=True, text=True).stdout
    sets = set(re.findall(r'SETTABUP.*; _ENV "([^"]+)"', listing))
    gets = set(re.findall(r'GETTABUP.*; _ENV "([^"]+)"', listing))
    assert sets == set(), "global assignments: %s" % sorted(sets)
    assert gets - REDIS_GLOBALS == set(), "unknown globals read: %s" % sorted(gets - REDIS_GLOBALS)
    assert "redis" in gets  # the listing really is of the qless code
    with open(path) as f:
        source = f.read()
    pattern = r"^\s*(?:function\s+(?:{0})\.\w+|(?:{0})\.\w+\s*=(?!=))".format(STDLIB_TABLES)
    assert re.findall(pattern, source, re.M) == []


def test_inv_error_position_prefix(ql):
    """Errors carry Lua's position prefix, as the original script's error(msg)
    did (its Ruby client maps errors by `user_script:\\d+:`): `user_script:N:`
    under EVALSHA, `user_function:N:` under FCALL, then the error kind
    (docs/errors.md). Checked on a can't-complete error (the one workers rely
    on) and an argument error."""
    chunk = "user_script" if ql.mode == "script" else "user_function"
    ql.put()
    msg = ql.err("complete", 0, "jid", "worker", "queue", "{}")
    assert re.match(r"^%s:\d+: \[LockLost\] Complete\(\): Job jid is not currently running: waiting" % chunk,
                    msg), msg
    msg = ql.err("pop", 0, "queue", "worker", "inf")
    assert re.match(r"^%s:\d+: \[InvalidArgument\] Pop\(\): Arg \"count\" not a finite number: inf" % chunk, msg), msg
