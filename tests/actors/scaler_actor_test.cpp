// The scaler in virtual time against a scripted Auto Scaling client. The script plays a
// small group (min, max, desired, members) and answers each call the way the real client
// would reply: Describe* with XML bodies built from the group, the changing calls by
// changing the group, and, when a failure is queued for an action, that failure instead.
// Every call is written down with its virtual time and parameters. A fake warden records
// the subscription; the tests then push snapshots as the warden would. The tests check
// which calls go out and when (the group read fresh before each decision, retries after
// throttling, ScalingActivityInProgress and ResourceContention, no retry storm after
// AccessDenied), that an idle instance gives itself up once and never while a drain runs,
// and that protection is toggled once per busy period.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>

#include "actors/scaler/scaler_actor.hpp"
#include "messages/warden_messages.hpp"
// after warden_messages.hpp (see src/scaling/scaling_machine.hpp)
#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr auto self_id = "i-self";

struct recorded_call {
  caf::timespan at;
  autoscaling_call call;
  std::string parameter(const std::string& name) const {
    for (const auto& [key, value] : call.parameters)
      if (key == name) return value;
    return "<absent>";
  }
};

struct group_script {
  caf::actor_clock::time_point start;
  int min = 1;
  int max = 10;
  int desired = 3;
  std::map<std::string, std::string> states{
      {self_id, "InService"}, {"i-other-1", "InService"}, {"i-other-2", "InService"}};
  std::map<std::string, bool> protected_instances;
  std::map<std::string, std::deque<autoscaling_failure>> failures;  // by action
  std::map<std::string, int> answers_lost;                          // by action
  std::vector<caf::response_promise> never_delivered;  // kept, so that no error answers them
  int identity_failures_left = 0;
  caf::actor_addr subscriber;  // what the warden stub was asked to feed (weak: no cycle)
  std::vector<recorded_call> calls;
  std::map<scaling_decision_kind, int> decided;
  std::map<autoscaling_failure_kind, int> failed;

  void fail(const std::string& action, autoscaling_failure_kind kind, const std::string& code,
            std::size_t times = 1) {
    for (std::size_t i = 0; i < times; ++i)
      failures[action].push_back({kind, code, action + ": " + code});
  }
  std::vector<recorded_call> calls_of(const std::string& action) const {
    std::vector<recorded_call> result;
    for (const auto& recorded : calls)
      if (recorded.call.action == action) result.push_back(recorded);
    return result;
  }
  std::string groups_body() const {
    std::string members;
    for (const auto& [id, state] : states) {
      const bool is_protected = protected_instances.count(id) && protected_instances.at(id);
      members += "<member><InstanceId>" + id + "</InstanceId><LifecycleState>" + state +
                 "</LifecycleState><HealthStatus>Healthy</HealthStatus><ProtectedFromScaleIn>" +
                 (is_protected ? "true" : "false") + "</ProtectedFromScaleIn></member>";
    }
    return "<DescribeAutoScalingGroupsResponse><DescribeAutoScalingGroupsResult>"
           "<AutoScalingGroups><member><AutoScalingGroupName>runners</AutoScalingGroupName>"
           "<MinSize>" +
           std::to_string(min) + "</MinSize><MaxSize>" + std::to_string(max) +
           "</MaxSize><DesiredCapacity>" + std::to_string(desired) +
           "</DesiredCapacity><Instances>" + members +
           "</Instances></member></AutoScalingGroups></DescribeAutoScalingGroupsResult>"
           "</DescribeAutoScalingGroupsResponse>";
  }
  static std::string instances_body() {
    return std::string{
               "<DescribeAutoScalingInstancesResponse><DescribeAutoScalingInstancesResult>"
               "<AutoScalingInstances><member><InstanceId>"} +
           self_id +
           "</InstanceId><AutoScalingGroupName>runners</AutoScalingGroupName>"
           "<AvailabilityZone>eu-west-1a</AvailabilityZone><LifecycleState>InService"
           "</LifecycleState><HealthStatus>HEALTHY</HealthStatus><ProtectedFromScaleIn>false"
           "</ProtectedFromScaleIn></member></AutoScalingInstances>"
           "</DescribeAutoScalingInstancesResult></DescribeAutoScalingInstancesResponse>";
  }
  // What the group does when a changing call succeeds.
  std::string apply(const recorded_call& recorded) {
    const auto& action = recorded.call.action;
    if (action == "DescribeAutoScalingInstances") return instances_body();
    if (action == "DescribeAutoScalingGroups") return groups_body();
    if (action == "SetDesiredCapacity") desired = std::stoi(recorded.parameter("DesiredCapacity"));
    if (action == "TerminateInstanceInAutoScalingGroup") {
      states[recorded.parameter("InstanceId")] = "Terminating:Wait";
      --desired;
    }
    if (action == "SetInstanceProtection")
      protected_instances[recorded.parameter("InstanceIds.member.1")] =
          recorded.parameter("ProtectedFromScaleIn") == "true";
    return "<" + action + "Response/>";
  }
};

