// The checker apart from the world: every invariant listed once, in the enum's order, under
// the name reports print; and facts told to the checker directly are judged with the texts
// the world's own checks wrote before the checker stood apart (a report must not change).
#include <catch2/catch.hpp>

#include <csignal>
#include <set>
#include <string>

#include "src/sim/fleet_checker.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

fleet_scenario bounded_group() {
  fleet_scenario scenario;
  scenario.min_size = 2;
  scenario.max_size = 8;
  return scenario;
}

sim_instance instance_named(std::string id) {
  sim_instance instance;
  instance.id = std::move(id);
  return instance;
}

}  // namespace

TEST_CASE("every invariant is listed once, with its name and meaning", "[sim][checker]") {
  std::set<std::string_view> names;
  std::size_t index = 0;
  for (const auto& row : fleet_invariants()) {
    CHECK(static_cast<std::size_t>(row.invariant) == index++);
    CHECK(name_of(row.invariant) == row.name);
    CHECK_FALSE(row.meaning.empty());
    names.insert(row.name);
  }
  CHECK(names.size() == 16);
  CHECK(name_of(fleet_invariant::job_killed_early) == "job_killed_early");
}

TEST_CASE("the checker judges the facts it is told, and only those", "[sim][checker]") {
  const auto scenario = bounded_group();
  fleet_checker checker{scenario};
  const auto instance = instance_named("i-000001");
  checker.desired_set(1, 8);
  checker.status_published(2, instance, warden_status::starting, warden_status::running);
  checker.jobs_killed_by_signal(3, instance, 1, SIGTERM, 3.0);  // at the deadline: allowed
  CHECK(checker.violations().empty());

  checker.desired_set(4, 9);
  checker.status_published(5, instance, warden_status::shutting_down, warden_status::running);
  checker.jobs_killed_by_signal(6, instance, 2, SIGTERM, 10.0);
  sim_runner alive;
  alive.pid = 1000;
  alive.alive = true;
  checker.runner_spawned(7, instance, alive, true, std::nullopt);
  const auto& found = checker.violations();
  REQUIRE(found.size() == 5);
  CHECK(found[0].invariant == "capacity_out_of_bounds");
  CHECK(found[0].detail == "desired capacity 9 outside [2, 8]");
  CHECK(found[1].invariant == "status_backwards");
  CHECK(found[1].detail == "i-000001: running after shutting_down");
  CHECK(found[2].invariant == "job_killed_early");
  CHECK(found[2].detail ==
        "i-000001: 2 job(s) killed by runwarden's signal 15 before the drain "
        "deadline (10.0s)");
  CHECK(found[3].invariant == "two_runners");
  CHECK(found[3].detail == "i-000001: a runner started while runner 1000 still runs");
  CHECK(found[4].invariant == "runner_started_in_drain");
  CHECK(found[4].detail == "i-000001: a fresh runner started during a drain (deadline none)");
}
