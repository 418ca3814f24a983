"""Driver and expectation helpers shared by the protocol tests."""
import json
import os
import re

import pytest
import redis

ResponseError = redis.ResponseError

COMMON_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "include",
                        "qless", "common.h")


def error_kinds():
    """The error kinds of the protocol: the exception class names of the
    QLESS_ERRORS list in common.h, in order."""
    with open(COMMON_H) as f:
        return re.findall(r"X\(QLESS_E[A-Z]+, *-?\d+, *([A-Za-z]+),", f.read())


# A script error: Lua's position, then "[Kind] " and the message.
SCRIPT_ERROR = re.compile(r"^(?:ERR )?(?:user_script|user_function):\d+: \[([A-Za-z]+)\] (.*)$", re.S)


def encode_arg(value):
    """Python value -> protocol argument: lists/dicts become JSON text."""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return value


def options(opts):
    """kwargs -> flat option list, in the given order (JSON for lists)."""
    out = []
    for key, value in opts.items():
        out += [key, encode_arg(value)]
    return out


def jids(reply):
    """Parsed JSON list of job objects (or the empty-list `{}`) -> list of jids."""
    if reply == {}:
        return []
    assert isinstance(reply, list), reply
    return [job["jid"] for job in reply]


def as_list(value):
    """A JSON list that may be encoded as `{}` when empty -> Python list."""
    if value == {}:
        return []
    assert isinstance(value, list), value
    return value


def fresh_job(jid="jid", queue="queue", when=0, **overrides):
    """The job object of a job freshly put with no options (spec §3.1)."""
    job = {"jid": jid, "klass": "klass", "state": "waiting", "queue": queue,
           "worker": "", "tracked": False, "priority": 0, "expires": 0,
           "retries": 5, "remaining": 5, "data": "{}", "tags": {},
           "history": [{"q": queue, "what": "put", "when": when}],
           "failure": {}, "spawned_from_jid": False, "dependents": {},
           "dependencies": {}}
    job.update(overrides)
    return job


JOB_KEYS = set(fresh_job())


def log_put(jid="jid", queue="queue"):
    return ("ql:log", '{"jid":"%s","event":"put","queue":"%s"}' % (jid, queue))


def lock_lost(jid="jid", worker="worker"):
    msg = '{"jid":"%s","event":"lock_lost","worker":"%s"}' % (jid, worker)
    return [("ql:w:" + worker, msg), ("ql:log", msg)]


def failed_msg(jid="jid", group="group", message="message", worker="worker"):
    return ("ql:log", '{"message":"%s","jid":"%s","group":"%s","event":"failed","worker":"%s"}'
            % (message, jid, group, worker))


EXHAUSTED = 'Job exhausted retries in queue \\"queue\\"'   # as JSON-escaped text


# A type-aware digest of every key (DUMP bytes may differ for equal content
# once a hash or set changes encoding).
_DIGEST = """
local keys = redis.call('keys', '*')
table.sort(keys)
local parts = {}
for _, k in ipairs(keys) do
  local t = redis.call('type', k).ok
  local v
  if t == 'string' then v = {redis.call('get', k)}
  elseif t == 'hash' then
    local flat = redis.call('hgetall', k)
    v = {}
    for i = 1, #flat, 2 do v[#v + 1] = flat[i] .. '\\0' .. flat[i + 1] end
    table.sort(v)
  elseif t == 'set' then v = redis.call('smembers', k) table.sort(v)
  elseif t == 'zset' then v = redis.call('zrange', k, 0, -1, 'withscores')
  elseif t == 'list' then v = redis.call('lrange', k, 0, -1)
  else v = {} end
  parts[#parts + 1] = k .. '\\0' .. t .. '\\0' .. table.concat(v, '\\1')
end
return redis.sha1hex(table.concat(parts, '\\2'))
"""


def digest(conn):
    """SHA1 over the sorted keys and their contents."""
    return conn.eval(_DIGEST, 0)


