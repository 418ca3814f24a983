"""Error kinds (docs/errors.md): every refusal of the protocol reads
`<chunk>:<line>: [<Kind>] <message>`, Kind one of the exception class names of
QLESS_ERRORS (core/include/qless/common.h). One case per raise site, and a
check that the cases reach every Q.raise call of lua/*.lua: the error's Lua
position names the site, whose kind and constant message text (literal parts
of the message expression, computed parts as wildcards) the error must show.
A refusal writes nothing. Q.raise with a kind outside the list is refused."""
import collections
import re

import pytest
import redis

from helpers import digest, error_kinds
from raise_sites import module_lines, site_at, sites
from tree_events import held_terminating, running, terminating

ERROR = re.compile(r"^(?:ERR )?(?:user_script|user_function):(\d+): \[([A-Za-z]+)\] (.*)$", re.S)
# Redis's own suffix behind a script's error text.
SUFFIX = re.compile(r" script: [^ ]*, on @user_(?:script|function):\d+\.$")

Case = collections.namedtuple("Case", "kind fragment command now args setup raw variant")


def E(kind, fragment, command, *args, now=0, setup=None, raw=None, variant=None):
    """A case: after `setup(ql)`, `command now args...` fails with `kind` and a
    message containing `fragment`. `raw`: the EVALSHA/FCALL arguments after
    the handle instead (numkeys first). `variant`: a Lua line added to the
    script (before its entry) for this call only."""
    return Case(kind, fragment, command, now, args, setup, raw, variant)


def tree(jid="tj", **opts):
    return lambda ql: ql.put(jid, tree=1, **opts)


def both(*setups):
    def run(ql):
        for s in setups:
            s(ql)
    return run


def put(jid="jid", **opts):
    return lambda ql: ql.put(jid, **opts)


def recur(jid="r"):
    return lambda ql: ql.recur(jid)


PW = ["worker", "queue", "jid", "klass", "{}", 0]   # put's arguments before its options
KIDS = both(tree("tj"), tree("tj2"), put("plain"), lambda ql: ql.put("tc", tree=1, parent="tj", name="n"))
DEPS = both(put("a"), put("b", depends=["a"]))
RUNNING = lambda ql: ql.running()       # noqa: E731
SETTLE = ["worker", '["queue"]', 0]

