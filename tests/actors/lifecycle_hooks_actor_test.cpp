// The lifecycle hooks actor in virtual time against a scripted Auto Scaling client (the
// instance's LifecycleState per lookup, the group's hooks, failures queued per action) and
// a fake warden that records what it is told. The tests check that a cloud lifecycle
// trigger finds the one terminate hook and hands it over with its expiry, that the API
// lagging the metadata is looked at again (past the quick looks, for as long as the hook
// could wait, and no longer), that several hooks without a configured name are refused,
// that a failed heartbeat is asked again a bounded number of times, and that completion is
// asked again through throttling until AWS has it, with "no active lifecycle action"
// counted as done and a refusal reported unconfirmed.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>
#include <tuple>

#include "actors/lifecycle_hooks/launch_hook.hpp"
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "messages/warden_messages.hpp"
// after warden_messages.hpp (drain_machine.hpp before the request builders)
#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

struct hook_spec {
  std::string name;
  std::string transition;
};

struct world {
  caf::actor_clock::time_point start;
  // The group's TerminateHookAbandon (empty: no instance lifecycle policy) and the terminate
  // hooks' DefaultResult.
  std::string retain_on_abandon;
  std::string default_result = "CONTINUE";
  std::deque<std::string> instance_states{"Terminating:Wait"};  // one per lookup; last repeats
  std::vector<hook_spec> hooks{{"drain-runner", "autoscaling:EC2_INSTANCE_TERMINATING"},
                               {"warm-up", "autoscaling:EC2_INSTANCE_LAUNCHING"}};
  std::map<std::string, std::deque<autoscaling_failure_kind>> failures;  // by action
  std::vector<std::pair<caf::timespan, autoscaling_call>> calls;
  std::vector<lifecycle_action_pending> pending;
  std::vector<lifecycle_action_completed> completed;
  std::vector<lifecycle_lookup_ended> lookups_ended;
  std::vector<std::string> groups_heard;  // instance_group, as "instance in group"
  std::vector<std::string> states_heard;  // instance_group's lifecycle states, in order
  std::vector<heartbeat_outcome> heartbeats;
  std::vector<completion_result> completions;
  caf::actor_addr subscriber;

  std::size_t count(const std::string& action) const {
    std::size_t n = 0;
    for (const auto& [at, call] : calls) n += call.action == action ? 1 : 0;
    return n;
  }
};

std::string instances_body(const std::string& state) {
  return "<DescribeAutoScalingInstancesResponse><DescribeAutoScalingInstancesResult>"
         "<AutoScalingInstances><member><InstanceId>i-self</InstanceId>"
         "<AutoScalingGroupName>runners</AutoScalingGroupName>"
         "<AvailabilityZone>eu-west-1a</AvailabilityZone><LifecycleState>" +
         state +
         "</LifecycleState><HealthStatus>HEALTHY</HealthStatus>"
         "<ProtectedFromScaleIn>false</ProtectedFromScaleIn></member></AutoScalingInstances>"
         "</DescribeAutoScalingInstancesResult></DescribeAutoScalingInstancesResponse>";
}

std::string groups_body(const std::string& retain_on_abandon) {
  const std::string policy =
      retain_on_abandon.empty()
          ? ""
          : "<InstanceLifecyclePolicy><RetentionTriggers><TerminateHookAbandon>" +
                retain_on_abandon +
                "</TerminateHookAbandon></RetentionTriggers></InstanceLifecyclePolicy>";
  return "<DescribeAutoScalingGroupsResponse><DescribeAutoScalingGroupsResult>"
         "<AutoScalingGroups><member><AutoScalingGroupName>runners</AutoScalingGroupName>"
         "<MinSize>0</MinSize><MaxSize>4</MaxSize><DesiredCapacity>1</DesiredCapacity>" +
         policy +
         "</member></AutoScalingGroups></DescribeAutoScalingGroupsResult>"
         "</DescribeAutoScalingGroupsResponse>";
}

std::string hooks_body(const std::vector<hook_spec>& hooks, const std::string& default_result) {
  std::string members;
  for (const auto& hook : hooks)
    members += "<member><LifecycleHookName>" + hook.name +
               "</LifecycleHookName><AutoScalingGroupName>runners</AutoScalingGroupName>"
               "<LifecycleTransition>" +
               hook.transition +
               "</LifecycleTransition><HeartbeatTimeout>300</HeartbeatTimeout>"
               "<GlobalTimeout>3600</GlobalTimeout><DefaultResult>" +
               default_result + "</DefaultResult></member>";
  return "<DescribeLifecycleHooksResponse><DescribeLifecycleHooksResult><LifecycleHooks>" +
         members +
         "</LifecycleHooks></DescribeLifecycleHooksResult></DescribeLifecycleHooksResponse>";
}

