"""Job trees at the command line: put's tree options, qless tree (drawing and
--json), job suspend/run/terminate/delete, alias, port, channel, state,
klass and watch ch:<channel> (jobtrees.md §10)."""
import json
import subprocess
import time

import pytest

from conftest import CLI


def tree_put(qless, jid, *args, klass="K", queue="q"):
    out, _ = qless("put", queue, klass, "--jid", jid, *args)
    assert out == jid + "\n"
    return jid


# ---- put ----

def test_put_tree_options_make_a_tree_job(qless, r):
    tree_put(qless, "root", "--tree", "--by", "ops", "--alias", "first", "--alias", "second")
    tree_put(qless, "kid", "--parent", "root", "--name", "left")
    root = r.hgetall("ql:j:root")
    assert root["tree"] == "1" and root["created_by"] == "ops"
    assert r.hgetall("ql:aliases") == {"first": "root", "second": "root"}
    assert r.hgetall("ql:children:root") == {"left": "kid"}
    kid = r.hgetall("ql:j:kid")
    assert kid["tree"] == "1" and kid["parent"] == "root" and kid["name"] == "left"


def test_put_by_alone_makes_a_plain_job(qless, r):
    """K13: --by is recorded only for tree jobs."""
    tree_put(qless, "plain", "--by", "ops")
    assert "tree" not in r.hgetall("ql:j:plain")


def test_put_ports_are_defined(qless, r):
    tree_put(qless, "p", "--inports", '{"in":{},"limit":{"default":10}}', "--outports", '{"out":{}}')
    assert set(r.hgetall("ql:inports:p")) == {"in", "limit"}
    assert set(r.hgetall("ql:outports:p")) == {"out"}


# ---- tree get ----

def test_tree_draws_names_states_and_aliases(qless):
    tree_put(qless, "R", "--tree", "--alias", "top")
    tree_put(qless, "X", "--parent", "R", "--name", "b")
    tree_put(qless, "Y", "--parent", "R", "--name", "a")
    tree_put(qless, "Z", "--parent", "Y", "--name", "z", "--alias", "zz", "--alias", "deep")
    out, _ = qless("tree", "R")
    assert out.splitlines() == [
        "R K waiting [top]",
        "|-- a: Y K waiting",
        "|   `-- z: Z K waiting [deep,zz]",
        "`-- b: X K waiting",
    ]
    # a subtree, drawn from its root; `tree get` is the same
    out, _ = qless("tree", "get", "Y")
    assert out.splitlines() == ["a: Y K waiting  (parent R)", "`-- z: Z K waiting [deep,zz]"]


def test_tree_json_is_the_tree_get_objects_parents_first(qless):
    tree_put(qless, "R", "--tree")
    tree_put(qless, "X", "--parent", "R", "--name", "b")
    tree_put(qless, "Y", "--parent", "R", "--name", "a")
    out, _ = qless("--json", "tree", "R")
    objs = json.loads(out)
    assert [o["jid"] for o in objs] == ["R", "Y", "X"]
    assert objs[0]["children"] == {"a": "Y", "b": "X"} and objs[1]["parent"] == "R"
    assert {"sizes", "inports", "runs", "started", "created_by"} <= set(objs[0])


def test_tree_draws_the_pipeline_with_ports_and_channels(qless):
    """The three jobs of jobtrees.md §11, drawn line by line."""
    tree_put(qless, "P", "--inports", '{"result":{}}', "--alias", "nightly", klass="Pipeline")
    tree_put(qless, "A", "--parent", "P", "--name", "producer", "--outports", '{"out":{}}', klass="Producer")
    tree_put(qless, "B", "--parent", "P", "--name", "consumer", "--inports", '{"in":{}}', klass="Consumer")
    qless("port", "connect", "A", "out", "out", "/demo/items")
    qless("port", "connect", "B", "in", "in", "/demo/items")
    qless("port", "write", "A", "out", "out", "1", "2")
    out, _ = qless("tree", "P")
    assert out.splitlines() == [
        "P Pipeline waiting [nightly]  in: result=0",
        "|-- consumer: B Consumer waiting  in: in=2<-/demo/items",
        "`-- producer: A Producer waiting  out: out=0->/demo/items",
    ]


def test_tree_of_unknown_and_plain_jobs_are_runtime_errors(qless):
    _, err = qless("tree", "nope", code=1)
    assert err == "qless: tree get: no job nope\n"
    qless("put", "q", "K", "--jid", "plain")
    _, err = qless("tree", "plain", code=1)
    assert "is not a tree job" in err


