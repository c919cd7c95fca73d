// A drain that comes as the runner starts: the runner has not installed its signal handlers
// yet and would die of the graceful signal (gitlab-runner does, exit 131). The machine holds
// the signal until the runner shows it is ready (its metrics answer) or the start grace has
// passed since its start; a runner not (re)started yet is not started at all. Each case
// lists the exact effects.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

drain_config graced_config() {
  auto config = gitlab_config();
  config.runner_start_grace = 5s;
  return config;
}

}  // namespace

TEST_CASE("a drain 2 ms after the start holds the signal until the runner's metrics answer") {
  machine_under_test m{graced_config()};
  m.start_running();
  CHECK(m.at(2ms, sigterm()) == lines{"change_status running->shutting_down",
                                      "send_notification drain_started",
                                      "arm_timer runner_start_grace id=1 at=5000ms"});
  CHECK(m.state().stage == escalation::none);
  CHECK(m.at(300ms, runner_load_observed{0u}) == lines{"signal_runner graceful SIGQUIT pid=100"});
  // The grace timer that no longer holds anything changes nothing.
  CHECK(m.at(5s, timer_fired{timer_kind::runner_start_grace, 1}).empty());
  CHECK(m.at(6s, exited(100, 0)) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a runner without metrics gets the held signal once the start grace has passed") {
  machine_under_test m{graced_config()};
  m.start_running();
  m.at(1s, sigterm());
  // A metrics poll that fails says nothing of readiness.
  CHECK(m.at(2s, runner_load_observed{std::nullopt}).empty());
  CHECK(m.at(5s, timer_fired{timer_kind::runner_start_grace, 1}) ==
        lines{"signal_runner graceful SIGQUIT pid=100"});
}

TEST_CASE("a drain requested while the runner is spawned waits for the spawn, then the grace") {
  machine_under_test m{graced_config()};
  REQUIRE(m.at(0s, warden_started{}) == lines{"spawn_runner"});
  CHECK(m.at(0s, sigterm()) ==
        lines{"change_status starting->shutting_down", "send_notification drain_started"});
  CHECK(m.at(10ms, runner_spawned{100}) == lines{"arm_timer runner_start_grace id=1 at=5010ms"});
  CHECK(m.at(12ms, runner_load_observed{0u}) == lines{"signal_runner graceful SIGQUIT pid=100"});
}

TEST_CASE("a drain after the start grace, or after the metrics answered, signals at once") {
  machine_under_test late{graced_config()};
  late.start_running();
  CHECK(late.at(5s, sigterm()) == lines{"change_status running->shutting_down",
                                        "send_notification drain_started",
                                        "signal_runner graceful SIGQUIT pid=100"});
  machine_under_test answered{graced_config()};
  answered.start_running();
  answered.at(1s, runner_load_observed{1u});
  CHECK(answered.at(2s, sigterm()).back() == "signal_runner graceful SIGQUIT pid=100");
}

TEST_CASE("a forceful request or a runner exit during the hold ends it") {
  machine_under_test forced{graced_config()};
  forced.start_running();
  forced.at(1s, sigterm());
  CHECK(forced.at(2s, forceful_shutdown_requested{}) ==
        lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=2 at=12000ms"});

  machine_under_test crashed{graced_config()};
  crashed.start_running();
  crashed.at(1s, sigterm());
  CHECK(crashed.at(2s, killed(100, SIGSEGV)) == lines{"change_status shutting_down->gone",
                                                      "send_notification gone",
                                                      "exit_warden code=139"});
  CHECK(crashed.at(5s, timer_fired{timer_kind::runner_start_grace, 1}).empty());
}

TEST_CASE("a drain known before the runner starts again does not start it") {
  machine_under_test m{graced_config()};
  m.start_running();
  const auto crash = m.at(1s, exited(100, 1));
  REQUIRE(crash.size() == 1);  // the restart's backoff timer
  CHECK(m.at(1100ms, sigterm()) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "change_status shutting_down->gone", "send_notification gone", "exit_warden code=1"});
  CHECK(m.at(3s, timer_fired{timer_kind::restart_backoff, 1}).empty());  // no spawn_runner
}

// Issue 31: a spot notice inside the safety margin, or a scheduled event already past, sent
// SIGTERM 95-200 ms after the start, and the runner died of it (exit 143). The deadline's
// forceful signal waits for the start grace like the graceful one; an operator's "now" does
// not wait.
TEST_CASE("a deadline already passed as the runner starts holds the forceful signal too") {
  machine_under_test m{graced_config()};
  m.start_running();
  CHECK(m.at(100ms, shutdown_requested{.source = trigger_source::spot_interruption,
                                       .deadline = instant{50ms}}) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "arm_timer runner_start_grace id=1 at=5000ms"});
  CHECK(m.state().stage == escalation::none);
  CHECK(m.at(300ms, runner_load_observed{0u}) == lines{"signal_runner graceful SIGQUIT pid=100",
                                                       "signal_runner forceful SIGTERM pid=100",
                                                       "arm_timer kill_timeout id=2 at=10300ms"});
}

TEST_CASE("a deadline passing during the start grace waits for the grace's end") {
  machine_under_test m{graced_config()};
  m.start_running();
  const auto armed = m.at(100ms, shutdown_requested{.source = trigger_source::spot_interruption,
                                                    .deadline = instant{1s}});
  CHECK(std::find(armed.begin(), armed.end(), "arm_timer drain_deadline id=2 at=1000ms") !=
        armed.end());
  CHECK(m.at(1s, timer_fired{timer_kind::drain_deadline, 2}).empty());
  CHECK(m.at(5s, timer_fired{timer_kind::runner_start_grace, 1}) ==
        lines{"signal_runner graceful SIGQUIT pid=100", "signal_runner forceful SIGTERM pid=100",
              "arm_timer kill_timeout id=3 at=15000ms"});
}