autoscaling_client_actor::behavior_type scripted_client(autoscaling_client_actor::pointer self,
                                                        std::shared_ptr<world> script) {
  return {
      [=](autoscaling_call_atom, const autoscaling_call& call, std::chrono::milliseconds) {
        script->calls.emplace_back(self->clock().now() - script->start, call);
        auto& queued = script->failures[call.action];
        if (!queued.empty()) {
          const auto kind = queued.front();
          queued.pop_front();
          return autoscaling_outcome{
              call.action, false, {}, {kind, "Code", call.action + " failed"}, 1};
        }
        std::string body = "<ok/>";
        if (call.action == "DescribeAutoScalingInstances") {
          body = instances_body(script->instance_states.front());
          if (script->instance_states.size() > 1) script->instance_states.pop_front();
        } else if (call.action == "DescribeLifecycleHooks") {
          body = hooks_body(script->hooks, script->default_result);
        } else if (call.action == "DescribeAutoScalingGroups") {
          body = groups_body(script->retain_on_abandon);
        }
        return autoscaling_outcome{call.action, true, body, {}, 1};
      },
      [](identity_atom) {
        return instance_identity{"i-self", "eu-west-1", "123456789012"};
      },
  };
}

lifecycle_hooks_listener_actor::behavior_type fake_warden(lifecycle_hooks_listener_actor::pointer,
                                                          std::shared_ptr<world> script) {
  return {
      [=](subscribe_atom, const status_subscriber_actor& subscriber) {
        script->subscriber = subscriber.address();
      },
      [=](const lifecycle_action_pending& pending) { script->pending.push_back(pending); },
      [=](const lifecycle_action_completed& done) { script->completed.push_back(done); },
      [=](const lifecycle_lookup_ended& ended) { script->lookups_ended.push_back(ended); },
      [=](const instance_group& group) {
        script->groups_heard.push_back(group.instance_id + " in " + group.group_name);
        script->states_heard.push_back(group.lifecycle_state);
      },
  };
}

class hooks_fixture : public runwarden::testing::deterministic_fixture {
 public:
  lifecycle_hooks_implementation start(std::optional<std::string> configured = std::nullopt,
                                       bool ready_needs_metrics = true) {
    script_->start = system().clock().now();
    const auto client = spawn(scripted_client, script_);
    const auto warden = spawn(fake_warden, script_);
    auto hooks = spawn(lifecycle_hooks_behavior,
                       lifecycle_hooks_wiring{.autoscaling_client = client,
                                              .warden = warden,
                                              .hook_name = std::move(configured),
                                              .seen_late_by = 1s,
                                              .retry_initial = 1s,
                                              .retry_max = 8s,
                                              .random_seed = 3,
                                              .ready_needs_metrics = ready_needs_metrics,
                                              .launch_ready_timeout = 10min,
                                              .heartbeat_observer =
                                                  [script = script_](heartbeat_outcome outcome) {
                                                    script->heartbeats.push_back(outcome);
                                                  },
                                              .completion_observer =
                                                  [script = script_](completion_result result) {
                                                    script->completions.push_back(result);
                                                  }});
    run();
    return hooks;
  }

  void terminate(const lifecycle_hooks_implementation& hooks) {
    caf::anon_send(hooks, lifecycle_trigger{trigger_source::cloud_lifecycle, std::nullopt,
                                            "target lifecycle state Terminated"});
    run();
  }

  instant now() const {
    return std::chrono::duration_cast<instant>(
        const_cast<hooks_fixture*>(this)->system().clock().now().time_since_epoch());
  }

  std::shared_ptr<world> script_ = std::make_shared<world>();
};

}  // namespace

