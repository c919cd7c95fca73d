#pragma once
// The drain machine driven the way its unit tests read best: each step returns the effects
// as text lines, reports aside (kept for the cases that check their wording).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/drain/drain_effect_text.hpp"
#include "src/drain/drain_machine.hpp"
#include "tests/unit/gitlab_drain_config.hpp"

namespace runwarden::testing {

using namespace std::chrono_literals;
using lines = std::vector<std::string>;

class machine_under_test {
 public:
  explicit machine_under_test(drain_config config = gitlab_config()) : machine_(config) {}

  lines at(duration now, const drain_event& event) {
    now_ = now;
    lines result;
    for (const auto& effect : machine_.step(event, now)) {
      if (std::holds_alternative<report>(effect)) {
        reports_.push_back(std::get<report>(effect).text);
      } else {
        result.push_back(to_string(effect));
      }
    }
    return result;
  }

  // Start and spawn the runner with `pid` at time zero.
  void start_running(std::int64_t pid = 100) {
    REQUIRE(at(0s, warden_started{}) == lines{"spawn_runner"});
    REQUIRE(at(0s, runner_spawned{pid}) == lines{"change_status starting->running"});
  }

  const drain_state& state() const { return machine_.state(); }
  const drain_machine& machine() const { return machine_; }
  const lines& reports() const { return reports_; }

 private:
  drain_machine machine_;
  duration now_{0};
  lines reports_;
};

inline shutdown_requested sigterm() { return {.source = trigger_source::signal_terminate}; }
inline shutdown_requested sigint() { return {.source = trigger_source::signal_interrupt}; }
inline runner_exited exited(std::int64_t pid, int code) { return {pid, exit_status{false, code}}; }
inline runner_exited killed(std::int64_t pid, int signal) {
  return {pid, exit_status{true, signal}};
}

}  // namespace runwarden::testing
