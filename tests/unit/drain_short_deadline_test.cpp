// Which comes first when a cloud gives little warning: an Azure Spot eviction or a
// Google Cloud preemption leaves about 30 s, too little to unregister a GitLab runner after
// it stopped. Below drain_config::unregister_alongside_below the machine starts the
// unregistration with the graceful signal; above it, and for GitHub's runner (unregistered
// first anyway), the order stays as it was. Each case lists the exact effects.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

drain_config alongside_below(std::optional<duration> threshold) {
  auto config = gitlab_config();
  config.unregister = true;
  config.unregister_alongside_below = threshold;
  return config;
}

shutdown_requested notice(trigger_source source, instant deadline) {
  return {.source = source, .deadline = deadline, .reason = "a cloud's warning"};
}

bool reported(const machine_under_test& m, const std::string& text) {
  return std::any_of(m.reports().begin(), m.reports().end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("a preemption's 30 s deadline unregisters a GitLab runner alongside the drain") {
  const auto source = GENERATE(trigger_source::azure_preempt, trigger_source::gcp_preemption);
  machine_under_test m{alongside_below(60s)};
  m.start_running();
  CHECK(m.at(10s, notice(source, instant{40s})) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100", "arm_timer drain_deadline id=1 at=40000ms",
              "unregister_runner"});
  CHECK(reported(m, "unregistering alongside the drain"));
  // Confirmed while the runner still finishes: nothing more until it stops.
  CHECK(m.at(15s, unregistration_finished{}).empty());
  CHECK(m.at(20s, exited(100, 0)) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a runner that stops before the parallel unregistration ends waits for it") {
  machine_under_test m{alongside_below(60s)};
  m.start_running();
  m.at(0s, notice(trigger_source::gcp_preemption, instant{30s}));
  CHECK(m.at(5s, exited(100, 0)).empty());
  CHECK(m.state().status == warden_status::shutting_down);
  CHECK(m.at(6s, unregistration_finished{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a deadline at or beyond the threshold unregisters after the stop, as before") {
  machine_under_test m{alongside_below(60s)};
  m.start_running();
  CHECK(m.at(0s, notice(trigger_source::azure_terminate, instant{60s})) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100",
              "arm_timer drain_deadline id=1 at=60000ms"});
  CHECK(m.at(20s, exited(100, 0)) ==
        lines{"unregister_runner", "arm_timer unregistration_last_attempt id=2 at=30000ms"});
}

TEST_CASE("a tighter deadline during a drain starts the unregistration alongside") {
  machine_under_test m{alongside_below(60s)};
  m.start_running();
  m.at(0s, sigterm());
  CHECK(m.at(100s, notice(trigger_source::azure_preempt, instant{130s})) ==
        lines{"arm_timer drain_deadline id=1 at=130000ms", "unregister_runner"});
  // A second notice starts nothing twice.
  CHECK(m.at(101s, notice(trigger_source::azure_preempt, instant{129s})) ==
        lines{"arm_timer drain_deadline id=2 at=129000ms"});
}

TEST_CASE("without a threshold, or for GitHub's order, nothing changes") {
  SECTION("no threshold") {
    machine_under_test m{alongside_below(std::nullopt)};
    m.start_running();
    m.at(0s, notice(trigger_source::gcp_preemption, instant{30s}));
    CHECK(m.at(5s, exited(100, 0)) == lines{"unregister_runner"});
  }
  SECTION("GitHub: unregistration comes first anyway, once") {
    auto config = alongside_below(60s);
    config.unregister_before_stop = true;
    machine_under_test m{config};
    m.start_running();
    CHECK(m.at(0s, notice(trigger_source::gcp_preemption, instant{30s})) ==
          lines{"change_status running->shutting_down", "send_notification drain_started",
                "unregister_runner", "arm_timer drain_deadline id=1 at=30000ms"});
  }
  SECTION("no unregistration configured") {
    auto config = alongside_below(60s);
    config.unregister = false;
    machine_under_test m{config};
    m.start_running();
    CHECK(m.at(0s, notice(trigger_source::gcp_preemption, instant{30s})) ==
          lines{"change_status running->shutting_down", "send_notification drain_started",
                "signal_runner graceful SIGQUIT pid=100",
                "arm_timer drain_deadline id=1 at=30000ms"});
  }
}
