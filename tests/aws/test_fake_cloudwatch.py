#!/usr/bin/python3
"""fake_cloudwatch.py against botocore's own CloudWatch client: proves the fake checks SigV4
as AWS does (signing name "monitoring"), accepts what botocore sends for PutMetricData, and
answers the API reference's errors in a shape botocore parses (Throttling,
InvalidParameterValue, MissingParameter, SignatureDoesNotMatch).

Run with Debian's python: /usr/bin/python3 tests/aws/test_fake_cloudwatch.py
"""

import datetime
import json
import os
import queue
import subprocess
import threading
import unittest
import urllib.error
import urllib.request

import botocore.exceptions
import botocore.session
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_cloudwatch.py")
REGION = "eu-west-1"
ACCESS_KEY = "ASIAFAKECLOUDWATCH01"
SECRET_KEY = "fakeSecretKey/cloudwatch0123456789abcdef"
SESSION_TOKEN = "FwoGZXIvYXdzEFAKE//cloudwatch+token="
SCENARIO = {"region": REGION, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
            "session_token": SESSION_TOKEN,
            "faults": [{"status": 400, "code": "Throttling", "message": "Rate exceeded"}]}


class Fake:
    def __init__(self, scenario):
        self.process = subprocess.Popen(["/usr/bin/python3", FAKE, json.dumps(scenario)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def next_request(self):
        while True:
            line = self.lines.get(timeout=10)
            if "action" in line:
                return line

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def datum(name, value, **extra):
    return dict({"MetricName": name, "Value": value, "Unit": "Count", "StorageResolution": 1,
                 "Timestamp": datetime.datetime.now(datetime.timezone.utc),
                 "Dimensions": [{"Name": "AutoScalingGroupName", "Value": "runners"}]}, **extra)


class FakeCloudWatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fake = Fake(SCENARIO)
        session = botocore.session.get_session()
        cls.client = session.create_client(
            "cloudwatch", region_name=REGION, endpoint_url="http://127.0.0.1:%d" % cls.fake.port,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
            aws_session_token=SESSION_TOKEN,
            config=Config(retries={"total_max_attempts": 1}))
        cls.url = "http://127.0.0.1:%d/" % cls.fake.port

    @classmethod
    def tearDownClass(cls):
        cls.fake.close()

    def error_of(self, **call):
        with self.assertRaises(botocore.exceptions.ClientError) as caught:
            self.client.put_metric_data(**call)
        self.fake.next_request()
        return caught.exception.response

    def raw(self, body, secret=SECRET_KEY):
        """A POST signed by botocore with `secret`, past the client's own validation."""
        request = AWSRequest(method="POST", url=self.url, data=body,
                             headers={"Content-Type": "application/x-www-form-urlencoded; "
                                                      "charset=utf-8"})
        SigV4Auth(Credentials(ACCESS_KEY, secret, SESSION_TOKEN), "monitoring",
                  REGION).add_auth(request)
        try:
            with urllib.request.urlopen(urllib.request.Request(
                    self.url, data=body.encode(), headers=dict(request.headers.items()),
                    method="POST"), timeout=10) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as failure:
            status, text = failure.code, failure.read().decode()
        return status, text, self.fake.next_request()

    def test_1_throttling_then_accepted(self):  # the scenario's one fault comes first
        response = self.error_of(Namespace="Runwarden", MetricData=[datum("JobSlotsBusy", 1)])
        self.assertEqual("Throttling", response["Error"]["Code"])
        self.assertEqual(400, response["ResponseMetadata"]["HTTPStatusCode"])
        self.client.put_metric_data(Namespace="Runwarden", MetricData=[
            datum("JobSlotsBusy", 1), datum("JobSlotsTotal", 4)])
        request = self.fake.next_request()
        self.assertEqual((200, "valid"), (request["status"], request["signature"]))
        self.assertEqual([("JobSlotsBusy", 1.0), ("JobSlotsTotal", 4.0)],
                         [(d["name"], d["value"]) for d in request["datums"]])
        self.assertEqual({"AutoScalingGroupName": "runners"}, request["datums"][0]["dimensions"])
        self.assertEqual(1, request["datums"][0]["resolution"])

    def test_reference_rules_answer_invalid_parameter_value(self):
        for call in ({"Namespace": "AWS/EC2", "MetricData": [datum("x", 1)]},
                     {"Namespace": "Runwarden",
                      "MetricData": [datum("x", 1, StorageResolution=5)]},
                     {"Namespace": "Runwarden", "MetricData": [datum(
                         "x", 1, Timestamp=datetime.datetime(2001, 1, 1))]}):
            response = self.error_of(**call)
            self.assertEqual("InvalidParameterValue", response["Error"]["Code"], call)

    def test_value_and_values_together_are_a_bad_combination(self):
        response = self.error_of(Namespace="Runwarden",
                                 MetricData=[datum("x", 1, Values=[1.0, 2.0])])
        self.assertEqual("InvalidParameterCombination", response["Error"]["Code"])

    def test_the_model_is_checked_on_what_the_wire_carries(self):
        status, text, request = self.raw("Action=PutMetricData&Version=2010-08-01"
                                         "&MetricData.member.1.MetricName=x"
                                         "&MetricData.member.1.Value=1")
        self.assertEqual(400, status)
        self.assertIn("<Code>MissingParameter</Code>", text)
        self.assertEqual("valid", request["signature"])
        status, text, _ = self.raw("Action=PutMetricData&Version=2010-08-01&Namespace=N"
                                   "&MetricData.member.1.MetricName=x"
                                   "&MetricData.member.1.Value=lots")
        self.assertEqual(400, status)
        self.assertIn("<Code>InvalidParameterValue</Code>", text)

    def test_a_wrong_signature_is_refused(self):
        status, text, request = self.raw("Action=PutMetricData&Version=2010-08-01&Namespace=N"
                                         "&MetricData.member.1.MetricName=x"
                                         "&MetricData.member.1.Value=1", secret="wrong")
        self.assertEqual(403, status)
        self.assertIn("<Code>SignatureDoesNotMatch</Code>", text)
        self.assertEqual("bad", request["signature"])

    def test_other_actions_are_unknown(self):
        with self.assertRaises(botocore.exceptions.ClientError) as caught:
            self.client.list_metrics()
        self.fake.next_request()
        self.assertEqual("InvalidAction", caught.exception.response["Error"]["Code"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
