#!/usr/bin/python3
"""c.conventions: every function of the public headers takes its
out-parameters first, then the handle, then the inputs
(docs/conventions.md). An out-parameter is recognised by its type: T **
(but not a const list of strings), int64_t * / double * / int * / size_t *,
a char buffer out[N], or a struct pointer whose name starts with "out".
    check-conventions.py <core/include/qless>"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cparse import split_top  # noqa: E402

DECL = re.compile(r"QLESS_EXTERN\s*\([^()]*\)\s*(\w+)\s*\(([^;]*?)\)\s*;", re.S)


def is_out(param):
    p = " ".join(param.split())
    if p.startswith(("const ", "QLESS_STRV")):
        return False
    name = re.sub(r"\[[^\]]*\]", "", p).split()[-1].lstrip("*") if p not in ("", "void") else ""
    return ("**" in p or bool(re.search(r"\[\s*\w+\s*\]$", p))
            or bool(re.match(r"(int|int64_t|double|size_t)\s*\*", p)) or name.startswith("out"))


def main(inc):
    bad, seen = [], 0
    for f in sorted(os.listdir(inc)):
        if not f.endswith(".h"):
            continue
        text = re.sub(r"/\*.*?\*/", "", open(os.path.join(inc, f)).read(), flags=re.S)
        for m in DECL.finditer(text):
            if m.group(1) == "type":          # the macro's own definition
                continue
            seen += 1
            outs = [is_out(p) for p in split_top(m.group(2))]
            if outs != sorted(outs, reverse=True):
                bad.append("%s: %s(%s)" % (f, m.group(1), " ".join(m.group(2).split())))
    if seen < 100:
        print("c.conventions: only %d declarations parsed from %s: parser broken?" % (seen, inc))
        return 1
    for b in bad:
        print("c.conventions: out-parameter after an input (docs/conventions.md): " + b)
    print("c.conventions: %d functions, %d out of order" % (seen, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