# ---- job suspend / run / terminate / delete ----

def test_job_suspend_and_run(qless, r):
    tree_put(qless, "j", "--tree")
    qless("--worker", "w", "pop", "q")
    out, _ = qless("--worker", "w", "job", "suspend", "j")
    assert out == "suspended\n"
    assert r.zscore("ql:q:q-suspended", "j") is not None
    out, _ = qless("--json", "job", "run", "j")
    assert json.loads(out) == {"jid": "j", "state": "waiting"}
    assert r.hget("ql:j:j", "state") == "waiting"
    # tree run is the same function; a delay schedules it
    qless("--worker", "w", "pop", "q")
    qless("--worker", "w", "job", "suspend", "j")
    out, _ = qless("tree", "run", "j", "--delay", "1m")
    assert out == "scheduled\n"


def test_job_suspend_by_another_worker_is_refused(qless, r):
    tree_put(qless, "j", "--tree")
    qless("--worker", "w", "pop", "q")
    _, err = qless("--worker", "other", "job", "suspend", "j", code=1)
    assert "another worker" in err
    assert r.hget("ql:j:j", "state") == "running"


def test_terminate_recursive_then_delete(qless, r):
    tree_put(qless, "R", "--tree")
    tree_put(qless, "X", "--parent", "R", "--name", "x")
    out, _ = qless("job", "terminate", "R")
    assert out == "1\n"
    assert r.hget("ql:j:X", "state") == "waiting"
    out, _ = qless("--json", "tree", "terminate", "R", "--recursive")
    assert json.loads(out) == {"jid": "R", "changed": 1}
    assert r.hget("ql:j:X", "state") == "terminated"
    out, _ = qless("tree", "delete", "R")
    assert out == "2\n"
    assert not r.exists("ql:j:R") and not r.exists("ql:j:X")


def test_delete_of_a_live_tree_is_refused(qless, r):
    tree_put(qless, "R", "--tree")
    _, err = qless("job", "delete", "R", code=1)
    assert "is not terminated" in err
    assert r.exists("ql:j:R")


# ---- aliases ----

def test_alias_set_get_del(qless, r):
    tree_put(qless, "j", "--tree")
    assert qless("alias", "set", "j", "a1", "a2")[0] == "2\n"
    assert json.loads(qless("--json", "alias", "set", "j", "a2", "a3")[0]) == {"jid": "j", "added": 1}
    assert qless("alias", "get", "a2")[0] == "j\n"
    assert json.loads(qless("--json", "alias", "get", "a1")[0]) == {"alias": "a1", "jid": "j"}
    assert qless("alias", "del", "a1", "a2", "a3", "a4")[0] == "3\n"
    _, err = qless("alias", "get", "a1", code=1)
    assert err == "qless: alias get: no alias a1\n"
    tree_put(qless, "k", "--tree", "--alias", "taken")
    _, err = qless("alias", "set", "j", "free", "taken", code=1)
    assert "already used" in err
    assert r.hget("ql:aliases", "free") is None


# ---- ports and channels ----

def test_port_write_read_peek_size(qless):
    tree_put(qless, "j", "--inports", '{"in":{}}')
    first = '{"a": 1, "b": ["x,]", 2]}'   # printed as stored: its spaces, a comma and ] in a string
    assert qless("port", "write", "j", "in", "in", first, "2", '"x y"')[0] == "3\n"
    assert qless("port", "size", "j", "in", "in")[0] == "3\n"
    assert qless("port", "peek", "j", "in", "in", "--count", "2")[0] == first + "\n2\n"
    assert qless("port", "read", "j", "in", "in")[0] == first + "\n"
    assert json.loads(qless("--json", "port", "read", "j", "in", "in", "--count", "5")[0]) == [2, "x y"]
    assert qless("port", "read", "j", "in", "in")[0] == ""
    assert json.loads(qless("--json", "port", "size", "j", "in", "in")[0]) == {"jid": "j", "size": 0}


def test_port_write_with_a_bad_value_writes_nothing(qless, snapshot):
    tree_put(qless, "j", "--inports", '{"in":{}}')
    before = snapshot()
    _, err = qless("port", "write", "j", "in", "in", "1", "{bad", code=2)
    assert "VALUE 2" in err
    _, err = qless("port", "write", "j", "in", "a-b", "1", code=2)
    assert 'Arg "port"' in err
    assert snapshot() == before