TEST_CASE_METHOD(hooks_fixture, "a terminate transition finds the hook, beats once, hands it over",
                 "[lifecycle_hooks]") {
  const auto hooks = start();
  CHECK(script_->subscriber == hooks.address());
  terminate(hooks);
  REQUIRE(script_->pending.size() == 1);
  const auto& action = script_->pending[0].action;
  CHECK(action.hook_name == "drain-runner");
  CHECK(action.heartbeat_timeout == 300s);
  CHECK(action.expires_at == now() - 1s + 3600s);  // counted from when it may have begun
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 1);
  CHECK(script_->heartbeats == std::vector<heartbeat_outcome>{heartbeat_outcome::recorded});
  CHECK(script_->lookups_ended.empty());
  // The group was found once (at start, for the launch hook), and the warden told so.
  CHECK(script_->groups_heard == std::vector<std::string>{"i-self in runners"});
  // A second trigger (a restarted watcher sees the level again) looks nothing up again.
  terminate(hooks);
  CHECK(script_->pending.size() == 1);
  CHECK(script_->count("DescribeAutoScalingInstances") == 2);  // one at start (launch hook)
}

// Issue 33: a group that retains an abandoned instance, with a hook that abandons at its
// timeout, lets the drain outlast the hook; any other combination, or a failed look at the
// group, keeps the hook's deadline, and the hook is handed over all the same.
TEST_CASE_METHOD(hooks_fixture, "the group's retention policy goes over with the hook",
                 "[lifecycle_hooks][retention]") {
  using combination = std::tuple<std::string, std::string, bool>;
  for (const auto& [policy, default_result, retained] :
       {combination{"retain", "ABANDON", true}, combination{"retain", "CONTINUE", false},
        combination{"terminate", "ABANDON", false}, combination{"", "ABANDON", false}}) {
    CAPTURE(policy, default_result);
    script_ = std::make_shared<world>();
    script_->retain_on_abandon = policy;
    script_->default_result = default_result;
    terminate(start());
    REQUIRE(script_->pending.size() == 1);
    CHECK(script_->pending[0].action.retained_when_abandoned == retained);
    CHECK(script_->count("DescribeAutoScalingGroups") == 1);
  }
}

TEST_CASE_METHOD(hooks_fixture, "a failed look at the group keeps the hook's deadline",
                 "[lifecycle_hooks][retention]") {
  script_->retain_on_abandon = "retain";
  script_->default_result = "ABANDON";
  script_->failures["DescribeAutoScalingGroups"] = {autoscaling_failure_kind::access_denied};
  terminate(start());
  REQUIRE(script_->pending.size() == 1);
  CHECK_FALSE(script_->pending[0].action.retained_when_abandoned);
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 1);
}

TEST_CASE_METHOD(hooks_fixture, "a rebalance recommendation looks for no hook",
                 "[lifecycle_hooks]") {
  const auto hooks = start();
  const auto calls_at_start = script_->calls.size();  // the launch hook's look
  caf::anon_send(hooks, lifecycle_trigger{trigger_source::rebalance_recommendation, std::nullopt,
                                          "rebalance"});
  run();
  CHECK(script_->calls.size() == calls_at_start);
}

TEST_CASE_METHOD(hooks_fixture,
                 "an API behind the metadata is asked again until the instance waits",
                 "[lifecycle_hooks]") {
  script_->instance_states = {"InService", "InService", "Terminating", "Terminating:Wait"};
  const auto hooks = start();
  terminate(hooks);
  CHECK(script_->pending.empty());
  advance(1s);
  CHECK(script_->pending.empty());
  advance(1s);
  REQUIRE(script_->pending.size() == 1);
  CHECK(script_->count("DescribeAutoScalingInstances") == 4);  // one at start
}

TEST_CASE_METHOD(hooks_fixture, "an instance past its hooks hands nothing over",
                 "[lifecycle_hooks]") {
  script_->instance_states = {"Terminating:Proceed"};
  const auto hooks = start();
  terminate(hooks);
  advance(60s);
  CHECK(script_->pending.empty());
  CHECK(script_->count("DescribeLifecycleHooks") == 0);
  REQUIRE(script_->lookups_ended.size() == 1);  // the drain need not wait
  CHECK(script_->lookups_ended[0].detail ==
        "the instance is Terminating:Proceed: its terminate hooks are answered or timed out");
}

TEST_CASE_METHOD(hooks_fixture, "several terminate hooks need a configured name",
                 "[lifecycle_hooks]") {
  script_->hooks.push_back({"other-tool", "autoscaling:EC2_INSTANCE_TERMINATING"});
  SECTION("none configured: none answered") {
    const auto hooks = start();
    terminate(hooks);
    CHECK(script_->pending.empty());
    CHECK(script_->lookups_ended.size() == 1);
  }
  SECTION("the configured one") {
    const auto hooks = start("other-tool");
    terminate(hooks);
    REQUIRE(script_->pending.size() == 1);
    CHECK(script_->pending[0].action.hook_name == "other-tool");
  }
}

