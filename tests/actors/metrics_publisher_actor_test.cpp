// The metrics publisher in virtual time against scripted clients: an Auto Scaling client that
// knows this instance and its group, and a CloudWatch client that answers each PutMetricData
// from a queue (accepted, a failure, or no answer at all). A fake warden records the
// subscription; the tests push snapshots as the warden would and move the clock by whole
// intervals. They check what each point carries (busy, total, the group's dimension), that
// nothing is sent while the jobs are unknown or once the runner is gone, that a draining
// runner offers only its busy slots, and that every point is counted once by its outcome:
// sent, throttled, rejected, and overlapped while a call hangs.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>

#include "actors/metrics_publisher/metrics_publisher_actor.hpp"
#include "messages/warden_messages.hpp"
// after warden_messages.hpp (see src/scaling/scaling_machine.hpp)
#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

struct publish_script {
  std::vector<autoscaling_call> calls;                     // PutMetricData only
  std::deque<std::optional<autoscaling_failure>> answers;  // empty: accept; nullopt: accept
  bool hang = false;
  std::vector<caf::typed_response_promise<autoscaling_outcome>> held;
  std::map<publish_outcome, std::uint64_t> counted;
  caf::actor_addr subscriber;
  std::string parameter(std::size_t call, const std::string& name) const {
    for (const auto& [key, value] : calls.at(call).parameters)
      if (key == name) return value;
    return "<absent>";
  }
};

autoscaling_client_actor::behavior_type group_client(autoscaling_client_actor::pointer,
                                                     std::shared_ptr<publish_script>) {
  return {
      [](autoscaling_call_atom, const autoscaling_call& call,
         std::chrono::milliseconds) -> autoscaling_outcome {
        REQUIRE(call.action == "DescribeAutoScalingInstances");
        return {call.action,
                true,
                "<DescribeAutoScalingInstancesResponse><DescribeAutoScalingInstancesResult>"
                "<AutoScalingInstances><member><InstanceId>i-self</InstanceId>"
                "<AutoScalingGroupName>ci runners</AutoScalingGroupName>"
                "<AvailabilityZone>eu-west-1a</AvailabilityZone><LifecycleState>InService"
                "</LifecycleState><HealthStatus>HEALTHY</HealthStatus><ProtectedFromScaleIn>"
                "false</ProtectedFromScaleIn></member></AutoScalingInstances>"
                "</DescribeAutoScalingInstancesResult></DescribeAutoScalingInstancesResponse>",
                {},
                1};
      },
      [](identity_atom) -> caf::result<instance_identity> {
        return instance_identity{"i-self", "eu-west-1", "123456789012"};
      },
  };
}

autoscaling_client_actor::behavior_type cloudwatch_client(autoscaling_client_actor::pointer self,
                                                          std::shared_ptr<publish_script> script) {
  return {
      [=](autoscaling_call_atom, const autoscaling_call& call,
          std::chrono::milliseconds) -> caf::result<autoscaling_outcome> {
        script->calls.push_back(call);
        if (script->hang) {
          script->held.push_back(self->make_response_promise<autoscaling_outcome>());
          return script->held.back();
        }
        autoscaling_outcome outcome{call.action, true, "<PutMetricDataResponse/>", {}, 1};
        if (!script->answers.empty()) {
          if (script->answers.front()) {
            outcome.succeeded = false;
            outcome.failure = *script->answers.front();
          }
          script->answers.pop_front();
        }
        return outcome;
      },
      [](identity_atom) -> caf::result<instance_identity> {
        return caf::make_error(caf::sec::runtime_error, "not asked");
      },
  };
}

// Spawned with an argument: CAF 0.17.6 trips UBSan on actors spawned without one.
status_source_actor::behavior_type warden_stub(status_source_actor::pointer,
                                               std::shared_ptr<publish_script> script) {
  return {[=](subscribe_atom, const status_subscriber_actor& subscriber) {
    script->subscriber = subscriber.address();
  }};
}

