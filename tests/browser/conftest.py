"""Fixtures for the dashboard's browser tests (one browser for the suite).

Environment (set by ctest, see tests/browser/CMakeLists.txt):
  QLESS_TEST_STATE      directory with `socket` of the private redis-server
  QLESS_LUA_SCRIPT      the plain protocol script (seeds 10,000 jobs by EVALSHA)
  QLESS_CLI             the qless executable (`qless web` and the seeding)
  QLESS_WEB_ARTIFACTS   where screenshots of failed tests go
  QLESS_WEB_SCREENSHOTS=1  also write docs/images/queues.png and tree.png

Fixtures:
  seeded   the data set (a dict of names the tests look for), put once
  web      base URL of a `qless web` started on a free loopback port
  browser  the headless Chromium session; browser.page(hash) opens a page
           and waits until it has drawn
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from suite_env import r, require_env, sock  # noqa: E402,F401 (r and sock are fixtures)


def _require_env(name):
    return require_env(name, "web.browser")


CLI = _require_env("QLESS_CLI")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.environ.get("QLESS_WEB_ARTIFACTS") or tempfile.mkdtemp(prefix="qless-web-shots")
BIG = 10000
# Without these Chromium's own connections are refused on hosts without a
# network; the user data dir is fresh each run.
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,860"]


@pytest.fixture(scope="session")
def cli(sock):
    home = tempfile.mkdtemp(prefix="qlweb", dir="/tmp")
    env = dict(os.environ, QLESS_HOME=home)
    env.pop("QLESS_URL", None)

    def run(*args, worker=None):
        cmd = [CLI, "--url", "unix://" + sock]
        if worker:
            cmd += ["--worker", worker]
        p = subprocess.run(cmd + list(args), capture_output=True, text=True, env=env, timeout=30)
        assert p.returncode == 0, "qless %s: %s" % (" ".join(args), p.stderr)
        return p.stdout.strip()
    return run


def _seed_big(r, queue, count):
    """count jobs into queue through one pipeline of EVALSHA put calls."""
    with open(_require_env("QLESS_LUA_SCRIPT")) as f:
        sha = r.script_load(f.read())
    now = time.time()
    pipe = r.pipeline(transaction=False)
    for i in range(count):
        pipe.execute_command("EVALSHA", sha, 0, "put", now, "seeder", queue, "big-%05d" % i,
                             "Bulk.Job", json.dumps({"n": i}), 0)
        if i % 1000 == 999:
            pipe.execute()
    pipe.execute()


@pytest.fixture(scope="session")
def seeded(r, cli):
    r.flushall()
    # Locks outlast a slow run: the running jobs below must not turn stalled.
    cli("config", "set", "heartbeat", "900")
    s = {"failed": ["flaky-%d" % i for i in range(3)], "vip": ["mail-vip-%d" % i for i in range(4)]}
    for jid in s["failed"]:
        cli("put", "flaky", "Flaky.Job", '{"attempt": 1}', "--jid", jid)
    cli("pop", "flaky", "3", worker="w-flaky")
    for jid in s["failed"]:
        cli("fail", jid, "boom", "RuntimeError: it broke", worker="w-flaky")
    for jid in s["vip"]:
        cli("put", "mail", "Mailer", '{"to": "%s@example.org"}' % jid, "--jid", jid, "--tags", "vip,mail")
    for i in range(3):
        cli("put", "mail", "Mailer", '{"to": "plain"}', "--jid", "mail-plain-%d" % i, "--tags", "mail")
    cli("put", "work", "Worker.Job", '{"nested": {"list": [1, 2, 3], "text": "<b>not markup</b>"}}',
        "--jid", "work-1", "--priority", "5", "--depends", "mail-plain-0")
    cli("put", "work", "Worker.Job", "{}", "--jid", "work-run")
    cli("pop", "work", worker="w-busy")
    cli("track", "add", "work-run")
    cli("recur", "add", "reports", "Daily.Report", "--cron", "0 6 * * *", "--jid", "rec-daily")
    cli("recur", "add", "reports", "Hourly.Report", "--interval", "1h", "--jid", "rec-hourly")
    cli("schedule", "add", "app", "Digest", "--every", "monday 9am")
    cli("put", "pipes", "Pipeline", "{}", "--jid", "tree-root", "--alias", "nightly-pipeline",
        "--inports", '{"in": {}}', "--outports", '{"out": {}}')
    cli("put", "pipes", "Stage", "{}", "--jid", "tree-a", "--parent", "tree-root", "--name", "extract",
        "--inports", '{"in": {}}')
    cli("put", "pipes", "Stage", "{}", "--jid", "tree-b", "--parent", "tree-root", "--name", "load")
    cli("put", "pipes", "Stage", "{}", "--jid", "tree-a1", "--parent", "tree-a", "--name", "shard-1")
    cli("port", "write", "tree-root", "in", "in", '{"n": 1}', '{"n": 2}')
    cli("port", "connect", "tree-a", "in", "in", "/orders")
    cli("state", "set", "tree-root", "progress", '{"done": 2, "of": 5}')
    cli("pop", "pipes", worker="w-pipes")          # the root runs (it was put first)
    cli("job", "terminate", "tree-b")              # a waiting child ends at once
    _seed_big(r, "big", BIG)
    s.update(big="big", tree="tree-root", live="live")
    return s


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_web(sock, *extra):
    """Starts `qless web` on a free loopback port; returns (process, base URL)."""
    last = ""
    for _ in range(5):
        port = _free_port()
        log = tempfile.TemporaryFile()
        proc = subprocess.Popen([CLI, "--url", "unix://" + sock, "web", "--listen", "127.0.0.1:%d" % port]
                                + list(extra), stdout=log, stderr=subprocess.STDOUT)
        base = "http://127.0.0.1:%d" % port
        deadline = time.time() + 10
        while time.time() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(base + "/api/session", timeout=2):
                    return proc, base
            except urllib.error.HTTPError:
                return proc, base       # it answers (401 with an auth file)
            except OSError:
                time.sleep(0.1)
        stop_web(proc)
        log.seek(0)
        last = log.read().decode(errors="replace")
    pytest.fail("qless web did not start: " + last)


def stop_web(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def web(sock, seeded):
    proc, base = start_web(sock)
    yield base
    stop_web(proc)


class Browser:
    def __init__(self, driver):
        self.d = driver
        self.base = None

    def page(self, hash_, base=None):
        """Opens base/#hash and waits until that page has drawn (a new hash in
        the same document is no reload: the old page's marks are cleared first)."""
        base = base or self.base
        if self.d.current_url.startswith(base + "/"):
            self.d.execute_script("document.getElementById('view').setAttribute('data-ready', '')")
        self.d.get(base + "/#" + hash_)
        return self.wait_ready("#" + hash_)

    def wait_ready(self, hash_=None, timeout=20):
        """Waits until the view has drawn (the page named by hash_, if given)."""
        def drawn(d):
            # The view may not exist yet: a form's navigation may be under way.
            view = d.find_element(By.ID, "view")
            if not view.get_attribute("data-ready"):
                return False
            if hash_ is not None and view.get_attribute("data-hash") != hash_:
                return False
            return view
        return WebDriverWait(self.d, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                             ).until(drawn, "page %s never drew" % hash_)

    def wait(self, fn, timeout=20, message=""):
        return WebDriverWait(self.d, timeout, poll_frequency=0.1,
                             ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                             ).until(lambda d: fn(), message)

    def act(self, css):
        """Clicks the action button css and waits for the redraw it causes
        (the view's data-ready goes from one render's number to a later one)."""
        view = self.d.find_element(By.ID, "view")
        before = view.get_attribute("data-ready")
        self.find(css).click()
        self.wait(lambda: view.get_attribute("data-ready") not in ("", before),
                  message="no redraw after " + css)
        return view

    def find(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def error_text(self):
        box = self.d.find_element(By.ID, "error")
        return box.text if box.is_displayed() else ""

    def console_problems(self):
        """What the console reported since the last call: CSP violations and
        script errors (a failed request, e.g. a 404 the page shows, is none)."""
        return [e["message"] for e in self.d.get_log("browser")
                if "Content Security Policy" in e["message"] or "Refused to" in e["message"]
                or (e["level"] == "SEVERE" and "Failed to load resource" not in e["message"])]


@pytest.fixture(scope="session")
def browser(web):
    opts = webdriver.ChromeOptions()
    for flag in CHROME_FLAGS:
        opts.add_argument(flag)
    opts.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="qless-chromium"))
    opts.binary_location = "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    b = Browser(driver)
    b.base = web
    yield b
    driver.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test leaves a screenshot of what the browser showed."""
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call" and rep.failed and "browser" in item.funcargs:
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, item.name + ".png")
        item.funcargs["browser"].d.save_screenshot(path)
        rep.sections.append(("screenshot", path))
