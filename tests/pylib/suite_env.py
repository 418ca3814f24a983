"""What the pytest suites that ctest runs against the private redis-server
(tests/redis-fixture.sh) share: reading their environment, and the fixtures
`sock` (the server's unix socket) and `r` (a redis connection, decoded
strings). A conftest puts this folder on sys.path and imports them."""
import os

import pytest
import redis


def require_env(name, suite=None):
    """The variable's value; ends the run, naming it, when ctest did not set it."""
    value = os.environ.get(name)
    if not value:
        how = "ctest -R " + suite if suite else "ctest"
        pytest.exit("%s is not set: run through %s" % (name, how), returncode=2)
    return value


@pytest.fixture(scope="session")
def sock():
    with open(os.path.join(require_env("QLESS_TEST_STATE"), "socket")) as f:
        return f.read().strip()


@pytest.fixture(scope="session")
def r(sock):
    conn = redis.Redis(unix_socket_path=sock, decode_responses=True)
    conn.ping()
    yield conn
    conn.close()
