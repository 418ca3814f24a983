"""A TLS redis-server for the tls suite, with certificates made here.

Environment (set by ctest, see tests/tls/CMakeLists.txt):
  QLESS_CLI       the qless executable
  QLESS_C_TESTS   the C unit test executable, ASan build (run once over rediss://)
  PYTHONPATH      the Python binding

Fixtures:
  pki     directory of PEM files: ca, other-ca (a CA nobody trusts), server
          (SAN IP:127.0.0.1 and DNS:localhost), wrongname (DNS:other.example),
          expired (valid in January 2020 only), client (a client certificate);
          each NAME.pem with NAME.key
  tls     the server: .port (TLS), .plain (plain TCP port, for setup),
          .sock, .r (redis-py on the plain port), .url(query, user, host)
"""
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
import redis


def _run(*args, cwd):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _key(d, name):
    _run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", name + ".key", cwd=d)


def _ca(d, name):
    _key(d, name)
    _run("openssl", "req", "-x509", "-new", "-key", name + ".key", "-out", name + ".pem", "-days", "2",
         "-subj", "/CN=qless test " + name, cwd=d)


def _signed(d, name, san, ext="serverAuth"):
    _key(d, name)
    _run("openssl", "req", "-new", "-key", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name, cwd=d)
    with open(os.path.join(d, name + ".ext"), "w") as f:
        f.write("subjectAltName=%s\nextendedKeyUsage=%s\n" % (san, ext) if san else
                "extendedKeyUsage=%s\n" % ext)
    _run("openssl", "x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
         "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", name + ".ext", cwd=d)


def _expired(d):
    """x509 -req cannot date a certificate in the past: `openssl ca` can."""
    _key(d, "expired")
    _run("openssl", "req", "-new", "-key", "expired.key", "-out", "expired.csr", "-subj", "/CN=expired",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", cwd=d)
    os.makedirs(os.path.join(d, "issued"))
    open(os.path.join(d, "index.txt"), "w").close()
    with open(os.path.join(d, "serial"), "w") as f:
        f.write("1000\n")
    with open(os.path.join(d, "ca.cnf"), "w") as f:
        f.write("[ca]\ndefault_ca = test\n[test]\ndir = .\ndatabase = index.txt\n"
                "new_certs_dir = issued\nserial = serial\ndefault_md = sha256\n"
                "policy = any\ncopy_extensions = copy\n[any]\ncommonName = supplied\n")
    _run("openssl", "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key",
         "-in", "expired.csr", "-out", "expired.pem", "-notext",
         "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", cwd=d)


@pytest.fixture(scope="session")
def pki():
    d = tempfile.mkdtemp(prefix="qltls", dir="/tmp")
    _ca(d, "ca")
    _ca(d, "other-ca")
    _signed(d, "server", "IP:127.0.0.1,DNS:localhost")
    _signed(d, "wrongname", "DNS:other.example")
    _signed(d, "client", None, ext="clientAuth")
    _expired(d)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TlsServer:
    def __init__(self, pki):
        self.pki = pki
        self.dir = tempfile.mkdtemp(prefix="qltlsrv", dir="/tmp")
        self.sock = os.path.join(self.dir, "redis.sock")
        self.proc = None
        for _ in range(10):
            self.port, self.plain = _free_port(), _free_port()
            self.proc = subprocess.Popen(
                ["redis-server", "--bind", "127.0.0.1", "--port", str(self.plain),
                 "--tls-port", str(self.port), "--unixsocket", self.sock, "--unixsocketperm", "700",
                 "--tls-cert-file", self.pem("server"), "--tls-key-file", self.pem("server", "key"),
                 "--tls-ca-cert-file", self.pem("ca"), "--tls-auth-clients", "optional",
                 "--save", "", "--appendonly", "no", "--dir", self.dir],
                stdout=open(os.path.join(self.dir, "redis.log"), "w"), stderr=subprocess.STDOUT)
            self.r = redis.Redis(unix_socket_path=self.sock, decode_responses=True)
            for _ in range(100):
                if self.proc.poll() is not None:
                    break
                try:
                    self.r.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError("could not start a TLS redis-server")

    def pem(self, name, ext="pem"):
        return os.path.join(self.pki, "%s.%s" % (name, ext))

    def url(self, query=None, user="", host="127.0.0.1", db=0):
        q = "ca=" + self.pem("ca") if query is None else query
        return "rediss://%s%s:%d/%d%s" % (user, host, self.port, db, "?" + q if q else "")

    def use_cert(self, name):
        """The certificate the server shows to new connections."""
        # Both in one CONFIG SET: Redis checks the pair.
        self.r.execute_command("CONFIG", "SET", "tls-cert-file", self.pem(name),
                               "tls-key-file", self.pem(name, "key"))

    def stop(self):
        # Only the process this fixture started, by its pid.
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def tls(pki):
    server = TlsServer(pki)
    yield server
    server.stop()


@pytest.fixture
def cert(tls):
    """Switches the server's certificate for one test: cert("expired")."""
    yield tls.use_cert
    tls.use_cert("server")
    tls.r.config_set("tls-auth-clients", "optional")
