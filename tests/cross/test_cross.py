"""A job put from one language is processed by another language's worker and
its completion observed from a third, around the cycle of the four languages.

Each step runs in its own interpreter process, exactly as an application
would: nothing is shared but the Redis server.
"""
import json
import os
import subprocess
import sys
import uuid

import pytest

ENV = os.environ
HERE = os.path.dirname(os.path.abspath(__file__))
JOBS = os.path.join(HERE, "jobs")


def fixture_url():
    with open(os.path.join(ENV["QLESS_TEST_STATE"], "port")) as f:
        return "redis://127.0.0.1:%s/0" % f.read().strip()


def lua_env(env):
    env = dict(env)
    env["LUA_CPATH"] = ENV["QLESS_LUA_CPATH_DIR"] + "/?.so;;"
    src = ENV["QLESS_LUA_SRC"]
    env["LUA_PATH"] = ";".join([src + "/?.lua", src + "/?/init.lua", JOBS + "/?.lua", ""]) + ";"
    return env


def php(env, code, *args):
    """Runs PHP code with the extension and Qless.php loaded; args in $argv[1:]."""
    prelude = "require getenv('QLESS_PHP_LAYER'); "
    return run([ENV["QLESS_PHP"], "-n", "-d", "extension=" + ENV["QLESS_PHP_EXT"], "-r", prelude + code, "--", *args], env)


def run(argv, env, timeout=60):
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "%s failed (%d):\n%s\n%s" % (argv[0], proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout.strip()


# --- the three roles, in each language -------------------------------------

def put(lang, env, queue, jid, klass):
    """Puts job jid of class klass with data {"from": lang}."""
    if lang == "python":
        code = ("import qless; qless.Client(%r).queues[%r].put(%r, {'from': 'python'}, jid=%r)"
                % (env["QLESS_URL"], queue, klass, jid))
        run([sys.executable, "-c", code], env)
    elif lang == "ruby":
        code = ('require "qless"; Qless::Client.new(ENV["QLESS_URL"]).queues[%s]'
                '.put(%s, {"from" => "ruby"}, jid: %s)' % (json.dumps(queue), json.dumps(klass), json.dumps(jid)))
        run([ENV["QLESS_RUBY"], "-I", ENV["QLESS_RUBY_LIB"], "-I", ENV["QLESS_RUBY_EXT"], "-e", code], env)
    elif lang == "php":
        php(env, "(new Qless\\Client(getenv('QLESS_URL')))->queue($argv[1])"
                 "->put($argv[2], ['from' => 'php'], ['jid' => $argv[3]]);", queue, klass, jid)
    else:
        code = ('local qless = require "qless"; qless.Client(os.getenv("QLESS_URL")).queues[%s]'
                ':put(%s, {from = "lua"}, {jid = %s})' % (json.dumps(queue), json.dumps(klass), json.dumps(jid)))
        run(["lua5.4", "-e", code], lua_env(env))


def work(lang, env, queue):
    """Runs lang's worker until it has processed one job (of lang's KLASS,
    the only class its allow-list names)."""
    env = dict(env, QLESS_WORKER_ALLOW=KLASS[lang])
    if lang == "python":
        env = dict(env, PYTHONPATH=env["PYTHONPATH"] + os.pathsep + JOBS)
        run([sys.executable, "-m", "qless.worker", "--queue", queue, "--max-jobs", "1", "--interval", "0.1"], env)
    elif lang == "ruby":
        run([ENV["QLESS_RUBY"], "-I", ENV["QLESS_RUBY_LIB"], "-I", ENV["QLESS_RUBY_EXT"],
             os.path.join(ENV["QLESS_RUBY_BIN"], "qless-worker"), "--queue", queue, "--max-jobs", "1",
             "--interval", "0.1", "--require", os.path.join(JOBS, "cross_echo.rb")], env)
    elif lang == "php":
        run([ENV["QLESS_PHP"], "-n", "-d", "extension=" + ENV["QLESS_PHP_EXT"], ENV["QLESS_PHP_WORKER"],
             "--queue", queue, "--max-jobs", "1", "--interval", "0.1", "--require", os.path.join(JOBS, "cross_echo.php")],
            env)
    else:
        run(["lua5.4", ENV["QLESS_LUA_WORKER"], "--queue", queue, "--max-jobs", "1", "--interval", "0.1"],
            lua_env(env))


def observe(lang, env, jid):
    """Returns (state, data) of the job as lang sees it."""
    if lang == "python":
        code = ("import json, qless; j = qless.Client(%r).jobs[%r]; print(j.state); print(json.dumps(j.data))"
                % (env["QLESS_URL"], jid))
        out = run([sys.executable, "-c", code], env)
    elif lang == "ruby":
        code = ('require "qless"; require "json"; j = Qless::Client.new(ENV["QLESS_URL"]).jobs[%s]; '
                'puts j.state; puts JSON.generate(j.data)' % json.dumps(jid))
        out = run([ENV["QLESS_RUBY"], "-I", ENV["QLESS_RUBY_LIB"], "-I", ENV["QLESS_RUBY_EXT"], "-e", code], env)
    elif lang == "php":
        out = php(env, "$j = (new Qless\\Client(getenv('QLESS_URL')))->job($argv[1]); "
                       "echo $j->state(), \"\\n\", json_encode($j->data()), \"\\n\";", jid)
    else:
        code = ('local qless = require "qless"; local json = qless.json; '
                'local j = qless.Client(os.getenv("QLESS_URL")).jobs[%s]; print(j.state); print(json.encode(j.data))'
                % json.dumps(jid))
        out = run(["lua5.4", "-e", code], lua_env(env))
    state, data = out.splitlines()[-2:]
    return state, json.loads(data)


KLASS = {"python": "cross_echo.Echo", "ruby": "Cross::Echo", "lua": "cross_echo", "php": "Cross\\EchoJob"}


# Around the cycle python -> ruby -> lua -> php: each language puts once,
# works once and observes once.
@pytest.mark.parametrize("producer,worker,observer", [
    ("python", "ruby", "lua"),
    ("ruby", "lua", "php"),
    ("lua", "php", "python"),
    ("php", "python", "ruby"),
])
def test_put_work_observe(producer, worker, observer):
    env = dict(ENV, QLESS_URL=fixture_url())
    subprocess.run(["redis-cli", "-p", env["QLESS_URL"].rsplit(":", 1)[1].split("/")[0], "FLUSHALL"],
                   check=True, capture_output=True)
    queue = "cross-" + worker
    jid = uuid.uuid4().hex

    put(producer, env, queue, jid, KLASS[worker])
    assert observe(observer, env, jid) == ("waiting", {"from": producer})

    work(worker, env, queue)

    state, data = observe(observer, env, jid)
    assert state == "complete"
    assert data == {"from": producer, "ran_in": worker}
