#!/usr/bin/python3
"""Retirement end to end, against the fake Auto Scaling endpoint and the fake
instance metadata service, with real processes: a generic runner that reports its jobs with
`runwarden ctl job` (one_job_runner.py) under `runwarden run` with cloud.provider "aws".

- after_exit = "retire": the runner's one job done, the instance is terminated through its
  group with ShouldDecrementDesiredCapacity=true (a done job consumed its capacity), the
  terminate hook the group then starts is completed with CONTINUE at once, and runwarden
  exits 0. Started again on the same state directory, runwarden never starts the runner: it
  ends the instance again and exits.
- on_give_up = "unhealthy": a runner that keeps crashing spends its restart budget, and the
  instance is marked Unhealthy (ShouldRespectGracePeriod=false), not terminated.
- recycle_after_jobs = 2: at the second job's start the runner is drained (its graceful
  signal) and finishes every job it started; the instance is terminated without a
  decrement, since its capacity is still wanted.
- A warden killed with SIGKILL after the decision (while its terminate call hangs) comes back
  from the journal and finishes the retirement without starting the runner again.
- idle_retire_after: a one-job runner that takes no job retires its instance even when the
  warden is killed while the bound runs (the restarted warden arms it again from its
  journal; it was lost, and the runner idled for good).
Nothing waits a fixed time: every wait reads the runner's record, the log or the fake.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_retirement.py
"""

import os
import sys
import unittest

from aws_world import INSTANCE_ID, AwsWorld
from generic_runner_world import RUNWARDEN, GenericRunnerWorld, eventually
from keeper_family import kill_warden

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "one_job_runner.py")
WAIT_S = 60


