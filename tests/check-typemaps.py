#!/usr/bin/env python3
"""Fails when a SWIG typemap is chosen by a parameter (or function) name.

Renaming a parameter in a public header must not change the bindings, so
every %typemap and %apply in swig/*.i names types only. The one kind of
name allowed is an ALL-CAPS placeholder (QLESS_OUT_STRING) on the typemap
side: it matches no real parameter and is reached only through %apply.

Usage: check-typemaps.py FILE.i...   (exit 1 and one line per offence)
"""
import re
import sys

from cparse import split_top

# Words that can end a type, and words that can only precede one.
TYPE_WORDS = {"int", "char", "short", "long", "double", "float", "void", "bool", "SWIGTYPE"}
PREFIX_WORDS = {"const", "volatile", "unsigned", "signed", "struct", "enum", "union"}
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")
TOKEN = re.compile(r"[A-Za-z_]\w*|\*|&|\[[^\]]*\]")


def strip_code(text):
    """Blanks comments and the insides of %{ %} blocks and strings, keeping
    offsets, lines and the delimiters (a typemap's body starts at one)."""
    def blank(m, keep=0):
        inner = re.sub(r"[^\n]", " ", m.group(0)[keep:len(m.group(0)) - keep])
        return m.group(0)[:keep] + inner + m.group(0)[len(m.group(0)) - keep:]
    text = re.sub(r"%\{.*?%\}", lambda m: blank(m, 2), text, flags=re.S)
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.S)
    text = re.sub(r"//[^\n]*", blank, text)
    return re.sub(r'"(?:\\.|[^"\\])*"', lambda m: blank(m, 1), text)


def head_end(text, start):
    """Where the type list after '%typemap(...)' ends: at its body ('{',
    '%{', a string), its ';' or a '=' copy, outside the locals' parentheses."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and (ch in '{;="' or text.startswith("%{", i)):
            return i, ch
    raise ValueError("typemap at offset %d has no body" % start)


def closing(text, start, open_ch, close_ch):
    """Index just past the bracket that closes the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced %s at offset %d" % (open_ch, start))


def param_name(decl):
    """The parameter name in a declaration like 'char **out', or None."""
    tokens = TOKEN.findall(decl)
    if not tokens or not re.match(r"[A-Za-z_]", tokens[-1]) or tokens[-1] in TYPE_WORDS:
        return None
    if all(t in PREFIX_WORDS for t in tokens[:-1]):
        return None   # the last word is the type itself: 'qless_bool'
    return tokens[-1]


def declarations(typelist):
    """Each single declaration of a type list, multi-argument groups opened."""
    for entry in split_top(typelist):
        if entry.startswith("("):
            yield from split_top(entry[1:entry.rindex(")")])
        else:
            yield entry


def drop_locals(head):
    """'T NAME (locals)' -> 'T NAME'; a lone '(T a, U b)' group is kept."""
    head = head.strip()
    if head.endswith(")"):
        depth = 0
        for i in range(len(head) - 1, -1, -1):
            depth += head[i] == ")"
            depth -= head[i] == "("
            if depth == 0:
                if head[:i].strip():
                    return head[:i].strip()
                break
    return head


def check(path):
    raw = open(path, encoding="utf-8").read()
    text = strip_code(raw)
    found, offences = 0, []

    def report(pos, decl, why):
        line = text.count("\n", 0, pos) + 1
        offences.append("%s:%d: '%s' %s" % (path, line, " ".join(decl.split()), why))

    for m in re.finditer(r"%typemap\s*\(|%apply\b", text):
        found += 1
        pos = m.start()
        if m.group(0).startswith("%typemap"):
            end = closing(text, m.end() - 1, "(", ")")
            stop, kind = head_end(text, end)
            sides = [drop_locals(text[end:stop])]
            if kind == "=":
                sides.append(text[stop + 1:text.index(";", stop)])
            for side in sides:
                for decl in declarations(side):
                    name = param_name(decl)
                    if name and not PLACEHOLDER.match(name):
                        report(pos, decl, "selects a typemap by the name '%s'" % name)
        else:
            brace = text.index("{", m.end())
            source = text[m.end():brace]
            targets = text[brace + 1:closing(text, brace, "{", "}") - 1]
            for decl in declarations(source):
                name = param_name(decl)
                if name and not PLACEHOLDER.match(name):
                    report(pos, decl, "applies a typemap by the name '%s'" % name)
            for decl in declarations(targets):
                name = param_name(decl)
                if name:
                    report(pos, decl, "applies a typemap to the name '%s'; key it on a type" % name)
    return found, offences


def main(paths):
    total, offences = 0, []
    for path in paths:
        found, bad = check(path)
        total += found
        offences += bad
    for line in offences:
        print(line)
    if total == 0:
        print("no %typemap or %apply found: the check is reading the wrong files")
        return 1
    print("%d typemap declarations in %d files, %d keyed on names" % (total, len(paths), len(offences)))
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
