#!/usr/bin/python3
"""Job slots published to CloudWatch ([scaling] publish = "cloudwatch"), end to end with real
processes and sockets only: runwarden supervises fake_gitlab_runner.py (concurrent = 4),
finds its group through fake_imds.py and fake_autoscaling.py, and sends its points to
fake_cloudwatch.py, which checks every signature with botocore and every PutMetricData
against botocore's model and the API reference.

- Points: every interval one PutMetricData with JobSlotsBusy (the jobs running) and
  JobSlotsTotal (4), in namespace Runwarden, dimension AutoScalingGroupName = the instance's
  group, Unit Count, StorageResolution 1. The first call is answered Throttling: the same
  point is sent again within its interval and accepted, so none is dropped; /metrics counts
  the points sent. While the runner drains, total equals busy (no free slot).
- A hanging CloudWatch (every answer held two minutes): a drain started while a call hangs
  ends as soon as the job does, well inside the call's own timeout (the interval, 30 s),
  and runwarden exits 0.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_cloudwatch_publish.py
"""

import json
import os
import re
import signal
import time
import unittest
import urllib.request

from aws_world import ACCESS_KEY, REGION, SECRET_KEY, SESSION_TOKEN, AwsWorld, JsonLinesFake
from drain_world import HERE, TOKEN, WAIT_S, DrainWorld, free_port

FAKE_CLOUDWATCH = os.path.join(HERE, "..", "aws", "fake_cloudwatch.py")
THROTTLED = {"status": 400, "code": "Throttling", "message": "Rate exceeded"}
HANG_SECONDS = 120


def wait_until(condition, timeout=WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    return None


class PublishWorld:
    def __init__(self, faults, interval, jobs, job_seconds):
        self.aws = AwsWorld(heartbeat_timeout=60)
        scenario = {"region": REGION, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
                    "session_token": SESSION_TOKEN, "faults": faults}
        self.cloudwatch = JsonLinesFake([FAKE_CLOUDWATCH, json.dumps(scenario)])
        config = self.aws.config() + ('\n[scaling]\npublish = "cloudwatch"\n'
                                      'publish_interval = "%s"\n' % interval)
        self.drain = DrainWorld([], jobs=jobs, job_seconds=job_seconds, extra_config=config)
        env = self.aws.environment()
        env["AWS_ENDPOINT_URL_CLOUDWATCH"] = "http://127.0.0.1:%d" % self.cloudwatch.port
        self.http_port = free_port()
        self.warden = self.drain.start_warden(env=env,
                                              http_listen="127.0.0.1:%d" % self.http_port)

    def requests(self):
        return [line for line in list(self.cloudwatch.lines) if "action" in line]

    def accepted(self):
        """The accepted points as {metric name: value} with the datums, in arrival order."""
        return [r for r in self.requests() if r["status"] == 200]

    def points_counted(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % self.http_port,
                                    timeout=10) as page:
            text = page.read().decode()
        return {outcome: float(value) for outcome, value in re.findall(
            r'^runwarden_cloudwatch_points_total\{outcome="(\w+)"\} (\S+)$', text, re.M)}

    def close(self):
        self.drain.close()
        self.cloudwatch.close()
        self.aws.close()


def values(request):
    return {d["name"]: d["value"] for d in request["datums"]}


class CloudWatchPublishTest(unittest.TestCase):
    def tearDown(self):
        self.world.close()

    def test_points_arrive_throttling_is_retried_and_a_drain_keeps_publishing(self):
        self.world = world = PublishWorld([THROTTLED], "1s", jobs=2, job_seconds=3.0)
        busy = wait_until(lambda: [r for r in world.accepted()
                                   if values(r) == {"JobSlotsBusy": 2, "JobSlotsTotal": 4}])
        self.assertTrue(busy, world.requests())
        requests = world.requests()
        self.assertTrue(all(r["signature"] == "valid" for r in requests), requests)
        self.assertEqual(("Throttling", 400), (requests[0].get("fault"), requests[0]["status"]))
        # The throttled point itself went again and was accepted: the same parameters.
        self.assertEqual(200, requests[1]["status"])
        self.assertEqual(requests[0]["params"], requests[1]["params"])
        for datum in busy[0]["datums"]:
            self.assertEqual(("Runwarden", {"AutoScalingGroupName": "runners"}, "Count", 1),
                             (datum["namespace"], datum["dimensions"], datum["unit"],
                              datum["resolution"]))
        counted = world.points_counted()
        self.assertGreaterEqual(counted["sent"], 2)
        self.assertEqual(0, counted["throttled"])

        world.warden.send_signal(signal.SIGTERM)
        draining = wait_until(lambda: [r for r in world.accepted()
                                       if values(r)["JobSlotsBusy"] > 0 and
                                       values(r)["JobSlotsBusy"] == values(r)["JobSlotsTotal"]])
        self.assertTrue(draining, "no point showed the draining runner's slots")
        self.assertEqual(0, world.warden.wait(timeout=WAIT_S))
        log = world.drain.log()
        for secret in (TOKEN, SECRET_KEY, SESSION_TOKEN):
            self.assertNotIn(secret, log)

    def test_a_hanging_cloudwatch_does_not_delay_a_drain(self):
        self.world = world = PublishWorld([{"delay": HANG_SECONDS}] * 4, "30s", jobs=1,
                                          job_seconds=1.0)
        self.assertIsNotNone(world.drain.wait_for(lambda s: s.get("jobs_running") == 1))
        hanging = wait_until(lambda: any(l.get("event") == "delaying"
                                         for l in list(world.cloudwatch.lines)), timeout=60)
        self.assertTrue(hanging, "no PutMetricData reached the fake")
        signalled = time.monotonic()
        world.warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, world.warden.wait(timeout=WAIT_S))
        drained_in = time.monotonic() - signalled
        # The call's own timeout is the interval, 30 s: a drain that waited for it would take
        # that long at least; this one waits for its job (1 s) and the scrapes that see it end.
        self.assertLess(drained_in, 20.0, "the drain waited for CloudWatch")
        self.assertEqual([], world.requests(), "the hanging call was answered after all")
        self.assertEqual(["exit 0"], world.drain.runner_record()[1:])


if __name__ == "__main__":
    unittest.main(verbosity=2)
