"""§9 events: commands outside §9.3's list publish nothing; channel escaping."""
from helpers import lock_lost, log_put


def test_silent_commands(ql, events):
    """§9.3 'everything else': no messages from the read/admin commands."""
    ql.put("a")
    ql.put("b", tags=["t"])
    ql.track("a")
    with events() as ev:
        ql.get("a")
        ql.json("multiget", 0, "a", "b")
        ql.peek(count=5)
        ql.queues(0)
        ql.queues(0, "queue")
        ql("length", 0, "queue")
        ql("jobs", 0, "complete")
        ql("failed", 0)
        ql.workers(0)
        ql.stats()
        ql("tag", 0, "top")
        ql("priority", 0, "a", 4)
        ql("log", 0, "a", "msg")
        ql("pause", 0, "queue")
        ql("unpause", 0, "queue")
        ql("queue.forget", 0, "queue")
        ql("worker.deregister", 0, "w")
        ql.recur("r")
        ql("recur.get", 0, "r")
        ql("recur.update", 0, "r", "priority", 1)
        ql("recur.tag", 0, "r", "x")
        ql("unrecur", 0, "r")
        ql.json("track", 0)
    assert ev == []


def test_escaping_in_messages(ql, events):
    """§9.2: values are JSON strings with cjson escaping (`/` -> `\\/`)."""
    with events() as ev:
        ql.put("a/b", queue='q"1')
    assert ev == [("ql:log", '{"jid":"a\\/b","event":"put","queue":"q\\"1"}')]


def test_events_in_publish_order_across_commands(ql, events):
    """§9: several commands' messages arrive in execution order."""
    ql.running()
    with events() as ev:
        ql.put(worker="other")
        ql.put("b")
    assert ev == [log_put()] + lock_lost() + [log_put("b")]