autoscaling_client_actor::behavior_type scripted_client(autoscaling_client_actor::pointer self,
                                                        std::shared_ptr<group_script> script) {
  return {
      [=](autoscaling_call_atom, const autoscaling_call& call,
          std::chrono::milliseconds) -> caf::result<autoscaling_outcome> {
        script->calls.push_back({self->clock().now() - script->start, call});
        if (script->answers_lost[call.action] > 0) {
          --script->answers_lost[call.action];
          script->never_delivered.push_back(self->make_response_promise());
          return script->never_delivered.back();
        }
        auto& queued = script->failures[call.action];
        autoscaling_outcome outcome{
            .action = call.action, .succeeded = false, .body = {}, .failure = {}, .attempts = 1};
        if (!queued.empty()) {
          outcome.failure = queued.front();
          queued.pop_front();
          return outcome;
        }
        outcome.succeeded = true;
        outcome.body = script->apply(script->calls.back());
        return outcome;
      },
      [=](identity_atom) -> caf::result<instance_identity> {
        if (script->identity_failures_left > 0) {
          --script->identity_failures_left;
          return caf::make_error(caf::sec::runtime_error, "the metadata service is down");
        }
        return instance_identity{self_id, "eu-west-1", "123456789012"};
      },
  };
}

// Spawned with an argument: CAF 0.17.6 trips UBSan on actors spawned without one (shared
// notes, pitfall 11).
status_source_actor::behavior_type warden_stub(status_source_actor::pointer,
                                               std::shared_ptr<group_script> script) {
  return {[=](subscribe_atom, const status_subscriber_actor& subscriber) {
    script->subscriber = subscriber.address();
  }};
}

scaling_policy test_policy() {
  scaling_policy policy;
  policy.capacity = 2;
  policy.window = 60s;
  policy.dip_tolerance = 10s;
  policy.idle_threshold = 600s;
  policy.cooldown = 300s;
  policy.jitter = 0s;
  policy.protect_while_busy = false;
  policy.protection_release = 60s;
  policy.protection_interval_min = 30s;
  policy.retry_initial = 10s;
  policy.retry_max = 300s;
  return policy;
}

class scaler_fixture : public runwarden::testing::deterministic_fixture {
 public:
  void start(scaling_policy policy = test_policy()) {
    script->start = system().clock().now();
    client = spawn(scripted_client, script);
    warden = spawn(warden_stub, script);
    auto recorder = script;
    scaler = spawn(
        scaler_behavior,
        scaler_wiring{
            .policy = policy,
            .random_seed = 7,
            .autoscaling_client = client,
            .warden = warden,
            .call_budget = 20s,
            .observer = {
                .decided = [recorder](scaling_decision_kind kind) { ++recorder->decided[kind]; },
                .call_failed = [recorder](
                                   scaling_call,
                                   autoscaling_failure_kind kind) { ++recorder->failed[kind]; }}});
    run();
    REQUIRE(script->subscriber == scaler.address());
  }
  void jobs(std::optional<std::uint32_t> running, warden_status status = warden_status::running) {
    warden_snapshot snapshot;
    snapshot.status = status;
    snapshot.jobs_running = running;
    caf::anon_send(scaler, snapshot);
    run();
  }
  std::vector<std::string> called() const {
    std::vector<std::string> result;
    for (const auto& recorded : script->calls) result.push_back(recorded.call.action);
    return result;
  }

  std::shared_ptr<group_script> script = std::make_shared<group_script>();
  autoscaling_client_actor client;
  status_source_actor warden;
  scaler_implementation scaler;
};

using lines = std::vector<std::string>;

}  // namespace

