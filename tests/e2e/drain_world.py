"""What the end-to-end drain tests share: a fake GitLab API with faults, a gitlab-runner
config.toml pointing at it, a runwarden config, and runwarden itself supervising
fake_gitlab_runner.py, all on loopback in one temporary directory."""

import json
import os
import socket
import subprocess
import tempfile
import threading
import time

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_RUNNER = os.path.join(HERE, "fake_gitlab_runner.py")
FAKE_API = os.path.join(HERE, "..", "unregister", "fake_ci_api.py")
TOKEN = "glrt-e2e-secret-7f3a9c"
SYSTEM_ID = "s_0123456789ab"
WAIT_S = 30
# runwarden holds a logind shutdown delay lock while jobs run ([run] inhibit_shutdown): the
# tests' runwardens never reach the host's system bus, only the private bus of the test
# that fakes logind (test_logind_inhibitor.py), which sets its own address.
os.environ.setdefault("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/runwarden-tests-no-bus")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DrainWorld:
    def __init__(self, delete_faults, jobs=2, job_seconds=1.0, extra_config="",
                 api_scenario=None):
        self.dir = tempfile.mkdtemp(prefix="runwarden-e2e-")
        scenario = {"gitlab_token": TOKEN, "system_id": SYSTEM_ID,
                    "faults": {"gitlab_delete": delete_faults}}
        scenario.update(api_scenario or {})
        self.api = subprocess.Popen(["/usr/bin/python3", FAKE_API, json.dumps(scenario)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        api_port = int(self.api.stdout.readline())
        self.api_url = "http://127.0.0.1:%d" % api_port
        self.metrics_port = free_port()
        gitlab_config = os.path.join(self.dir, "config.toml")
        self.gitlab_config = gitlab_config
        with open(gitlab_config, "w") as f:
            f.write('concurrent = 4\nlisten_address = "127.0.0.1:%d"\n\n[[runners]]\n'
                    'name = "e2e"\nurl = "http://127.0.0.1:%d"\ntoken = "%s"\n'
                    'executor = "shell"\n' % (self.metrics_port, api_port, TOKEN))
        with open(os.path.join(self.dir, ".runner_system_id"), "w") as f:
            f.write(SYSTEM_ID + "\n")
        self.config = os.path.join(self.dir, "runwarden.toml")
        with open(self.config, "w") as f:
            f.write('[runner]\nkind = "gitlab"\ngitlab_config = "%s"\n'
                    'metrics_interval = "100ms"\n\n[unregister]\nkind = "gitlab"\n'
                    'retry_initial = "100ms"\nretry_max = "1s"\ntimeout = "2s"\n' % gitlab_config
                    + extra_config)
        self.socket = os.path.join(self.dir, "control.sock")
        self.record = os.path.join(self.dir, "runner-record")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        self.jobs, self.job_seconds = jobs, job_seconds
        self.wardens = []
        self.watches = []
        self.watch = None  # the latest warden's statuses

    def start_warden(self, env=None, http_listen="none"):
        """Starts `runwarden run`: the keeper, which starts the warden as its child
        (keeper_family.py); the runner's output goes into runwarden's log (--output log)."""
        with open(self.log_path, "a") as log:
            warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", self.config, "--grpc-listen",
                 "unix://" + self.socket, "--http-listen", http_listen,
                 "--state-dir", os.path.join(self.dir, "state"), "--",
                 "/usr/bin/python3", FAKE_RUNNER, str(self.metrics_port), str(self.jobs),
                 str(self.job_seconds), self.record],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self.wardens.append(warden)
        self.watch = StatusWatch(self.socket, warden)
        self.watches.append(self.watch)
        return warden

    def status(self):
        done = subprocess.run([RUNWARDEN, "ctl", "--socket", self.socket, "status", "--json"],
                              capture_output=True, text=True, timeout=10)
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout else None

    def wait_for(self, predicate):
        """The first status the latest warden published for which `predicate` holds."""
        return self.watch.wait_for(predicate)

    def api_calls(self):
        """Every request the fake API saw; ends the fake API."""
        self.api.stdin.close()
        calls = [json.loads(line) for line in self.api.stdout.read().splitlines() if line]
        self.api.wait()
        return calls

    def runner_record(self):
        with open(self.record) as f:
            return f.read().split("\n")[:-1]

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def close(self):
        for watch in self.watches:
            watch.close()
        for process in self.wardens + [self.api]:
            if process.poll() is None:
                process.kill()
                process.wait()
        self.api.stdout.close()
        for line in self.runner_record() if os.path.exists(self.record) else []:
            if line.startswith("start "):
                try:
                    os.kill(int(line.split()[1]), 9)
                except ProcessLookupError:
                    pass


class StatusWatch:
    """Every status runwarden publishes, in order, read from `runwarden ctl status --watch
    --json` (the Watch stream): a change is observed when it happens, never sampled. The
    stream starts with the status current when it opens and ends after `gone`.

    The control socket appears a moment after runwarden starts, and a connect before it
    listens is refused; so the watch is opened again, a bounded number of times, until one
    carries a status, or until the warden process has ended."""

    OPEN_ATTEMPTS_MAX = 100

    def __init__(self, socket_path, warden):
        self.statuses = []
        self.ended = False
        self.failures = []
        self._changed = threading.Condition()
        self._process = None
        self._reader = threading.Thread(target=self._follow, args=(socket_path, warden),
                                        daemon=True)
        self._reader.start()

    def _follow(self, socket_path, warden):
        for _ in range(self.OPEN_ATTEMPTS_MAX):
            while not os.path.exists(socket_path) and warden.poll() is None:
                time.sleep(0.02)  # the socket file is a lasting state, not a transient one
            self._process = subprocess.Popen(
                [RUNWARDEN, "ctl", "--socket", socket_path, "status", "--watch", "--json"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            received = False
            for line in self._process.stdout:
                received = True
                with self._changed:
                    self.statuses.append(json.loads(line))
                    self._changed.notify_all()
            self._process.wait()
            self.failures.append(self._process.stderr.read().strip())
            if received or warden.poll() is not None:
                break
            time.sleep(0.1)
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def wait_for(self, predicate, timeout=WAIT_S):
        """The first status so far, or still to come, for which `predicate` holds; None when
        the stream ends, or `timeout` passes, without one."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for status in self.statuses:
                    if predicate(status):
                        return status
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    return None
                self._changed.wait(left)

    def wait_until_ended(self, timeout=WAIT_S):
        """Every status of the stream, once it ended (after `gone`); fails when it does not."""
        self._reader.join(timeout)
        assert not self._reader.is_alive(), "the Watch stream did not end"
        return list(self.statuses)

    def close(self):
        if self._process and self._process.poll() is None:
            self._process.kill()
        self._reader.join(timeout=10)
        if self._process:
            self._process.stdout.close()
            self._process.stderr.close()
