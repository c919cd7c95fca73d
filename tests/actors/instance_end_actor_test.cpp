// The instance end in virtual time against a scripted Auto Scaling client: which calls a
// retirement makes, in order, with which parameters. The script answers Describe* with XML
// bodies, the changing calls with an empty answer, and a queued failure instead when one is
// queued for the action. An asker actor sends the one request and keeps the answer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>

#include "actors/instance_end/instance_end_actor.hpp"
#include "messages/lifecycle_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr auto self_id = "i-self";

struct end_script {
  std::vector<autoscaling_call> calls;
  std::map<std::string, std::deque<autoscaling_failure>> failures;  // by action
  std::optional<instance_end_outcome> outcome;
  std::uint32_t identity_failures = 0;  // IMDS reads that fail before one succeeds
  std::uint32_t identity_reads = 0;

  std::string parameter(std::size_t index, const std::string& name) const {
    for (const auto& [key, value] : calls.at(index).parameters)
      if (key == name) return value;
    return "<absent>";
  }
  std::vector<std::string> actions() const {
    std::vector<std::string> result;
    for (const auto& call : calls) result.push_back(call.action);
    return result;
  }
  static std::string answer(const std::string& action) {
    if (action == "DescribeAutoScalingInstances")
      return std::string{
                 "<DescribeAutoScalingInstancesResponse><DescribeAutoScalingInstancesResult>"
                 "<AutoScalingInstances><member><InstanceId>"} +
             self_id +
             "</InstanceId><AutoScalingGroupName>runners</AutoScalingGroupName>"
             "<AvailabilityZone>eu-west-1a</AvailabilityZone><LifecycleState>Terminating:Wait"
             "</LifecycleState><HealthStatus>HEALTHY</HealthStatus><ProtectedFromScaleIn>"
             "false</ProtectedFromScaleIn></member></AutoScalingInstances>"
             "</DescribeAutoScalingInstancesResult></DescribeAutoScalingInstancesResponse>";
    if (action == "DescribeLifecycleHooks")
      return "<DescribeLifecycleHooksResponse><DescribeLifecycleHooksResult><LifecycleHooks>"
             "<member><LifecycleHookName>drain</LifecycleHookName><AutoScalingGroupName>"
             "runners</AutoScalingGroupName><LifecycleTransition>"
             "autoscaling:EC2_INSTANCE_TERMINATING</LifecycleTransition><HeartbeatTimeout>300"
             "</HeartbeatTimeout><GlobalTimeout>30000</GlobalTimeout><DefaultResult>ABANDON"
             "</DefaultResult></member><member><LifecycleHookName>warm</LifecycleHookName>"
             "<AutoScalingGroupName>runners</AutoScalingGroupName><LifecycleTransition>"
             "autoscaling:EC2_INSTANCE_LAUNCHING</LifecycleTransition><HeartbeatTimeout>300"
             "</HeartbeatTimeout><GlobalTimeout>30000</GlobalTimeout><DefaultResult>ABANDON"
             "</DefaultResult></member></LifecycleHooks></DescribeLifecycleHooksResult>"
             "</DescribeLifecycleHooksResponse>";
    return "<" + action + "Response/>";
  }
};

autoscaling_client_actor::behavior_type scripted_client(autoscaling_client_actor::pointer,
                                                        std::shared_ptr<end_script> script) {
  return {
      [=](autoscaling_call_atom, const autoscaling_call& call,
          std::chrono::milliseconds) -> autoscaling_outcome {
        script->calls.push_back(call);
        autoscaling_outcome outcome{
            .action = call.action, .succeeded = false, .body = {}, .failure = {}, .attempts = 1};
        auto& queued = script->failures[call.action];
        if (!queued.empty()) {
          outcome.failure = queued.front();
          queued.pop_front();
          return outcome;
        }
        outcome.succeeded = true;
        outcome.body = end_script::answer(call.action);
        return outcome;
      },
      [=](identity_atom) -> caf::result<instance_identity> {
        if (++script->identity_reads <= script->identity_failures)
          return caf::make_error(caf::sec::runtime_error,
                                 "the instance identity: the IMDSv2 token: no answer");
        return instance_identity{self_id, "eu-west-1", "123456789012"};
      },
  };
}

