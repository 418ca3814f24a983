"""Drift guard: the cron grammar is implemented twice by design (schedules.md
§6.1: libqless checks syntax before any I/O, the script checks it again), in
core/src/cron.c and lua/cron.lua. Generated expressions, valid and broken
(values out of range, steps, ranges, lists, names, L and #, macros, wrong
field counts, junk; 5 and 7 fields), go to both, and the two must agree on:
  - the verdict: qless_cron_check accepts exactly what the script's parser
    accepts (cron.next, where "never fires" is a verdict on meaning, not
    syntax, so it counts as accepted);
  - the normalised expression: qless_cron_check's against the one a cron
    template stores (recur, then recur.get's "cron");
  - the reason of a refusal, word for word after each side's prefix.
qless_cron_describe gives the same verdicts and reasons as qless_cron_check,
and the template command (recur) the same as cron.next.

The C side is libqless through ctypes ($QLESS_C_LIBRARY, set by ctest);
the Lua side the artefact under test (script or function). Seed:
$QLESS_TEST_SEED, else the clock; printed, and named in every failure."""
import ctypes
import os
import random
import re
import sys
import time

import pytest

from helpers import ResponseError

EXPRESSIONS = 8000
NOW = 1772619330   # 2026-03-04T10:15:30Z

FIVE = [("minute", 0, 59), ("hour", 0, 23), ("dom", 1, 31), ("month", 1, 12), ("dow", 0, 7)]
SEVEN = [("year", 1970, 2999), ("month", 1, 12), ("dom", 1, 31), ("dow", 0, 7),
         ("hour", 0, 23), ("minute", 0, 59), ("second", 0, 59)]
MONTHS = ["JAN", "feb", "Mar", "APR", "may", "JUNE", "jul", "AUG", "sep", "OCT", "nov", "DEC", "FOO", "ja", "j"]
DAYS = ["SUN", "mon", "Tue", "WED", "thu", "FRI", "sat", "MONDAY", "XYZ", "su", "l"]
JUNK = ["?", "", "-", "5-", "-5", "*/", "1,,2", ",", "1,", ",1", "x", "1.5", "+1", "99999999999999999999",
        "L5", "#", "W", "*-5", "5//2", "**", "1-2-3", "*/0", "*/-1", "1-5/0", "0x10", "\u00e9", "5L", "L",
        "l", "3#", "#3", "3#1#2", "MON#1", "SUNL", "*/60", "1/0", "2-1", "1 -2", "\u2003"]
MACROS = ["@daily", "@hourly", "@weekly", "@monthly", "@yearly", "@annually", "@midnight", "@reboot",
          "@bogus", "@DAILY", "@Weekly", "@", "@ daily", "@daily *", "@daily\t", "@@daily", "daily"]
STEPS = [0, 1, 2, 3, 7, 15, 59, 60, 100]
CONTROL = ["\n", "\r", "\r\n", "\x01", "\x7f", "\v", "\f", '"', "\\", "\\n", "\x1b[0m"]
BLANKS = [" ", " ", " ", " ", "  ", "\t", " \t "]

PREFIX_C = {"qless_cron_check": 'qless_cron_check: Arg "cron" invalid: ',
            "qless_cron_describe": 'qless_cron_describe: Arg "cron" invalid: '}
# A script error: Redis's "user_script:N: " (or the function's own), an
# optional error-kind token "[Kind] ", the command's prefix, the reason,
# and Redis's " script: <sha>, on @user_script:N." trailer.
LUA_ERROR = re.compile(r'^(?:[\w@]+:\d+: )?(?:\[[A-Za-z]+\] )?(Cron\.next|Recur)\(\): Arg "cron" invalid: '
                       r'(.*?)(?: script: \S+, on @?[\w]+:\d+\.)?$', re.S)


# -- the generator -------------------------------------------------------------

def value(rng, lo, hi):
    """Around the field's bounds: mostly inside, sometimes one past."""
    return rng.randint(lo - 1, hi + 1)


