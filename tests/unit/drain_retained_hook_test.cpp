// A terminate hook whose group retains the instance past the hook's timeout (an Auto Scaling
// instance lifecycle policy with TerminateHookAbandon = retain, and the hook abandoning at
// its timeout): the hook sets no drain deadline, so the jobs finish however long they take;
// heartbeats go on to the hook's global timeout; the expiry is said as a retention, not a
// failure, and the wind-down still asks for the completion, which is how the retained
// instance gets terminated. Each case lists the exact effects, as drain_wind_down_test does.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

lifecycle_action_pending retained_hook(instant now, duration heartbeat, duration global) {
  return {lifecycle_action{.hook_name = "drain-hook",
                           .heartbeat_timeout = heartbeat,
                           .expires_at = now + global,
                           .retained_when_abandoned = true}};
}

bool reported(const machine_under_test& m, const std::string& text) {
  return std::any_of(m.reports().begin(), m.reports().end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

bool forceful(const lines& effects) {
  return std::any_of(effects.begin(), effects.end(), [](const std::string& line) {
    return line.starts_with("signal_runner forceful") || line.starts_with("signal_runner kill");
  });
}

}  // namespace

TEST_CASE("a retained hook's drain has no deadline and outlasts the hook") {
  machine_under_test m;
  m.start_running();
  CHECK(m.at(0s, retained_hook(0s, 300s, 1000s)) ==
        lines{"arm_timer lifecycle_expiry id=1 at=1000000ms",
              "arm_timer lifecycle_heartbeat id=2 at=150000ms",
              "change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100"});
  CHECK_FALSE(m.state().drain_deadline);
  CHECK(reported(m, "the hook sets no drain deadline"));
  // Heartbeats to the global timeout; the last one says so without an alert.
  CHECK(m.at(150s, timer_fired{timer_kind::lifecycle_heartbeat, 2}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook",
              "arm_timer lifecycle_heartbeat id=3 at=300000ms"});
  for (timer_id id = 3; id < 7; ++id)
    m.at(id * 150s - 150s, timer_fired{timer_kind::lifecycle_heartbeat, id});
  CHECK(m.at(900s, timer_fired{timer_kind::lifecycle_heartbeat, 7}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook"});
  CHECK(reported(m, "the group then retains the instance while the drain goes on"));
  // The expiry is a retention: nothing is signalled, and the drain goes on.
  CHECK(m.at(1000s, timer_fired{timer_kind::lifecycle_expiry, 1}).empty());
  CHECK(reported(m, "the group retains the instance (Terminating:Retained)"));
  CHECK_FALSE(reported(m, "expired before it was completed"));
  CHECK(m.state().status == warden_status::shutting_down);
  // The job ends hours later; the completion (finding no active action) ends the instance.
  CHECK(m.at(20000s, exited(100, 0)) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(20001s, lifecycle_action_completed{true, "the group retained this instance"}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a retained hook keeps the operator's drain timeout, and only that") {
  auto config = gitlab_config();
  config.drain_timeout = 7200s;
  machine_under_test m{config};
  m.start_running();
  const auto effects = m.at(10s, retained_hook(10s, 300s, 1000s));
  CHECK(std::count(effects.begin(), effects.end(), "arm_timer drain_deadline id=3 at=7210000ms") ==
        1);
  CHECK(*m.state().drain_deadline == instant{7210s});
  CHECK_FALSE(forceful(m.at(1010s, timer_fired{timer_kind::lifecycle_expiry, 1})));
  CHECK(
      m.at(7210s, timer_fired{timer_kind::drain_deadline, 3}) ==
      lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=4 at=7220000ms"});
}

TEST_CASE("a retained hook joining a drain leaves its deadline as it was") {
  machine_under_test open_ended;
  open_ended.start_running();
  open_ended.at(0s, sigterm());
  const auto effects = open_ended.at(5s, retained_hook(5s, 300s, 1000s));
  CHECK(std::none_of(effects.begin(), effects.end(), [](const std::string& line) {
    return line.starts_with("arm_timer drain_deadline");
  }));
  CHECK_FALSE(open_ended.state().drain_deadline);
  CHECK_FALSE(forceful(open_ended.at(1005s, timer_fired{timer_kind::lifecycle_expiry, 1})));
  CHECK(open_ended.state().status == warden_status::shutting_down);

  // A spot notice's two minutes still bind: the hook takes nothing away, and adds nothing.
  machine_under_test spot;
  spot.start_running();
  spot.at(0s, shutdown_requested{.source = trigger_source::spot_interruption,
                                 .deadline = instant{120s}});
  spot.at(1s, retained_hook(1s, 300s, 1000s));
  CHECK(*spot.state().drain_deadline == instant{120s});
}

TEST_CASE("a completion under way when a retained hook expires still decides the end") {
  machine_under_test m;
  m.start_running();
  m.at(0s, retained_hook(0s, 300s, 1000s));
  CHECK(m.at(990s, exited(100, 0)) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(1000s, timer_fired{timer_kind::lifecycle_expiry, 1}).empty());
  CHECK(m.state().lifecycle_completion == step_progress::in_progress);
  CHECK(m.at(1030s, lifecycle_action_completed{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}