caf::behavior asker(caf::event_based_actor* self, instance_end_actor end,
                    instance_end_request request, std::shared_ptr<end_script> script) {
  self->request(end, caf::infinite, end_instance_atom::value, request)
      .then([=](const instance_end_outcome& outcome) { script->outcome = outcome; });
  return {[](caf::ok_atom) {}};  // stays up for the answer
}

class instance_end_fixture : public runwarden::testing::deterministic_fixture {
 public:
  void ask(instance_end_request request) {
    auto client = spawn(scripted_client, script);
    auto end = spawn(instance_end_behavior,
                     instance_end_wiring{.autoscaling_client = client, .hook_wait = 2s});
    spawn(asker, instance_end_actor{end}, std::move(request), script);
    run();
  }
  std::shared_ptr<end_script> script = std::make_shared<end_script>();
};

using lines = std::vector<std::string>;

}  // namespace

TEST_CASE_METHOD(instance_end_fixture,
                 "a terminate refused at the group's minimum goes again without the decrement, "
                 "then the terminate hook is completed",
                 "[instance_end]") {
  script->failures["TerminateInstanceInAutoScalingGroup"].push_back(
      {autoscaling_failure_kind::failed, "ValidationError",
       "TerminateInstanceInAutoScalingGroup failed (HTTP 400): ValidationError: Currently, "
       "desiredSize equals minSize (1). Terminating instance without replacement will violate "
       "group's min size constraint."});
  // The hook is not there yet at the first look.
  script->failures["CompleteLifecycleAction"].push_back(
      {autoscaling_failure_kind::already_done, "ValidationError", "no active lifecycle action"});
  ask({.end = instance_end::terminate, .decrement_desired_capacity = true, .reason = "job done"});
  CHECK(script->actions() ==
        lines{"TerminateInstanceInAutoScalingGroup", "TerminateInstanceInAutoScalingGroup",
              "DescribeAutoScalingInstances", "DescribeLifecycleHooks", "CompleteLifecycleAction"});
  CHECK(script->parameter(0, "ShouldDecrementDesiredCapacity") == "true");
  CHECK(script->parameter(1, "ShouldDecrementDesiredCapacity") == "false");
  CHECK(script->parameter(1, "InstanceId") == self_id);
  CHECK_FALSE(script->outcome);  // still looking for the hook
  advance(2s);
  REQUIRE(script->calls.size() == 7);
  CHECK(script->calls[5].action == "DescribeLifecycleHooks");
  CHECK(script->parameter(6, "LifecycleHookName") == "drain");
  CHECK(script->parameter(6, "LifecycleActionResult") == "CONTINUE");
  CHECK(script->parameter(6, "InstanceId") == self_id);
  REQUIRE(script->outcome);
  CHECK(script->outcome->done);
}

TEST_CASE_METHOD(instance_end_fixture, "unhealthy is SetInstanceHealth, no grace period",
                 "[instance_end]") {
  ask({.end = instance_end::mark_unhealthy, .decrement_desired_capacity = false, .reason = "r"});
  REQUIRE_FALSE(script->calls.empty());
  CHECK(script->calls.front().action == "SetInstanceHealth");
  CHECK(script->parameter(0, "HealthStatus") == "Unhealthy");
  CHECK(script->parameter(0, "ShouldRespectGracePeriod") == "false");
  REQUIRE(script->outcome);
  CHECK(script->outcome->done);
}