TEST_CASE_METHOD(hooks_fixture, "lookups that fail are retried with backoff", "[lifecycle_hooks]") {
  script_->failures["DescribeLifecycleHooks"] = {autoscaling_failure_kind::retry_with_backoff,
                                                 autoscaling_failure_kind::retry_with_backoff};
  const auto hooks = start();
  terminate(hooks);
  CHECK(script_->pending.empty());
  for (int i = 0; i < 10 && script_->pending.empty(); ++i) advance(1s);
  CHECK(script_->pending.size() == 1);
  CHECK(script_->count("DescribeLifecycleHooks") == 3);
}

TEST_CASE_METHOD(hooks_fixture,
                 "a hook read that fails is retried without reading the instance again",
                 "[lifecycle_hooks]") {
  script_->instance_states = {"InService", "Terminating:Wait", "InService"};
  const auto hooks = start();
  script_->failures["DescribeLifecycleHooks"] = {autoscaling_failure_kind::retry_later,
                                                 autoscaling_failure_kind::retry_with_backoff};
  const auto instance_reads_at_start = script_->count("DescribeAutoScalingInstances");
  terminate(hooks);
  for (int i = 0; i < 10 && script_->pending.empty(); ++i) advance(1s);
  REQUIRE(script_->pending.size() == 1);
  CHECK(script_->pending.front().action.hook_name == "drain-runner");
  CHECK(script_->count("DescribeLifecycleHooks") == 3);
  // Read again, the instance would seem InService: it is not asked again.
  CHECK(script_->count("DescribeAutoScalingInstances") == instance_reads_at_start + 1);
}

TEST_CASE_METHOD(hooks_fixture, "completion is asked again through throttling until AWS has it",
                 "[lifecycle_hooks]") {
  script_->failures["CompleteLifecycleAction"] = {autoscaling_failure_kind::retry_with_backoff,
                                                  autoscaling_failure_kind::retry_with_backoff,
                                                  autoscaling_failure_kind::retry_with_backoff};
  const auto hooks = start();
  terminate(hooks);
  caf::anon_send(hooks, complete_atom::value, std::string{"drain-runner"},
                 lifecycle_result::proceed);
  run();
  CHECK(script_->completed.empty());
  for (int i = 0; i < 30 && script_->completed.empty(); ++i) advance(1s);
  REQUIRE(script_->completed.size() == 1);
  CHECK(script_->completed[0].confirmed);
  CHECK(script_->count("CompleteLifecycleAction") == 4);
  const auto& last = script_->calls.back().second;
  CHECK(last.action == "CompleteLifecycleAction");
  const auto has = [&](const std::string& key, const std::string& value) {
    for (const auto& [k, v] : last.parameters)
      if (k == key) return v == value;
    return false;
  };
  CHECK(has("LifecycleHookName", "drain-runner"));
  CHECK(has("AutoScalingGroupName", "runners"));
  CHECK(has("InstanceId", "i-self"));
  CHECK(has("LifecycleActionResult", "CONTINUE"));
}

TEST_CASE_METHOD(hooks_fixture, "how a completion ends reaches the warden", "[lifecycle_hooks]") {
  const auto [kind, confirmed, counted] = GENERATE(
      std::tuple{autoscaling_failure_kind::already_done, true, completion_result::already_done},
      std::tuple{autoscaling_failure_kind::access_denied, false, completion_result::refused},
      std::tuple{autoscaling_failure_kind::failed, false, completion_result::refused});
  script_->failures["CompleteLifecycleAction"] = {kind};
  // A restarted hooks actor asked to complete learns its instance and group first.
  const auto hooks = start();
  caf::anon_send(hooks, complete_atom::value, std::string{"drain-runner"},
                 lifecycle_result::proceed);
  run();
  REQUIRE(script_->completed.size() == 1);
  CHECK(script_->completed[0].confirmed == confirmed);
  CHECK(script_->completions == std::vector<completion_result>{counted});
  CHECK(script_->count("CompleteLifecycleAction") == 1);
  advance(5min);
  CHECK(script_->count("CompleteLifecycleAction") == 1);
}

