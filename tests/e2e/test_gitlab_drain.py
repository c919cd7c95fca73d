#!/usr/bin/python3
"""A whole gitlab-runner drain, end to end, with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py (real Prometheus metrics, SIGQUIT semantics),
learns the metrics address, the runner's token and its system id from a gitlab-runner
config.toml, and unregisters through fake_ci_api.py, which first fails with a 500, an HTML
502 and a 429 with Retry-After. The test drains with SIGTERM and checks, in every status
the Watch stream (`runwarden ctl status --watch --json`) carried: the jobs counted down
before the runner exits, then the unregistering phase with no runner left; then one
successful DELETE after the faults and none after it, exit code 0, and the token nowhere
in runwarden's output.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_gitlab_drain.py
"""

import itertools
import signal
import sys
import unittest

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld


def dedupe(values):
    """The values with repeats in a row removed: the changes, in order."""
    return [value for value, _ in itertools.groupby(values)]


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
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        statuses = world.watch.wait_until_ended()
        self.assertEqual("gone", statuses[-1]["state"], statuses[-1])

        # Every status published from the SIGTERM on, in order. The runner's job count is
        # scraped, not pushed, so a count lasting less than a scrape could go unseen; the
        # fake runner holds each count until runwarden has scraped it three times, so
        # every count must appear.
        draining = [s for s in statuses if s["state"] == "shutting_down"]
        seen_jobs = dedupe(s["jobs_running"] for s in draining
                           if s["jobs_running"] is not None)  # null once the runner is gone
        self.assertEqual([2, 1, 0], seen_jobs, "the jobs did not count down one by one")
        phases = dedupe(s["drain_phase"] for s in draining)
        self.assertEqual(["draining", "unregistering"], phases[:2], phases)
        while_unregistering = [s for s in draining if s["drain_phase"] == "unregistering"]
        self.assertTrue(all(s["runner_pid"] is None for s in while_unregistering),
                        "GitLab's runner is unregistered only once it is gone")

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
