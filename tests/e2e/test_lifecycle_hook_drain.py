#!/usr/bin/python3
"""Auto Scaling lifecycle drains end to end, with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py with a job that outlasts the terminate hook's
heartbeat timeout several times, watches fake_imds.py (IMDSv2) and talks to
fake_autoscaling.py, which checks every request's SigV4 signature with botocore and times
out a lifecycle action whose heartbeats stop, as AWS does.

- Instance refresh: the group puts the instance into Terminating:Wait and the metadata's
  target lifecycle state turns Terminated. The drain starts within a poll interval or two;
  heartbeats keep the hook alive past its heartbeat timeout; the job finishes (the runner
  exits 0 after SIGQUIT, never SIGTERM); the runner is unregistered; the hook is completed
  with CONTINUE exactly once, and never times out.
- Spot interruption: a spot notice comes first (its deadline: notice time minus the safety
  margin), then the group's terminate transition. The drain keeps the spot deadline (the
  earlier one), the job still finishes before it, and the hook is completed once.
- EC2 scheduled maintenance: an instance-stop on events/maintenance/scheduled drains with
  NotBefore minus the margin, and no hook is looked for.
- Launch: the instance starts in Pending:Wait; the launch hook is completed with CONTINUE
  once the runner's metrics answer, not after a fixed wait, and exactly once.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_lifecycle_hook_drain.py
"""

import datetime
import json
import re
import sys
import time
import unittest

from aws_world import INSTANCE_ID, SECRET_KEY, SESSION_TOKEN, AwsWorld
from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld

HEARTBEAT_TIMEOUT = 2.0
JOB_SECONDS = 6.0  # three heartbeat timeouts


def moment(text):
    """An RFC 3339 time from status, to the microsecond."""
    parts = re.match(r"(.*T\d\d:\d\d:\d\d)(\.\d+)?Z$", text)
    assert parts, text
    fraction = (parts.group(2) or ".0")[:7]
    return datetime.datetime.fromisoformat(parts.group(1) + fraction + "+00:00")


class LifecycleHookDrainTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS,
                                extra_config=self.aws.config(
                                    extra='spot_safety_margin = "2s"\n'
                                          'scheduled_events_interval = "1s"\n'))
        self.warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def wait_for_exit(self):
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S + JOB_SECONDS))

    def check_hook_completed_once(self):
        state = self.aws.autoscaling_state()
        self.assertEqual([], state["timeouts"], "the hook timed out")
        self.assertEqual([{"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                           "accepted": True}], state["completions"])
        requests = self.aws.autoscaling_requests()
        self.assertTrue(requests)
        self.assertTrue(all(r["signature"] == "valid" for r in requests), requests)
        return state

    def check_job_finished_and_nothing_leaked(self):
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        deletes = [c for c in self.world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])
        log = self.world.log()
        for secret in (TOKEN, SECRET_KEY, SESSION_TOKEN):
            self.assertNotIn(secret, log)
        return log

    def test_terminate_hook_is_kept_alive_and_completed_once(self):
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        flipped = datetime.datetime.now(datetime.timezone.utc)
        self.aws.imds.command(lifecycle_state="Terminated")
        status = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(status)
        # By runwarden's own clock, so a slow machine's late reader does not count: the
        # metadata poll (every 200 ms) started the drain, not a later fallback. How fast is
        # measured in bench/, not here.
        started_after = (moment(status["drain_started_at"]) - flipped).total_seconds()
        self.assertGreaterEqual(started_after, 0.0)
        self.assertLess(started_after, 5.0, "the drain started late")
        self.assertEqual("cloud_lifecycle", status.get("trigger"))
        hooked = self.world.wait_for(lambda s: s.get("lifecycle_hook") == "drain-runner")
        self.assertIsNotNone(hooked, "status never named the hook")
        self.wait_for_exit()

        state = self.check_hook_completed_once()
        beats = [b for b in state["heartbeats"] if b["hook"] == "drain-runner"]
        # The job ran three heartbeat timeouts past the transition: only heartbeats kept
        # the action alive, at least one per timeout.
        self.assertGreaterEqual(beats[0]["accepted"], int(JOB_SECONDS / HEARTBEAT_TIMEOUT))
        self.assertEqual(0, beats[0]["refused"])
        log = self.check_job_finished_and_nothing_leaked()
        self.assertIn("lifecycle action completed", log)

    def test_spot_notice_then_terminate_hook(self):
        # The reclaim lies a minute past the job's end, well before the hook's own expiry
        # (global timeout 600 s): on a loaded machine the job may run late, and a deadline
        # only seconds past it would end the drain with the forceful signal instead.
        notice = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
            seconds=JOB_SECONDS + 60)
        self.aws.imds.command(spot_action='{"action": "terminate", "time": "%s"}'
                              % notice.strftime("%Y-%m-%dT%H:%M:%SZ"))
        status = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(status)
        self.assertEqual("spot_interruption", status.get("trigger"))
        spot_deadline = moment(status.get("deadline"))
        expected = notice - datetime.timedelta(seconds=2)  # the safety margin
        self.assertLess(abs((spot_deadline - expected).total_seconds()), 1.0)

        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        hooked = self.world.wait_for(lambda s: s.get("lifecycle_hook") == "drain-runner")
        self.assertIsNotNone(hooked, "the terminate hook was not found during the spot drain")
        self.assertLess(abs((moment(hooked.get("deadline")) - spot_deadline).total_seconds()),
                        0.01, "the earlier (spot) deadline must stand")
        self.wait_for_exit()
        self.check_hook_completed_once()
        self.check_job_finished_and_nothing_leaked()


    def test_scheduled_instance_stop_drains_without_a_hook(self):
        not_before = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
            seconds=60)
        self.aws.imds.command(scheduled_events=json.dumps([{
            "NotBefore": not_before.strftime("%d %b %Y %H:%M:%S GMT"),
            "Code": "instance-stop", "Description": "The instance is running on degraded "
            "hardware", "EventId": "instance-event-0d59937288b749b32", "State": "active"}]))
        status = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(status)
        self.assertEqual("ec2_scheduled_maintenance", status.get("trigger"))
        expected = not_before.replace(microsecond=0) - datetime.timedelta(seconds=30)
        self.assertLess(abs((moment(status["deadline"]) - expected).total_seconds()), 1.0)
        self.wait_for_exit()
        # An EC2 scheduled event is no Auto Scaling transition: no hook is looked for.
        self.assertEqual([], self.aws.autoscaling_state()["completions"])
        self.check_job_finished_and_nothing_leaked()


class LaunchHookTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT, launching=True)
        self.world = DrainWorld([], jobs=1, job_seconds=0.5, extra_config=self.aws.config())

    def tearDown(self):
        self.world.close()
        self.aws.close()

    def test_launch_hook_is_completed_once_the_runner_is_ready(self):
        self.world.start_warden(env=self.aws.environment())
        ready = self.world.wait_for(lambda s: s.get("jobs_running") is not None)
        self.assertIsNotNone(ready, "the runner's metrics never answered")
        # The completion is a lasting record in the fake, so waiting for it samples nothing
        # transient. launch_ready_timeout is 10 minutes: a completion within WAIT_S came
        # from readiness, not from a fixed wait.
        deadline = time.monotonic() + WAIT_S
        completions = []
        while not completions and time.monotonic() < deadline:
            completions = self.aws.autoscaling_state()["completions"]
            time.sleep(0.05)
        self.assertEqual([{"instance": INSTANCE_ID, "hook": "warm-up", "result": "CONTINUE",
                           "accepted": True}], completions)
        completions = [line for line in self.aws.autoscaling.lines
                       if line.get("action") == "CompleteLifecycleAction"]
        self.assertEqual(1, len(completions), completions)
        # That it waits for the runner's answer, not only for time, is the actor tests'
        # (launch readiness, exact in virtual time): runwarden's status and this fake's
        # record are read on two clocks, too far apart to order events a few ms apart.
        time.sleep(2 * HEARTBEAT_TIMEOUT)
        state = self.aws.autoscaling_state()
        self.assertEqual(1, len(state["completions"]))
        self.assertEqual([], state["timeouts"])
        instance = next(i for i in state["instances"] if i["id"] == INSTANCE_ID)
        self.assertEqual("InService", instance["state"])


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)
