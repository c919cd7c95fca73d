// An adopted runner (runwarden restarted mid-drain) is no child of the new runwarden, so
// how it ended cannot be read. That end stays unknown: in the exit reason, and in
// runwarden's own exit code (runner_end_unknown_exit_code), unless the runner's metrics
// last said it ran no job, which proves no job was lost with it.
#include <catch2/catch.hpp>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

runner_exited ended_unknown(std::int64_t pid) { return {pid, exit_status{.unknown = true}}; }

}  // namespace

TEST_CASE("an unknown end during a drain is runwarden's distinct exit code, not success") {
  machine_under_test m;
  m.start_running();
  m.at(1s, runner_load_observed{2u});
  m.at(5s, sigterm());
  CHECK(m.at(9s, ended_unknown(100)) == lines{"change_status shutting_down->gone",
                                              "send_notification gone", "exit_warden code=75"});
  CHECK(m.state().exit_reason == "runner stopped (exit status unknown) 4s after the drain began");
  REQUIRE(m.state().last_exit);
  CHECK(m.state().last_exit->unknown);
}

TEST_CASE("an unknown end the runner's metrics prove idle is a success") {
  machine_under_test m;
  m.start_running();
  m.at(1s, runner_load_observed{1u});
  m.at(5s, sigterm());
  m.at(8s, runner_load_observed{0u});
  CHECK(m.at(9s, ended_unknown(100)).back() == "exit_warden code=0");
  CHECK(m.state().exit_reason ==
        "runner stopped (exit status unknown) 4s after the drain "
        "began; its metrics last showed no job running");
}

TEST_CASE("an unknown end with no metrics at all stays unknown") {
  machine_under_test m;
  m.start_running();
  m.at(5s, sigterm());
  CHECK(m.at(9s, ended_unknown(100)).back() == "exit_warden code=75");
}

TEST_CASE("a failed scrape as a drained runner shuts down does not unprove its idleness") {
  machine_under_test m;
  m.start_running();
  m.at(1s, runner_load_observed{1u});
  m.at(5s, sigterm());
  m.at(8s, runner_load_observed{0u});
  m.at(8500ms, runner_load_observed{std::nullopt});  // its metrics server closed first
  CHECK(m.state().jobs_running == 0u);
  CHECK(m.at(9s, ended_unknown(100)).back() == "exit_warden code=0");

  // Before the drain's signal an unanswered scrape is unknown, as always.
  machine_under_test running;
  running.start_running();
  running.at(1s, runner_load_observed{0u});
  running.at(2s, runner_load_observed{std::nullopt});
  CHECK(running.state().jobs_running == std::nullopt);
}
