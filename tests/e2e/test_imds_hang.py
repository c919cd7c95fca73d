#!/usr/bin/python3
"""The instance metadata service hanging without answering (not refusing), then answering.

fake_imds.py's "hang" holds every request it reads without an answer until the client gives
up and closes its connection (it counts those, and the connections open at any time). While
it hangs, the group starts terminating the instance and the metadata's target lifecycle
state turns Terminated, but no poll can read it yet:
- runwarden's polls time out (the fake sees their connections closed unanswered, again and
  again, and runwarden's log says the pages got no answer), and the runner keeps running;
- nothing piles up: at most one request is held at a time and runwarden never holds more
  than two connections to the service (one request at a time, one kept-alive connection;
  the Auto Scaling client read the identity document before the hang and keeps it);
- once the service answers again, the drain starts (the Watch stream shows shutting_down,
  triggered by the cloud's lifecycle) and ends as a drain should: job finished, runner
  unregistered, terminate hook completed once.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_imds_hang.py
"""

import sys
import time
import unittest

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import RUNWARDEN, WAIT_S, DrainWorld

HEARTBEAT_TIMEOUT_S = 30.0
POLLS_TIMED_OUT = 4  # requests runwarden gave up on while the service hung
CONNECTIONS_MAX = 2


def wait_until(condition):
    """Polls a lasting record (the fake's log) until `condition` holds."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


class HangingMetadataTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT_S)
        self.world = DrainWorld([], jobs=1, job_seconds=0.5, extra_config=self.aws.config())

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def connections(self):
        before = len(self.aws.imds.lines)
        self.aws.imds.command(connections=True)
        return next(l["connections"] for l in self.aws.imds.lines[before:] if "connections" in l)

    def abandoned(self):
        return [l for l in self.aws.imds.lines if l.get("held") == "abandoned"]

    def test_polls_time_out_and_the_drain_starts_once_it_answers(self):
        warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1))
        self.assertTrue(wait_until(lambda: any(
            l.get("token") == "valid" and l["path"].endswith("target-lifecycle-state")
            for l in list(self.aws.imds.lines))), "runwarden never read the metadata")
        # The Auto Scaling client reads the identity document once, for the hooks actor's
        # first look: past that look only the watcher talks to the service, so the counts
        # below are the watcher's alone.
        self.assertTrue(wait_until(lambda: any(
            l["action"] == "DescribeAutoScalingInstances"
            for l in self.aws.autoscaling_requests())), "the hooks actor never looked")

        self.aws.imds.command(hang=True)
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        self.assertTrue(wait_until(lambda: len(self.abandoned()) >= POLLS_TIMED_OUT),
                        "runwarden's metadata requests did not time out: %s"
                        % self.aws.imds.lines[-5:])
        counts = self.connections()
        self.assertLessEqual(counts["held_max"], 1, counts)
        self.assertLessEqual(counts["open_max"], CONNECTIONS_MAX, counts)
        self.assertIsNone(warden.poll(), "runwarden ended while the metadata service hung")
        statuses = list(self.world.watch.statuses)
        self.assertFalse(any(s["state"] == "shutting_down" for s in statuses),
                         "a drain started from a page that was never read")

        self.aws.imds.command(hang=False)
        status = self.world.wait_for(lambda s: s["state"] == "shutting_down")
        self.assertIsNotNone(status, "the drain did not start once the service answered")
        self.assertEqual("cloud_lifecycle", status.get("trigger"))
        self.assertEqual(0, warden.wait(timeout=WAIT_S))

        counts = self.connections()
        self.assertLessEqual(counts["held_max"], 1, counts)
        self.assertLessEqual(counts["open_max"], CONNECTIONS_MAX, counts)
        state = self.aws.autoscaling_state()
        self.assertEqual([], state["timeouts"])
        self.assertEqual([{"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                           "accepted": True}], state["completions"])
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        self.assertIn("no answer", self.world.log())


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
