"""The raise sites of the protocol: every Q.raise(kind, message) call in
lua/*.lua, and the way back from an error's Lua position to its site.

A site is named "<module>:<line>". Its pattern is built from the message
expression: string literals stand for themselves, everything computed (names,
values, texts chosen by a condition) for any text. test_error_kinds.py
checks that a case reaches every site with the site's kind and a message the
pattern matches."""
import glob
import os
import re

LUA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lua")


def _lua_string(text, i):
    """The Lua string literal starting at text[i]; returns (value, end)."""
    quote, out, i = text[i], [], i + 1
    while text[i] != quote:
        if text[i] == "\\":
            nxt = text[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out), i + 1


def _call_args(text, start):
    """Top-level arguments of the call whose '(' is text[start - 1]: a list
    of lists of terms, each term a ('str', value) or ('code', text)."""
    args, terms, depth, i, code = [], [], 0, start, ""

    def flush():
        nonlocal code
        if code.strip():
            terms.append(("code", code.strip()))
        code = ""
    while True:
        c = text[i]
        if c in "'\"":
            value, end = _lua_string(text, i)
            if depth == 0:
                flush()
                terms.append(("str", value))
            else:
                code += text[i:end]
            i = end
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                flush()
                args.append(terms)
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            flush()
            args.append(terms)
            terms = []
            i += 1
            continue
        elif text.startswith("..", i) and depth == 0:
            flush()
            i += 2
            continue
        elif c == "-" and text.startswith("--", i):
            i = text.index("\n", i)
            continue
        code += c
        i += 1


def _code_only(text):
    """text with comments and string contents blanked (same offsets)."""
    out, i = list(text), 0
    while i < len(text):
        if text[i] in "'\"":
            _, end = _lua_string(text, i)
            out[i + 1:end - 1] = " " * (end - i - 2)
            i = end
        elif text.startswith("--", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        else:
            i += 1
    return "".join(out)


def sites():
    """[(file:line, kind, pattern)] for every Q.raise call; pattern is a
    compiled regex the message must fully match (constant texts literal,
    computed parts as .*?)."""
    out = []
    for path in sorted(glob.glob(os.path.join(LUA_DIR, "*.lua"))):
        text = open(path).read()
        for m in re.finditer(r"\bQ\.raise\(", _code_only(text)):
            where = "%s:%d" % (os.path.basename(path), text.count("\n", 0, m.start()) + 1)
            args, _ = _call_args(text, m.end())
            assert len(args) == 2 and len(args[0]) == 1 and args[0][0][0] == "str", where
            kind = args[0][0][1]
            parts = [re.escape(v) if t == "str" else "(?:.*?)" for t, v in args[1]]
            out.append((where, kind, re.compile("".join(parts) + r"\Z", re.S)))
    return out


def module_lines(artefact_text):
    """[(first artefact line, module)]: where each concatenated module starts
    in a built artefact (cmake/concat.cmake writes "-- ==== <module> ====" in
    front of each)."""
    out = []
    for number, line in enumerate(artefact_text.split("\n"), 1):
        m = re.match(r"^-- ==== (\S+) ====$", line)
        if m:
            out.append((number + 1, m.group(1)))
    return out


def site_at(modules, line):
    """The "<module>:<line>" of artefact line `line`."""
    where = None
    for first, name in modules:
        if first <= line:
            where = "%s:%d" % (name, line - first + 1)
    return where
