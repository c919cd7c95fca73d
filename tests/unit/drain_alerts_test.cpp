// The failures the drain machine tells a person about through the webhook: a lifecycle hook
// that cannot be extended again, an unregistration the CI server has not confirmed for
// long, and a restart budget spent. Each is a decision of the machine, so each case lists
// the exact effects, including when the notification must not come.
#include <catch2/catch.hpp>

#include <algorithm>

#include "src/drain/warden_snapshot.hpp"
#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

lifecycle_action_pending hook(duration heartbeat, instant expires_at) {
  return {lifecycle_action{
      .hook_name = "drain-hook", .heartbeat_timeout = heartbeat, .expires_at = expires_at}};
}

bool reported(const machine_under_test& m, const std::string& text) {
  return std::any_of(m.reports().begin(), m.reports().end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

drain_config alerting_config(duration alert_after) {
  auto config = gitlab_config();
  config.unregister = true;
  config.unregistration_alert_after = alert_after;
  return config;
}

}  // namespace

TEST_CASE("the last heartbeat a hook can take tells that it will expire") {
  machine_under_test m;
  m.start_running();
  m.at(0s, hook(300s, 400s));
  CHECK(snapshot_of(m.state(), 0s, 1).next_heartbeat_at == instant{150s});
  CHECK(m.at(150s, timer_fired{timer_kind::lifecycle_heartbeat, 2}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook",
              "arm_timer lifecycle_heartbeat id=4 at=300000ms"});
  CHECK(snapshot_of(m.state(), 150s, 2).next_heartbeat_at == instant{300s});
  CHECK(m.at(300s, timer_fired{timer_kind::lifecycle_heartbeat, 4}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook", "send_notification hook_expiring"});
  CHECK(reported(m, "lifecycle hook drain-hook cannot be extended again; it expires in 1m40s"));
  CHECK_FALSE(snapshot_of(m.state(), 300s, 3).next_heartbeat_at);
}

TEST_CASE("a hook too short for any heartbeat tells at once, a completed one never") {
  machine_under_test short_hook;
  short_hook.start_running();
  const auto effects = short_hook.at(0s, hook(300s, 100s));
  CHECK(std::count(effects.begin(), effects.end(), "send_notification hook_expiring") == 1);

  machine_under_test completed;
  completed.start_running();
  completed.at(0s, hook(300s, 400s));
  completed.at(10s, exited(100, 0));
  completed.at(11s, lifecycle_action_completed{});
  CHECK(completed.state().status == warden_status::gone);
  CHECK(completed.at(150s, timer_fired{timer_kind::lifecycle_heartbeat, 2}).empty());
}

TEST_CASE("an unregistration unconfirmed past alert_after tells once, and keeps trying") {
  machine_under_test m{alerting_config(600s)};
  m.start_running();
  m.at(5s, sigterm());
  CHECK(m.at(60s, exited(100, 0)) ==
        lines{"unregister_runner", "arm_timer unregistration_alert id=1 at=660000ms"});
  CHECK(m.at(660s, timer_fired{timer_kind::unregistration_alert, 1}) ==
        lines{"send_notification unregistration_failing"});
  CHECK(reported(m, "has not confirmed the unregistration 10m after it began; still trying"));
  CHECK(m.at(661s, timer_fired{timer_kind::unregistration_alert, 1}).empty());
  CHECK(m.state().status == warden_status::shutting_down);
  CHECK(m.at(900s, unregistration_finished{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("an unregistration confirmed in time sends no alert, none is armed without one") {
  machine_under_test m{alerting_config(600s)};
  m.start_running();
  m.at(5s, sigterm());
  m.at(60s, exited(100, 0));
  m.at(70s, unregistration_finished{});
  CHECK(m.at(660s, timer_fired{timer_kind::unregistration_alert, 1}).empty());

  auto config = gitlab_config();
  config.unregister = true;
  machine_under_test silent{config};
  silent.start_running();
  silent.at(5s, sigterm());
  CHECK(silent.at(60s, exited(100, 0)) == lines{"unregister_runner"});
}

TEST_CASE("a spent restart budget tells a person before gone") {
  auto config = gitlab_config();
  config.restart.type = restart_type::permanent;
  config.restart.budget_restarts_max = 0;
  machine_under_test m{config};
  m.start_running();
  CHECK(m.at(1s, exited(100, 3)) == lines{"send_notification restart_budget_spent",
                                          "change_status running->gone", "send_notification gone",
                                          "exit_warden code=3"});
}

// Issue 31: a CI server or an Auto Scaling endpoint that never answers kept runwarden in its
// wind-down for good, and a second SIGTERM or `ctl shutdown --force` did nothing. The
// operator's "now" ends every wait that is left, by name, with the runner's exit code.
TEST_CASE("the operator's now ends an unregistration that never finishes") {
  machine_under_test m{alerting_config(600s)};
  m.start_running();
  m.at(5s, sigterm());
  m.at(60s, exited(100, 0));
  CHECK(m.at(90s, sigterm()) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "arrived: no longer waiting for the unregistration"));

  machine_under_test forced{alerting_config(600s)};
  forced.start_running();
  forced.at(5s, sigterm());
  forced.at(60s, exited(100, 3));
  CHECK(forced.at(90s, forceful_shutdown_requested{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=3"});
}

TEST_CASE("the operator's now ends a lifecycle completion that never finishes") {
  machine_under_test m;
  m.start_running();
  m.at(0s, hook(300s, 4000s));
  CHECK(m.at(10s, exited(100, 0)) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(20s, forceful_shutdown_requested{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "no longer waiting for the lifecycle hook's completion"));
}
