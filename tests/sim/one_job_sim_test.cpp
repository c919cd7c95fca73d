// One-job runners and retirement in the simulation: first the world alone, driven by hand as
// runwarden would drive it (a one-job runner takes one job, reports it through its hooks and
// exits by itself; the simulated Auto Scaling group refuses a decrement at its minimum and
// replaces an instance marked Unhealthy through its terminate hook); then whole fleets,
// where the production warden retires each instance after its job, its job hooks reaching
// it through the control API's path, and runwardens killed after their decision come back
// from their journals without starting a runner again.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "src/journal/journal_reader.hpp"
#include "src/sim/autoscaling_service.hpp"
#include "src/sim/fleet_checker.hpp"
#include "src/sim/fleet_run.hpp"
#include "src/sim/fleet_world.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

fleet_scenario one_job_fleet() {
  fleet_scenario s;
  s.name = "one-job";
  s.duration = 40min;
  s.min_size = 1;
  s.max_size = 8;
  s.desired = 4;
  s.heartbeat_timeout = 120s;
  s.api = runner_api::github;
  s.concurrency = 1;
  s.one_job = true;
  s.job_hooks = true;
  s.after_exit = after_exit_action::retire;
  s.idle_retire_after = 4min;
  s.jobs_per_minute = 1;
  s.job_duration_min = 60s;
  s.job_duration_max = 3min;
  s.capacity_changes = {{10min, 4}, {20min, 4}, {30min, 4}};
  return s;
}

// Boots the world's instances with a runner each, released from its start gate.
void boot_all(fleet_world& world, sim_seconds until) {
  world.on_boot = [&world](std::size_t index) {
    world.release_runner(index, world.spawn_runner(index, 0), true, 0);
  };
  for (sim_seconds now = 0; now <= until; ++now) world.tick(now);
}

std::string call(std::string action, const std::string& rest) {
  return "Action=" + action + "&Version=2011-01-01&" + rest;
}

// Lanes where runwarden crashed after its retirement was decided and before its instance
// was terminated (mid-drain, or while it ended the instance).
std::size_t crashed_after_decision(const fleet_timeline& timeline) {
  std::size_t lanes = 0;
  for (const auto& lane : timeline.lanes) {
    std::optional<double> decided, terminated;
    for (const auto& mark : lane.marks)
      if (mark.kind == "retirement_decided" && !decided) decided = mark.at;
    for (const auto& span : lane.lifecycle)
      if (span.state == "Terminated" && !terminated) terminated = span.from;
    lanes += std::ranges::any_of(lane.marks, [&](const timeline_mark& mark) {
      return mark.kind == "runwarden_crash" && decided && mark.at >= *decided &&
             (!terminated || mark.at < *terminated);
    });
  }
  return lanes;
}

}  // namespace

TEST_CASE("world: a one-job runner reports its one job and exits a second after it",
          "[sim][one_job]") {
  auto scenario = one_job_fleet();
  scenario.launch_hook = false;
  scenario.desired = 1;
  scenario.jobs_per_minute = 0;
  scenario.bursts = {{70s, 3}};
  fleet_world world{scenario, 1};
  std::vector<std::string> reports;
  world.on_job_report = [&](std::size_t, job_report_kind kind, std::string id) {
    reports.push_back(std::string{to_string(kind)} + " " + id);
  };
  std::optional<exit_status> exited;
  world.on_runner_exit = [&](std::size_t, exit_status status) { exited = status; };
  boot_all(world, 70);
  const auto& runner = world.instances()[0].runner;
  REQUIRE(runner.jobs.size() == 1);  // one of the three: it takes no other
  CHECK(reports == std::vector<std::string>{"started 1"});
  const auto ends = 70 + world.jobs()[0].duration;
  for (sim_seconds now = 71; now <= ends; ++now) world.tick(now);
  CHECK(reports.size() == 2);
  CHECK(runner.alive);  // its completed hook ran; it exits next
  world.tick(ends + 1);
  CHECK_FALSE(runner.alive);
  REQUIRE(exited);
  CHECK(*exited == exit_status{});
  CHECK_FALSE(world.instances()[0].registered);  // GitHub deleted the ephemeral runner
  CHECK(runner.jobs_taken == 1);
}