CASES = {
    # api.lua: the dispatcher (keys in the slot of {t}: on a cluster,
    # ctest cluster.protocol, they reach the script on t's primary)
    "two keys": E("InvalidArgument", "At most one key, a key of the namespace, may be provided: got 2", None,
                  raw=[2, "{t}:ql:", "{t}:ql:", "put", 0]),
    "namespace key": E("InvalidArgument", 'Namespace key must be {NAME}:ql:... with NAME 1 to 64 printable', None,
                       raw=[1, "k{t}", "put", 0]),
    "no command": E("InvalidArgument", "Must provide a command", None, raw=[0]),
    "unknown command": E("InvalidArgument", "Unknown command bogus", "bogus"),
    "bad now": E("InvalidArgument", 'Arg "now" not a finite number: inf', "put", now="inf"),
    "not utf-8": E("InvalidArgument", 'Put(): Arg "queue" not valid UTF-8 (argument 2)', "put", "w", b"\xff"),
    # base.lua: argument checks
    "need": E("InvalidArgument", 'Put(): Arg "queue" missing', "put"),
    "number missing": E("InvalidArgument", 'Pop(): Arg "count" missing or not a number: nil', "pop", "q", "w"),
    "number": E("InvalidArgument", 'Pop(): Arg "count" not a number: x', "pop", "q", "w", "x"),
    "finite": E("InvalidArgument", 'Pop(): Arg "count" not a finite number: inf', "pop", "q", "w", "inf"),
    "whole": E("InvalidArgument", 'Pop(): Arg "count" must be a whole number from 0 to 2147483647: -1',
               "pop", "q", "w", "-1"),
    "count": E("InvalidArgument", 'Recur.next(): Arg "count" must be between 1 and 1000', "recur.next", "r", "0"),
    "delay": E("InvalidArgument", 'Put(): Arg "delay" must be a finite number >= 0: -1',
               "put", "w", "q", "j", "k", "{}", "-1"),
    "jid suffix": E("InvalidArgument", 'Put(): Arg "jid" must not end in "-history": j-history',
                    "put", "w", "q", "j-history", "k", "{}", 0),
    "json missing": E("InvalidArgument", 'Complete(): Arg "data" missing', "complete", "jid", "w", "q"),
    "json": E("InvalidArgument", 'Put(): Arg "data" not JSON: {]', "put", "w", "q", "j", "k", "{]", 0),
    "json object": E("InvalidArgument", 'Worker.register(): Arg "config" not a JSON object: []',
                     "worker.register", "q", "k", "[]"),
    "json array": E("InvalidArgument", 'Put(): Arg "tags" not a JSON array: {"a":"b"}', "put", *PW, "tags", '{"a":"b"}'),
    "json list items": E("InvalidArgument", 'Put(): Arg "tags" must be a JSON array of strings or numbers: [true]',
                         "put", *PW, "tags", "[true]"),
    "options": E("InvalidArgument", 'Put(): Arg "tags" has no value', "put", *PW, "tags"),
    # aliases.lua
    "alias used": E("StateError", 'Alias.set(): alias "x" is already used by job a', "alias.set", "b", "x",
                    setup=both(tree("a", aliases=["x"]), tree("b"))),
    "aliases not array": E("InvalidArgument", 'Put(): Arg "aliases" invalid: not a JSON array',
                           "put", *PW, "aliases", '{"a":1}'),
    "aliases item": E("InvalidArgument", 'Put(): Arg "aliases" invalid: alias "bad alias"',
                      "put", *PW, "aliases", '["bad alias"]'),
    "alias": E("InvalidArgument", 'Alias.set(): Arg "alias" invalid: bad alias', "alias.set", "tj", "bad alias",
               setup=tree()),
    # cancel.lua
    "cancel tree": E("StateError", "Cancel(): tj is a tree job: terminate and delete it", "cancel", "tj",
                     setup=tree()),
    "cancel dependency": E("StateError", "Cancel(): a is a dependency of b but is not mentioned to be canceled",
                           "cancel", "a", setup=DEPS),
    "depends state": E("StateError", "Depends(): Job jid not in the depends state: waiting",
                       "depends", "jid", "on", "x", setup=put()),
    "depends command": E("InvalidArgument", 'Depends(): Argument "command" must be "on" or "off": bogus',
                         "depends", "b", "bogus", setup=DEPS),
    # complete.lua
    "complete missing": E("NotFound", "Complete(): Job nope does not exist", "complete", "nope", "w", "q", "{}"),
    "complete state": E("LockLost", "Complete(): Job jid is not currently running: waiting",
                        "complete", "jid", "worker", "queue", "{}", setup=put()),
    "heartbeat terminated": E("LockLost", "Heartbeat(): Job jid not currently running: terminating (no worker "
                              "holds it)", "heartbeat", "jid", "worker",
                              setup=lambda ql: (running(ql, started=True), ql("job.terminate", 2, "jid"))),
    "complete worker": E("LockLost", "Complete(): Job jid has been handed out to another worker: worker",
                         "complete", "jid", "other", "queue", "{}", setup=RUNNING),
    "complete delay": E("InvalidArgument", 'Complete(): "delay" cannot be used without a "next".',
                        "complete", "jid", "worker", "queue", "{}", "delay", "5", setup=RUNNING),
    "complete depends": E("InvalidArgument", 'Complete(): "depends" cannot be used without a "next".',
                          "complete", "jid", "worker", "queue", "{}", "depends", '["a"]', setup=RUNNING),
    "complete queue": E("StateError", "Complete(): Job jid running in another queue: queue",
                        "complete", "jid", "worker", "other", "{}", setup=RUNNING),
    # config.lua
    "config bounds": E("InvalidArgument", 'Config.set(): Arg "value" out of bounds for "heartbeat": 1e12',
                       "config.set", "heartbeat", "1e12"),
    # cron.lua
    "cron": E("InvalidArgument", 'Recur(): Arg "cron" invalid: ', "recur", "q", "r", "k", "{}", "cron", "bad"),
    "cron years": E("InvalidArgument", 'Recur(): Arg "cron" invalid: never fires: every allowed year is before 2001',
                    "recur", "q", "r", "k", "{}", "cron", "1970 1 1 * 0 20 0", now=1000000000),
    "cron days": E("InvalidArgument", "never fires: no allowed day exists in the allowed months",
                   "recur", "q", "r", "k", "{}", "cron", "0 0 31 2 *"),
    "cron past": E("InvalidArgument", 'Recur(): Arg "cron" invalid: never fires at or after 2001-09-09',
                   "recur", "q", "r", "k", "{}", "cron", "2001 1 1 * 0 0 0", now=1000000000),
    # job.lua
    "must exist": E("NotFound", "Requeue(): Job nope does not exist", "requeue", "w", "q", "nope", "k", "{}", 0),
    # locks.lua
    "timeout missing": E("NotFound", "Timeout(): Job nope does not exist", "timeout", "nope"),
    "timeout state": E("StateError", "Timeout(): Job jid not running", "timeout", "jid", setup=put()),
    # ports.lua
    "port missing": E("NotFound", 'Port.write(): Job tj inport "nope" does not exist',
                      "port.write", "tj", "in", "nope", "1", setup=tree()),
    "port terminated": E("StateError", "Port.write(): Job tj is terminated", "port.write", "tj", "in", "i", "1",
                         setup=lambda ql: (ql.put("tj", tree=1, inports={"i": {}}), ql("job.terminate", 0, "tj"))),
    # queue.lua
    "jobs type": E("InvalidArgument", 'Jobs(): Unknown type "bogus"', "jobs", "bogus", "queue"),
    # pages.lua: the dashboard's pages
    "jobs.page state": E("InvalidArgument", 'Jobs.page(): Arg "state" must be one of waiting', "jobs.page",
                         "bogus", "queue"),
    # search.lua: the dashboard's search
    "search filter": E("InvalidArgument", 'Search(): unknown filter "bogus"', "search", "", "1", "1", "bogus", "x"),
    "search source": E("InvalidArgument", "Search(): give jid, prefix, tag, class, worker or queue", "search",
                       "", "1", "1", "state", "waiting"),
    # search_reindex.lua
    "reindex cursor": E("InvalidArgument", 'Search.reindex(): Arg "cursor" is not one search.reindex gave',
                        "search.reindex", '{"p": 1}'),
    "reindex count": E("InvalidArgument", 'Search.reindex(): Arg "count" must be a whole number from 1 to 5000',
                       "search.reindex", "", "0"),
    # recur_cron.lua
    "backlog integer": E("InvalidArgument", 'Recur(): Arg "backlog" must be an integer',
                         "recur", "q", "r", "k", "{}", "cron", "0 * * * *", "backlog", "1.5"),
    "backlog range": E("InvalidArgument", 'Recur(): Arg "backlog" must be between 0 and 1000 for cron schedules',
                       "recur", "q", "r", "k", "{}", "cron", "0 * * * *", "backlog", "2000"),
    "recur next missing": E("NotFound", "Recur.next(): Recurring job nope does not exist", "recur.next", "nope"),
    # recurring.lua
    "interval": E("InvalidArgument", 'Recur(): Arg "interval" must be greater than 0: 0',
                  "recur", "q", "r", "k", "{}", "interval", "0", "0"),
    "schedule type": E("InvalidArgument", 'Recur(): schedule type "weird" unknown', "recur", "q", "r", "k", "{}",
                       "weird"),
    "recur update missing": E("NotFound", "Recur(): No recurring job nope", "recur.update", "nope", "priority", "1"),
    "recur option": E("InvalidArgument", 'Recur(): Unrecognized option "bogus"', "recur.update", "r", "bogus", "1",
                      setup=recur()),
    "recur value": E("InvalidArgument", 'Recur(): Arg "priority" missing a value', "recur.update", "r", "priority",
                     setup=recur()),
    "recur tag missing": E("NotFound", "Recur.tag(): Recurring job nope does not exist", "recur.tag", "nope", "x"),
    # registry.lua
    "register ports": E("InvalidArgument", 'Worker.register(): Arg "config" invalid: inports: not a JSON object',
                        "worker.register", "q", "k", '{"inports":5}'),
    # schedule.lua
    "schedule dependency": E("StateError", "Schedule.remove(): a is a dependency of b and cannot be removed",
                             "schedule.remove", "queue", "a",
                             setup=both(put("a", delay=10), put("b", depends=["a"]))),
    # settle.lua
    "settle text": E("InvalidArgument", 'Settle(): Arg "worker" missing or empty', "settle", "", '["q"]', 0),
    "settle queues": E("InvalidArgument", 'Settle(): Arg "queues" must hold non-empty strings: [""]',
                       "settle", "w", '[""]', 1),
    "settle count": E("InvalidArgument", 'Settle(): Arg "queues" is empty but "count" is 1', "settle", "w", "[]", 1),
    "settle data": E("InvalidArgument", 'Settle(): Arg "data" not a JSON object: 5',
                     "settle", *SETTLE, "complete", "jid", "queue", "5"),
    "settle fail": E("InvalidArgument", "Settle(): fail takes <jid> <queue> <data> <group> <message>",
                     "settle", *SETTLE, "fail", "jid", "queue", "{}", "g"),
    "settle retry": E("InvalidArgument", "Settle(): retry takes <jid> <queue> <data> <delay> [<group> <message>]",
                      "settle", *SETTLE, "retry", "jid", "queue", "{}", "0", "g"),
    "settle tree": E("InvalidArgument", "Settle(): suspend takes <jid> <queue> <data>",
                     "settle", *SETTLE, "suspend", "jid", "queue", "{}", "x"),
    "settle lacks": E("InvalidArgument", 'Settle(): Arg "how" suspend needs job.suspend, which this script lacks',
                      "settle", *SETTLE, "suspend", "jid", "queue", "{}", variant="C['job.suspend'] = nil"),
    "settle how": E("InvalidArgument", 'Settle(): Arg "how" must be complete, fail, retry, suspend or terminated: '
                    "bogus", "settle", *SETTLE, "bogus", "jid", "queue", "{}"),
    "settle batch": E("InvalidArgument", "Settle(): batch takes <n> <how> <jid> <queue> <data> ... per job",
                      "settle", *SETTLE, "batch"),
    "settle batch n": E("InvalidArgument", 'Settle(): Arg "n" of batch item 1 must count its <how> <jid>',
                        "settle", *SETTLE, "batch", 5, "complete", "jid", "queue", "{}"),
    "settle batch size": E("InvalidArgument", "Settle(): batch holds more than 1000 jobs",
                           "settle", *SETTLE, "batch", *([4, "complete", "jid", "queue", "{}"] * 1001)),
    "settle lean": E("InvalidArgument", "Settle(): lean takes <how> <jid> <queue> <data> ... or batch ...",
                     "settle", *SETTLE, "lean"),
    "settle queue": E("StateError", "Settle(): Job jid running in another queue: queue",
                      "settle", *SETTLE, "fail", "jid", "other", "{}", "g", "m", setup=RUNNING),
    # state.lua
    "state key": E("InvalidArgument", 'State.get(): Arg "key" invalid: ', "state.get", "tj", "", setup=tree()),
    "state pairs": E("InvalidArgument", 'State.set(): Arg "k" has no value', "state.set", "tj", "k", setup=tree()),
    # tags.lua
    "tag command": E("InvalidArgument", 'Tag(): First argument must be "add", "remove", "get" or "top": bogus',
                     "tag", "bogus"),
    "track action": E("InvalidArgument", 'Track(): Unknown action "bogus"', "track", "bogus", "jid"),
    # tree.lua
    "tree job missing": E("NotFound", "Job.run(): Job nope does not exist", "job.run", "nope"),
    "not a tree job": E("StateError", "Job.run(): Job plain is not a tree job", "job.run", "plain",
                        setup=put("plain")),
    "tree option": E("InvalidArgument", 'Put(): Arg "tree" must be 1', "put", *PW, "tree", "yes"),
    "put terminating": E("StateError", "Put(): Job jid cannot go from terminating to waiting", "put", *PW,
                         setup=terminating),
    # tree_commands.lua
    "run terminating": E("StateError", "Job.run(): Job jid cannot go from terminating to waiting", "job.run", "jid",
                         setup=terminating),
    # tree_delete.lua
    "delete live": E("StateError", "Job.delete(): Job tj is not terminated: waiting", "job.delete", "tj",
                     setup=tree()),
    # tree_links.lua
    "child name": E("InvalidArgument", 'Put(): Arg "name" invalid: bad name', "put", *PW, "parent", "tj",
                    "name", "bad name", setup=tree()),
    "has parent": E("StateError", "Job.adopt(): Job tc already has parent tj", "job.adopt", "tj2", "m", "tc",
                    setup=KIDS),
    "name used": E("StateError", 'Put(): child name "n" of tj is already used by job tc',
                   "put", "w", "q", "tz", "k", "{}", 0, "parent", "tj", "name", "n", setup=KIDS),
    "cycle": E("StateError", "Job.adopt(): Job tj cannot be a child of tc: cycle", "job.adopt", "tc", "up", "tj",
               setup=KIDS),
    "unique parent": E("InvalidArgument", 'Put(): Arg "unique" cannot be combined with parent',
                       "put", *PW, "unique", "1", "parent", "tj", "name", "m", setup=KIDS),
    "parent missing": E("NotFound", "Put(): Parent nope does not exist", "put", *PW, "parent", "nope", "name", "m"),
    "parent plain": E("StateError", "Put(): Job plain is not a tree job", "put", *PW, "parent", "plain",
                      "name", "m", setup=KIDS),
    "disown": E("NotFound", 'Job.disown(): child "nope" of tj does not exist', "job.disown", "tj", "nope",
                setup=tree()),
    # tree_names.lua
    "port name": E("InvalidArgument", 'Port.write(): Arg "port" invalid: bad port', "port.write", "tj", "in",
                   "bad port", "1", setup=tree()),
    "dir": E("InvalidArgument", 'Port.write(): Arg "dir" must be in or out', "port.write", "tj", "up", "i", "1",
             setup=tree()),
    "ports": E("InvalidArgument", 'Put(): Arg "inports" invalid: port name "bad port"',
               "put", *PW, "inports", '{"bad port":{}}'),
    "channel": E("InvalidArgument", 'Channel.publish(): Arg "channel" invalid: bad', "channel.publish", "bad", "1"),
    "channel reserved": E("InvalidArgument", 'Channel.publish(): Arg "channel" invalid: /qless/x is reserved',
                          "channel.publish", "/qless/x", "1"),
    # tree_terminate.lua
    "terminate mode": E("InvalidArgument", 'Job.terminate(): Arg "mode" must be recursive',
                        "job.terminate", "tj", "all", setup=tree()),
    "terminated state": E("StateError", "Job.terminated(): Job tj is not terminating: waiting",
                          "job.terminated", "tj", "worker", setup=tree()),
    "terminated unheld": E("LockLost", "Job.terminated(): Job jid is not currently running: terminating",
                           "job.terminated", "jid", "worker", setup=terminating),
    "terminated worker": E("LockLost", "Job.terminated(): Job jid has been handed out to another worker: worker",
                           "job.terminated", "jid", "other", setup=held_terminating),
    # unique.lua
    "unique": E("InvalidArgument", 'Put(): Arg "unique" must be 1 or report', "put", *PW, "unique", "2"),
}