// Instance retention (src/aws/instance_retention.hpp): a hook abandoned during the drain in a
// group that retains the instance. The heartbeat that finds no action reads the instance and
// tells the warden its state; no heartbeat is asked any more; the completion, once the runner
// is gone, finds no action either and tells the warden the instance is retained. The hooks
// actor terminates nothing itself: the instance end does, once the warden is gone (one actor
// ends instances; it once had a retry loop of its own here).
TEST_CASE_METHOD(hooks_fixture, "a retained instance is shown, then said so at the completion",
                 "[lifecycle_hooks]") {
  // At start (the launch hook's look), the terminate lookup, then after the heartbeat.
  script_->instance_states = {"InService", "Terminating:Wait", "Terminating:Retained"};
  const auto hooks = start();
  terminate(hooks);
  REQUIRE(script_->pending.size() == 1);
  script_->failures["RecordLifecycleActionHeartbeat"] = {autoscaling_failure_kind::already_done};
  caf::anon_send(hooks, heartbeat_atom::value, std::string{"drain-runner"});
  run();
  CHECK(script_->states_heard ==
        std::vector<std::string>{"InService", "Terminating:Wait", "Terminating:Retained"});
  const auto beats = script_->count("RecordLifecycleActionHeartbeat");
  caf::anon_send(hooks, heartbeat_atom::value, std::string{"drain-runner"});
  run();
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == beats);  // none is left to keep

  script_->failures["CompleteLifecycleAction"] = {autoscaling_failure_kind::already_done};
  caf::anon_send(hooks, complete_atom::value, std::string{"drain-runner"},
                 lifecycle_result::proceed);
  run();
  for (int second = 0; second < 30; ++second) advance(1s);
  REQUIRE(script_->completed.size() == 1);
  CHECK(script_->completed[0].confirmed);
  CHECK(script_->completed[0].instance_retained);
  CHECK(script_->count("TerminateInstanceInAutoScalingGroup") == 0);
}

TEST_CASE_METHOD(hooks_fixture, "an instance not retained is not terminated at the completion",
                 "[lifecycle_hooks]") {
  script_->instance_states = {"Terminating:Proceed"};
  script_->failures["CompleteLifecycleAction"] = {autoscaling_failure_kind::already_done};
  const auto hooks = start();
  caf::anon_send(hooks, complete_atom::value, std::string{"drain-runner"},
                 lifecycle_result::proceed);
  run();
  REQUIRE(script_->completed.size() == 1);
  CHECK(script_->completed[0].confirmed);
  CHECK_FALSE(script_->completed[0].instance_retained);
  CHECK(script_->count("TerminateInstanceInAutoScalingGroup") == 0);
}

TEST_CASE_METHOD(hooks_fixture, "a restarted hooks actor finds the hook from the warden's snapshot",
                 "[lifecycle_hooks]") {
  const auto hooks = start();
  warden_snapshot snapshot;
  snapshot.status = warden_status::shutting_down;
  snapshot.trigger = trigger_source::cloud_lifecycle;
  caf::anon_send(hooks, snapshot);
  run();
  REQUIRE(script_->pending.size() == 1);
  snapshot.lifecycle_hook = "drain-runner";
  caf::anon_send(hooks, snapshot);
  run();
  CHECK(script_->pending.size() == 1);
}

namespace {

warden_snapshot snapshot_of(warden_status status, std::optional<std::uint32_t> jobs) {
  warden_snapshot snapshot;
  snapshot.status = status;
  snapshot.runner_pid = 42;
  snapshot.jobs_running = jobs;
  return snapshot;
}

std::string result_of(const autoscaling_call& call) {
  for (const auto& [key, value] : call.parameters)
    if (key == "LifecycleActionResult") return value;
  return "";
}

}  // namespace

TEST_CASE_METHOD(hooks_fixture, "a launch hook is completed once the runner's metrics answer",
                 "[lifecycle_hooks][launch]") {
  script_->instance_states = {"Pending:Wait"};
  const auto hooks = start();
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 1);
  caf::anon_send(hooks, snapshot_of(warden_status::running, std::nullopt));  // no metrics yet
  run();
  CHECK(script_->count("CompleteLifecycleAction") == 0);
  advance(150s);  // half the heartbeat timeout
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 2);
  caf::anon_send(hooks, snapshot_of(warden_status::running, 0u));
  run();
  REQUIRE(script_->count("CompleteLifecycleAction") == 1);
  CHECK(result_of(script_->calls.back().second) == "CONTINUE");
  caf::anon_send(hooks, snapshot_of(warden_status::running, 2u));
  advance(20min);
  CHECK(script_->count("CompleteLifecycleAction") == 1);
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 2);
}

