"""The demo's dashboard: `qless web` beside the demo, on a free loopback
port, against the demo's embedded server (found through QLESS_HOME like
every other program of the demo). Stopped by pid at the end unless the user
asked to keep it (QLESS_DEMO_KEEP_WEB=1, `scripts/main.sh --keep-web`); then
the embedded server stays up too, so the pages have something to show."""
import os
import socket
import subprocess
import time
import urllib.request


def keep_requested():
    return os.environ.get("QLESS_DEMO_KEEP_WEB") == "1"


class Dashboard:
    def __init__(self, cli, env, logs):
        self.cli = cli
        self.env = env
        self.logs = logs
        self.proc = None
        self.url = None

    def available(self):
        """Whether this build's qless has the `web` command."""
        p = subprocess.run([self.cli, "web", "--help"], env=self.env, capture_output=True, timeout=10)
        return p.returncode == 0

    def start(self):
        """Starts it and returns its URL, or None with the reason printed."""
        if not self.available():
            print("   dashboard: this build has no `qless web`; skipped")
            return None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        log = open(os.path.join(self.logs, "web.log"), "w")
        self.proc = subprocess.Popen([self.cli, "web", "--listen", "127.0.0.1:%d" % port],
                                     env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        url = "http://127.0.0.1:%d/" % port
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with urllib.request.urlopen(url + "api/session", timeout=2):
                    self.url = url
                    print("   dashboard: %s  (qless web, pid %d; log %s)" % (url, self.proc.pid, log.name))
                    return url
            except OSError:
                time.sleep(0.1)
        self.stop()
        print("   dashboard: qless web did not start; see %s" % log.name)
        return None

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
