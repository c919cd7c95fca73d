// An Azure scheduled event in the drain machine: the event the Azure watcher
// drains for comes as a lifecycle action (hook_name its EventId) that takes no heartbeats,
// keeps no wind-down reserve of its own (the event's trigger brought the deadline) and
// expires at NotBefore, when Azure goes on regardless. Its completion, the approval
// (StartRequests), is the wind-down's last step: after the runner is gone and unregistered,
// exactly once. Each case lists the exact effects.
#include <catch2/catch.hpp>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

drain_config azure_config() {
  auto config = gitlab_config();
  config.unregister = true;
  config.await_lifecycle_lookup = true;  // the Azure watcher is the lifecycle client
  config.unregister_alongside_below = 60s;
  return config;
}

lifecycle_action_pending event_to_approve(const std::string& id, instant not_before) {
  return {lifecycle_action{.hook_name = id,
                           .heartbeat_timeout = duration::zero(),
                           .expires_at = not_before,
                           .wind_down_reserve = duration::zero()}};
}

}  // namespace

TEST_CASE("a Terminate is approved once the runner is gone and unregistered") {
  machine_under_test m{azure_config()};
  m.start_running();
  CHECK(m.at(0s, shutdown_requested{.source = trigger_source::azure_terminate,
                                    .deadline = instant{595s}}) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100",
              "arm_timer drain_deadline id=1 at=595000ms"});
  // No heartbeat timer, and the trigger's deadline stands.
  CHECK(m.at(0s, event_to_approve("t-3", instant{600s})) ==
        lines{"arm_timer lifecycle_expiry id=2 at=600000ms"});
  CHECK(m.state().drain_deadline == instant{595s});
  CHECK(m.at(30s, exited(100, 0)) ==
        lines{"unregister_runner", "arm_timer unregistration_last_attempt id=3 at=565000ms"});
  CHECK(m.at(31s, unregistration_finished{}) ==
        lines{"complete_lifecycle_action hook=t-3 result=CONTINUE"});
  CHECK(m.at(32s, lifecycle_action_completed{true, "Azure event t-3 approved"}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a Preempt unregisters alongside and is approved after the runner stopped") {
  machine_under_test m{azure_config()};
  m.start_running();
  m.at(0s, shutdown_requested{.source = trigger_source::azure_preempt, .deadline = instant{25s}});
  m.at(0s, event_to_approve("p-3", instant{30s}));
  CHECK(m.state().unregistration == step_progress::in_progress);
  CHECK(m.at(5s, unregistration_finished{}).empty());  // the runner still finishes its job
  CHECK(m.at(20s, exited(100, 0)) == lines{"complete_lifecycle_action hook=p-3 result=CONTINUE"});
  // Past NotBefore Azure has gone on: the approval is not waited for any longer.
  CHECK(m.at(30s, timer_fired{timer_kind::lifecycle_expiry, 2}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}