TEST_CASE(
    "world: Auto Scaling refuses a decrement at the minimum and replaces an Unhealthy "
    "instance through its terminate hook",
    "[sim][one_job]") {
  auto scenario = one_job_fleet();
  scenario.launch_hook = false;
  scenario.min_size = 2;
  scenario.desired = 2;
  scenario.jobs_per_minute = 0;
  scenario.capacity_changes.clear();
  fleet_world world{scenario, 1};
  boot_all(world, 70);
  autoscaling_service service{world};
  const auto refused =
      service.answer(call("TerminateInstanceInAutoScalingGroup",
                          "InstanceId=i-000001&ShouldDecrementDesiredCapacity=true"),
                     71);
  CHECK(refused.status_code == 400);
  CHECK_THAT(refused.body, Catch::Contains("ValidationError") &&
                               Catch::Contains("Currently, desiredSize equals minSize (2)") &&
                               Catch::Contains("violate group's min size constraint"));
  CHECK(world.instances()[0].lifecycle_state == "InService");

  const auto bad =
      service.answer(call("SetInstanceHealth", "InstanceId=i-000001&HealthStatus=Sick"), 72);
  CHECK(bad.status_code == 400);
  const auto marked = service.answer(call("SetInstanceHealth",
                                          "InstanceId=i-000001&HealthStatus=Unhealthy&"
                                          "ShouldRespectGracePeriod=false"),
                                     72);
  CHECK(marked.status_code == 200);
  const auto& instance = world.instances()[0];
  CHECK(instance.lifecycle_state == "Terminating:Wait");
  REQUIRE(instance.terminate_action);
  CHECK(world.desired() == 2);
  const auto described =
      service.answer(call("DescribeAutoScalingInstances", "InstanceIds.member.1=i-000001"), 72);
  CHECK_THAT(described.body, Catch::Contains("<HealthStatus>UNHEALTHY</HealthStatus>"));
  world.tick(73);
  CHECK(world.instances().size() == 3);  // the replacement
  const auto completed = service.answer(
      call("CompleteLifecycleAction",
           "InstanceId=i-000001&LifecycleHookName=sim-terminate&AutoScalingGroupName=sim-fleet&"
           "LifecycleActionResult=CONTINUE"),
      74);
  CHECK(completed.status_code == 200);  // the runner is still up: the checker says so
  CHECK(world.checker().violations().size() == 1);
}

TEST_CASE(
    "one-job fleets: each job retires its instance, reported through ctl job, and a "
    "runwarden killed after the decision never starts a runner again",
    "[sim][one_job]") {
  auto scenario = one_job_fleet();
  scenario.faults.runwarden_crashes_per_hour = 60;
  scenario.faults.runwarden_restart_after = 20s;
  scenario.faults.api_error_rate = 0.2;
  scenario.faults.drop_rate = 0.05;
  scenario.faults.faults_until = 30min;  // liveness: every retirement must end its instance
  std::size_t crashed = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    CHECK(run.report.violations.empty());
    CHECK(run.report.jobs_killed.empty());
    CHECK(run.report.drains_by_trigger.at("retirement") >= 4);
    CHECK(run.report.api_calls.at("TerminateInstanceInAutoScalingGroup") >= 4);
    crashed += crashed_after_decision(run.timeline);
  }
  CHECK(crashed > 0);
  // The job hooks' reports reached the warden and its journal.
  const auto journal = std::filesystem::temp_directory_path() /
                       ("runwarden-one-job-" + std::to_string(::getpid()) + ".journal");
  const auto run = run_fleet(scenario, {.seed = 1, .journal_file = journal.string()});
  REQUIRE(run.error.empty());
  const auto read = read_journal(journal);
  REQUIRE(read.contents);
  const auto reported = std::ranges::count_if(read.contents->entries, [](const auto& entry) {
    return std::holds_alternative<job_reported>(entry.event);
  });
  CHECK(reported > 0);
  std::filesystem::remove(journal);
}

TEST_CASE(
    "recycled fleets: a retirement decided while jobs run waits them out, and the "
    "group replaces the instance",
    "[sim][one_job]") {
  fleet_scenario scenario;
  scenario.duration = 40min;
  scenario.min_size = 2;
  scenario.max_size = 6;
  scenario.desired = 4;
  scenario.heartbeat_timeout = 120s;
  scenario.recycle_after_jobs = 5;
  scenario.jobs_per_minute = 3;
  scenario.job_duration_min = 60s;
  scenario.job_duration_max = 5min;
  scenario.faults.api_error_rate = 0.1;
  scenario.faults.runwarden_crashes_per_hour = 6;
  scenario.faults.faults_until = 25min;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    CHECK(run.report.violations.empty());
    CHECK(run.report.jobs_killed.empty());
    CHECK(run.report.drains_by_trigger.at("retirement") >= 3);
    CHECK(run.report.api_calls.at("TerminateInstanceInAutoScalingGroup") >= 3);
  }
}

TEST_CASE(
    "a runner that keeps crashing spends its budget, and the instance is marked Unhealthy "
    "and the group replaces it",
    "[sim][one_job]") {
  fleet_scenario scenario;
  scenario.duration = 30min;
  scenario.min_size = 1;
  scenario.max_size = 4;
  scenario.desired = 2;
  scenario.heartbeat_timeout = 120s;
  scenario.on_give_up = give_up_choice::unhealthy;
  scenario.jobs_per_minute = 0;
  scenario.faults.runner_crashes_per_hour = 600;
  scenario.faults.faults_until = 20min;
  const auto run = run_fleet(scenario, {.seed = 1});
  CHECK(run.report.violations.empty());
  CHECK(run.report.drains_by_trigger.at("replacement (marked unhealthy)") >= 2);
  CHECK(run.report.api_calls.at("SetInstanceHealth") >= 2);
  CHECK_FALSE(run.report.api_calls.contains("TerminateInstanceInAutoScalingGroup"));
  CHECK(run.report.instances_launched > 2);  // the replacements
}
