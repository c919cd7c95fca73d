#!/usr/bin/python3
"""The README's demo, as scripts/demo.sh runs it: runwarden with config/demo.toml supervising
the demo runner, which serves gitlab-runner's /metrics. A drain with three jobs running must
show the jobs counting down in the Watch stream (`runwarden ctl status --watch --json`, what
the README tells a newcomer to run), and once the runner is gone no job count is shown: a
count belongs to a running runner.

Each count lasts 1.5 s and the demo config scrapes every second, so the countdown is seen
however the scrapes fall; which counts are seen is not asserted, only that they fall.
  RUNWARDEN_BINARY=build/runwarden DEMO_RUNNER_BINARY=build/runwarden-demo-runner \\
    /usr/bin/python3 tests/e2e/test_demo_countdown.py
"""

import itertools
import os
import signal
import subprocess
import sys
import tempfile
import unittest

from drain_world import RUNWARDEN, WAIT_S, StatusWatch, free_port

DEMO_RUNNER = os.environ.get("DEMO_RUNNER_BINARY", "")
DEMO_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config",
                           "demo.toml")


class DemoCountdownTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-demo-")
        self.socket = os.path.join(self.dir, "control.sock")
        self.port = free_port()
        self.log = open(os.path.join(self.dir, "runwarden.log"), "w")
        self.warden = subprocess.Popen(
            [RUNWARDEN, "run", "--config", DEMO_CONFIG,
             "--metrics-url", "http://127.0.0.1:%d/metrics" % self.port,
             "--grpc-listen", "unix://" + self.socket, "--http-listen", "none",
             "--state-dir", os.path.join(self.dir, "state"), "--",
             DEMO_RUNNER, "--listen-address", "127.0.0.1:%d" % self.port, "--concurrency", "3",
             "--job-interval", "1.5", "--job-seconds", "5"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.watch = StatusWatch(self.socket, self.warden)

    def tearDown(self):
        self.watch.close()
        if self.warden.poll() is None:
            self.warden.kill()
            self.warden.wait()
        self.log.close()

    def test_jobs_count_down_in_the_watch_and_no_count_once_gone(self):
        full = self.watch.wait_for(lambda s: s["jobs_running"] == 3)
        self.assertIsNotNone(full, "the demo's three jobs never showed")
        self.warden.send_signal(signal.SIGINT)  # Ctrl-C, as the README says
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S))
        statuses = self.watch.wait_until_ended()

        draining = [s["jobs_running"] for s in statuses if s["state"] == "shutting_down"
                    and s["jobs_running"] is not None]
        counts = [count for count, _ in itertools.groupby(draining)]
        self.assertEqual(3, counts[0], counts)
        self.assertGreaterEqual(len(counts), 2, "no job ending was shown: %s" % counts)
        self.assertEqual(sorted(counts, reverse=True), counts, "the count went up: %s" % counts)
        gone = statuses[-1]
        self.assertEqual("gone", gone["state"])
        self.assertIsNone(gone["jobs_running"], "a stale job count once the runner is gone")
        self.assertEqual(0, gone["exit_code"])


if __name__ == "__main__":
    if not RUNWARDEN or not DEMO_RUNNER:
        sys.exit("set RUNWARDEN_BINARY and DEMO_RUNNER_BINARY")
    unittest.main(verbosity=2)
