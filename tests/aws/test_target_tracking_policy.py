#!/usr/bin/python3
"""config/aws/target-tracking-policy.json, the documented target-tracking policy on the job
slots runwarden publishes, checked with botocore's own model (Debian's python3-botocore):

- it is a valid input of Auto Scaling's PutScalingPolicy (botocore's ParamValidator against
  the operation's input shape), and botocore's query serializer can send it;
- its metric math is what runwarden publishes: the namespace and metric names of
  config/runwarden.toml's publish_namespace and of actors/metrics_publisher (JobSlotsBusy,
  JobSlotsTotal), the dimension AutoScalingGroupName naming the policy's own group, summed
  (Sum) over the group, one expression returned, and a warm-up set;
- config/runwarden.toml lists the IAM permission publishing needs, cloudwatch:PutMetricData.

Run with Debian's python: /usr/bin/python3 tests/aws/test_target_tracking_policy.py
"""

import json
import os
import re
import unittest

import botocore.session
from botocore.serialize import create_serializer
from botocore.validate import ParamValidator

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
POLICY = os.path.join(ROOT, "config", "aws", "target-tracking-policy.json")
CONFIG = os.path.join(ROOT, "config", "runwarden.toml")
PUBLISHER = os.path.join(ROOT, "actors", "metrics_publisher", "metrics_publisher_actor.hpp")


def published_names():
    """The metric and dimension names as the publisher's header spells them."""
    with open(PUBLISHER) as header:
        text = header.read()
    return dict(re.findall(r'constexpr std::string_view (\w+) = "([^"]+)";', text))


class TargetTrackingPolicyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(POLICY) as policy:
            cls.policy = json.load(policy)
        cls.model = botocore.session.get_session().get_service_model("autoscaling")
        cls.operation = cls.model.operation_model("PutScalingPolicy")

    def test_botocore_accepts_it_as_put_scaling_policy_input(self):
        report = ParamValidator().validate(self.policy, self.operation.input_shape)
        self.assertFalse(report.has_errors(), report.generate_report())
        body = create_serializer("query").serialize_to_request(self.policy,
                                                               self.operation)["body"]
        self.assertEqual("PutScalingPolicy", body["Action"])
        self.assertEqual("100 * busy / total", body[
            "TargetTrackingConfiguration.CustomizedMetricSpecification.Metrics.member.3."
            "Expression"])

    def test_the_validator_would_catch_a_broken_policy(self):
        broken = json.loads(json.dumps(self.policy))
        config = broken["TargetTrackingConfiguration"]
        del config["CustomizedMetricSpecification"]["Metrics"][0]["Id"]
        config["TargetValue"] = "seventy"
        report = ParamValidator().validate(broken, self.operation.input_shape)
        self.assertIn("Missing required parameter", report.generate_report())
        self.assertIn("Invalid type for parameter TargetTrackingConfiguration.TargetValue",
                      report.generate_report())

    def test_it_is_target_tracking_with_a_warm_up(self):
        self.assertEqual("TargetTrackingScaling", self.policy["PolicyType"])
        self.assertGreater(self.policy["EstimatedInstanceWarmup"], 0)
        target = self.policy["TargetTrackingConfiguration"]["TargetValue"]
        self.assertTrue(0 < target < 100, "a utilisation in percent")

    def test_its_metrics_are_the_published_ones_summed_over_its_group(self):
        names = published_names()
        with open(CONFIG) as config:
            namespace = re.search(r'^publish_namespace = "([^"]+)"', config.read(), re.M)[1]
        metrics = self.policy["TargetTrackingConfiguration"]["CustomizedMetricSpecification"][
            "Metrics"]
        stats = {m["Id"]: m["MetricStat"] for m in metrics if "MetricStat" in m}
        expected = {"busy": names["job_slots_busy_metric"],
                    "total": names["job_slots_total_metric"]}
        for metric_id, metric_name in expected.items():
            metric = stats[metric_id]["Metric"]
            self.assertEqual((namespace, metric_name), (metric["Namespace"],
                                                        metric["MetricName"]))
            self.assertEqual([{"Name": names["group_dimension"],
                               "Value": self.policy["AutoScalingGroupName"]}],
                             metric["Dimensions"])
            self.assertEqual("Sum", stats[metric_id]["Stat"])
        returned = [m for m in metrics if m.get("ReturnData", True)]
        self.assertEqual(1, len(returned), "target tracking takes exactly one series")
        self.assertEqual({"busy", "total"},
                         set(re.findall(r"[a-z]\w*", returned[0]["Expression"])))

    def test_the_config_lists_the_permission(self):
        with open(CONFIG) as config:
            self.assertIn("cloudwatch:PutMetricData", config.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