def clean_item(rng, lo, hi):
    a, b = sorted((rng.randint(lo, hi), rng.randint(lo, hi)))
    return rng.choice(["*", "*/%d" % rng.randint(1, 15), "%d" % a, "%d-%d" % (a, b), "%d-%d/%d" % (a, b, rng.randint(1, 9))])


def item(rng, name, lo, hi):
    a, b, n = value(rng, lo, hi), value(rng, lo, hi), rng.choice(STEPS)
    names = DAYS if name == "dow" else MONTHS
    kind = rng.randrange(22)
    if kind == 0:
        return "*"
    if kind == 1:
        return "*/%d" % n
    if kind == 2:
        return "0%d" % a
    if kind == 3:
        return "%d-%d" % (a, b)
    if kind == 4:
        return "%d-%d/%d" % (min(a, b), max(a, b), n)
    if kind == 5:
        return "%d/%d" % (a, n)
    if kind == 6:
        return rng.choice(names)
    if kind == 7:
        return "%s-%s" % (rng.choice(names), rng.choice(names))
    if kind == 8:
        return rng.choice(["L", "l"])
    if kind == 9:
        return "%sL" % rng.choice([str(rng.randrange(9)), rng.choice(DAYS)])
    if kind == 10:
        return "%s#%d" % (rng.choice([str(rng.randrange(9)), rng.choice(DAYS)]), rng.randrange(7))
    if kind == 11:
        return "%d/%d" % (rng.randrange(9), n)
    if kind == 12:
        return rng.choice(JUNK)
    if kind == 13:
        return "%s/%d" % (rng.choice(names), n)
    if kind == 14:
        return "%d" % rng.choice([10 ** rng.randrange(1, 25), 2 ** 63, 2 ** 64 + 1])
    if kind == 15:
        # What a message must show escaped (Redis turns CR/LF in errors into spaces).
        return rng.choice(["*", "1", "MON", ""]) + rng.choice(CONTROL) + rng.choice(["", "2", "x"])
    if kind == 16 and rng.randrange(4) == 0:
        return rng.choice(["x", "\u00e9", "1"]) * rng.randrange(30, 400)
    return "%d" % rng.randint(lo, hi)


def expression(rng):
    shape = rng.randrange(24)
    if shape == 0:
        return rng.choice([" ", "\t", ""]) + rng.choice(MACROS) + rng.choice(["", " ", "\t"])
    if shape == 1:
        return rng.choice(["", " ", "\t \t", "x" * 1025, " " * 1020 + "@daily", "* " * 600,
                           "0 0 * * *\n", "0\n0 * * *", "0 0 * * * # note",
                           "@daily\n", "@\x01", "0 0 * * " + "y" * 1010, "0 0 * * " + "\u00e9" * 505])
    fields = FIVE if shape < 13 else SEVEN
    count = len(fields)
    if shape == 2:
        count = rng.choice([1, 2, 3, 4, 6, 8, 9])
    clean = rng.randrange(3) == 0   # a third only valid items: both verdicts are common
    words = []
    for i in range(count):
        name, lo, hi = fields[i % len(fields)]
        items = 1 + (rng.randrange(3) == 0) + (rng.randrange(5) == 0)
        words.append(",".join(clean_item(rng, lo, hi) if clean else item(rng, name, lo, hi)
                              for _ in range(items)))
    text = "".join((rng.choice(BLANKS) if i else "") + w for i, w in enumerate(words))
    if rng.randrange(10) == 0:
        text = rng.choice(BLANKS) + text + rng.choice(BLANKS)
    return text


# -- the two sides ---------------------------------------------------------------

@pytest.fixture(scope="module")
def libqless():
    path = os.environ.get("QLESS_C_LIBRARY")
    if not path:
        pytest.fail("QLESS_C_LIBRARY is not set: run through ctest (ctest -R protocol)", pytrace=False)
    lib = ctypes.CDLL(path)
    lib.qless_error_last_message.restype = ctypes.c_char_p
    for f in (lib.qless_cron_check, lib.qless_cron_describe):
        f.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]   # out first (docs/conventions.md)
        f.restype = ctypes.c_int
    lib.qless_free.argtypes = [ctypes.c_void_p]
    return lib


