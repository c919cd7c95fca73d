#!/usr/bin/python3
"""Instance retention end to end: a terminate hook abandoned during a drain, in a group that
retains such instances (Terminating:Retained), with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py with one job, watches fake_imds.py and talks to
fake_autoscaling.py, whose group has the instance lifecycle policy TerminateHookAbandon
"retain" (the user guide's "Control instance retention with instance lifecycle policies").
The instance starts terminating (Terminating:Wait, target lifecycle state Terminated); while
the job still runs, another party abandons the hook, as a hook past its 48 h would end, and
the group retains the instance.

- The next heartbeat finds no active action; runwarden reads the instance and status (the
  Watch stream, `ctl status --json`) shows instance_lifecycle_state Terminating:Retained.
- The job still finishes (exit 0 after SIGQUIT) and the runner is unregistered.
- Then, and only then (after the drain's completion, which finds no action), one
  TerminateInstanceInAutoScalingGroup for this instance with ShouldDecrementDesiredCapacity
  false: a retained instance no longer counts in the desired capacity. The fake sends the
  instance on to Terminating:Proceed, and runwarden exits 0.

A job longer than the hook's global timeout (issue 33), the hook timing out by itself:
- With the policy, DescribeAutoScalingGroups tells runwarden that the group retains the
  instance, so the hook sets no drain deadline: heartbeats go on to the global timeout, the
  instance is retained, the job finishes (never signalled forcefully), and the instance is
  terminated once the runner is gone.
- Without it, today's behaviour: the drain deadline leaves the wind-down reserve before the
  hook's timeout, so the runner is stopped forcefully, and nothing is terminated by hand.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_instance_retention.py
"""

import sys
import unittest

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import RUNWARDEN, WAIT_S, DrainWorld

HEARTBEAT_TIMEOUT = 2.0
JOB_SECONDS = 6.0


class InstanceRetentionTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT, retain=True)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS,
                                extra_config=self.aws.config())
        self.warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def test_a_retained_instance_is_shown_then_terminated_once_the_runner_is_gone(self):
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        hooked = self.world.wait_for(lambda s: s.get("lifecycle_hook") == "drain-runner")
        self.assertIsNotNone(hooked, "status never named the hook")
        self.assertEqual("Terminating:Wait", hooked.get("instance_lifecycle_state"))

        self.aws.autoscaling.command(abandon=INSTANCE_ID)
        retained = self.world.wait_for(
            lambda s: s.get("instance_lifecycle_state") == "Terminating:Retained")
        self.assertIsNotNone(retained, "status never showed the retained instance")
        self.assertEqual("shutting_down", retained["state"])
        self.assertEqual(1, retained["jobs_running"], "the job should still run")

        self.assertEqual(0, self.warden.wait(timeout=WAIT_S + JOB_SECONDS))
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        deletes = [c for c in self.world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])

        requests = self.aws.autoscaling_requests()
        self.assertTrue(all(r["signature"] == "valid" for r in requests), requests)
        actions = [r["action"] for r in requests]
        terminations = [r for r in requests if r["action"] == "TerminateInstanceInAutoScalingGroup"]
        self.assertEqual(1, len(terminations), actions)
        self.assertEqual(200, terminations[0]["status"])
        self.assertEqual({"InstanceId": INSTANCE_ID, "ShouldDecrementDesiredCapacity": "false"},
                         {k: v for k, v in terminations[0]["params"].items()
                          if k not in ("Action", "Version")})
        # The completion is asked only once the runner is gone and unregistered; the
        # termination comes after it.
        completion = actions.index("CompleteLifecycleAction")
        self.assertLess(completion, actions.index("TerminateInstanceInAutoScalingGroup"))
        state = self.aws.autoscaling_state()
        [instance] = [i for i in state["instances"] if i["id"] == INSTANCE_ID]
        self.assertEqual("Terminating:Proceed", instance["state"])
        self.assertIn("retains it", self.world.log())


# The hook's global timeout, shorter than the job; a few heartbeats fit before it.
SHORT_GLOBAL_TIMEOUT = 4
LONG_JOB_SECONDS = 10.0


class LongJobTest(unittest.TestCase):
    def start(self, retain):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT, retain=retain,
                            global_timeout=SHORT_GLOBAL_TIMEOUT)
        self.world = DrainWorld([], jobs=1, job_seconds=LONG_JOB_SECONDS,
                                extra_config=self.aws.config())
        self.warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def actions(self):
        return [r["action"] for r in self.aws.autoscaling_requests()]

    def test_with_the_policy_a_job_longer_than_the_hook_finishes(self):
        self.start(retain=True)
        retained = self.world.wait_for(
            lambda s: s.get("instance_lifecycle_state") == "Terminating:Retained")
        # Seen by the completion that finds no active action: no heartbeat goes past the
        # global timeout to find it earlier.
        self.assertIsNotNone(retained, "status never showed the retained instance")

        self.assertEqual(0, self.warden.wait(timeout=WAIT_S + LONG_JOB_SECONDS))
        self.assertEqual(["exit 0"], self.world.runner_record()[1:], "the job was cut short")
        actions = self.actions()
        self.assertIn("DescribeAutoScalingGroups", actions)
        self.assertGreaterEqual(actions.count("RecordLifecycleActionHeartbeat"), 2, actions)
        terminations = [r for r in self.aws.autoscaling_requests()
                        if r["action"] == "TerminateInstanceInAutoScalingGroup"]
        self.assertEqual(1, len(terminations), actions)
        self.assertEqual("false", terminations[0]["params"]["ShouldDecrementDesiredCapacity"])
        self.assertLess(actions.index("CompleteLifecycleAction"),
                        actions.index("TerminateInstanceInAutoScalingGroup"))
        [instance] = [i for i in self.aws.autoscaling_state()["instances"]
                      if i["id"] == INSTANCE_ID]
        self.assertEqual("Terminating:Proceed", instance["state"])
        log = self.world.log()
        self.assertIn("the hook sets no drain deadline", log)
        self.assertIn("reached its global timeout; the group retains the instance", log)
        self.assertNotIn("expired before it was completed", log)
        self.assertNotIn("forceful", log)

    def test_without_the_policy_the_hook_still_bounds_the_drain(self):
        self.start(retain=False)
        self.assertEqual(1, self.warden.wait(timeout=WAIT_S + LONG_JOB_SECONDS))
        self.assertEqual(["exit 1"], self.world.runner_record()[1:],
                         "the runner should have been stopped forcefully")
        actions = self.actions()
        self.assertIn("DescribeAutoScalingGroups", actions)
        self.assertNotIn("TerminateInstanceInAutoScalingGroup", actions)
        self.assertNotIn("the hook sets no drain deadline", self.world.log())


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
