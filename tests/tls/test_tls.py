"""rediss:// and ACL users (docs/tls.md): the CLI, the Python binding and the
C suite over TLS; verification failures refused with what failed."""
import os
import subprocess

import pytest
import qless

CLI = os.environ["QLESS_CLI"]


def cli(url, *args, code=0):
    env = dict(os.environ)
    env.pop("QLESS_URL", None)
    p = subprocess.run([CLI, "--url", url] + list(args), capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == code, (p.returncode, p.stdout, p.stderr)
    return p.stdout, p.stderr


def refused(url, *needles):
    """A client for url is refused with a connection error naming each needle."""
    with pytest.raises(qless.ConnectionError) as e:
        qless.Client(url)
    for needle in needles:
        assert needle in str(e.value), str(e.value)
    return str(e.value)


def test_cli_over_tls(tls):
    url = tls.url()
    out, _ = cli(url, "put", "tq", "K", "{}")
    jid = out.strip()
    assert tls.r.hget("ql:j:" + jid, "queue") == "tq"
    out, _ = cli(url, "queues")
    assert "tq" in out


def test_python_over_tls_with_events(tls):
    client = qless.Client(tls.url(), worker_name="w")
    with client.events("completed") as events:
        queue = client.queues["pq"]
        jid = queue.put("K", {"n": 1})
        client.jobs[jid].track()   # completed is published for tracked jobs
        job = queue.pop()
        assert job.jid == jid and job.data == {"n": 1}
        job.complete()
        assert events.next(5.0) == qless.Event("completed", jid)
    assert client.jobs[jid].state == "complete"


def test_connection_kept_across_calls(tls):
    """TLS 1.3 session tickets arrive after the handshake: they must not make
    the idle connection look stale (one TLS connection for many calls)."""
    client = qless.Client(tls.url())
    before = tls.r.info("stats")["total_connections_received"]
    for i in range(20):
        client.queues["kq"].put("K", {"i": i})
    assert tls.r.info("stats")["total_connections_received"] == before


def test_restart_of_connection_is_noticed(tls):
    client = qless.Client(tls.url(), worker_name="victim")
    client.queues["rq"].put("K", {})
    for c in tls.r.client_list():
        if c.get("name", "") == "" and c["laddr"].endswith(":%d" % tls.port):
            tls.r.client_kill_filter(_id=c["id"])
    client.queues["rq"].put("K", {})   # reconnects instead of failing
    assert tls.r.zcard("ql:q:rq-work") == 2


def test_system_store_does_not_know_the_test_ca(tls):
    refused(tls.url(query=""), "certificate verify failed")


def test_wrong_ca(tls):
    msg = refused(tls.url(query="ca=" + tls.pem("other-ca")), "certificate verify failed")
    assert "127.0.0.1:%d" % tls.port in msg


def test_missing_ca_file(tls):
    refused(tls.url(query="ca=/nonexistent/ca.pem"), "cannot read the CA file /nonexistent/ca.pem")


def test_wrong_host(tls, cert):
    cert("wrongname")
    refused(tls.url(), "host name mismatch", "not for the address 127.0.0.1")
    refused(tls.url(host="localhost"), "host name mismatch", "not for localhost")


def test_expired(tls, cert):
    cert("expired")
    refused(tls.url(), "certificate verify failed", "expired")


def test_insecure_only_when_spelled_out(tls, cert):
    cert("expired")
    qless.Client(tls.url(query="insecure")).queues["iq"].put("K", {})
    cert("wrongname")
    qless.Client(tls.url(query="insecure=1")).queues["iq"].put("K", {})
    with pytest.raises(qless.InvalidArgument, match="insecure takes no value"):
        qless.Client(tls.url(query="insecure=no"))


def test_client_certificate(tls, cert):
    tls.r.config_set("tls-auth-clients", "yes")
    refused(tls.url(), "client certificate")
    q = "ca=%s&cert=%s&key=%s" % (tls.pem("ca"), tls.pem("client"), tls.pem("client", "key"))
    qless.Client(tls.url(query=q)).queues["cq"].put("K", {})
    cli(tls.url(query=q), "queues")


def test_tls_to_a_plain_port(tls):
    """A plain server takes the ClientHello for the start of a command and
    waits: the connect timeout ends the handshake, with that reason."""
    with pytest.raises(qless.ConnectionError, match="within the connect timeout .* during the TLS handshake"):
        qless.Client("rediss://127.0.0.1:%d/0?ca=%s" % (tls.plain, tls.pem("ca")), connect_timeout=0.3)


def test_url_errors_name_the_parameter(tls):
    with pytest.raises(qless.InvalidArgument, match='unknown query parameter "bogus"'):
        qless.Client(tls.url(query="bogus=1"))
    with pytest.raises(qless.InvalidArgument, match="need a rediss:// URL"):
        qless.Client("redis://127.0.0.1:%d/0?ca=%s" % (tls.plain, tls.pem("ca")))
    with pytest.raises(qless.InvalidArgument, match="key= needs cert="):
        qless.Client(tls.url(query="key=" + tls.pem("client", "key")))
    _, err = cli("rediss://u:hunter2@127.0.0.1:1/0?password=hunter3&nope=1", "queues", code=2)
    assert "hunter2" not in err and "hunter3" not in err and '"nope"' in err


# Everything the protocol sends: the connection (AUTH, SELECT), loading the
# library (FUNCTION LIST/LOAD; EVALSHA and SCRIPT EXISTS/LOAD where
# Functions are refused), calls, tag counts, events; and every command the
# protocol script runs inside Redis (ACLs apply to those too).
MINIMAL_RIGHTS = (
    "+select +fcall +function|list +function|load +evalsha +script|exists +script|load "
    "+subscribe +zmscore +publish "
    "+del +exists +hdel +hexists +hget +hgetall +hincrby +hkeys +hmget +hset +hvals "
    "+lindex +llen +lpop +lpush +lrange +lrem +ltrim +rpop +rpush "
    "+sadd +scard +sismember +smembers +sort +srandmember +srem "
    "+zadd +zcard +zcount +zincrby +zrange +zrangebyscore +zrank +zrem +zremrangebyrank "
    "+zremrangebyscore +zrevrange +zrevrangebyscore +zscore +echo"
)


@pytest.fixture
def acl(tls):
    made = []

    def make(name, rules):
        tls.r.execute_command("ACL", "SETUSER", name, "reset", "on", ">pw-" + name, "~*", "&*", *rules.split())
        made.append(name)
        return tls.url(user="%s:pw-%s@" % (name, name))
    yield make
    for name in made:
        tls.r.execute_command("ACL", "DELUSER", name)


def lifecycle(url):
    client = qless.Client(url, worker_name="acl")
    with client.events("completed") as events:
        queue = client.queues["aq"]
        queue.put("K", {}, tags=["t"])
        queue.put("K", {}, tags=["t"])
        job = queue.pop()
        jid = job.jid
        client.jobs[jid].track()
        job.complete()
        assert events.next(5.0) == qless.Event("completed", jid)
    assert client.jobs[jid].state == "complete"
    out, _ = cli(url, "--json", "tag", "top")   # ZMSCORE, outside the script
    assert '"t"' in out


def test_acl_user_with_all_rights(tls, acl):
    url = acl("full", "+@all")
    lifecycle(url)
    # The CLI takes the URL from the environment as well, unchanged.
    env = dict(os.environ, QLESS_URL=url)
    p = subprocess.run([CLI, "put", "eq", "K", "{}"], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    assert tls.r.hget("ql:j:" + p.stdout.strip(), "queue") == "eq"


def test_acl_user_with_the_minimal_rights(tls, acl):
    lifecycle(acl("minimal", MINIMAL_RIGHTS))


def test_acl_user_without_the_rights(tls, acl):
    url = acl("reader", "+@read +@connection")
    with pytest.raises(qless.Error) as e:
        qless.Client(url)
    assert "NOPERM" in str(e.value) and "ACL user" in str(e.value), str(e.value)


def test_acl_wrong_password(tls, acl):
    acl("someone", "+@all")
    url = tls.url(user="someone:not-the-password@")
    msg = refused(url, "AUTH", "WRONGPASS")
    assert "not-the-password" not in msg


def test_c_suite_over_tls(tls, tmp_path):
    """The C unit suite (its ASan + UBSan build) with its client URL over TLS
    (QLESS_TEST_URL); its raw connections and unix sockets use the same
    server's plain port."""
    (tmp_path / "port").write_text(str(tls.plain))
    (tmp_path / "socket").write_text(tls.sock)
    env = dict(os.environ, QLESS_TEST_STATE=str(tmp_path), QLESS_TEST_URL=tls.url())
    p = subprocess.run([os.environ["QLESS_C_TESTS"]], capture_output=True, text=True, env=env, timeout=180)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