def test_connect_publish_subscribers_disconnect(qless, r):
    tree_put(qless, "s1", "--inports", '{"in":{}}')
    tree_put(qless, "s2", "--inports", '{"in":{}}')
    assert qless("port", "connect", "s1", "in", "in", "/a", "/a/b")[0] == "2\n"
    assert qless("port", "connect", "s2", "in", "in", "/a/b")[0] == "1\n"
    assert qless("channel", "subscribers", "/a/b")[0].splitlines() == ["JID  PORT", "s1   in", "s2   in"]
    assert json.loads(qless("--json", "channel", "subscribers", "/a")[0]) == [["s1", "in"]]
    assert json.loads(qless("--json", "channel", "subscribers", "/nobody")[0]) == []
    log = r.pubsub(ignore_subscribe_messages=True)
    log.subscribe("ql:ch:/qless/log")
    assert qless("channel", "publish", "/a/b", '{"v":1}', "--from", "me")[0] == "2\n"
    published, deadline = [], time.time() + 10
    while not published and time.time() < deadline:
        m = log.get_message(timeout=1)
        event = json.loads(m["data"]) if m else {}
        if event.get("event") == "publish":
            published.append(event)
    log.close()
    assert [(e["channel"], e["job"], e["to"]) for e in published] == [("/a/b", "me", [["s1", "in"], ["s2", "in"]])]
    assert r.lrange("ql:in:in:s1", 0, -1) == ['{"v":1}']
    assert qless("port", "disconnect", "s2", "in", "in", "/a/b", "/zz")[0] == "1\n"
    assert json.loads(qless("--json", "channel", "publish", "/a/b", "3")[0]) == {"delivered": 1}
    _, err = qless("channel", "publish", "/qless/x", "1", code=2)
    assert "is reserved" in err


# ---- state ----

def test_state_set_get_del(qless):
    tree_put(qless, "j", "--tree")
    assert qless("state", "set", "j", "b", "[2]", "a", "1")[0] == "2\n"
    assert qless("state", "get", "j", "b")[0] == "[2]\n"
    assert json.loads(qless("--json", "state", "get", "j")[0]) == {"a": 1, "b": [2]}
    assert qless("state", "get", "j")[0].splitlines() == ["KEY  VALUE", "a    1", "b    [2]"]
    assert qless("state", "del", "j", "a", "nope")[0] == "1\n"
    _, err = qless("state", "get", "j", "a", code=1)
    assert err == "qless: state get: job j has no state a\n"


# ---- klass registry ----

def test_klass_register_list_unregister(qless):
    config = '{"inports":{"in":{}}}'
    assert qless("klass", "register", "q", "K", config)[0] == "registered K\n"
    assert json.loads(qless("klass", "list", "q", "K")[0]) == json.loads(config)
    assert json.loads(qless("--json", "klass", "list", "q")[0]) == {"K": json.loads(config)}
    assert qless("klass", "unregister", "q", "K", "Other")[0] == "unregistered K\n"
    assert json.loads(qless("--json", "klass", "list", "q")[0]) == {}


# ---- watch ch:<channel> ----