class RetirementTest(GenericRunnerWorld, unittest.TestCase):
    prefix = "runwarden-retire-"

    def setUp(self):
        super().setUp()
        self.aws = AwsWorld(heartbeat_timeout=60)

    def tearDown(self):
        super().tearDown()
        self.aws.close()

    def start(self, mode, runner_keys, extra=""):
        return self.start_warden(
            '[runner]\nkind = "generic"\n' + runner_keys + "\n" + extra + self.aws.config(),
            ["/usr/bin/python3", RUNNER, RUNWARDEN, self.socket, self.record, mode],
            env=self.aws.environment())

    def steps(self):
        """The record without the pids of the "up" lines."""
        return ["up" if l.startswith("up ") else l for l in self.lines()]

    def calls(self, action):
        return [r["params"] for r in self.aws.autoscaling_requests()
                if r["action"] == action and r["status"] == 200]

    def assert_hook_completed(self):
        completions = self.aws.autoscaling_state()["completions"]
        self.assertIn({"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                       "accepted": True}, completions, self.log())

    def test_a_one_job_runner_retires_its_instance_and_never_runs_again(self):
        warden = self.start("one", 'after_exit = "retire"')
        self.assertEqual(0, warden.wait(timeout=WAIT_S), self.log())
        self.assertEqual(["up", "job-1 start rc=0", "job-1 end rc=0", "exit 0"], self.steps())
        [terminate] = self.calls("TerminateInstanceInAutoScalingGroup")
        self.assertEqual(INSTANCE_ID, terminate["InstanceId"])
        self.assertEqual("true", terminate["ShouldDecrementDesiredCapacity"])
        self.assertEqual(0, self.aws.autoscaling_state()["groups"][0]["desired"])
        self.assert_hook_completed()
        self.assertIn("retiring the instance", self.log())

        # The journal keeps the retirement: a new start ends the instance again, no runner.
        again = self.start("one", 'after_exit = "retire"')
        self.assertEqual(0, again.wait(timeout=WAIT_S), self.log())
        self.assertEqual(1, self.steps().count("up"), self.lines())
        self.assertEqual(2, len(self.calls("TerminateInstanceInAutoScalingGroup")), self.log())

    def test_past_the_restart_budget_the_instance_is_marked_unhealthy(self):
        warden = self.start("crash", 'on_give_up = "unhealthy"',
                            '[restart]\nbudget_restarts = 1\nbackoff_initial = "100ms"\n')
        self.assertEqual(3, warden.wait(timeout=WAIT_S), self.log())
        self.assertEqual(["up", "exit 3", "up", "exit 3"], self.steps())
        [health] = self.calls("SetInstanceHealth")
        self.assertEqual({"InstanceId": INSTANCE_ID, "HealthStatus": "Unhealthy",
                          "ShouldRespectGracePeriod": "false"},
                         {k: health[k] for k in ("InstanceId", "HealthStatus",
                                                 "ShouldRespectGracePeriod")})
        self.assertEqual([], self.calls("TerminateInstanceInAutoScalingGroup"))
        self.assertEqual(1, self.aws.autoscaling_state()["groups"][0]["desired"])
        self.assert_hook_completed()

    def test_recycling_after_two_jobs_drains_and_replaces_the_instance(self):
        warden = self.start("jobs", "recycle_after_jobs = 2")
        self.assertEqual(0, warden.wait(timeout=WAIT_S), self.log())
        steps = self.steps()
        # Decided at the second job's start. The runner may start one more job before the
        # graceful signal reaches it (a job takes 0.3 s, and a loaded machine is slower):
        # that job is waited for too, as no job is ever killed by a retirement.
        self.assertIn("2 jobs taken, the recycling bound", self.log())
        # The runner notes a report once `ctl job start` returns, and the signal may come
        # while that call is under way: "term" may be noted before "job-2 start".
        self.assertEqual(["up", "job-1 start rc=0", "job-1 end rc=0"], steps[:3])
        self.assertIn("job-2 start rc=0", steps)
        self.assertIn("term", steps)
        started = [l.split()[0] for l in steps if l.endswith("start rc=0")]
        ended = [l.split()[0] for l in steps if l.endswith("end rc=0")]
        self.assertEqual(started, ended, steps)
        self.assertEqual("exit 0", steps[-1])
        [terminate] = self.calls("TerminateInstanceInAutoScalingGroup")
        self.assertEqual("false", terminate["ShouldDecrementDesiredCapacity"])
        self.assertEqual(1, self.aws.autoscaling_state()["groups"][0]["desired"])
        self.assert_hook_completed()

    def test_a_warden_killed_after_the_decision_never_starts_the_runner_again(self):
        # The first terminate call hangs, so that the warden is killed with it under way.
        self.aws.autoscaling.command(
            faults={"TerminateInstanceInAutoScalingGroup": [{"delay": 3}]})
        keeper = self.start("one", 'after_exit = "retire"')
        self.assertTrue(eventually(lambda: "instance end: terminate" in self.log()), self.log())
        killed = kill_warden(keeper)
        self.assertIsNotNone(killed, self.log())
        self.assertEqual(0, keeper.wait(timeout=WAIT_S), self.log())
        self.assertEqual(1, self.steps().count("up"), self.lines())
        self.assertIn("continuing from the journal", self.log())
        self.assertTrue(eventually(lambda: self.calls("TerminateInstanceInAutoScalingGroup")),
                        self.log())

    def test_a_warden_killed_while_the_idle_bound_runs_still_retires(self):
        keeper = self.start("idle", 'after_exit = "retire"\nidle_retire_after = "4s"')
        self.assertTrue(eventually(lambda: self.steps()[:1] == ["up"]), self.log())
        killed = kill_warden(keeper)
        self.assertIsNotNone(killed, self.log())
        self.assertEqual(0, keeper.wait(timeout=WAIT_S), self.log())
        self.assertIn("continuing from the journal", self.log())
        self.assertIn("took no job within", self.log())
        self.assertEqual(["up", "term", "exit 0"], self.steps())
        [terminate] = self.calls("TerminateInstanceInAutoScalingGroup")
        self.assertEqual("true", terminate["ShouldDecrementDesiredCapacity"])


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY to the runwarden binary")
    unittest.main(verbosity=2)
