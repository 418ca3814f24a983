#!/usr/bin/env python3
"""Fails when the docs would not stand alone in a clone of the repository.

Reads README.md, every docs/*.md and the READMEs of the parts
(bench/README.md, bindings/<lang>/README.md) and reports, one line each:

* a Markdown link (inline `[text](target)` or reference `[id]: target`)
  whose target is not a file or directory of the repository, leaves the
  repository, or names a `#fragment` that is no heading of the target page;
* any mention of `../shared` (a folder of the machine the docs were written
  on, which a clone does not have);
* a docs/*.md that neither README.md nor another doc links to;
* an example program that the tests run (examples/hello.c and
  bindings/*/*example.*) that is not quoted whole, in a fenced block, in
  exactly one page: the tests compare each quote with the file, so a second
  copy would go stale unchecked;
* a repository path or qless_*/QLESS_* name quoted in backticks that the
  repository does not have (check-docs.py's check, on every page);
* a function named with the file that defines it, written
  `qless_name` (`core/src/file.c`) or `C.name` (`lua/file.lua`), that
  the file does not contain (the name moved: say where it went).

Links to http(s) and mailto addresses are not followed. Text inside fenced
code blocks and inline code is not read for links.

Usage: check-links.py REPO   (exit 1 and one line per problem)
"""
import glob
import importlib.util
import os
import re
import sys

FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = ("http://", "https://", "mailto:")
EXAMPLES = ("examples/hello.c", "bindings/*/*example.*")
DEFINED_IN = re.compile(r"`((?:qless_|QLESS_|C\.|Q\.)[\w.]*)(?:\(\))?`\s*\(`((?:core|lua|cli|swig|bindings)/[\w./-]+)`\)")


def pages(repo):
    """README.md, docs/*.md, then the READMEs of the parts (bench/, bindings/<lang>/)."""
    docs = sorted(glob.glob(os.path.join(repo, "docs", "*.md")))
    parts = sorted(p for pattern in ("*/README.md", "*/*/README.md") for p in glob.glob(os.path.join(repo, pattern))
                   if not os.path.relpath(p, repo).startswith(("build", "docs" + os.sep)))
    return [os.path.join(repo, "README.md")] + docs + parts


def prose_lines(text):
    """(number, line) for each line outside fenced blocks, inline code removed."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            yield number, INLINE_CODE.sub("", line)


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts = set(), {}
    with open(path, encoding="utf-8") as f:
        text = f.read()
    fenced = False
    for line in text.split("\n"):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else "%s-%d" % (base, n))
    return found


def check_link(repo, page, number, target, problems):
    """The file a link reaches, or None (and a problem) when it reaches none."""
    if target.startswith(EXTERNAL) or not target:
        return None
    where = "%s:%d" % (os.path.relpath(page, repo), number)
    path, _, fragment = target.partition("#")
    if re.match(r"^[a-z][a-z0-9+.-]*:", path) or path.startswith("/"):
        problems.append("%s: link '%s' is not a path inside the repository" % (where, target))
        return None
    resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if os.path.commonpath([resolved, repo]) != repo:
        problems.append("%s: link '%s' leaves the repository" % (where, target))
        return None
    if not os.path.exists(resolved):
        problems.append("%s: link '%s': no such file or directory" % (where, target))
        return None
    if fragment and resolved.endswith(".md") and os.path.isfile(resolved):
        if fragment not in anchors(resolved):
            problems.append("%s: link '%s': no heading '#%s' in %s" % (where, target, fragment,
                                                                     os.path.relpath(resolved, repo)))
    return resolved


def check_defined_in(repo, page, text, problems):
    for m in DEFINED_IN.finditer(text):   # \s may span a line break
        name, path = m.groups()
        where = os.path.join(repo, path)
        if not os.path.isfile(where):
            continue   # check-docs.py reports a path that does not exist
        with open(where, encoding="utf-8") as f:
            if not re.search(r"(?<![\w.])%s(?!\w)" % re.escape(name), f.read()):
                number = text.count("\n", 0, m.start()) + 1
                problems.append("%s:%d: '%s' is not in %s" % (os.path.relpath(page, repo), number, name, path))


def check_examples(repo, texts, problems):
    files = sorted(set(f for pattern in EXAMPLES for f in glob.glob(os.path.join(repo, pattern))))
    if len(files) < 10:
        problems.append("only %d example files found: the check is looking in the wrong place" % len(files))
    for example in files:
        with open(example, encoding="utf-8") as f:
            body = f.read()
        quoted = [p for p, text in texts.items() if re.search(r"```\w*\n" + re.escape(body) + "```", text)]
        name = os.path.relpath(example, repo)
        if not quoted:
            problems.append("%s is quoted whole in no page" % name)
        elif len(quoted) > 1:
            problems.append("%s is quoted in %s: quote it once and link there" %
                            (name, ", ".join(os.path.relpath(p, repo) for p in quoted)))


def names_and_paths(repo, pages_checked, problems):
    """check-docs.py's check of quoted paths and qless_* names, on every page."""
    where = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-docs.py")
    spec = importlib.util.spec_from_file_location("check_docs", where)
    check_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_docs)
    text = check_docs.source_text(repo)
    for page in pages_checked:
        problems.extend(line.replace(repo + os.sep, "", 1) for line in check_docs.check(repo, page, text)[2])


def main(repo):
    repo = os.path.realpath(repo)
    problems, linked, texts = [], set(), {}
    for page in pages(repo):
        with open(page, encoding="utf-8") as f:
            text = texts[page] = f.read()
        for number, line in enumerate(text.split("\n"), 1):
            if "../shared" in line:
                problems.append("%s:%d: mentions ../shared, which a clone does not have"
                                % (os.path.relpath(page, repo), number))
        for number, line in prose_lines(text):
            for target in INLINE_LINK.findall(line) + REF_LINK.findall(line):
                reached = check_link(repo, page, number, target, problems)
                if reached and reached != page:   # a page's links to itself do not make it reachable
                    linked.add(reached)
    for page in glob.glob(os.path.join(repo, "docs", "*.md")):
        if page not in linked:
            problems.append("%s is linked from neither README.md nor another doc" % os.path.relpath(page, repo))
    check_examples(repo, texts, problems)
    names_and_paths(repo, list(texts), problems)
    for page, text in texts.items():
        check_defined_in(repo, page, text, problems)
    for line in problems:
        print(line)
    print("%d pages checked, %d problems" % (len(texts), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
