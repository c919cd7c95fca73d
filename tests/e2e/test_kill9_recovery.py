#!/usr/bin/python3
"""kill -9 of runwarden at many points of a real drain, then a restart from its journal.

Each trial drains fake_gitlab_runner.py (two jobs) with SIGTERM, kills runwarden with
SIGKILL after a chosen delay (before the graceful signal lands, while the jobs run, while
the unregistration waits out a 429 and a slow answer), and starts runwarden again with the
same state directory. The restarted runwarden must finish the drain from its journal: no
second runner started for the terminating instance, the runner from before adopted and its
jobs finished (never aborted), exactly one successful unregistration, exit code 0. A kill
that comes before the SIGTERM is recorded leaves no drain to continue: the restarted
runwarden adopts the runner and drains on the next SIGTERM.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_kill9_recovery.py
"""

import signal
import sys
import time
import unittest

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld

# Seconds after SIGTERM: the jobs end about 1.0 and 1.5 s into the drain, the runner
# exits 0.5 s later, then the unregistration meets a 429 (Retry-After 1) and a slow answer.
KILL_POINTS_S = [0.0, 0.05, 0.3, 0.8, 1.3, 1.8, 2.2, 2.6, 3.2, 4.0]


class KillNineTest(unittest.TestCase):
    def trial(self, kill_after_s):
        world = DrainWorld([{"status": 429, "headers": {"Retry-After": "1"}}, {"slow": 3}])
        try:
            first = world.start_warden()
            self.assertIsNotNone(world.wait_for(lambda s: s.get("jobs_running") == 2))
            first.send_signal(signal.SIGTERM)
            time.sleep(kill_after_s)
            first.kill()
            first.wait()
            if first.returncode == 0:
                return  # it finished before the kill: nothing to recover in this trial
            second = world.start_warden()
            status = world.wait_for(lambda s: s.get("state") in ("running", "shutting_down"))
            if status and status["state"] == "running":
                # Killed before the SIGTERM was recorded: the journal knows of no drain, so
                # the adopted runner runs on until asked again, as a service manager does.
                second.send_signal(signal.SIGTERM)
            self.assertEqual(0, second.wait(timeout=WAIT_S), world.log())
            record = world.runner_record()
            starts = [line for line in record if line.startswith("start")]
            self.assertEqual(1, len(starts), "a fresh runner was started: %s" % record)
            self.assertEqual(["exit 0"], [l for l in record if l.startswith("exit")], record)
            deletes = [c for c in world.api_calls() if c["method"] == "DELETE"]
            # The slow fault answers 204 too late for the client and leaves the manager
            # registered; the one real removal must come last, and nothing after it.
            removals = [c for c in deletes if c["status"] == 204 and not c["fault"]]
            self.assertEqual(1, len(removals), deletes)
            self.assertIs(removals[0], deletes[-1])
            log = world.log()
            self.assertIn("continuing from the journal", log)
            self.assertNotIn(TOKEN, log)
        finally:
            world.close()

    def test_every_kill_point_finishes_the_drain(self):
        for point in KILL_POINTS_S:
            with self.subTest(kill_after_s=point):
                self.trial(point)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
