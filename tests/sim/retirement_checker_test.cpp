// The retirement invariants can fail: each is fed a history that breaks it, and the checker
// must name it; the same history without the breaking fact (or with a fault to blame) must
// pass. The facts are told to the checker directly, as the world and the fleet run tell them.
#include <catch2/catch.hpp>

#include "src/sim/fleet_checker.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

sim_instance instance_named(std::string id) {
  sim_instance instance;
  instance.id = std::move(id);
  return instance;
}

}  // namespace

TEST_CASE("a runner started after the retirement was decided is reported", "[sim][checker]") {
  const fleet_scenario scenario;
  fleet_checker checker{scenario};
  const auto instance = instance_named("i-000001");
  const sim_runner exited;  // the one-job runner that ended with its job
  checker.runner_spawned(10, instance, exited, false, std::nullopt);  // before: fine
  checker.retirement_decided(100, instance);
  CHECK(checker.violations().empty());
  // As a runwarden back from a crash would, had it lost the decision: its status restarts at
  // starting, so only the journaled decision catches it.
  checker.runner_spawned(130, instance, exited, false, std::nullopt);
  REQUIRE(checker.violations().size() == 1);
  CHECK(checker.violations()[0].invariant == "runner_started_after_retirement");
  CHECK(checker.violations()[0].detail ==
        "i-000001: a runner started 30s after the instance's retirement was decided");
  checker.runner_spawned(140, instance_named("i-000002"), exited, false, std::nullopt);
  CHECK(checker.violations().size() == 1);  // another instance: not retiring
}

TEST_CASE("a retired instance not terminated within the bound is reported once", "[sim][checker]") {
  fleet_scenario scenario;  // no faults: the bound runs from the decision
  fleet_checker checker{scenario};
  auto instance = instance_named("i-000003");
  const auto bound = retirement_end_bound(scenario);
  CHECK(bound == 900 + 10 + 35 + 60 + 30 + 5 + 60);
  checker.retirement_decided(100, instance);
  checker.instance_ticked(100 + bound, instance);
  CHECK(checker.violations().empty());
  checker.instance_ticked(101 + bound, instance);
  checker.instance_ticked(102 + bound, instance);
  REQUIRE(checker.violations().size() == 1);
  CHECK(checker.violations()[0].invariant == "retirement_not_ended");
  CHECK(checker.violations()[0].detail ==
        "i-000003: not terminated 1101s after its retirement was decided at 100s (bound 1100s "
        "from 100s)");

  fleet_checker ended{scenario};
  ended.retirement_decided(100, instance);
  instance.gone = true;
  ended.instance_ticked(5000, instance);
  CHECK(ended.violations().empty());
}

TEST_CASE("with faults, the retirement's bound runs from their end, and not at all without one",
          "[sim][checker]") {
  fleet_scenario scenario;
  scenario.faults.api_error_rate = 0.1;
  const auto instance = instance_named("i-000004");
  {
    fleet_checker checker{scenario};  // safety run: faults throughout
    checker.retirement_decided(100, instance);
    checker.instance_ticked(100000, instance);
    CHECK(checker.violations().empty());
  }
  scenario.faults.faults_until = 2000s;
  fleet_checker checker{scenario};
  const auto bound = retirement_end_bound(scenario);
  checker.retirement_decided(100, instance);
  checker.instance_ticked(2000 + bound, instance);
  CHECK(checker.violations().empty());
  checker.instance_ticked(2001 + bound, instance);
  REQUIRE(checker.violations().size() == 1);
  CHECK(checker.violations()[0].invariant == "retirement_not_ended");
}

TEST_CASE("a job killed on a retiring instance is reported unless a fault killed it",
          "[sim][checker]") {
  const fleet_scenario scenario;
  fleet_checker checker{scenario};
  auto instance = instance_named("i-000005");
  checker.jobs_killed(50, instance, 1, "forced at the drain deadline");  // not retiring
  checker.retirement_decided(100, instance);
  checker.jobs_killed(110, instance, 1, "the runner crashed");
  checker.jobs_killed(120, instance, 2, "the spot instance was reclaimed");
  CHECK(checker.violations().empty());
  checker.jobs_killed(130, instance, 1, "the instance was terminated");
  checker.jobs_killed(140, instance, 1, "forced at the drain deadline");
  REQUIRE(checker.violations().size() == 2);
  CHECK(checker.violations()[0].invariant == "job_killed_by_retirement");
  CHECK(checker.violations()[0].detail ==
        "i-000005: 1 job(s) killed (the instance was terminated) 30s after the instance's "
        "retirement was decided");
  CHECK(checker.violations()[1].invariant == "job_killed_by_retirement");
  // At a spot notice's drain deadline: the spot interruption killed it, not the retirement.
  instance.spot_reclaim_at = 200;
  checker.jobs_killed(150, instance, 1, "forced at the drain deadline");
  CHECK(checker.violations().size() == 2);
}