TEST_CASE_METHOD(hooks_fixture, "without metrics a running runner is ready",
                 "[lifecycle_hooks][launch]") {
  script_->instance_states = {"Pending:Wait"};
  const auto hooks = start(std::nullopt, false);
  caf::anon_send(hooks, snapshot_of(warden_status::running, std::nullopt));
  run();
  CHECK(script_->count("CompleteLifecycleAction") == 1);
}

TEST_CASE_METHOD(hooks_fixture, "a runner never ready, or drained first, abandons the launch",
                 "[lifecycle_hooks][launch]") {
  script_->instance_states = {"Pending:Wait"};
  const auto hooks = start();
  SECTION("not ready within the timeout") {
    caf::anon_send(hooks, snapshot_of(warden_status::starting, std::nullopt));
    advance(9min);
    CHECK(script_->count("CompleteLifecycleAction") == 0);
    advance(1min);
  }
  SECTION("a drain begins first") {
    caf::anon_send(hooks, snapshot_of(warden_status::shutting_down, std::nullopt));
    run();
  }
  REQUIRE(script_->count("CompleteLifecycleAction") == 1);
  CHECK(result_of(script_->calls.back().second) == "ABANDON");
}

TEST_CASE_METHOD(hooks_fixture, "an instance launched already answers no launch hook",
                 "[lifecycle_hooks][launch]") {
  const auto hooks = start();  // Terminating:Wait, not Pending:Wait
  caf::anon_send(hooks, snapshot_of(warden_status::running, 0u));
  advance(20min);
  CHECK(script_->count("CompleteLifecycleAction") == 0);
  CHECK(script_->count("DescribeLifecycleHooks") == 0);
}

TEST_CASE("a runner that says its own state is ready only once it says running",
          "[lifecycle_hooks][launch]") {
  // gitlab-runner (19.1.0+) says process_state "starting" while its boot-verify canary runs
  // (19.2.0+), with /metrics already answering, and "running" once /health/ready says ready
  // (commands/multi.go run(), checked at 19.4.0).
  warden_snapshot snapshot;
  snapshot.status = warden_status::running;
  snapshot.runner_pid = 100;
  snapshot.jobs_running = 0;
  CHECK(runner_ready(snapshot, true));  // a runner that says nothing: its metrics answer
  snapshot.runner_state = "starting";
  CHECK_FALSE(runner_ready(snapshot, true));
  snapshot.runner_state = "running";
  CHECK(runner_ready(snapshot, true));
  snapshot.runner_state = "graceful-shutdown";
  CHECK_FALSE(runner_ready(snapshot, false));
}

namespace {

// When the hooks actor's calls were made, in virtual time since the fixture started.
std::vector<caf::timespan> times_of(const world& script, const std::string& action) {
  std::vector<caf::timespan> times;
  for (const auto& [at, call] : script.calls)
    if (call.action == action) times.push_back(at);
  return times;
}

}  // namespace

TEST_CASE_METHOD(hooks_fixture,
                 "an API that lags past the quick looks is looked at until the hook shows",
                 "[lifecycle_hooks][lag]") {
  // One state for the launch look at start, 30 lagging looks (past the 20 quick ones), then
  // the hook: the instance must still be handed over, with no lookup_ended in between.
  script_->instance_states.assign(31, "InService");
  script_->instance_states.push_back("Terminating:Wait");
  const auto hooks = start();
  terminate(hooks);
  for (int second = 0; second < 600 && script_->pending.empty(); ++second) advance(1s);
  REQUIRE(script_->pending.size() == 1);
  CHECK(script_->pending[0].action.hook_name == "drain-runner");
  CHECK(script_->lookups_ended.empty());
  CHECK(script_->count("DescribeAutoScalingInstances") == 32);
  // Past the quick looks each look also reads the hook's heartbeat timeout, which bounds the
  // wait; the quick looks read no hooks.
  CHECK(script_->count("DescribeLifecycleHooks") == 10 + 1);
  const auto looks = times_of(*script_, "DescribeAutoScalingInstances");
  CHECK(looks[21] - looks[1] == 20s);     // the quick looks, one second apart
  CHECK(looks.back() - looks[1] < 300s);  // found inside the hook's heartbeat timeout
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 1);
  advance(20min);
  CHECK(script_->count("DescribeAutoScalingInstances") == 32);  // settled: no more looks
}