class Qless:
    """Drives the artefact under test. ql(command, now, *args) returns the raw
    Redis reply and raises redis.ResponseError when the script errors."""

    def __init__(self, conn, mode, handle, namespace=None):
        self.r = conn
        self.mode = mode
        self.handle = handle
        # numkeys and KEYS of every call: none, or the namespace's key.
        self.keyargs = [0] if namespace is None else [1, "{%s}:ql:" % namespace]

    # -- invocation -----------------------------------------------------
    def raw(self, numkeys, *args):
        if self.mode == "script":
            return self.r.execute_command("EVALSHA", self.handle, numkeys, *args)
        return self.r.execute_command("FCALL", self.handle, numkeys, *args)

    def __call__(self, command, now, *args):
        return self.raw(*self.keyargs, command, now, *args)

    def json(self, command, now, *args):
        reply = self(command, now, *args)
        assert isinstance(reply, str), "expected JSON text, got %r" % (reply,)
        return json.loads(reply)

    def err(self, command, now, *args):
        """Asserts that the command fails; returns the error text."""
        with pytest.raises(ResponseError) as info:
            self(command, now, *args)
        return str(info.value)

    # -- command shortcuts (defaults follow §13: worker/queue/klass/{}) --
    def put(self, jid="jid", now=0, queue="queue", worker="worker", klass="klass",
            data="{}", delay=0, **opts):
        return self("put", now, worker, queue, jid, klass, encode_arg(data), delay,
                    *options(opts))

    def requeue(self, jid="jid", now=0, queue="queue", worker="worker", klass="klass",
                data="{}", delay=0, **opts):
        return self("requeue", now, worker, queue, jid, klass, encode_arg(data), delay,
                    *options(opts))

    def pop(self, now=0, queue="queue", worker="worker", count=1):
        return self.json("pop", now, queue, worker, count)

    def peek(self, now=0, queue="queue", count=1):
        return self.json("peek", now, queue, count)

    def complete(self, jid="jid", now=0, worker="worker", queue="queue", data="{}", **opts):
        return self("complete", now, jid, worker, queue, encode_arg(data), *options(opts))

    def fail(self, jid="jid", now=0, worker="worker", group="group", message="message",
             *data):
        return self("fail", now, jid, worker, group, message, *data)

    def retry(self, jid="jid", now=0, queue="queue", worker="worker", *extra):
        return self("retry", now, jid, queue, worker, *extra)

    def heartbeat(self, jid="jid", now=0, worker="worker", *data):
        return self("heartbeat", now, jid, worker, *data)

    def get(self, jid="jid", now=0):
        reply = self("get", now, jid)
        return None if reply is None else json.loads(reply)

    def config(self, key, value):
        return self("config.set", 0, key, value)

    def track(self, jid="jid", now=0):
        return self.json("track", now, "track", jid)

    def recur(self, jid="jid", now=0, queue="queue", klass="klass", data="{}",
              interval=60, offset=0, **opts):
        return self("recur", now, queue, jid, klass, encode_arg(data), "interval",
                    interval, offset, *options(opts))

    def stats(self, now=0, queue="queue", date=0):
        return self.json("stats", now, queue, date)

    def workers(self, now=0, *worker):
        return self.json("workers", now, *worker)

    def queues(self, now=0, *queue):
        return self.json("queues", now, *queue)

    def tag_get(self, tag, now=0, *paging):
        return self.json("tag", now, "get", tag, *paging)

    # -- scenarios used by many tests -----------------------------------
    def running(self, jid="jid", put_at=0, pop_at=0, worker="worker", queue="queue", **opts):
        """put then pop one job; returns the popped job object."""
        self.put(jid, now=put_at, queue=queue, **opts)
        popped = self.pop(now=pop_at, queue=queue, worker=worker)
        assert jids(popped) == [jid]
        return popped[0]

    def failed(self, jid="jid", now=0, group="group", message="message", **opts):
        """put, pop and fail one job at `now`."""
        self.running(jid, put_at=now, pop_at=now, **opts)
        assert self.fail(jid, now, "worker", group, message) == jid

    def state(self, jid="jid"):
        job = self.get(jid)
        return None if job is None else job["state"]
