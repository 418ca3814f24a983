#!/usr/bin/python3
"""Checks the layout of core/src: its files call each other without cycles,
and the old catch-all header internal.h neither exists nor is included.

Usage: check-layout.py NM SRC_DIR OBJECT...

The file graph comes from the object files (nm): file A depends on file B
when A leaves a symbol undefined that B defines. A cycle in that graph means
two files are one part split in two, or one file holds two parts; it is
printed with the symbols that make each step. Every core/src/*.c must have an
object among OBJECT (a stale build would otherwise hide a file)."""
import os
import re
import subprocess
import sys

DEFINED = set("TDBRVWGSCiu")  # nm letters of symbols an object defines


def source_of(obj):
    """core/src/foo.c for .../src/foo.c.o (generated sources keep their name)."""
    base = os.path.basename(obj)
    return base[:-2] if base.endswith(".o") else base


def read_symbols(nm, obj):
    out = subprocess.run([nm, "-P", "--no-sort", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in DEFINED:
            defined.add(name)
    return defined, undefined


def build_graph(nm, objects):
    defs, undefs, owner = {}, {}, {}
    for obj in objects:
        f = source_of(obj)
        defs[f], undefs[f] = read_symbols(nm, obj)
        for s in defs[f]:
            owner.setdefault(s, f)
    edges = {f: {} for f in defs}
    for f, syms in undefs.items():
        for s in sorted(syms):
            g = owner.get(s)
            if g is not None and g != f:
                edges[f].setdefault(g, []).append(s)
    return edges


def strongly_connected(edges):
    """Tarjan's algorithm, iterative; components of more than one file."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def one_cycle(edges, comp):
    """A shortest cycle through the component's first file (breadth first)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + [comp[0]]


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    nm, src, objects = argv[1], argv[2], argv[3:]
    failed = False

    sources = sorted(f for f in os.listdir(src) if f.endswith(".c"))
    have = {source_of(o) for o in objects}
    missing = [f for f in sources if f not in have]
    if missing:
        print("no object file for %s: reconfigure and rebuild (cmake --build)" % ", ".join(missing))
        failed = True

    edges = build_graph(nm, objects)
    comps = strongly_connected(edges)
    for comp in comps:
        failed = True
        print("cycle among %d files: %s" % (len(comp), " ".join(comp)))
        path = one_cycle(edges, comp)
        for a, b in zip(path, path[1:]):
            syms = edges[a][b]
            shown = ", ".join(syms[:4]) + (", ..." if len(syms) > 4 else "")
            print("  %s -> %s  (%s)" % (a, b, shown))

    # The one catch-all header is gone for good: a file brings back neither it
    # nor an include of it (each file includes the private headers it uses).
    if os.path.exists(os.path.join(src, "internal.h")):
        print("core/src/internal.h exists: give each declaration the header of its module instead")
        failed = True
    include = re.compile(r'^\s*#\s*include\s*"internal\.h"', re.M)
    for f in sources:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            if include.search(fh.read()):
                print("%s includes internal.h: include the private headers it uses instead" % f)
                failed = True

    if not failed:
        print("core/src: %d files, %d dependencies, no cycle, no internal.h"
              % (len(edges), sum(len(e) for e in edges.values())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
