#!/usr/bin/env python3
"""Fails when a guide names something the repository does not have.

docs/bindings.md must stay true of the code: every repository path it
quotes in backticks (under core/, swig/, bindings/, tests/, lua/, scripts/,
docs/, cli/, examples/, bench/, demo/, cmake/, pkgconfig/, or README.md and
CHANGELOG.md) must match a file or directory, and every qless_* or
QLESS_* name it quotes must occur in the sources. A renamed function or a
moved file then turns this test red instead of leaving the guide stale.

Usage: check-docs.py REPO DOC.md...   (exit 1 and one line per stale name)
"""
import glob
import os
import re
import sys

TOP = ("core/", "swig/", "bindings/", "tests/", "lua/", "scripts/", "docs/", "README.md", "cli/", "examples/",
       "bench/", "demo/", "cmake/", "pkgconfig/", "CHANGELOG.md")
SOURCES = ("core", "swig", "bindings", "tests", "lua", "cli", "CMakeLists.txt")
CODE = re.compile(r"`([^`\n]+)`")
NAME = re.compile(r"\b(?:qless|QLESS)_\w*[A-Za-z0-9]\b")
PATH = re.compile(r"^[\w./*-]+$")


def source_text(repo):
    """Everything the names may be defined in, as one string."""
    parts = []
    for top in SOURCES:
        root = os.path.join(repo, top)
        files = [root] if os.path.isfile(root) else [
            os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
        for path in files:
            try:
                with open(path, encoding="utf-8") as f:
                    parts.append(f.read())
            except (UnicodeDecodeError, OSError):
                pass
    return "\n".join(parts)


def check(repo, doc, text):
    stale = []
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    names = paths = 0
    for number, line in enumerate(lines, 1):
        for span in CODE.findall(line):
            for word in span.split():
                if word.startswith(TOP) and PATH.match(word):
                    paths += 1
                    if not glob.glob(os.path.join(repo, word.rstrip("/"))):
                        stale.append("%s:%d: no such path '%s'" % (doc, number, word))
            for name in NAME.findall(span):
                names += 1
                if not re.search(r"\b%s\b" % re.escape(name), text):
                    stale.append("%s:%d: '%s' occurs nowhere in the sources" % (doc, number, name))
    return names, paths, stale


def main(repo, docs):
    text = source_text(repo)
    failed = False
    for doc in docs:
        names, paths, stale = check(repo, doc, text)
        for line in stale:
            print(line)
        if names < 50 or paths < 20:
            print("%s: only %d names and %d paths found: the check is reading the wrong file" % (doc, names, paths))
            failed = True
        failed = failed or bool(stale)
        print("%s: %d names and %d paths checked, %d stale" % (doc, names, paths, len(stale)))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
