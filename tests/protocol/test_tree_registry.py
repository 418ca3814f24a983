"""jobtrees.md §5.18 worker registry, K8 (WRG-1)."""
import json

from helpers import digest

LOG = "ql:ch:/qless/log"


def notice(what, queue, klass):
    return '{"event":"%s","queue":%s,"klass":%s}' % (what, json.dumps(queue, ensure_ascii=False), json.dumps(klass, ensure_ascii=False))


def test_register_config_unregister(ql, r, events):
    """WRG-1, K8: exact notice texts on /qless/workers and its levels."""
    cfg = ' {"outports": {"o": {}}, "inports": {"i": {"default": 1.50}}} '
    with events() as got:
        assert ql("worker.register", 7, "q", "Kl\u00e9", cfg) == 1
    text = notice("register", "q", "Kl\u00e9")
    env = '{"channel":"\\/qless\\/workers","data":%s}' % text
    assert got == [("ql:ch:/qless/workers", env), ("ql:ch:/qless", env), ("ql:ch:/", env),
                   (LOG, '{"event":"publish","time":7,"channel":"\\/qless\\/workers","job":false,'
                         '"data":%s,"to":[]}' % text)]
    assert ql("worker.register", 8, "q", "Kl\u00e9", cfg) == 0
    assert ql("worker.config", 0, "q", "Kl\u00e9") == cfg.strip()
    assert ql("worker.config", 0, "q", "other") is None
    ql("worker.register", 0, "q", "A", "{}")
    assert ql("worker.config", 0, "q") == '{"A":{},"Kl\u00e9":%s}' % cfg.strip()
    assert ql("worker.config", 0, "none") == "{}"
    with events() as got:
        assert ql("worker.unregister", 9, "q", "A", "missing", "Kl\u00e9") == 2
    notices = [json.loads(m[1])["data"] for m in got if m[0] == "ql:ch:/qless/workers"]
    assert notices == [{"event": "unregister", "queue": "q", "klass": "A"},
                       {"event": "unregister", "queue": "q", "klass": "Kl\u00e9"}]
    assert got[0][1] == '{"channel":"\\/qless\\/workers","data":%s}' % notice("unregister", "q", "A")
    assert ql("worker.config", 0, "q") == "{}"


def test_register_errors_write_nothing(ql, r):
    ql("worker.register", 0, "q", "k", "{}")
    before = digest(r)
    cases = [
        (("q", "k", "[]"), 'Worker.register(): Arg "config" not a JSON object'),
        (("q", "k", "{"), 'Worker.register(): Arg "config" not JSON: {'),
        (("q", "k", '{"a": NaN}'), 'Worker.register(): Arg "config" not JSON'),
        (("q", "k", '{"inports": []}'), 'Worker.register(): Arg "config" invalid: inports: not a JSON object'),
        (("q", "k", '{"outports": {"a:b": {}}}'), 'Worker.register(): Arg "config" invalid: outports: port name "a:b"'),
        (("q", "k", '{"inports": {"a": {"dflt": 1}}}'),
         'Worker.register(): Arg "config" invalid: inports: unknown port option "dflt"'),
        (("q", "k"), 'Worker.register(): Arg "config" missing'),
        (("q",), 'Worker.register(): Arg "klass" missing'),
    ]
    for args, text in cases:
        assert text in ql.err("worker.register", 0, *args), args
    assert 'Worker.unregister(): Arg "klass" missing' in ql.err("worker.unregister", 0, "q")
    assert 'Worker.config(): Arg "queue" missing' in ql.err("worker.config", 0)
    assert digest(r) == before


def test_new_jobs_get_registered_ports_existing_keep_theirs(ql):
    """WRG-1: ports are copied at creation only."""
    ql.put("old", tree=1)
    ql("worker.register", 0, "queue", "klass", '{"inports": {"i": {}}, "outports": {"*": {}}}')
    ql.put("new", tree=1)
    new = json.loads(ql("tree.get", 0, "new"))
    assert (new["inports"], new["outports"]) == ({"i": {}}, {"*": {}})
    old = json.loads(ql("tree.get", 0, "old"))
    assert (old["inports"], old["outports"]) == ({}, {})
    ql.put("other", tree=1, queue="elsewhere")
    assert json.loads(ql("tree.get", 0, "other"))["inports"] == {}
