"""Expected texts of the jobtrees.md §7 log events and scenarios shared by
the tree-job life-cycle tests."""
import json

from helpers import jids

LOG = "ql:ch:/qless/log"


def status(jid, now, frm, to):
    return (LOG, '{"event":"status","time":%s,"job":"%s","from":"%s","to":"%s"}'
            % (json.dumps(now), jid, frm, to))


def error(jid, now, text):
    return (LOG, '{"event":"error","time":%s,"job":"%s","error":%s}'
            % (json.dumps(now), jid, json.dumps(text).replace("/", "\\/")))


def log_only(got):
    return [m for m in got if m[0] == LOG]


def tree(ql, jid="jid", now=0):
    return json.loads(ql("tree.get", now, jid))


def running(ql, jid="jid", now=1, started=False, **opts):
    """A tree job put at now-1 and popped at now (started if asked)."""
    ql.put(jid, now=now - 1, tree=1, **opts)
    assert jids(ql.pop(now=now)) == [jid]
    if started:
        assert ql("job.started", now, jid, "worker") == 1


def terminating(ql, jid="jid", now=2, **opts):
    """A started tree job terminated at `now`: waiting for its shutdown run."""
    running(ql, jid, now - 1, started=True, **opts)
    assert ql("job.terminate", now, jid) == 1
    assert ql.state(jid) == "terminating"


def held_terminating(ql, jid="jid", now=3, worker="worker", **opts):
    """A terminating job handed out for its shutdown run at `now`."""
    terminating(ql, jid, now - 1, **opts)
    popped = ql.pop(now=now, worker=worker)
    assert [(j["jid"], j["state"], j["worker"]) for j in popped] == [(jid, "terminating", worker)]