def variant_source(artefact_paths, mode, lua_line):
    """The artefact with `lua_line` added before its entry (no module line
    moves); in function mode under the library and function name
    qless_variant."""
    with open(artefact_paths[mode]) as f:
        src = f.read()
    cut = src.index("\n-- ==== entry-")
    src = src[:cut] + "\n" + lua_line + src[cut:]
    if mode == "function":
        src = src.replace("#!lua name=qless\n", "#!lua name=qless_variant\n", 1)
        src = src.replace("function_name = 'qless'", "function_name = 'qless_variant'", 1)
    return src


def run_variant(r, artefact_paths, mode, lua_line, *argv):
    src = variant_source(artefact_paths, mode, lua_line)
    if mode == "script":
        return r.eval(src, 0, *argv)
    r.execute_command("FUNCTION", "LOAD", "REPLACE", src)
    try:
        return r.execute_command("FCALL", "qless_variant", 0, *argv)
    finally:
        r.execute_command("FUNCTION", "DELETE", "qless_variant")


def fail(ql, r, artefact_paths, case):
    """Runs the case's setup, then its call: returns the error text and
    whether the call left the database as it was."""
    if case.setup:
        case.setup(ql)
    before = digest(r)
    with pytest.raises(redis.ResponseError) as info:
        if case.raw is not None:
            ql.raw(*case.raw)
        elif case.variant is not None:
            run_variant(r, artefact_paths, ql.mode, case.variant, case.command, case.now, *case.args)
        else:
            ql(case.command, case.now, *case.args)
    return str(info.value), digest(r) == before