TEST_CASE_METHOD(hooks_fixture,
                 "an instance still InService past the hook's heartbeat timeout ends the look",
                 "[lifecycle_hooks][lag]") {
  script_->instance_states = {"InService"};
  const auto hooks = start();
  terminate(hooks);
  const auto started = elapsed();
  for (int second = 0; second < 900 && script_->lookups_ended.empty(); ++second) advance(1s);
  REQUIRE(script_->lookups_ended.size() == 1);
  CHECK(script_->lookups_ended[0].detail ==
        "the instance stays InService past hook drain-runner's heartbeat timeout: "
        "no hook waits");
  CHECK(script_->pending.empty());
  // Not before the hook (heartbeat timeout 300 s) could have given up, nor long after.
  CHECK(elapsed() - started >= 300s);
  CHECK(elapsed() - started < 300s + 10s);
  const auto looks = script_->count("DescribeAutoScalingInstances");
  advance(20min);
  CHECK(script_->count("DescribeAutoScalingInstances") == looks);
  CHECK(script_->count("RecordLifecycleActionHeartbeat") == 0);
}

TEST_CASE_METHOD(hooks_fixture, "a failed heartbeat is asked again with backoff, a few times",
                 "[lifecycle_hooks][heartbeat]") {
  const auto hooks = start();
  terminate(hooks);  // the hand-over's own heartbeat succeeds
  REQUIRE(script_->count("RecordLifecycleActionHeartbeat") == 1);
  const auto retry = autoscaling_failure_kind::retry_with_backoff;
  std::size_t expected = 0;
  SECTION("throttled twice, then recorded") {
    script_->failures["RecordLifecycleActionHeartbeat"] = {retry, retry};
    expected = 3;
  }
  SECTION("failing every time: five attempts, then the next paced heartbeat's turn") {
    script_->failures["RecordLifecycleActionHeartbeat"].assign(8, retry);
    expected = 5;
  }
  SECTION("refused: not asked again") {
    script_->failures["RecordLifecycleActionHeartbeat"] = {autoscaling_failure_kind::access_denied};
    expected = 1;
  }
  SECTION("no active lifecycle action: not asked again") {
    script_->failures["RecordLifecycleActionHeartbeat"] = {autoscaling_failure_kind::already_done};
    expected = 1;
  }
  const auto sent_at = elapsed();
  caf::anon_send(hooks, heartbeat_atom::value, std::string{"drain-runner"});
  run();
  for (int second = 0; second < 120; ++second) advance(1s);
  auto beats = times_of(*script_, "RecordLifecycleActionHeartbeat");
  beats.erase(beats.begin());  // the hand-over's
  REQUIRE(beats.size() == expected);
  CHECK(beats.front() == sent_at);
  for (std::size_t i = 1; i < beats.size(); ++i) CHECK(beats[i] > beats[i - 1]);  // backed off
  // Every retry lands well inside half the heartbeat timeout, when the next beat is due.
  CHECK(beats.back() - beats.front() < 150s);
  CHECK(script_->completed.empty());
  CHECK(script_->lookups_ended.empty());
}

// Issue 31: an Auto Scaling endpoint that cannot be reached kept runwarden in its drain for
// good, retrying DescribeAutoScalingInstances. The lookup ends once no terminate hook could
// still wait for the instance: the longest heartbeat timeout AWS allows, 7200 s.
TEST_CASE_METHOD(hooks_fixture, "lookups failing for longer than any hook can wait end the look",
                 "[lifecycle_hooks]") {
  const auto hooks = start();
  script_->failures["DescribeAutoScalingInstances"] =
      std::deque<autoscaling_failure_kind>(10000, autoscaling_failure_kind::retry_with_backoff);
  terminate(hooks);
  const auto started = elapsed();
  for (int step = 0; step < 3 * 360 && script_->lookups_ended.empty(); ++step) advance(10s);
  REQUIRE(script_->lookups_ended.size() == 1);
  CHECK_THAT(script_->lookups_ended[0].detail, Catch::Contains("given up after 2h"));
  CHECK(elapsed() - started >= 7200s);
  CHECK(elapsed() - started < 7200s + 10min);
  CHECK(script_->pending.empty());
}
