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

import signal
import sys
import time
import unittest

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld


class GitlabDrainTest(unittest.TestCase):
    def setUp(self):
        self.world = DrainWorld([{"status": 500}, {"html": 502},
                                 {"status": 429, "headers": {"Retry-After": "1"}}])

    def tearDown(self):
        self.world.close()

    def test_drain_waits_for_jobs_then_unregisters_through_faults(self):
        world = self.world
        warden = world.start_warden()
        status = world.wait_for(lambda s: s.get("jobs_running") == 2)
        self.assertIsNotNone(status, "the runner's two jobs never showed in status")

        warden.send_signal(signal.SIGTERM)
        seen_jobs, seen_phases = [], []
        deadline = time.monotonic() + WAIT_S
        while warden.poll() is None and time.monotonic() < deadline:
            status = world.status()
            if status and status.get("state") == "shutting_down":
                seen_phases.append(status.get("drain_phase"))
                jobs = status.get("jobs_running")  # null once the runner's metrics are gone
                if jobs is not None:
                    seen_jobs.append(jobs)
            time.sleep(0.05)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))

        self.assertIn(1, seen_jobs, "the jobs counted down one by one: %s" % seen_jobs)
        self.assertEqual(sorted(seen_jobs, reverse=True), seen_jobs)
        self.assertIn("draining", seen_phases)
        self.assertIn("unregistering", seen_phases)
        self.assertLess(seen_phases.index("draining"), seen_phases.index("unregistering"))

        deletes = [c for c in world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([500, 502, 429, 204], [c["status"] for c in deletes])
        self.assertTrue(all(c["path"] == "/api/v4/runners/managers" for c in deletes))
        self.assertEqual(["exit 0"], world.runner_record()[1:])
        log = world.log()
        self.assertNotIn(TOKEN, log)
        self.assertIn("unregistered from the CI server", log)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