def c_side(lib, func, expr):
    """(True, output) or (False, reason) of a C function of the expression."""
    out = ctypes.c_void_p()
    rc = getattr(lib, func)(ctypes.byref(out), expr.encode())
    if rc != 0:
        assert not out.value, "%s left an output on failure" % func
        message = lib.qless_error_last_message().decode()
        assert message.startswith(PREFIX_C[func]), message
        return False, message[len(PREFIX_C[func]):]
    text = ctypes.string_at(out.value).decode()
    lib.qless_free(out)
    return True, text


def lua_reason(error, command):
    found = LUA_ERROR.match(str(error))
    assert found and found.group(1) == command, "unexpected error shape: %r" % str(error)
    return found.group(2)


def lua_side(ql, r, expr):
    """(True, normalised or None when it never fires) or (False, reason)."""
    try:
        ql("cron.next", NOW, expr, 1)
    except ResponseError as e:
        reason = lua_reason(e, "Cron.next")
        if not reason.startswith("never fires"):
            return False, reason
        never = True
    else:
        never = False
    r.delete("ql:r:drift")
    try:
        ql("recur", NOW, "drift", "drift", "k", "{}", "cron", expr)
    except ResponseError as e:
        reason = lua_reason(e, "Recur")
        assert never and reason.startswith("never fires"), (
            "recur and cron.next disagree on %r: %s" % (expr, reason))
        return True, None
    assert not never, "recur accepted %r, which cron.next says never fires" % expr
    return True, ql.json("recur.get", NOW, "drift")["cron"]


# -- the test ----------------------------------------------------------------------

def test_cron_c_and_lua_agree(ql, r, libqless):
    env = os.environ.get("QLESS_TEST_SEED")
    seed = int(env) if env else int(time.time())
    print("test_cron_drift seed %d" % seed, file=sys.stderr)
    rng = random.Random(seed)
    seen, problems = set(), []
    accepted = refused = compared = 0
    for i in range(EXPRESSIONS):
        expr = expression(rng)
        if expr in seen:
            continue
        seen.add(expr)
        c_ok, c_out = c_side(libqless, "qless_cron_check", expr)
        d_ok, d_out = c_side(libqless, "qless_cron_describe", expr)
        lua_ok, lua_out = lua_side(ql, r, expr)
        why = None
        if d_ok != c_ok or (not c_ok and d_out != c_out):
            why = "qless_cron_describe: %s, qless_cron_check: %s" % (d_out if not d_ok else "ok",
                                                                       c_out if not c_ok else "ok")
        elif c_ok != lua_ok:
            why = "C %s, Lua %s" % ("ok" if c_ok else "refuses: " + c_out,
                                    "ok" if lua_ok else "refuses: " + lua_out)
        elif not c_ok and c_out != lua_out:
            why = "reasons differ: C %r, Lua %r" % (c_out, lua_out)
        elif c_ok and lua_out is not None:
            compared += 1
            if c_out != lua_out:
                why = "normalised: C %r, Lua %r" % (c_out, lua_out)
        if why:
            problems.append("  expression %d %r: %s" % (i, expr, why))
        accepted += c_ok
        refused += not c_ok
    assert not problems, "seed %d (QLESS_TEST_SEED=%d to repeat), %d disagreements:\n%s" % (
        seed, seed, len(problems), "\n".join(problems[:12]))
    print("test_cron_drift: %d expressions, %d accepted, %d refused, %d normal forms compared"
          % (accepted + refused, accepted, refused, compared), file=sys.stderr)
    # The generator must exercise both verdicts and the normal form, or
    # agreement means little.
    total = accepted + refused
    assert accepted > total // 8 and refused > total // 8 and compared > total // 10, (
        "seed %d: %d accepted, %d refused, %d normalised compared" % (seed, accepted, refused, compared))
