// A runner's end that retires the instance (runner_exited with retire_by, decided by the
// retirement machine beside the drain): no restart, no signal to the runner that is gone, the
// wind-down at once with the retirement trigger. The effect lines are compared whole.
#include <catch2/catch.hpp>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

runner_exited retiring(std::int64_t pid, int code, trigger_source by) {
  return runner_exited{pid, exit_status{false, code}, by, "the one-job runner's job is done"};
}

}  // namespace

TEST_CASE("an end that retires drains at once instead of restarting", "[drain][retirement]") {
  machine_under_test machine;
  machine.start_running();
  CHECK(machine.at(5s, retiring(100, 0, trigger_source::retirement)) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(machine.state().drain_trigger == trigger_source::retirement);
  CHECK(machine.state().drain_reason == "the one-job runner's job is done");
  CHECK(machine.state().restarts_total == 0);
}

TEST_CASE("an end that retires still unregisters first", "[drain][retirement]") {
  auto config = gitlab_config();
  config.unregister = true;
  machine_under_test machine{config};
  machine.start_running();
  CHECK(machine.at(5s, retiring(100, 3, trigger_source::replacement)) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "unregister_runner"});
  CHECK(machine.at(6s, unregistration_finished{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=3"});
  CHECK(machine.state().drain_trigger == trigger_source::replacement);
}

TEST_CASE("without retire_by an end restarts as before", "[drain][retirement]") {
  machine_under_test machine;
  machine.start_running();
  const auto effects = machine.at(5s, exited(100, 1));
  REQUIRE(effects.size() == 1);
  CHECK(effects.front().starts_with("arm_timer restart_backoff"));
}