TEST_CASE_METHOD(scaler_fixture, "a saturated window reads the group fresh and adds one step",
                 "[scaler]") {
  start();
  jobs(2);
  advance(59s);
  CHECK(script->calls.empty());
  advance(1s);
  CHECK(called() ==
        lines{"DescribeAutoScalingInstances", "DescribeAutoScalingGroups", "SetDesiredCapacity"});
  const auto set = script->calls_of("SetDesiredCapacity").front();
  CHECK(set.at == 60s);
  CHECK(set.parameter("AutoScalingGroupName") == "runners");
  CHECK(set.parameter("DesiredCapacity") == "4");
  CHECK(set.parameter("HonorCooldown") == "true");
  CHECK(script->decided[scaling_decision_kind::scale_up] == 1);
  // Still saturated: the group is read again only after the cooldown, and its instance is
  // found once. The instance added meanwhile is in service by then.
  script->states["i-new"] = "InService";
  advance(299s);
  CHECK(script->calls.size() == 3);
  advance(1s);
  CHECK(called() == lines{"DescribeAutoScalingInstances", "DescribeAutoScalingGroups",
                          "SetDesiredCapacity", "DescribeAutoScalingGroups", "SetDesiredCapacity"});
  CHECK(script->calls.back().parameter("DesiredCapacity") == "5");
}

TEST_CASE_METHOD(scaler_fixture, "throttling is reported and retried with backoff", "[scaler]") {
  start();
  script->fail("SetDesiredCapacity", autoscaling_failure_kind::retry_with_backoff, "Throttling");
  jobs(2);
  advance(60s);
  CHECK(script->failed[autoscaling_failure_kind::retry_with_backoff] == 1);
  CHECK(script->calls_of("SetDesiredCapacity").size() == 1);
  CHECK(script->desired == 3);
  advance(10s);  // the first wait: 10s, shortened by at most a quarter
  const auto sets = script->calls_of("SetDesiredCapacity");
  REQUIRE(sets.size() == 2);
  CHECK(sets[1].at > 67s);
  CHECK(sets[1].at <= 70s);
  CHECK(script->desired == 4);
}

// A client that never answers (its actor wedged, its answer lost) is a transient failure like
// throttling: counted as one and retried, not counted as a refusal.
TEST_CASE_METHOD(scaler_fixture, "a lost answer is counted as transient and retried", "[scaler]") {
  start();
  script->answers_lost["SetDesiredCapacity"] = 1;
  jobs(2);
  advance(60s);
  REQUIRE(script->calls_of("SetDesiredCapacity").size() == 1);
  advance(60s);  // the call budget (20 s) and the client's margin (30 s) run out
  CHECK(script->failed[autoscaling_failure_kind::retry_with_backoff] == 1);
  CHECK(script->failed[autoscaling_failure_kind::failed] == 0);
  for (int i = 0; i < 30 && script->desired == 3; ++i) advance(1s);
  CHECK(script->calls_of("SetDesiredCapacity").size() == 2);
  CHECK(script->desired == 4);
  script->never_delivered.clear();  // each holds the client, which holds the script
}

TEST_CASE_METHOD(scaler_fixture, "ScalingActivityInProgress is retried later, not dropped",
                 "[scaler]") {
  start();
  script->fail("SetDesiredCapacity", autoscaling_failure_kind::retry_later,
               "ScalingActivityInProgress", 2);
  jobs(2);
  advance(60s);
  advance(10s);
  CHECK(script->calls_of("SetDesiredCapacity").size() == 2);
  CHECK(script->failed[autoscaling_failure_kind::retry_later] == 2);
  advance(20s);  // the second wait: 20s, shortened by at most a quarter
  CHECK(script->calls_of("SetDesiredCapacity").size() == 3);
  CHECK(script->desired == 4);
}

TEST_CASE_METHOD(scaler_fixture, "ResourceContention on protection is retried", "[scaler]") {
  auto policy = test_policy();
  policy.protect_while_busy = true;
  start(policy);
  script->fail("SetInstanceProtection", autoscaling_failure_kind::retry_with_backoff,
               "ResourceContention");
  jobs(1);
  CHECK(script->calls_of("SetInstanceProtection").size() == 1);
  CHECK(script->failed[autoscaling_failure_kind::retry_with_backoff] == 1);
  CHECK_FALSE(script->protected_instances[self_id]);
  advance(10s);
  CHECK(script->calls_of("SetInstanceProtection").size() == 2);
  CHECK(script->protected_instances[self_id]);
}