@pytest.fixture(scope="module")
def modules(artefact_paths):
    import conftest
    with open(artefact_paths[conftest.MODE]) as f:
        return module_lines(f.read())


def parse(text, modules):
    """(site, kind, message) of a protocol error."""
    m = ERROR.match(text)
    assert m, "not a protocol error: %r" % text
    return site_at(modules, int(m.group(1))), m.group(2), SUFFIX.sub("", m.group(3))


SITES = {where: (kind, pattern) for where, kind, pattern in sites()}


def test_sites_are_parsed():
    """The parser finds the raise sites (guards the coverage check below)."""
    assert len(SITES) >= 90
    assert set(kind for kind, _ in SITES.values()) <= set(error_kinds())


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_kind(ql, r, artefact_paths, modules, name):
    case = CASES[name]
    text, unchanged = fail(ql, r, artefact_paths, case)
    site, kind, msg = parse(text, modules)
    assert kind == case.kind, text
    assert case.fragment in msg, text
    assert site in SITES, "error from %s, not a Q.raise site: %s" % (site, text)
    assert SITES[site][0] == kind and SITES[site][1].match(msg), (site, text)
    assert unchanged, "the refusal wrote: " + text


def test_every_raise_site_has_a_case(ql, r, artefact_paths, modules):
    """Each Q.raise of lua/*.lua is reached by a case with its kind and a
    message its constant text matches."""
    reached = {}
    for name in sorted(CASES):
        r.flushall()
        text, _ = fail(ql, r, artefact_paths, CASES[name])
        site, kind, msg = parse(text, modules)
        reached.setdefault(site, []).append((kind, msg))
    missing = []
    for where, (kind, pattern) in sorted(SITES.items()):
        if not any(k == kind and pattern.match(m) for k, m in reached.get(where, [])):
            missing.append("%s [%s] %s" % (where, kind, pattern.pattern))
    assert not missing, "raise sites no case reaches:\n" + "\n".join(missing)


@pytest.mark.parametrize("kind", ["Bogus", "notfound", "", "Not Found"])
def test_unknown_kind_refused(ql, r, artefact_paths, kind):
    """A typo in a kind fails loudly: a ProtocolError naming the bad kind (so
    the fuzzer and these tests catch it), never the message as if valid."""
    line = "C['test.raise'] = function(now, args) Q.raise(args[1], args[2]) end"
    with pytest.raises(redis.ResponseError) as info:
        run_variant(r, artefact_paths, ql.mode, line, "test.raise", 0, kind, "Put(): oops")
    text = str(info.value)
    assert re.match(r"^(?:ERR )?user_(?:script|function):\d+: \[ProtocolError\] Q\.raise\(\): unknown error "
                    r"kind %s for: Put\(\): oops" % re.escape(kind), text), text
    for good in error_kinds():
        with pytest.raises(redis.ResponseError) as info:
            run_variant(r, artefact_paths, ql.mode, line, "test.raise", 0, good, "Put(): fine")
        assert re.match(r"^(?:ERR )?user_(?:script|function):\d+: \[%s\] Put\(\): fine" % good, str(info.value))
