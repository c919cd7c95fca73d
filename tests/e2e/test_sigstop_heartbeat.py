#!/usr/bin/python3
"""runwarden frozen (SIGSTOP) mid-drain for longer than its heartbeat interval, then resumed
(SIGCONT): it catches up, and the terminate hook does not time out, since its budget allows.

The terminate hook's heartbeat timeout is HEARTBEAT_TIMEOUT_S, so runwarden heartbeats every
half of it. Right after a heartbeat shows in the fake Auto Scaling endpoint's record, runwarden
is stopped for FROZEN_S: longer than the interval (a heartbeat falls due while it is frozen),
shorter than the timeout (the hook's own budget still allows one more). After SIGCONT:
- a heartbeat follows before the hook's heartbeat deadline (the fake would time the hook out
  otherwise: its record shows no timeout);
- the late timer fires once, not as a burst: no two heartbeats after the resume come closer
  than a quarter of the timeout, and the next is due from the resume, not from before it;
- the drain goes on: the job finishes, the runner is unregistered, the hook completed once.
The freeze is the scenario, not a guess at the machine's speed; the arrival times are the
test's own, taken as the fake's log lines are read.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_sigstop_heartbeat.py
"""

import signal
import sys
import threading
import time
import unittest

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import RUNWARDEN, WAIT_S, DrainWorld

HEARTBEAT_TIMEOUT_S = 6.0
FROZEN_S = 4.0  # past the heartbeat interval (3 s), inside the heartbeat timeout
JOB_SECONDS = 12.0
BEAT = "RecordLifecycleActionHeartbeat"


class HeartbeatArrivals:
    """When each heartbeat request reached the fake, on this test's monotonic clock."""

    def __init__(self, fake):
        self.times = []
        self._fake, self._seen = fake, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self):
        while not self._stop.is_set():
            lines = self._fake.lines[self._seen:]
            self._seen += len(lines)
            now = time.monotonic()
            self.times.extend(now for line in lines if line.get("action") == BEAT)
            time.sleep(0.01)

    def wait_for_count(self, count):
        deadline = time.monotonic() + WAIT_S
        while len(self.times) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return len(self.times) >= count

    def close(self):
        self._stop.set()
        self._thread.join(timeout=5)


class FrozenWardenTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT_S)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS,
                                extra_config=self.aws.config())
        self.beats = HeartbeatArrivals(self.aws.autoscaling)

    def tearDown(self):
        for warden in self.world.wardens:
            if warden.poll() is None:
                warden.send_signal(signal.SIGCONT)
        self.beats.close()
        self.world.close()
        self.aws.close()

    def test_a_frozen_warden_catches_up_with_its_heartbeats(self):
        warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1))
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        self.assertTrue(self.beats.wait_for_count(1), "no heartbeat before the freeze")

        warden.send_signal(signal.SIGSTOP)
        time.sleep(FROZEN_S)
        self.assertEqual([], self.aws.autoscaling_state()["timeouts"], "timed out while frozen")
        beats_before = len(self.beats.times)
        warden.send_signal(signal.SIGCONT)
        resumed_at = time.monotonic()

        self.assertEqual(0, warden.wait(timeout=WAIT_S + JOB_SECONDS), self.world.log())
        self.beats.close()
        after = [t for t in self.beats.times[beats_before:] if t >= resumed_at]
        self.assertGreaterEqual(len(after), 2, "no heartbeats after the resume")
        # The heartbeat due while frozen goes out at once, not a full interval later (which
        # would be past the hook's budget: the fake's record below would show the timeout).
        self.assertLess(after[0] - resumed_at, HEARTBEAT_TIMEOUT_S / 2,
                        "no heartbeat soon after the resume")
        gaps = [later - earlier for earlier, later in zip(after, after[1:])]
        self.assertTrue(all(gap >= HEARTBEAT_TIMEOUT_S / 4 for gap in gaps),
                        "heartbeats came in a burst after the resume: %s" % gaps)

        state = self.aws.autoscaling_state()
        self.assertEqual([], state["timeouts"], "the hook timed out")
        beats = next(b for b in state["heartbeats"] if b["hook"] == "drain-runner")
        self.assertEqual(0, beats["refused"], "a heartbeat came after the hook's deadline")
        self.assertEqual([{"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                           "accepted": True}], state["completions"])
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        deletes = [c for c in self.world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
