#!/usr/bin/python3
"""fake_autoscaling.py against botocore's own Auto Scaling client: proves the fake checks
SigV4 as AWS does and answers the Query protocol in a shape botocore parses.

Run with Debian's python: /usr/bin/python3 tests/aws/test_fake_autoscaling.py
"""

import json
import os
import queue
import subprocess
import threading
import time
import unittest
import urllib.error
import urllib.request

import botocore.exceptions
import botocore.session
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_autoscaling.py")
REGION = "eu-west-1"
ACCESS_KEY = "ASIAFAKEAUTOSCALING1"
SECRET_KEY = "fakeSecretKey/0123456789abcdefghijklmnopq"
SESSION_TOKEN = "FwoGZXIvYXdzEFAKE//session+token="
SCENARIO = {
    "region": REGION, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
    "session_token": SESSION_TOKEN,
    "groups": [{
        "name": "runners", "min": 1, "max": 4, "desired": 3, "launch_template": "runner-lt",
        "instances": [{"id": "i-0000000000000000a"},
                      {"id": "i-0000000000000000b", "protected": True},
                      {"id": "i-0000000000000000c", "state": "Terminating:Wait"},
                      {"id": "i-0000000000000000g"}],
        "hooks": [{"name": "drain", "transition": "terminating", "heartbeat_timeout": 1.0,
                   "global_timeout": 30.0, "default_result": "CONTINUE"},
                  {"name": "warm", "transition": "launching", "heartbeat_timeout": 0.5,
                   "global_timeout": 1.0, "default_result": "ABANDON"}]}],
    "faults": {"DescribeAutoScalingGroups": [{"status": 400, "code": "Throttling",
                                              "message": "Rate exceeded"}]},
}
NO_ACTION = "No active Lifecycle Action found with instance ID %s"


class Fake:
    """The fake as a child process: its stdout lines arrive on a queue."""

    def __init__(self, scenario):
        self.process = subprocess.Popen(["/usr/bin/python3", FAKE, json.dumps(scenario)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())
        self.lines = queue.Queue()
        self.seen = []
        self.commands = 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def next(self, predicate, timeout=5.0):
        deadline = time.monotonic() + timeout
        while True:
            record = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            self.seen.append(record)
            if predicate(record):
                return record

    def command(self, command):
        self.commands += 1
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        ack = self.next(lambda r: "ack" in r)
        assert ack == {"ack": self.commands}, ack

    def state(self):
        self.command({"state": {}})
        return next(r["state"] for r in reversed(self.seen) if "state" in r)

    def request(self, action):
        return self.next(lambda r: r.get("action") == action)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=5)
        self.process.stdout.close()

    def client(self, secret_key=SECRET_KEY, access_key=ACCESS_KEY, token=SESSION_TOKEN):
        return botocore.session.get_session().create_client(
            "autoscaling", region_name=REGION, endpoint_url="http://127.0.0.1:%d" % self.port,
            aws_access_key_id=access_key, aws_secret_access_key=secret_key,
            aws_session_token=token,
            config=Config(retries={"total_max_attempts": 1}, connect_timeout=2, read_timeout=5))


class FakeAutoScalingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fake = Fake(SCENARIO)
        cls.asg = cls.fake.client()

    @classmethod
    def tearDownClass(cls):
        cls.asg.close()
        cls.fake.close()

    def setUp(self):
        self.fake.command({})  # its ack comes after every line the tests before caused

    def assert_error(self, call, code, message=None, **kwargs):
        with self.assertRaises(botocore.exceptions.ClientError) as caught:
            call(**kwargs)
        self.assertEqual(caught.exception.response["Error"]["Code"], code)
        if message is not None:
            self.assertEqual(caught.exception.response["Error"]["Message"], message)
        return caught.exception.response

    def test_describe_groups_after_a_queued_throttle(self):
        self.assert_error(self.asg.describe_auto_scaling_groups, "Throttling", "Rate exceeded",
                          AutoScalingGroupNames=["runners"])
        self.assertEqual(self.fake.request("DescribeAutoScalingGroups")["fault"], "Throttling")
        group = self.asg.describe_auto_scaling_groups(
            AutoScalingGroupNames=["runners"])["AutoScalingGroups"][0]
        self.assertEqual((group["MinSize"], group["MaxSize"]), (1, 4))
        self.assertEqual(group["AvailabilityZones"], ["eu-west-1a"])
        self.assertEqual(group["CreatedTime"].tzname(), "UTC")
        members = {i["InstanceId"]: i for i in group["Instances"]}
        self.assertEqual(members["i-0000000000000000a"]["HealthStatus"], "Healthy")
        self.assertTrue(members["i-0000000000000000b"]["ProtectedFromScaleIn"])
        self.assertEqual(members["i-0000000000000000a"]["LifecycleState"], "InService")
        self.assertEqual(members["i-0000000000000000a"]["LaunchTemplate"]["LaunchTemplateName"],
                         "runner-lt")

    def test_describe_instances_and_protection(self):
        answer = self.asg.describe_auto_scaling_instances(InstanceIds=["i-0000000000000000a"])
        [instance] = answer["AutoScalingInstances"]
        self.assertEqual(instance["AutoScalingGroupName"], "runners")
        self.assertEqual(instance["LifecycleState"], "InService")
        self.assertEqual(instance["HealthStatus"], "HEALTHY")
        self.assertFalse(instance["ProtectedFromScaleIn"])
        self.asg.set_instance_protection(InstanceIds=["i-0000000000000000a"],
                                         AutoScalingGroupName="runners",
                                         ProtectedFromScaleIn=True)
        answer = self.asg.describe_auto_scaling_instances(InstanceIds=["i-0000000000000000a"])
        self.assertTrue(answer["AutoScalingInstances"][0]["ProtectedFromScaleIn"])
        self.assert_error(self.asg.set_instance_protection, "ValidationError",
                          "The instance i-0nothere is not part of Auto Scaling group runners.",
                          InstanceIds=["i-0nothere"], AutoScalingGroupName="runners",
                          ProtectedFromScaleIn=False)

    def test_describe_lifecycle_hooks(self):
        hooks = self.asg.describe_lifecycle_hooks(AutoScalingGroupName="runners",
                                                  LifecycleHookNames=["drain"])["LifecycleHooks"]
        self.assertEqual(hooks, [{
            "LifecycleHookName": "drain", "AutoScalingGroupName": "runners",
            "LifecycleTransition": "autoscaling:EC2_INSTANCE_TERMINATING",
            "HeartbeatTimeout": 1, "GlobalTimeout": 30, "DefaultResult": "CONTINUE"}])
        self.assertEqual(len(self.asg.describe_lifecycle_hooks(
            AutoScalingGroupName="runners")["LifecycleHooks"]), 2)

    def test_desired_capacity(self):
        self.asg.set_desired_capacity(AutoScalingGroupName="runners", DesiredCapacity=4,
                                      HonorCooldown=False)
        self.assert_error(self.asg.set_desired_capacity, "ValidationError",
                          "New SetDesiredCapacity value 9 is above max value 4 for the "
                          "AutoScalingGroup.", AutoScalingGroupName="runners", DesiredCapacity=9)
        self.assert_error(self.asg.set_desired_capacity, "ValidationError",
                          "New SetDesiredCapacity value 0 is below min value 1 for the "
                          "AutoScalingGroup.", AutoScalingGroupName="runners", DesiredCapacity=0)
        desired = self.fake.state()["groups"][0]["desired"]
        self.assertEqual(desired, 4)

    def test_a_waiting_instance_times_out_without_heartbeats(self):  # first: 1 s
        instance = "i-0000000000000000c"  # Terminating:Wait from the start
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=[instance])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Terminating:Wait")
        self.assertEqual([a["hook"] for a in self.fake.state()["actions"]
                          if a["instance"] == instance], ["drain"])
        event = self.fake.next(lambda r: r.get("event") == "hook_timed_out")
        self.assertEqual(event, {"event": "hook_timed_out", "instance": instance,
                                 "hook": "drain", "result": "CONTINUE"})
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=[instance])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Terminating:Proceed")
        self.assertIn({"instance": instance, "hook": "drain", "result": "CONTINUE"},
                      self.fake.state()["timeouts"])

    def test_heartbeats_keep_an_action_alive_then_completion_ends_it(self):
        instance = "i-0000000000000000g"
        self.fake.command({"terminate": instance})  # drain: heartbeat timeout 1 s
        target = dict(LifecycleHookName="drain", AutoScalingGroupName="runners")
        for _ in range(8):  # 2 s: well past the heartbeat timeout
            self.asg.record_lifecycle_action_heartbeat(InstanceId=instance, **target)
            time.sleep(0.25)
        [action] = [a for a in self.fake.state()["actions"] if a["instance"] == instance]
        self.asg.record_lifecycle_action_heartbeat(LifecycleActionToken=action["token"], **target)
        self.asg.complete_lifecycle_action(InstanceId=instance, LifecycleActionResult="CONTINUE",
                                           **target)
        self.assert_error(self.asg.complete_lifecycle_action, "ValidationError",
                          NO_ACTION % instance, InstanceId=instance,
                          LifecycleActionResult="CONTINUE", **target)
        self.assert_error(self.asg.record_lifecycle_action_heartbeat, "ValidationError",
                          NO_ACTION % instance, InstanceId=instance, **target)
        state = self.fake.state()
        self.assertEqual([c for c in state["completions"] if c["instance"] == instance], [
            {"instance": instance, "hook": "drain", "result": "CONTINUE", "accepted": True},
            {"instance": instance, "hook": "drain", "result": "CONTINUE", "accepted": False}])
        self.assertEqual([h for h in state["heartbeats"] if h["instance"] == instance],
                         [{"instance": instance, "hook": "drain", "accepted": 9, "refused": 1}])
        self.assertNotIn(instance, [t["instance"] for t in state["timeouts"]])
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=[instance])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Terminating:Proceed")

    def test_a_launch_times_out_without_heartbeats(self):
        self.fake.command({"launch": "i-0000000000000000d"})
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=["i-0000000000000000d"])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Pending:Wait")
        event = self.fake.next(lambda r: r.get("event") == "hook_timed_out"
                               and r["instance"] == "i-0000000000000000d")
        self.assertEqual(event["result"], "ABANDON")
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=["i-0000000000000000d"])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Terminating")

    def test_global_timeout_bounds_heartbeats(self):
        self.fake.command({"launch": "i-0000000000000000e"})
        target = dict(LifecycleHookName="warm", AutoScalingGroupName="runners",
                      InstanceId="i-0000000000000000e")
        started = time.monotonic()
        with self.assertRaises(botocore.exceptions.ClientError):
            while time.monotonic() - started < 3:  # global timeout 1 s
                self.asg.record_lifecycle_action_heartbeat(**target)
                time.sleep(0.1)
        self.assertLess(time.monotonic() - started, 1.6)

    def test_terminate_instance(self):
        self.fake.command({"launch": "i-0000000000000000f"})
        activity = self.asg.terminate_instance_in_auto_scaling_group(
            InstanceId="i-0000000000000000b", ShouldDecrementDesiredCapacity=False)["Activity"]
        self.assertEqual(activity["StatusCode"], "InProgress")
        self.assertEqual(activity["AutoScalingGroupName"], "runners")
        self.assertIn("i-0000000000000000b", activity["Description"])
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=["i-0000000000000000b"])["AutoScalingInstances"]
        self.assertEqual(answer["LifecycleState"], "Terminating:Wait")
        self.assert_error(self.asg.terminate_instance_in_auto_scaling_group, "ValidationError",
                          "Instance Id not found - No managed instance found for instance ID: "
                          "i-0nothere", InstanceId="i-0nothere",
                          ShouldDecrementDesiredCapacity=True)
        self.asg.set_desired_capacity(AutoScalingGroupName="runners", DesiredCapacity=2)
        self.asg.terminate_instance_in_auto_scaling_group(
            InstanceId="i-0000000000000000f", ShouldDecrementDesiredCapacity=True)
        self.assert_error(self.asg.terminate_instance_in_auto_scaling_group, "ValidationError",
                          "Currently, desiredSize equals minSize (1). Terminating instance "
                          "without replacement will violate group's min size constraint. Either "
                          "set shouldDecrementDesiredCapacity flag to false or lower group's min "
                          "size.", InstanceId="i-0000000000000000a",
                          ShouldDecrementDesiredCapacity=True)
        self.assertEqual(self.fake.state()["groups"][0]["desired"], 1)

    def test_an_abandoned_terminate_hook_retains_the_instance(self):
        """A group with TerminateHookAbandon "retain": a timeout with default result ABANDON
        and another tool's ABANDON both leave the instance Terminating:Retained, until
        TerminateInstanceInAutoScalingGroup sends it on without running its hooks again."""
        timed_out, abandoned = "i-0000000000000000r", "i-0000000000000000s"
        fake = Fake(dict(SCENARIO, faults={}, groups=[{
            "name": "keepers", "min": 0, "max": 2, "desired": 1,
            "instance_lifecycle_policy": {"RetentionTriggers": {"TerminateHookAbandon": "retain"}},
            "instances": [{"id": timed_out, "state": "Terminating:Wait"}, {"id": abandoned}],
            "hooks": [{"name": "drain", "transition": "terminating", "heartbeat_timeout": 0.5,
                       "default_result": "ABANDON"}]}]))
        asg = fake.client()

        def lifecycle_state(instance):
            [answer] = asg.describe_auto_scaling_instances(
                InstanceIds=[instance])["AutoScalingInstances"]
            return answer["LifecycleState"]

        try:
            fake.next(lambda r: r.get("event") == "hook_timed_out")
            self.assertEqual("Terminating:Retained", lifecycle_state(timed_out))
            fake.command({"terminate": abandoned})
            fake.command({"abandon": abandoned})
            self.assertEqual("Terminating:Retained", lifecycle_state(abandoned))
            asg.terminate_instance_in_auto_scaling_group(
                InstanceId=timed_out, ShouldDecrementDesiredCapacity=False)
            self.assertEqual("Terminating:Proceed", lifecycle_state(timed_out))
            self.assertEqual([], [a for a in fake.state()["actions"]
                                  if a["instance"] == timed_out])
        finally:
            asg.close()
            fake.close()

    def test_set_instance_health(self):
        self.fake.command({"launch": "i-00000000000000011"})
        self.asg.set_instance_health(InstanceId="i-00000000000000011", HealthStatus="Unhealthy",
                                     ShouldRespectGracePeriod=False)
        [answer] = self.asg.describe_auto_scaling_instances(
            InstanceIds=["i-00000000000000011"])["AutoScalingInstances"]
        self.assertEqual(answer["HealthStatus"], "UNHEALTHY")
        self.assertEqual(answer["LifecycleState"], "Terminating:Wait")  # replaced, hooks run
        state = self.fake.state()
        self.assertIn({"instance": "i-00000000000000011", "health": "Unhealthy",
                       "respect_grace_period": "false"}, state["health_changes"])
        self.assert_error(self.asg.set_instance_health, "ValidationError",
                          "Instance Id not found - No managed instance found for instance ID: "
                          "i-0nothere", InstanceId="i-0nothere", HealthStatus="Unhealthy")
        self.assert_error(self.asg.set_instance_health, "ValidationError",
                          InstanceId="i-00000000000000011", HealthStatus="Sick")

    def test_faults(self):
        self.fake.command({"faults": {"DescribeLifecycleHooks": [
            {"status": 500, "code": "InternalFailure", "message": "internal"},
            {"status": 403, "code": "AccessDenied", "message": "User: arn:aws:sts::1:x is "
             "not authorized to perform: autoscaling:DescribeLifecycleHooks"},
            {"html": 502}, {"drop": True}, {"delay": 0.5}]}})
        call = self.asg.describe_lifecycle_hooks
        response = self.assert_error(call, "InternalFailure", AutoScalingGroupName="runners")
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 500)
        self.assert_error(call, "AccessDenied", AutoScalingGroupName="runners")
        response = self.assert_error(call, "502", AutoScalingGroupName="runners")
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 502)
        with self.assertRaises(botocore.exceptions.ConnectionClosedError):
            call(AutoScalingGroupName="runners")
        started = time.monotonic()
        self.assertEqual(len(call(AutoScalingGroupName="runners")["LifecycleHooks"]), 2)
        self.assertGreaterEqual(time.monotonic() - started, 0.5)
        faults = [self.fake.request("DescribeLifecycleHooks").get("fault") for _ in range(5)]
        self.assertEqual(faults, ["InternalFailure", "AccessDenied", "html", "drop", "delay"])

    def test_credentials_are_checked(self):
        for client_keys, code in (({"secret_key": "wrong"}, "SignatureDoesNotMatch"),
                                  ({"access_key": "AKIAUNKNOWN"}, "InvalidClientTokenId"),
                                  ({"token": None}, "InvalidClientTokenId"),
                                  ({"token": "other"}, "InvalidClientTokenId")):
            client = self.fake.client(**client_keys)
            self.assert_error(client.describe_auto_scaling_groups, code)
            client.close()
            request = self.fake.request("DescribeAutoScalingGroups")
            self.assertEqual((request["status"], request["signature"]), (403, "bad"))

    def test_unknown_action(self):
        self.assert_error(self.asg.describe_policies, "InvalidAction")
        request = self.fake.request("DescribePolicies")
        self.assertEqual((request["status"], request["signature"]), (400, "valid"))

    def test_only_the_client_signed_headers_count(self):
        """runwarden's shape: Content-Type, Host and X-Amz-Date signed; urllib adds more."""
        body = b"Action=DescribeAutoScalingGroups&Version=2011-01-01"
        headers = self.sign(body)
        self.assertEqual(self.post(body, headers)[0], 200)
        self.assertEqual(self.fake.request("DescribeAutoScalingGroups")["signature"], "valid")
        headers["X-Amz-Date"] = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() - 60))
        status, text = self.post(body, headers)
        self.assertEqual(status, 403)
        self.assertIn("<Code>SignatureDoesNotMatch</Code>", text)
        del headers["Authorization"]
        status, text = self.post(body, headers)
        self.assertEqual(status, 403)
        self.assertTrue(text.startswith('<?xml version="1.0"?>\n<ErrorResponse xmlns='
                                        '"http://autoscaling.amazonaws.com/doc/2011-01-01/">'
                                        '<Error><Type>Sender</Type><Code>'
                                        'MissingAuthenticationToken</Code>'), text)
        self.assertEqual(self.fake.request("DescribeAutoScalingGroups")["signature"], "bad")
        self.assertEqual(self.fake.request("DescribeAutoScalingGroups")["signature"], "missing")

    def test_missing_required_members(self):
        body = (b"Action=CompleteLifecycleAction&Version=2011-01-01&AutoScalingGroupName=runners"
                b"&LifecycleHookName=drain&InstanceId=i-0000000000000000a")
        status, text = self.post(body, self.sign(body))
        self.assertEqual(status, 400)
        self.assertIn("<Code>ValidationError</Code><Message>1 validation error detected: Value "
                      "null at 'lifecycleActionResult' failed to satisfy constraint: Member "
                      "must not be null</Message>", text)

    def sign(self, body):
        """Headers as botocore's signer leaves them: Content-Type, Host, X-Amz-Date and
        X-Amz-Security-Token signed, nothing else present."""
        request = AWSRequest("POST", self.url(), data=body, headers={
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
            "Host": "127.0.0.1:%d" % self.fake.port})
        SigV4Auth(Credentials(ACCESS_KEY, SECRET_KEY, SESSION_TOKEN), "autoscaling",
                  REGION).add_auth(request)
        return dict(request.headers.items())

    def post(self, body, headers):
        request = urllib.request.Request(self.url(), data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode()

    def url(self):
        return "http://127.0.0.1:%d/" % self.fake.port

    def test_zz_no_secret_printed(self):  # last: after every other test's output
        self.fake.state()
        printed = json.dumps(self.fake.seen)
        self.assertNotIn(SECRET_KEY, printed)
        self.assertNotIn(SESSION_TOKEN, printed)
        self.assertNotIn("AWS4-HMAC-SHA256", printed)


if __name__ == "__main__":
    unittest.main(verbosity=2)