def test_watch_ch_log_receives_a_status_event(qless, r, url, base_env):
    p = subprocess.Popen([CLI, "--url", url, "--json", "watch", "ch:/qless/log", "--count", "1"],
                         env=base_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 10
        while r.pubsub_numsub("ql:ch:/qless/log")[0][1] == 0:
            assert time.time() < deadline and p.poll() is None, "watch did not subscribe"
            time.sleep(0.02)
        tree_put(qless, "j", "--tree")
        out, err = p.communicate(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0 and err == ""
    line = json.loads(out)
    assert line["channel"] == "ch:/qless/log"
    msg = line["message"]
    assert (msg["event"], msg["job"], msg["from"], msg["to"]) == ("status", "j", "new", "waiting")


# ---- usage errors: exit 2, one line, nothing written ----

# (argv, what the one line of stderr says)
BAD = [
    (["tree"], "tree: needs a subcommand"), (["tree", "get"], "needs a JID"),
    (["tree", "get", "a", "b"], "unexpected argument 'b'"), (["tree", "get", ""], "tree get: JID is empty"),
    (["tree", "run", "R", "--delay", "5x"], "bad duration '5x' for --delay"),
    (["tree", "terminate", "R", "--recursive=1"], "--recursive takes no value"),
    (["job"], "job: needs a subcommand"), (["job", "bogus", "R"], "unknown subcommand 'bogus'"),
    (["job", "suspend"], "job suspend: needs JID"), (["job", "run", "R", "extra"], "job run: needs JID"),
    (["port"], "port: needs a subcommand"),
    (["port", "read", "R", "sideways", "p"], "direction must be in or out, not 'sideways'"),
    (["port", "read", "R", "in", "p", "--count", "0"], "--count must be an integer from 1 to 1000"),
    (["port", "peek", "R", "in", "p", "--count", "1001"], "--count must be an integer from 1 to 1000"),
    (["port", "write", "R", "in", "p"], "needs JID in|out PORT VALUE..."),
    (["port", "write", "R", "in", "p", "1", "{bad"], "VALUE 2 is not valid JSON"),
    (["port", "write", "R", "in", "p", "NaN"], "VALUE 1 is not valid JSON"),
    (["port", "write", "R", "in", "p", "[" * 1001 + "]" * 1001], "VALUE 1 is nested deeper than 1000 levels"),
    (["port", "write", "R", "in", "", "1"], "PORT is empty"),
    (["port", "size", "R", "in"], "needs JID in|out PORT"),
    (["port", "connect", "R", "in", "p", "bad"], "CHANNEL 'bad' is not a channel"),
    (["port", "disconnect", "R", "out", "p", "/a//b"], "CHANNEL '/a//b' is not a channel"),
    (["channel", "publish", "/a", "{"], "JSON is not valid JSON"),
    (["channel", "publish", "a", "1"], "CHANNEL 'a' is not a channel"),
    (["channel", "publish", "/a", "1", "--from", ""], "--from is empty"),
    (["channel", "subscribers", "//"], "CHANNEL '//' is not a channel"),
    (["channel", "subscribers", "/a/"], "CHANNEL '/a/' is not a channel"),
    (["channel", "subscribers"], "needs CHANNEL"),
    (["state", "set", "R", "k"], "needs JID KEY JSON"), (["state", "set", "R", "k", "1", "k2"], "KEY 'k2' has no value"),
    (["state", "set", "R", "k", "nan"], "the value of 'k' is not valid JSON"),
    (["state", "set", "R", "k", "1", "x" * 201, "2"], "is longer than 200 bytes"),
    (["state", "get"], "needs JID [KEY]"), (["state", "del", "R"], "needs JID KEY..."),
    (["alias", "set", "R"], "needs JID ALIAS..."), (["alias", "get"], "needs ALIAS"), (["alias", "del"], "needs ALIAS..."),
    (["alias", "get", "a", "b"], "needs ALIAS"),
    (["klass", "register", "q", "K", "[]"], "CONFIG is not a JSON object"),
    (["klass", "register", "q", "K"], "needs QUEUE KLASS CONFIG"), (["klass", "list"], "needs QUEUE [KLASS]"),
    (["klass", "unregister", "q"], "needs QUEUE KLASS..."),
    (["put", "q", "K", "--parent", "R"], "--parent and --name go together"),
    (["put", "q", "K", "--name", "n"], "--parent and --name go together"),
    (["put", "q", "K", "--inports", "[]"], "--inports is not a JSON object"),
    (["put", "q", "K", "--outports", "{bad"], "--outports is not valid JSON"),
    (["put", "q", "K", "--alias", ""], "--alias is empty"), (["put", "q", "K", "--alias"], "--alias needs a value"),
    (["put", "q", "K", "--tree=1"], "--tree takes no value"),
    (["put", "q", "K", "--parent", "", "--name", "n"], "--parent is empty"),
    (["watch", "ch:nope"], "CHANNEL 'nope' is not a channel"), (["watch", "ch:/a b"], "CHANNEL '/a b' is not a channel"),
]


@pytest.mark.parametrize("argv,reason", BAD, ids=lambda a: " ".join(a)[:60] if isinstance(a, list) else "")
def test_usage_errors_exit_2_and_change_nothing(qless, snapshot, argv, reason):
    tree_put(qless, "R", "--tree")
    before = snapshot()
    _, err = qless(*argv, code=2)
    assert err.startswith("qless: ") and reason in err, err
    assert snapshot() == before


@pytest.mark.parametrize("group", ["tree", "job", "port", "channel", "state", "alias", "klass"])
def test_help_lists_the_subcommands(qless, group):
    out, _ = qless(group, "--help")
    assert out.startswith("usage: qless %s SUBCOMMAND" % group)
    assert out.count("qless ") >= 3