class publisher_fixture : public runwarden::testing::deterministic_fixture {
 public:
  publisher_fixture() {
    auto recorder = script;
    publisher = spawn(metrics_publisher_behavior,
                      metrics_publisher_wiring{
                          .metric_namespace = "Runwarden",
                          .interval = 10s,
                          .capacity = 4,
                          .autoscaling_client = spawn(group_client, script),
                          .cloudwatch_client = spawn(cloudwatch_client, script),
                          .warden = spawn(warden_stub, script),
                          .wall_clock = [] { return std::chrono::system_clock::time_point{}; },
                          .observer =
                              [recorder](publish_outcome outcome, std::uint64_t points) {
                                recorder->counted[outcome] += points;
                              }});
    run();
    REQUIRE(script->subscriber == publisher.address());
  }
  void jobs(std::optional<std::uint32_t> running, warden_status status = warden_status::running) {
    warden_snapshot snapshot;
    snapshot.status = status;
    snapshot.jobs_running = running;
    caf::anon_send(publisher, snapshot);
    run();
  }
  std::string busy_total(std::size_t call) const {
    return script->parameter(call, "MetricData.member.1.Value") + "/" +
           script->parameter(call, "MetricData.member.2.Value");
  }

  std::shared_ptr<publish_script> script = std::make_shared<publish_script>();
  metrics_publisher_implementation publisher;
};

autoscaling_failure failure(autoscaling_failure_kind kind, const std::string& code) {
  return {kind, code, "PutMetricData failed: " + code};
}

}  // namespace

TEST_CASE_METHOD(publisher_fixture, "every interval one PutMetricData with busy and total",
                 "[cloudwatch]") {
  jobs(std::nullopt);
  advance(10s);
  CHECK(script->calls.empty());  // an unknown count is never published as zero
  jobs(3);
  advance(10s);
  REQUIRE(script->calls.size() == 1);
  CHECK(busy_total(0) == "3/4");
  CHECK(script->parameter(0, "Namespace") == "Runwarden");
  CHECK(script->parameter(0, "MetricData.member.2.MetricName") == "JobSlotsTotal");
  CHECK(script->parameter(0, "MetricData.member.1.Dimensions.member.1.Name") ==
        "AutoScalingGroupName");
  CHECK(script->parameter(0, "MetricData.member.1.Dimensions.member.1.Value") == "ci runners");
  CHECK(script->parameter(0, "MetricData.member.1.StorageResolution") == "1");
  CHECK(script->calls[0].iam_prefix == "cloudwatch");
  jobs(2, warden_status::shutting_down);
  advance(10s);
  CHECK(busy_total(1) == "2/2");  // a draining runner has no free slot
  jobs(0, warden_status::gone);
  advance(30s);
  CHECK(script->calls.size() == 2);  // gone: nothing more
  CHECK(script->counted[publish_outcome::sent] == 4);
}

TEST_CASE_METHOD(publisher_fixture, "a point that fails is dropped and counted by outcome",
                 "[cloudwatch]") {
  script->answers = {failure(autoscaling_failure_kind::retry_with_backoff, "Throttling"),
                     failure(autoscaling_failure_kind::failed, "InvalidParameterValue"),
                     failure(autoscaling_failure_kind::retry_with_backoff, "InternalServiceError"),
                     std::nullopt};
  jobs(1);
  for (int tick = 0; tick < 4; ++tick) advance(10s);
  CHECK(script->calls.size() == 4);
  CHECK(script->counted[publish_outcome::throttled] == 2);
  CHECK(script->counted[publish_outcome::rejected] == 2);
  CHECK(script->counted[publish_outcome::failed] == 2);
  CHECK(script->counted[publish_outcome::sent] == 2);
}

TEST_CASE_METHOD(publisher_fixture, "while a call hangs, later points are dropped unsent",
                 "[cloudwatch]") {
  script->hang = true;
  jobs(1);
  advance(10s);
  advance(10s);
  advance(10s);
  CHECK(script->calls.size() == 1);
  CHECK(script->counted[publish_outcome::overlapped] == 4);
  // The client's answer never comes: past the budget and its margin (at 35 s) the point is
  // given up, and the next tick's goes out.
  advance(10s);
  CHECK(script->counted[publish_outcome::failed] == 2);
  CHECK(script->calls.size() == 2);
}
