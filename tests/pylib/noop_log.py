"""The log the test workers' Noop jobs write: one line per start and end,
`what jid time pid`; read by the worker and cluster suites."""


def read_log(path):
    """The Noop jobs' log: [(what, jid, time, pid)] in file order."""
    entries = []
    try:
        with open(path) as f:
            for line in f:
                what, jid, when, pid = line.split()
                entries.append((what, jid, float(when), int(pid)))
    except FileNotFoundError:
        pass
    return entries


def overlaps(entries):
    """Jids that were running twice at the same moment (start..end intervals
    of one jid overlapping), from the Noop log."""
    by_jid = {}
    for what, jid, when, _ in entries:
        by_jid.setdefault(jid, []).append((when, 0 if what == "end" else 1))   # end before start at a tie
    bad = []
    for jid, events in by_jid.items():
        running = 0
        for _, kind in sorted(events):
            running += 1 if kind else -1
            if running > 1:
                bad.append(jid)
                break
    return bad
