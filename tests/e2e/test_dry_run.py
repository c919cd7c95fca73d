#!/usr/bin/python3
"""A dry run (run.dry_run = true) end to end, against the fake Auto Scaling endpoint, the
fake instance metadata service and the fake GitLab API, with real processes.

The instance is terminated by its group while a job runs, with scale-in protection on. A
dry run drains the runner as usual (its graceful signal, the job finishes, exit 0), and
sends nothing that changes anything: the Auto Scaling fake sees only Describe* calls (no
SetInstanceProtection, heartbeat or CompleteLifecycleAction), the GitLab fake no DELETE;
runwarden's log names each call it withheld, on a line with "dry run:".
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_dry_run.py
"""

import re
import sys
import unittest

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import RUNWARDEN, WAIT_S, DrainWorld

HEARTBEAT_TIMEOUT = 2.0
JOB_SECONDS = 3.0  # past one heartbeat interval (half the timeout): a heartbeat is due


class DryRunTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS,
                                extra_config=self.aws.config()
                                + '\n[scaling]\nenabled = true\n\n[run]\ndry_run = true\n')

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def test_a_dry_run_drains_and_sends_nothing(self):
        warden = self.world.start_warden(env=self.aws.environment())
        busy = self.world.wait_for(lambda s: s.get("jobs_running") == 1)
        self.assertIsNotNone(busy, "the runner's job never showed in status")
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        hooked = self.world.wait_for(lambda s: s.get("lifecycle_hook") == "drain-runner")
        self.assertIsNotNone(hooked, "the hook was not looked up (a read: it goes out)")
        self.assertEqual(0, warden.wait(timeout=WAIT_S + JOB_SECONDS), self.world.log())

        # The runner was drained as usual: its job finished, none was killed.
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        # The fakes: reads only.
        actions = [r["action"] for r in self.aws.autoscaling_requests()]
        self.assertTrue(actions, "no Describe call reached the fake")
        self.assertEqual([], [a for a in actions if not a.startswith("Describe")], actions)
        self.assertEqual([], self.aws.autoscaling_state()["completions"])
        calls = self.world.api_calls()
        self.assertEqual([], [c for c in calls if c["method"] not in ("GET", "HEAD")], calls)
        # The log: each withheld call by name.
        log = self.world.log()
        self.assertIn("dry run: no call that changes the fleet or the CI server is sent", log)
        calls_named = {
            "SetInstanceProtection": ["InstanceIds.member.1=" + INSTANCE_ID,
                                      "ProtectedFromScaleIn=true"],
            "RecordLifecycleActionHeartbeat": ["LifecycleHookName=drain-runner"],
            "CompleteLifecycleAction": ["LifecycleHookName=drain-runner",
                                        "LifecycleActionResult=CONTINUE"],
        }
        for call, parameters in calls_named.items():
            lines = [l for l in log.splitlines() if "dry run: %s " % call in l]
            self.assertTrue(lines, call + " was not logged")
            for parameter in parameters:
                self.assertIn(parameter, lines[0])
        self.assertRegex(log, r"dry run: DELETE http://127\.0\.0\.1:\d+/api/v4/runners")
        withheld = [line for line in log.splitlines() if "dry run: " in line]
        self.assertTrue(all(re.search(r"dry run: .*(, not sent|is sent)", line)
                            for line in withheld), withheld)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
