#!/usr/bin/python3
"""A whole gitlab-runner drain, end to end, with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py (real Prometheus metrics, SIGQUIT semantics),
learns the metrics address, the runner's token and its system id from a gitlab-runner
config.toml, and unregisters through fake_ci_api.py, which first fails with a 500, an HTML
502 and a 429 with Retry-After. The test drains with SIGTERM and checks, through
`runwarden ctl status --json` along the way: the jobs counted down before the runner
exits, the unregistering phase, one successful DELETE after the faults and none after it,
exit code 0, and the token nowhere in runwarden's output.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_gitlab_drain.py
"""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_RUNNER = os.path.join(HERE, "fake_gitlab_runner.py")
FAKE_API = os.path.join(HERE, "..", "unregister", "fake_ci_api.py")
TOKEN = "glrt-e2e-secret-7f3a9c"
SYSTEM_ID = "s_0123456789ab"
WAIT_S = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class GitlabDrainTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-e2e-")
        scenario = {"gitlab_token": TOKEN, "system_id": SYSTEM_ID,
                    "faults": {"gitlab_delete": [
                        {"status": 500}, {"html": 502},
                        {"status": 429, "headers": {"Retry-After": "1"}}]}}
        self.api = subprocess.Popen(["/usr/bin/python3", FAKE_API, json.dumps(scenario)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.api_port = int(self.api.stdout.readline())
        self.metrics_port = free_port()
        gitlab_config = os.path.join(self.dir, "config.toml")
        with open(gitlab_config, "w") as f:
            f.write('concurrent = 4\nlisten_address = "127.0.0.1:%d"\n\n[[runners]]\n'
                    'name = "e2e"\nurl = "http://127.0.0.1:%d"\ntoken = "%s"\n'
                    'executor = "shell"\n' % (self.metrics_port, self.api_port, TOKEN))
        with open(os.path.join(self.dir, ".runner_system_id"), "w") as f:
            f.write(SYSTEM_ID + "\n")
        self.config = os.path.join(self.dir, "runwarden.toml")
        with open(self.config, "w") as f:
            f.write('[runner]\nkind = "gitlab"\ngitlab_config = "%s"\n'
                    'metrics_interval = "100ms"\n\n[unregister]\nkind = "gitlab"\n'
                    'retry_initial = "100ms"\nretry_max = "1s"\ntimeout = "2s"\n' % gitlab_config)
        self.socket = os.path.join(self.dir, "control.sock")

    def tearDown(self):
        for process in (getattr(self, "warden", None), self.api):
            if process and process.poll() is None:
                process.kill()
                process.wait()
        self.api.stdout.close()

    def status(self):
        done = subprocess.run([RUNWARDEN, "ctl", "--socket", self.socket, "status", "--json"],
                              capture_output=True, text=True, timeout=10)
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout else None

    def test_drain_waits_for_jobs_then_unregisters_through_faults(self):
        log_path = os.path.join(self.dir, "runwarden.log")
        with open(log_path, "w") as log:
            self.warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", self.config, "--grpc-listen",
                 "unix://" + self.socket, "--http-listen", "none",
                 "--state-dir", os.path.join(self.dir, "state"), "--",
                 "/usr/bin/python3", FAKE_RUNNER, str(self.metrics_port), "2", "1.0"],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + WAIT_S
        status = None
        while time.monotonic() < deadline:
            status = self.status()
            if status and status.get("jobs_running") == 2:
                break
            time.sleep(0.05)
        self.assertEqual(2, status and status.get("jobs_running"), status)

        self.warden.send_signal(signal.SIGTERM)
        seen_jobs, seen_phases = [], []
        while self.warden.poll() is None and time.monotonic() < deadline:
            status = self.status()
            if status:
                if status.get("state") == "shutting_down":
                    seen_phases.append(status.get("drain_phase"))
                jobs = status.get("jobs_running")  # null once the runner's metrics are gone
                if jobs is not None and status.get("state") == "shutting_down":
                    seen_jobs.append(jobs)
            time.sleep(0.05)
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S))

        self.assertIn(1, seen_jobs, "the jobs counted down one by one: %s" % seen_jobs)
        self.assertEqual(sorted(seen_jobs, reverse=True), seen_jobs)
        self.assertIn("draining", seen_phases)
        self.assertIn("unregistering", seen_phases)
        self.assertLess(seen_phases.index("draining"), seen_phases.index("unregistering"))

        self.api.stdin.close()
        calls = [json.loads(line) for line in self.api.stdout.read().splitlines() if line]
        deletes = [c for c in calls if c["method"] == "DELETE"]
        self.assertEqual([500, 502, 429, 204], [c["status"] for c in deletes])
        self.assertTrue(all(c["path"] == "/api/v4/runners/managers" for c in deletes))
        with open(log_path) as f:
            log = f.read()
        self.assertNotIn(TOKEN, log)
        self.assertIn("unregistered from the CI server", log)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
