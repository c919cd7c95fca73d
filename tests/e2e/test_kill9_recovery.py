#!/usr/bin/python3
"""kill -9 of the warden at many points of a real drain; the keeper starts it again, and the
new warden finishes the drain from its journal.

`runwarden run` is a keeper, the runner's parent and the process a service manager starts,
and a warden, its child, that does all else (src/keeper/keeper.hpp). The fault is kill -9 of
the warden (keeper_family.py finds it); the keeper starts a new one by itself, and the test
starts no second runwarden (killing the keeper is a machine crash, out of scope). The runner,
fake_gitlab_runner.py, writes to stdout and stderr as gitlab-runner does and dies of SIGPIPE
when nobody reads them (go_runner_output.py); runwarden runs with the default --output log.

Each trial drains the runner (two jobs) with SIGTERM to the keeper and kills the warden after
a chosen delay (before the graceful signal lands, while the jobs run, while the
unregistration waits out a 429 and a slow answer, after gone). The keeper's new warden must
finish the drain: the runner never restarted (one start in its record) and its jobs finished
(never aborted: it did not lose its pipes), exactly one successful unregistration, and the
keeper's exit code the drain's real one, 0 (never 75, "the runner's end unknown": the keeper
reaps the runner and tells the new warden how it ended). The SIGTERM is sent once: the
keeper keeps it until a warden says it has it. A second test kills the warden while nothing
drains: the same runner runs on, and a later SIGTERM drains it to exit 0.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_kill9_recovery.py
"""

import signal
import sys
import time
import unittest

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld, StatusWatch
from keeper_family import kill_warden, wait_for_warden

# Seconds after SIGTERM: the jobs end about 1.0 and 1.5 s into the drain, the runner
# exits 0.5 s later, then the unregistration meets a 429 (Retry-After 1) and a slow answer.
KILL_POINTS_S = [0.0, 0.05, 0.3, 0.8, 1.3, 1.8, 2.2, 2.6, 3.2, 4.0]


class KillNineTest(unittest.TestCase):
    def kill_and_follow(self, world, keeper):
        """Kills the keeper's warden and watches the new one; False when the keeper had no
        warden left to kill (it was ending)."""
        killed = kill_warden(keeper)
        if killed is None:
            return False
        self.assertIsNotNone(wait_for_warden(keeper, other_than=killed),
                             "no new warden after %d's kill (keeper exit %s)\n%s"
                             % (killed, keeper.poll(), world.log()))
        world.watch = StatusWatch(world.socket, keeper)
        world.watches.append(world.watch)
        return True

    def check_the_end(self, world, keeper):
        self.assertEqual(0, keeper.wait(timeout=2 * WAIT_S), world.log())
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
        self.assertNotIn(TOKEN, world.log())

    def trial(self, kill_after_s):
        world = DrainWorld([{"status": 429, "headers": {"Retry-After": "1"}}, {"slow": 3}])
        try:
            keeper = world.start_warden()
            self.assertIsNotNone(world.wait_for(lambda s: s.get("jobs_running") == 2))
            keeper.send_signal(signal.SIGTERM)
            time.sleep(kill_after_s)
            gone = "status shutting_down -> gone" in world.log()
            if not self.kill_and_follow(world, keeper):
                return  # it finished before the kill: nothing to recover in this trial
            if not gone:
                # The keeper kept the SIGTERM for the new warden: no second one is sent.
                self.assertIsNotNone(
                    world.wait_for(lambda s: s.get("state") in ("shutting_down", "gone")),
                    "the SIGTERM was lost with the warden\n" + world.log())
            self.check_the_end(world, keeper)
            if not gone:
                self.assertIn("continuing from the journal", world.log())
        finally:
            world.close()

    def test_every_kill_point_finishes_the_drain(self):
        for point in KILL_POINTS_S:
            with self.subTest(kill_after_s=point):
                self.trial(point)

    def test_a_kill_while_running_keeps_the_runner(self):
        world = DrainWorld([])
        try:
            keeper = world.start_warden()
            before = world.wait_for(lambda s: s.get("jobs_running") == 2)
            self.assertIsNotNone(before)
            for _ in range(2):  # twice: the second warden is one that adopted the runner
                self.assertTrue(self.kill_and_follow(world, keeper))
                after = world.wait_for(lambda s: s.get("runner_pid") is not None)
                self.assertIsNotNone(after, world.log())
                self.assertEqual(before["runner_pid"], after["runner_pid"], world.log())
                self.assertEqual("running", after["state"], world.log())
                self.assertEqual(1, len([l for l in world.runner_record()
                                         if l.startswith("start")]), world.runner_record())
            self.assertIsNotNone(world.wait_for(lambda s: s.get("jobs_running") == 2))
            keeper.send_signal(signal.SIGTERM)
            self.check_the_end(world, keeper)
            self.assertIn("continuing from the journal", world.log())
        finally:
            world.close()


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
