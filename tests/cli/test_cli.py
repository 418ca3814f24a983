"""The program as a whole: help, version, usage errors, unreachable servers."""
import time

import pytest

COMMANDS = ["put", "get", "peek", "pop", "complete", "fail", "retry", "cancel", "priority", "tag",
            "track", "depends", "queues", "jobs", "failed", "unfail", "stats", "workers", "config",
            "recur", "pause", "unpause", "watch", "server", "when", "cron", "schedule", "tree", "job",
            "port", "channel", "state", "alias", "klass", "web", "metrics"]


def test_top_level_help_lists_every_command(raw):
    p = raw("--help")
    assert p.returncode == 0 and p.stdout.startswith("usage: qless ")
    listed = [line.split()[0] for line in p.stdout.split("Commands:\n", 1)[1].split("\n\n")[0].splitlines()]
    assert listed == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(raw, command):
    # no server is needed (nor started) for --help: QLESS_HOME stays empty
    p = raw("--url", "redis://127.0.0.1:1", command, "--help")
    assert p.returncode == 0 and p.stderr == ""
    first = p.stdout.splitlines()[0].split()
    assert first[:2] == ["usage:", "qless"] and command in first


def test_version(raw):
    p = raw("--version")
    assert p.returncode == 0 and p.stdout.startswith("qless 1.")


@pytest.mark.parametrize("args,reason", [
    ([], "usage: qless"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["--colour", "queues"], "unknown option --colour"),
    (["--url"], "--url needs a value"),
    (["queues", "extra"], "unexpected argument 'extra'"),
])
def test_usage_errors_exit_2(raw, args, reason):
    p = raw(*args)
    assert p.returncode == 2 and reason in p.stderr and p.stdout == ""


def test_global_options_after_the_command(qless, url, raw):
    p = raw("queues", "--url=" + url, "--json")
    assert p.returncode == 0 and p.stdout == "[]\n"


def test_unreachable_server(raw, snapshot, r):
    r.set("marker", "1")
    before = snapshot()
    for args in (["queues"], ["put", "q", "K"], ["get", "x"], ["watch", "--count", "1"]):
        start = time.time()
        p = raw("--url", "redis://127.0.0.1:1", *args)
        assert time.time() - start < 5
        assert p.returncode == 1, p
        assert p.stderr.startswith("qless: %s: " % args[0]) and p.stderr.count("\n") == 1
        assert "127.0.0.1:1" in p.stderr and p.stdout == ""
    assert snapshot() == before


def test_bad_url(raw):
    p = raw("--url", "http://example", "queues")
    assert p.returncode == 2 and p.stderr.startswith("qless: queues: ") and p.stderr.count("\n") == 1


def test_qless_url_environment(raw, url):
    p = raw("put", "q", "K", "--jid", "from-env", env={"QLESS_URL": url})
    assert p.returncode == 0 and p.stdout == "from-env\n"


def test_namespace_flag(qless, url, raw, r):
    """--namespace NAME (or ?namespace=NAME in the URL): the jobs, queues and
    workers of that namespace only, under keys {NAME}:ql:..."""
    assert qless("--namespace", "a", "put", "q", "K", "--jid", "ja")[0] == "ja\n"
    assert qless("put", "q", "K", "--jid", "plain", "--namespace=b")[0] == "plain\n"
    assert r.exists("{a}:ql:j:ja") and r.exists("{b}:ql:j:plain") and not r.keys("ql:*")
    assert qless("--namespace", "a", "--json", "queues")[0].count('"q"') == 1
    assert qless("--json", "queues")[0] == "[]\n"
    assert qless("--url", url + "?namespace=a", "get", "ja", "--json")[0].count('"ja"') == 1
    p = raw("--url", url, "--namespace", "b", "get", "ja")
    assert p.returncode == 1 and "ja" in p.stderr
    for bad in ("", "a/b", "{x}", "a" * 65):
        p = raw("--url", url, "--namespace", bad, "queues")
        assert p.returncode == 2 and "namespace" in p.stderr and p.stderr.count("\n") == 1, p.stderr