TEST_CASE_METHOD(instance_end_fixture, "a refused call is the answer, without a hook",
                 "[instance_end]") {
  script->failures["TerminateInstanceInAutoScalingGroup"].push_back(
      {autoscaling_failure_kind::access_denied, "AccessDenied", "missing permission"});
  ask({.end = instance_end::terminate, .decrement_desired_capacity = false, .reason = "r"});
  CHECK(script->actions() == lines{"TerminateInstanceInAutoScalingGroup"});
  REQUIRE(script->outcome);
  CHECK_FALSE(script->outcome->done);
  CHECK(script->outcome->detail == "missing permission");
}

TEST_CASE_METHOD(instance_end_fixture,
                 "transient failures (the identity, a throttled call) are tried again, the "
                 "waits doubling, until the instance ends",
                 "[instance_end]") {
  // Found by the one-job simulation: one lost IMDS read ended runwarden with its retired
  // instance left running for good.
  script->identity_failures = 2;
  script->failures["TerminateInstanceInAutoScalingGroup"].push_back(
      {autoscaling_failure_kind::retry_with_backoff, "Throttling", "Rate exceeded"});
  ask({.end = instance_end::terminate, .decrement_desired_capacity = false, .reason = "r"});
  CHECK(script->identity_reads == 1);
  CHECK(script->calls.empty());
  advance(2s);
  CHECK(script->identity_reads == 2);
  advance(3s);
  CHECK(script->identity_reads == 2);  // the second wait is 4 s
  advance(1s);
  CHECK(script->identity_reads == 3);
  CHECK(script->actions() == lines{"TerminateInstanceInAutoScalingGroup"});
  CHECK_FALSE(script->outcome);
  advance(8s);
  CHECK(script->actions() ==
        lines{"TerminateInstanceInAutoScalingGroup", "TerminateInstanceInAutoScalingGroup",
              "DescribeAutoScalingInstances", "DescribeLifecycleHooks", "CompleteLifecycleAction"});
  REQUIRE(script->outcome);
  CHECK(script->outcome->done);
}

// Instance retention (src/aws/instance_retention.hpp): the instance end terminates a retained
// instance, as the lifecycle hooks actor once did with a retry loop of its own. Without the
// decrement whatever is asked (the group no longer counts it), and no hook is looked for (the
// group abandoned it already).
TEST_CASE_METHOD(instance_end_fixture,
                 "a retained instance is terminated without the decrement and without a hook",
                 "[instance_end]") {
  ask({.end = instance_end::terminate,
       .decrement_desired_capacity = false,
       .reason = "retained",
       .retained = true});
  CHECK(script->actions() == lines{"TerminateInstanceInAutoScalingGroup"});
  CHECK(script->parameter(0, "ShouldDecrementDesiredCapacity") == "false");
  CHECK(script->parameter(0, "InstanceId") == self_id);
  REQUIRE(script->outcome);
  CHECK(script->outcome->done);
}

TEST_CASE_METHOD(instance_end_fixture,
                 "throttled hook lookups and completions use up none of the hook's looks: the "
                 "hook is completed however long AWS throttles",
                 "[instance_end]") {
  // More throttled lookups than hook_looks_max (15): each was once counted as a look, and
  // the answer came back "done" with the hook left to time out and the instance billed.
  for (int i = 0; i < 20; ++i)
    script->failures["DescribeLifecycleHooks"].push_back(
        {autoscaling_failure_kind::retry_with_backoff, "Throttling", "Rate exceeded"});
  script->failures["CompleteLifecycleAction"].push_back(
      {autoscaling_failure_kind::retry_with_backoff, "", "HTTP 503"});
  ask({.end = instance_end::terminate, .decrement_desired_capacity = false, .reason = "r"});
  for (int second = 0; second < 3600 && !script->outcome; ++second) advance(1s);
  const auto actions = script->actions();
  CHECK(std::count(actions.begin(), actions.end(), "DescribeLifecycleHooks") == 22);
  CHECK(std::count(actions.begin(), actions.end(), "CompleteLifecycleAction") == 2);
  CHECK(actions.back() == "CompleteLifecycleAction");
  REQUIRE(script->outcome);
  CHECK(script->outcome->done);
}