TEST_CASE_METHOD(scaler_fixture, "AccessDenied is reported and not hammered", "[scaler]") {
  start();
  script->fail("DescribeAutoScalingGroups", autoscaling_failure_kind::access_denied,
               "AccessDenied");
  jobs(2);
  advance(60s);
  CHECK(script->failed[autoscaling_failure_kind::access_denied] == 1);
  CHECK(script->calls_of("SetDesiredCapacity").empty());
  advance(299s);
  CHECK(script->calls_of("DescribeAutoScalingGroups").size() == 1);
  advance(1s);  // retry_max later: perhaps the policy was fixed
  CHECK(script->calls_of("SetDesiredCapacity").size() == 1);
}

TEST_CASE_METHOD(scaler_fixture, "an idle instance gives itself up once, decrementing desired",
                 "[scaler]") {
  start();
  jobs(0);
  advance(599s);
  CHECK(script->calls.empty());
  advance(1s);
  const auto terminations = script->calls_of("TerminateInstanceInAutoScalingGroup");
  REQUIRE(terminations.size() == 1);
  CHECK(terminations[0].parameter("InstanceId") == self_id);
  CHECK(terminations[0].parameter("ShouldDecrementDesiredCapacity") == "true");
  CHECK(script->decided[scaling_decision_kind::scale_in_self] == 1);
  jobs(2);
  advance(24h);
  CHECK(script->calls.size() == 3);  // nothing more after giving itself up
}

TEST_CASE_METHOD(scaler_fixture, "one instance at a time: another terminating makes it hold",
                 "[scaler]") {
  start();
  script->states["i-other-1"] = "Terminating:Wait";
  jobs(0);
  advance(600s);
  CHECK(script->calls_of("TerminateInstanceInAutoScalingGroup").empty());
  CHECK(script->decided[scaling_decision_kind::hold] == 1);
  script->states.erase("i-other-1");
  script->desired = 2;
  advance(300s);
  CHECK(script->calls_of("TerminateInstanceInAutoScalingGroup").size() == 1);
}

TEST_CASE_METHOD(scaler_fixture, "no scale-in once a drain has begun", "[scaler]") {
  SECTION("drain before the threshold") {
    start();
    jobs(0);
    advance(300s);
    jobs(0, warden_status::shutting_down);
    advance(24h);
    CHECK(script->calls.empty());
  }
  SECTION("drain while the group is being read") {
    start();
    script->fail("DescribeAutoScalingGroups", autoscaling_failure_kind::retry_with_backoff,
                 "Throttling");
    jobs(0);
    advance(600s);
    jobs(0, warden_status::shutting_down);
    advance(24h);
    CHECK(script->calls_of("DescribeAutoScalingGroups").size() == 1);
    CHECK(script->calls_of("TerminateInstanceInAutoScalingGroup").empty());
  }
}

TEST_CASE_METHOD(scaler_fixture, "protection is toggled once per busy period", "[scaler]") {
  auto policy = test_policy();
  policy.protect_while_busy = true;
  start(policy);
  jobs(0);
  advance(5s);
  jobs(1);
  advance(5s);
  jobs(2);
  advance(5s);
  jobs(0);
  advance(20s);
  jobs(1);  // back within protection_release: the same busy period
  advance(5s);
  jobs(0);
  advance(59s);
  CHECK(script->calls_of("SetInstanceProtection").size() == 1);
  advance(1s);
  const auto calls = script->calls_of("SetInstanceProtection");
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].at == 5s);
  CHECK(calls[0].parameter("ProtectedFromScaleIn") == "true");
  CHECK(calls[0].parameter("AutoScalingGroupName") == "runners");
  CHECK(calls[1].at == 100s);
  CHECK(calls[1].parameter("ProtectedFromScaleIn") == "false");
  CHECK(script->decided[scaling_decision_kind::protect] == 1);
  CHECK(script->decided[scaling_decision_kind::unprotect] == 1);
  CHECK_FALSE(script->protected_instances[self_id]);
}

TEST_CASE_METHOD(scaler_fixture, "without its identity the scaler waits, then takes the load",
                 "[scaler]") {
  script->identity_failures_left = 1;
  start();
  jobs(2);  // kept until the identity is known
  advance(9s);
  CHECK(script->calls.empty());
  advance(1s);  // the identity asked again after retry_initial; saturated from now on
  advance(59s);
  CHECK(script->calls.empty());
  advance(1s);
  const auto sets = script->calls_of("SetDesiredCapacity");
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].at == 70s);
}
