#!/usr/bin/python3
"""Reads abidiff's report (made with --no-added-syms) on stdin and exits 0
only when every change in it is one docs/conventions.md calls compatible:
a versioned struct (qless_*_options, qless_queue_counts, qless_stats,
qless_when, qless_backoff: their first field is the version) that grew at
its end. Added functions are not in the report. Any other line (a removed
or changed function, a member moved, retyped or removed, a changed return
type, a struct without a version that grew) is printed and fails: the
list of what is allowed is short on purpose, so an unknown kind of change
fails rather than passes."""
import re
import sys

VERSIONED = re.compile(r"^qless_([a-z_]+_options|queue_counts|stats|when|backoff)$")
STRUCTURE = [
    r"(Functions|Variables) changes summary: 0 Removed, \d+ Changed.*",
    r"\d+ functions? with some indirect sub-type changes?:",
    r"\[C\] '(function|variable) .*' .*has some indirect sub-type changes:",
    r"parameter \d+ of type '.*' has sub-type changes:",
    r"in pointed to type '.*'( at \S+)?:",
    r"in unqualified underlying type '.*'( at \S+)?:",
    r"underlying type '.*'( at \S+)? changed:",
    r"\d+ data member insertions?:",
]
TYPE_NAME = re.compile(r"'(?:const )?(?:struct )?(qless_\w+)\*?'")
SIZE = re.compile(r"type size changed from (\d+) to (\d+) \(in bits\)$")
INSERTED = re.compile(r"'.*', at offset (\d+) \(in bits\)( at \S+)?$")


def main():
    current, old_size, bad = None, None, []
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        m = SIZE.match(line)
        if m:
            old_size = int(m.group(1))
            if not (current and VERSIONED.match(current)) or int(m.group(2)) < old_size:
                bad.append("%s (of %s, which has no version to grow by)" % (line, current))
            continue
        m = INSERTED.match(line)
        if m:
            if old_size is None or int(m.group(1)) < old_size:
                bad.append("%s (inserted before the end of %s)" % (line, current))
            continue
        if any(re.fullmatch(p, line) for p in STRUCTURE):
            names = TYPE_NAME.findall(line)
            if names and not line.startswith("["):
                current, old_size = names[-1], None
            continue
        bad.append(line)
    for line in bad:
        print("abi.check: not a compatible change: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
